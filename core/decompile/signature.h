// A def's or lambda's parameter list from its code object and the values
// MAKE_FUNCTION attached (defaults, keyword-only defaults, annotations).
#pragma once

#include "ast/expr.h"
#include "lift/stack.h"

namespace unveil::decompile {

ast::Arguments signature(const lift::FunctionValue& f);
// The `-> T` annotation, or nullptr.
ast::ExprPtr return_annotation(const lift::FunctionValue& f);

}  // namespace unveil::decompile

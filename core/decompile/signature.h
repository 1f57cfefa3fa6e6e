// A def's or lambda's parameter list from its code object and the values
// MAKE_FUNCTION attached (defaults, keyword-only defaults, annotations).
#pragma once

#include "ast/expr.h"
#include "lift/stack.h"

namespace unveil::decompile {

ast::Boxed<ast::Arguments> signature(const lift::FunctionValue& f);
// Under `from __future__ import annotations` (code flags) the compiler
// stores each annotation as the text of its source: that text, to be
// written as it is. Any other annotation is returned unchanged.
ast::ExprPtr annotation_as_written(ast::ExprPtr annotation, std::uint32_t flags);
// The `-> T` annotation, or nullptr.
ast::ExprPtr return_annotation(const lift::FunctionValue& f);

}  // namespace unveil::decompile

// Private names back to their source spelling: inside class C the compiler
// stores `__x` as `_C__x` (in the class body and in every function nested in
// it), so the source must say `__x` again to compile to the same names.
#pragma once

#include <string>
#include <string_view>

#include "ast/stmt.h"

namespace unveil::decompile {

// "_C" for class `C` (leading underscores stripped); empty when the name is
// all underscores, which turns mangling off.
std::string private_prefix(std::string_view class_name);
// `name` as stored under `prefix` (mangled when it is private).
std::string mangled(std::string_view name, std::string_view prefix);
// Every name of `body` stored as `prefix__x` spelled `__x` (names, attributes,
// def/class names, global/nonlocal, except-as and import-as names).
ast::StmtList unmangle_private_names(const ast::StmtList& body, std::string_view prefix);

}  // namespace unveil::decompile

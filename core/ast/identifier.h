// What counts as a Python identifier, and how to turn any string into one.
//
// Names in code objects are not always valid source: compilers and Dynamo
// produce "<lambda>", "<genexpr>", ".0" or dotted names. The unparser's default
// name mapping uses these helpers.
#pragma once

#include <string>
#include <string_view>

namespace unveil::ast {

// A hard keyword (`class`, `None`, `await`, ...). Soft keywords (`match`,
// `case`, `type`, `_`) are ordinary identifiers and return false.
bool is_keyword(std::string_view name) noexcept;

// A non-keyword identifier. ASCII follows the grammar exactly; any non-ASCII
// byte is accepted as a letter, since the names come from compiled code and
// checking XID_Start/XID_Continue would need the Unicode database.
bool is_identifier(std::string_view name) noexcept;

// `a.b.c` where every part is an identifier.
bool is_dotted_name(std::string_view name) noexcept;

// An identifier made from `name`: every ASCII character that may not appear is
// replaced by `_`, a leading digit gets a `_` prefix, a keyword gets a `_`
// suffix, and "" becomes "_". "<lambda>" -> "_lambda_", ".0" -> "_0".
std::string sanitize_identifier(std::string_view name);

}  // namespace unveil::ast

// Python source for constant values: what repr() prints for the same value.
#pragma once

#include <string>

#include "read/code_object.h"
#include "read/object.h"

namespace unveil {

// repr() of a constant as the running Python would print it: floats in the
// shortest round-trip form ("1e+16", "0.1", "inf"), strings with Python's
// quote choice and escapes, bytes as b'...', containers recursively.
// Code objects print as "<code object NAME, file "FILE", line N>" without an
// address; placeholders print as their name.
std::string literal_repr(const Object& object);
std::string float_repr(double value);
std::string str_repr(std::string_view utf8);
// str_repr(utf8) appended to `out` (no string of its own).
void append_str_repr(std::string& out, std::string_view utf8);
// Whether str_repr(utf8) is utf8 itself between single quotes: printable
// ASCII with no backslash or quote, as most string constants are.
bool str_repr_is_quoted(std::string_view utf8);
// append_str_repr of text str_repr_is_quoted refused, without asking again
// (any text gives the same result; quoted text only takes longer).
void append_escaped_str_repr(std::string& out, std::string_view utf8);
std::string bytes_repr(std::string_view bytes);
// The name source uses for a code object that is a plain value (not turned into
// a function), e.g. Dynamo passing code to `_create_nested_fn`:
// `__unveil_code_<name>_<firstlineno>`, non-identifier characters as `_`.
// Callers bind it to the code object when they compile the source
// (`unveil._live.code_constant_name` computes the same name).
std::string code_constant_name(const CodeObject& code);

}  // namespace unveil

// Writing a name over a recycled code object's name (see code_object.h).
//
// The bindings reuse code objects from call to call, and Dynamo's code objects
// share most of their locals, slot by slot, with the one read before them: a
// compare is cheaper than a copy, so a name that is already there is left.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace unveil::detail {

// a[0, n) == b[0, n), inline: names are short, and a call to memcmp costs
// more than comparing them a word at a time. Most names compared are equal
// (see above), so the words' differences are gathered, not tested one by one.
inline bool same_bytes(const char* a, const char* b, std::size_t n) {
  auto differ = [&](std::size_t at, auto word) {
    decltype(word) x, y;
    std::memcpy(&x, a + at, sizeof x);
    std::memcpy(&y, b + at, sizeof y);
    return x ^ y;
  };
  if (n >= 8) {
    // The first and last words (overlapping when n is not a multiple of 8):
    // all of a name up to 16 bytes; two more take it to 32, and a loop the rest.
    const std::uint64_t w = 0;
    std::uint64_t diff = differ(0, w) | differ(n - 8, w);
    if (n > 16) {
      diff |= differ(8, w) | differ(n - 16, w);
      for (std::size_t i = 16; i + 16 < n; i += 8) diff |= differ(i, w);
    }
    return diff == 0;
  }
  if (n >= 4) return (differ(0, std::uint32_t{}) | differ(n - 4, std::uint32_t{})) == 0;
  // 0 to 3 bytes: the first, middle and last cover them all.
  return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

// Whether `out` already holds `text`.
inline bool holds(const std::string& out, std::string_view text) {
  return out.size() == text.size() && same_bytes(out.data(), text.data(), text.size());
}

// `out` = `text`, keeping `out`'s buffer. assign() takes the general replace
// path (aliasing checks: some 70 instructions for a short name); emptying and
// appending costs a fraction of that.
inline void overwrite(std::string& out, std::string_view text) {
  out.clear();
  out.append(text.data(), text.size());
}

// The same, leaving `out` alone when it already holds `text`.
inline void write_name(std::string& out, std::string_view text) {
  if (!holds(out, text)) overwrite(out, text);
}

// The same from a string: its copy assignment is the cheaper copy then.
inline void write_name(std::string& out, const std::string& text) {
  if (!holds(out, text)) out = text;
}

}  // namespace unveil::detail

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
// more than comparing them word by word.
inline bool same_bytes(const char* a, const char* b, std::size_t n) {
  auto load = [](const char* p, auto word) {
    std::memcpy(&word, p, sizeof word);
    return word;
  };
  // First and last words (overlapping when n is not a multiple of the size).
  auto ends_equal = [&](auto word) {
    constexpr std::size_t w = sizeof word;
    return load(a, word) == load(b, word) && load(a + n - w, word) == load(b + n - w, word);
  };
  if (n < 4) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  if (n < 8) return ends_equal(std::uint32_t{});
  if (!ends_equal(std::uint64_t{})) return false;  // (names that differ mostly differ at an end)
  for (std::size_t i = 8; i + 8 < n; i += 8)
    if (load(a + i, std::uint64_t{}) != load(b + i, std::uint64_t{})) return false;
  return true;
}

// Whether `out` already holds `text`.
inline bool holds(const std::string& out, std::string_view text) {
  return out.size() == text.size() && same_bytes(out.data(), text.data(), text.size());
}

// `out` = `text`, keeping `out`'s buffer. assign() takes the general replace
// path (aliasing checks); emptying and appending costs a fraction of that.
inline void write_name(std::string& out, std::string_view text) {
  if (holds(out, text)) return;
  out.clear();
  out.append(text.data(), text.size());
}

// The same from a string: its copy assignment is the cheaper copy then.
inline void write_name(std::string& out, const std::string& text) {
  if (!holds(out, text)) out = text;
}

}  // namespace unveil::detail

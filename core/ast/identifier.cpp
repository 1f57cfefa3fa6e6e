#include "ast/identifier.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace unveil::ast {

namespace {

// Python 3.8–3.14 hard keywords (Lib/keyword.py kwlist).
constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",
};

constexpr bool is_start(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
constexpr bool is_continue(unsigned char c) noexcept { return is_start(c) || (c >= '0' && c <= '9'); }
// Every printed name is checked: one lookup per byte.
constexpr auto kContinues = [] {
  std::array<bool, 256> table{};
  for (unsigned c = 0; c < 256; ++c) table[c] = is_continue(static_cast<unsigned char>(c));
  return table;
}();

// Every name the unparser prints is checked: a name is compared only with the
// keywords of its length whose first letter matches it in its low five bits
// (a set of indices into kKeywords; most names have none).
constexpr std::size_t kShortestKeyword = 2, kLongestKeyword = 8;
static_assert(kKeywords.size() <= 64, "the candidate sets are 64-bit masks");
constexpr auto kCandidates = [] {
  std::array<std::array<std::uint64_t, 32>, kLongestKeyword + 1> by{};
  for (std::size_t i = 0; i < kKeywords.size(); ++i)
    by[kKeywords[i].size()][static_cast<unsigned char>(kKeywords[i][0]) & 31] |= std::uint64_t{1} << i;
  return by;
}();
constexpr bool keyword_lengths_hold() {
  for (std::string_view k : kKeywords)
    if (k.size() < kShortestKeyword || k.size() > kLongestKeyword) return false;
  return true;
}
static_assert(keyword_lengths_hold(), "a keyword outside the lengths is_keyword screens by");

}  // namespace

bool is_keyword(std::string_view name) noexcept {
  if (name.size() < kShortestKeyword || name.size() > kLongestKeyword) return false;
  for (std::uint64_t m = kCandidates[name.size()][static_cast<unsigned char>(name[0]) & 31]; m; m &= m - 1)
    if (kKeywords[std::size_t(std::countr_zero(m))] == name) return true;
  return false;
}

bool is_identifier(std::string_view name) noexcept {
  if (name.empty() || !is_start(static_cast<unsigned char>(name[0]))) return false;
  unsigned char seen = 0;  // the bytes or'ed: ASCII, the common case, has no surrogate to look for
  for (unsigned char c : name) {
    if (!kContinues[c]) return false;
    seen |= c;
  }
  // A lone surrogate (U+D800..U+DFFF, ED A0..BF xx as marshal writes it) is no letter.
  if (seen & 0x80)
    for (std::size_t k = 0; k + 1 < name.size(); ++k)
      if (static_cast<unsigned char>(name[k]) == 0xed && static_cast<unsigned char>(name[k + 1]) >= 0xa0) return false;
  return !is_keyword(name);
}

bool is_dotted_name(std::string_view name) noexcept {
  while (true) {
    auto dot = name.find('.');
    if (!is_identifier(name.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    name.remove_prefix(dot + 1);
  }
}

std::string sanitize_identifier(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 2);
  for (unsigned char c : name) out.push_back(is_continue(c) ? char(c) : '_');
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), '_');
  if (is_keyword(out)) out.push_back('_');
  return out;
}

}  // namespace unveil::ast

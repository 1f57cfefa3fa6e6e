#include "ast/identifier.h"

#include <algorithm>
#include <array>

namespace unveil::ast {

namespace {

// Python 3.8–3.14 hard keywords (Lib/keyword.py kwlist); sorted for binary search.
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

// Every name the unparser prints is checked: most are not keywords and are
// told apart by length or first letter before any comparison.
constexpr std::size_t kShortestKeyword = 2, kLongestKeyword = 8;
constexpr auto kKeywordStarts = [] {
  std::array<bool, 256> starts{};
  for (std::string_view k : kKeywords) starts[static_cast<unsigned char>(k[0])] = true;
  return starts;
}();
constexpr bool keyword_lengths_hold() {
  for (std::string_view k : kKeywords)
    if (k.size() < kShortestKeyword || k.size() > kLongestKeyword) return false;
  return true;
}
static_assert(keyword_lengths_hold(), "a keyword outside the lengths is_keyword screens by");

}  // namespace

// The keywords of each length, so that a name is compared with a handful
// of same-length words (a first letter each) instead of binary-searched.
constexpr auto kKeywordsByLength = [] {
  std::array<std::array<std::string_view, kKeywords.size()>, kLongestKeyword + 1> by{};
  std::array<std::size_t, kLongestKeyword + 1> n{};
  for (std::string_view k : kKeywords) by[k.size()][n[k.size()]++] = k;
  return by;
}();

bool is_keyword(std::string_view name) noexcept {
  if (name.size() < kShortestKeyword || name.size() > kLongestKeyword ||
      !kKeywordStarts[static_cast<unsigned char>(name[0])])
    return false;
  for (std::string_view k : kKeywordsByLength[name.size()]) {
    if (k.empty()) break;
    if (k[0] == name[0] && k == name) return true;
  }
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

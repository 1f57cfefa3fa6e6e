#include "ast/identifier.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "support/simd.h"

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

namespace {

// The keywords `name` may be, as a set of indices into kKeywords (mostly none).
std::uint64_t keyword_candidates(std::string_view name) noexcept {
  if (name.size() < kShortestKeyword || name.size() > kLongestKeyword) return 0;
  return kCandidates[name.size()][static_cast<unsigned char>(name[0]) & 31];
}

bool is_candidate_keyword(std::string_view name, std::uint64_t candidates) noexcept {
  for (std::uint64_t m = candidates; m; m &= m - 1)
    if (kKeywords[std::size_t(std::countr_zero(m))] == name) return true;
  return false;
}

}  // namespace

bool is_keyword(std::string_view name) noexcept {
  return is_candidate_keyword(name, keyword_candidates(name));
}

namespace {

// A lone surrogate (U+D800..U+DFFF, ED A0..BF xx as marshal writes it) is no letter.
bool has_surrogate(std::string_view name) noexcept {
  for (std::size_t k = 0; k + 1 < name.size(); ++k)
    if (static_cast<unsigned char>(name[k]) == 0xed &&
        static_cast<unsigned char>(name[k + 1]) >= 0xa0)
      return true;
  return false;
}

// What a name's bytes are, past the first: one that may not continue an
// identifier, or all may, and all are ASCII or some not.
enum class Bytes { Invalid, Ascii, NonAscii };

// A byte at a time: the fallback, and the quickest way for the shortest names.
Bytes scan_bytes(std::string_view name) noexcept {
  unsigned char seen = 0;  // the bytes or'ed: ASCII, the common case, has no surrogate to look for
  for (unsigned char c : name) {
    if (!kContinues[c]) return Bytes::Invalid;
    seen |= c;
  }
  return seen & 0x80 ? Bytes::NonAscii : Bytes::Ascii;
}

#if UNVEIL_SSE2
// Sixteen bytes that together are every byte of a name of 3 to 15 bytes (some
// repeated, which changes no "all bytes are ..." answer).
__m128i short_name_bytes(const char* p, std::size_t n) noexcept {
  if (n >= 8) {
    std::uint64_t a, b;
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n - 8, 8);
    return _mm_set_epi64x(static_cast<long long>(a), static_cast<long long>(b));
  }
  std::uint32_t a, b;
  if (n >= 4) {
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
  } else {
    std::uint16_t first;
    std::memcpy(&first, p, 2);
    a = first | std::uint32_t(static_cast<unsigned char>(p[2])) << 16 |
        std::uint32_t(first & 0xff) << 24;
    b = a;
  }
  return _mm_set_epi32(int(a), int(b), int(a), int(b));
}

// Lane bits of the bytes that are ASCII letters, digits or '_'.
// A range check lo <= c <= hi is one add and one signed compare: c - lo + 0x80
// is below hi - lo + 1 - 0x80, signed, exactly when c - lo (mod 256) <= hi - lo.
unsigned ascii_word_bytes(__m128i c) noexcept {
  const __m128i letter = _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>('z' - 'a' + 1 - 0x80)),
                                        _mm_add_epi8(_mm_or_si128(c, _mm_set1_epi8(0x20)),
                                                     _mm_set1_epi8(static_cast<char>(0x80 - 'a'))));
  const __m128i digit =
      _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>('9' - '0' + 1 - 0x80)),
                     _mm_add_epi8(c, _mm_set1_epi8(static_cast<char>(0x80 - '0'))));
  const __m128i underscore = _mm_cmpeq_epi8(c, _mm_set1_epi8('_'));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), underscore)));
}

// As scan_bytes, sixteen bytes a step: Dynamo's names run to 40 bytes and more.
Bytes scan(std::string_view name) noexcept {
  const char* p = name.data();
  const std::size_t n = name.size();
  if (n <= 2) return scan_bytes(name);
  unsigned word = 0xffff, high = 0;  // lane bits: all lanes a word byte; any lane non-ASCII
  if (n < 16) {
    const __m128i c = short_name_bytes(p, n);
    high = static_cast<unsigned>(_mm_movemask_epi8(c));
    word = ascii_word_bytes(c) | high;
  } else {
    for (std::size_t i = 0;; i += 16) {
      // The last block ends at the end, overlapping the one before.
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + std::min(i, n - 16)));
      const unsigned h = static_cast<unsigned>(_mm_movemask_epi8(c));
      word &= ascii_word_bytes(c) | h;
      high |= h;
      if (i + 16 >= n) break;
    }
  }
  if (word != 0xffff) return Bytes::Invalid;
  return high ? Bytes::NonAscii : Bytes::Ascii;
}
#else
Bytes scan(std::string_view name) noexcept { return scan_bytes(name); }
#endif

}  // namespace

bool is_identifier(std::string_view name) noexcept {
  if (name.empty() || !is_start(static_cast<unsigned char>(name[0]))) return false;
  switch (scan(name)) {
    case Bytes::Invalid:
      return false;
    case Bytes::NonAscii:
      if (has_surrogate(name)) return false;
      break;
    case Bytes::Ascii:
      break;
  }
  // (Screened here: most names have no keyword of their length and first letter.)
  const std::uint64_t candidates = keyword_candidates(name);
  return candidates == 0 || !is_candidate_keyword(name, candidates);
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

// repr() of constants, following CPython's formatting code:
// Python/pystrtod.c (float and complex), Objects/unicodeobject.c (str),
// Objects/bytesobject.c (bytes) and the container reprs.
#include "emit/literal.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>

#include "read/code_object.h"

#include "emit/printable16.h"

namespace unveil {
namespace {

// ------------------------------------------------------------------ floats

struct FloatFormat {
  bool add_dot_0 = false;   // "1.0" rather than "1" (float repr; not complex parts)
  bool always_sign = false; // "+1" (the imaginary part of a complex)
};

// The shortest digits that round-trip, and the decimal point position:
// value = 0.DIGITS * 10**decpt.
struct ShortestDigits {
  std::string digits;
  int decpt = 0;
};

ShortestDigits shortest_digits(double magnitude) {
  std::array<char, 64> buf{};
  // Shortest round-trip form, as David Gay's mode 0 in CPython's dtoa.c.
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), magnitude,
                                 std::chars_format::scientific);
  const std::string_view text(buf.data(), ec == std::errc() ? end - buf.data() : 0);
  ShortestDigits out;
  const auto e = text.find('e');
  for (char c : text.substr(0, e))
    if (c != '.') out.digits.push_back(c);
  int exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view exp_text = text.substr(e + 1);
    if (!exp_text.empty() && exp_text.front() == '+') exp_text.remove_prefix(1);
    std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  }
  if (out.digits.empty()) out.digits = "0";
  out.decpt = exponent + 1;
  return out;
}

// PyOS_double_to_string(value, 'r', 0, flags): repr switches to exponent form
// when the decimal exponent is < -4 or >= 16.
std::string format_double(double value, FloatFormat format) {
  std::string out;
  if (std::isnan(value)) {  // the sign of a NaN is never shown
    if (format.always_sign) out += '+';
    return out + "nan";
  }
  if (std::signbit(value))
    out += '-';
  else if (format.always_sign)
    out += '+';
  if (std::isinf(value)) return out + "inf";

  const ShortestDigits sd = shortest_digits(std::fabs(value));
  const std::string& d = sd.digits;
  const int n = static_cast<int>(d.size());
  const int decpt = sd.decpt;
  if (decpt <= -4 || decpt > 16) {
    const int exponent = decpt - 1;
    out += d[0];
    if (n > 1) out += "." + d.substr(1);
    out += exponent < 0 ? "e-" : "e+";
    const std::string exp_digits = std::to_string(exponent < 0 ? -exponent : exponent);
    if (exp_digits.size() < 2) out += '0';
    return out + exp_digits;
  }
  if (decpt <= 0) return out + "0." + std::string(-decpt, '0') + d;
  if (decpt < n) return out + d.substr(0, decpt) + "." + d.substr(decpt);
  out += d + std::string(decpt - n, '0');
  if (format.add_dot_0) out += ".0";
  return out;
}

std::string complex_repr(double real, double imag) {
  // A +0 real part is left out, and so are the parentheses.
  if (real == 0.0 && !std::signbit(real)) return format_double(imag, {}) + "j";
  // (Appended, not "(" + ...: GCC 12 warns about that form, wrongly, -Wrestrict.)
  std::string out = "(";
  out += format_double(real, {});
  out += format_double(imag, {.always_sign = true});
  out += "j)";
  return out;
}

// ------------------------------------------------------------------ text

constexpr char32_t kMaxCodePoint = 0x10ffff;

// Decodes UTF-8 as marshal's "surrogatepass" wrote it: 3-byte encodings of
// lone surrogates are accepted. A byte that starts no valid sequence becomes
// U+DC80..U+DCFF (as Python's "surrogateescape"), so nothing is lost or
// misread and the result prints as an escape.
std::u32string decode_utf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<std::uint8_t>(s[i]);
    int len = 0;
    char32_t cp = 0;
    char32_t min = 0;
    if (b0 < 0x80) {
      len = 1, cp = b0;
    } else if ((b0 & 0xe0) == 0xc0) {
      len = 2, cp = b0 & 0x1f, min = 0x80;
    } else if ((b0 & 0xf0) == 0xe0) {
      len = 3, cp = b0 & 0x0f, min = 0x800;
    } else if ((b0 & 0xf8) == 0xf0) {
      len = 4, cp = b0 & 0x07, min = 0x10000;
    }
    bool ok = len > 0 && i + len <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      const auto b = static_cast<std::uint8_t>(s[i + k]);
      ok = (b & 0xc0) == 0x80;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (ok && len > 1) ok = cp >= min && cp <= kMaxCodePoint;
    if (!ok) {
      out.push_back(0xdc00 + b0);
      ++i;
      continue;
    }
    out.push_back(cp);
    i += len;
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// Code points that str.isprintable() rejects, other than ASCII controls.
// Exact for categories Cc, Cf, Cs, Co, Zs (but U+0020), Zl and Zp as of
// Unicode 15.1 (CPython 3.13). Unassigned code points (Cn) are covered only
// in the large unassigned areas and as noncharacters (see is_printable); the
// small gaps between assigned blocks differ between Unicode versions anyway.
struct CodeRange {
  char32_t first, last;
};
constexpr CodeRange kNonPrintable[] = {
    {0x0000, 0x001f},   {0x007f, 0x00a0},   {0x00ad, 0x00ad},   {0x0600, 0x0605},
    {0x061c, 0x061c},   {0x06dd, 0x06dd},   {0x070f, 0x070f},   {0x0890, 0x0891},
    {0x08e2, 0x08e2},   {0x1680, 0x1680},   {0x180e, 0x180e},   {0x2000, 0x200f},
    {0x2028, 0x202f},   {0x205f, 0x2064},   {0x2066, 0x206f},   {0x3000, 0x3000},
    {0xd800, 0xf8ff},   {0xfdd0, 0xfdef},   {0xfeff, 0xfeff},   {0xfff9, 0xfffb},
    {0x110bd, 0x110bd}, {0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3},
    {0x1d173, 0x1d17a}, {0x2fa1e, 0x2ffff}, {0x323b0, 0xe00ff}, {0xe01f0, 0x10ffff},
};

bool is_printable(char32_t cp) {
  if (cp == ' ') return true;
  if ((cp & 0xfffe) == 0xfffe) return false;  // U+xFFFE, U+xFFFF: noncharacters
  for (const auto& r : kNonPrintable) {
    if (cp < r.first) return true;  // the table is sorted
    if (cp <= r.last) return false;
  }
  return true;
}

void append_hex(std::string& out, char32_t value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kHex[(value >> shift) & 15];
}

// Python's quote choice: single quotes, unless the text has a single quote
// and no double quote.
template <class Units>
char choose_quote(const Units& units) {
  bool single = false, dbl = false;
  for (auto c : units) {
    single |= c == '\'';
    dbl |= c == '"';
  }
  return single && !dbl ? '"' : '\'';
}

// Escapes shared by str and bytes for code points below 0x80.
bool append_ascii_escape(std::string& out, char32_t c, char quote) {
  switch (c) {
    case '\t': out += "\\t"; return true;
    case '\n': out += "\\n"; return true;
    case '\r': out += "\\r"; return true;
    case '\\': out += "\\\\"; return true;
    default: break;
  }
  if (c == static_cast<char32_t>(quote)) {
    out += '\\';
    out += quote;
    return true;
  }
  if (c < ' ' || c == 0x7f) {
    out += "\\x";
    append_hex(out, c, 2);
    return true;
  }
  return false;
}

// ------------------------------------------------------------------ objects

std::string repr(const Object& object);

template <class Items>
std::string join(const Items& items, const char* open, const char* close) {
  std::string out = open;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    out += item ? repr(*item) : "NULL";
  }
  return out + close;
}

std::string repr_of(const ObjectRef& ref) { return ref ? repr(*ref) : "NULL"; }

struct Repr {
  std::string operator()(const NoneValue&) const { return "None"; }
  std::string operator()(const EllipsisValue&) const { return "Ellipsis"; }
  std::string operator()(const StopIterationValue&) const { return "StopIteration"; }
  std::string operator()(const NullValue&) const { return "NULL"; }
  std::string operator()(const BoolValue& v) const { return v.value ? "True" : "False"; }
  std::string operator()(const IntValue& v) const { return v.to_decimal(); }
  std::string operator()(const FloatValue& v) const { return float_repr(v.value); }
  std::string operator()(const ComplexValue& v) const { return complex_repr(v.real, v.imag); }
  std::string operator()(const BytesValue& v) const { return bytes_repr(v.data); }
  std::string operator()(const StrValue& v) const { return str_repr(v.utf8); }
  std::string operator()(const TupleValue& v) const {
    if (v.items.size() == 1) {
      std::string out = "(";  // (see complex_repr)
      out += repr_of(v.items[0]);
      out += ",)";
      return out;
    }
    return join(v.items, "(", ")");
  }
  std::string operator()(const ListValue& v) const { return join(v.items, "[", "]"); }
  std::string operator()(const SetValue& v) const {
    return v.items.empty() ? "set()" : join(v.items, "{", "}");
  }
  std::string operator()(const FrozenSetValue& v) const {
    return v.items.empty() ? "frozenset()" : join(v.items, "frozenset({", "})");
  }
  std::string operator()(const DictValue& v) const {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : v.items) {
      if (!first) out += ", ";
      first = false;
      out += repr_of(key) + ": " + repr_of(value);
    }
    return out + "}";
  }
  std::string operator()(const SliceValue& v) const {
    return "slice(" + repr_of(v.start) + ", " + repr_of(v.stop) + ", " + repr_of(v.step) + ")";
  }
  std::string operator()(const PlaceholderValue& v) const { return v.name; }
  std::string operator()(const CodeValue& v) const {
    if (!v.code) return "<code object>";
    // CPython adds " at 0x...", an address that means nothing here.
    return "<code object " + v.code->name + ", file \"" + v.code->filename + "\", line " +
           std::to_string(v.code->firstlineno) + ">";
  }
};

std::string repr(const Object& object) { return std::visit(Repr{}, object.value); }

}  // namespace

std::string literal_repr(const Object& object) { return repr(object); }

std::string float_repr(double value) { return format_double(value, {.add_dot_0 = true}); }

namespace {
// Printable ASCII other than a backslash and either quote: text that repr()
// writes as it is between single quotes, as most string constants are.
bool plain_ascii_byte(unsigned char c) {
  return c >= ' ' && c < 0x7f && c != '\\' && c != '\'' && c != '"';
}

#if UNVEIL_SSE2
// Lane bits of the bytes of c that plain_ascii_byte rejects.
unsigned not_plain_ascii16(__m128i c) {
  const __m128i unprintable = not_printable_ascii16(c);
  const __m128i quotes =
      _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('\'')), _mm_cmpeq_epi8(c, _mm_set1_epi8('"')));
  const __m128i backslash = _mm_cmpeq_epi8(c, _mm_set1_epi8('\\'));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(unprintable, quotes), backslash)));
}

// One pass where the general path took three (ASCII? which quote? what to escape?).
bool plain_ascii(std::string_view text) {
  const char* p = text.data();
  const std::size_t n = text.size();
  if (n < 8)
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return plain_ascii_byte(static_cast<unsigned char>(c)); });
  if (n < 16) {
    // Two overlapping 8-byte loads hold every byte.
    std::uint64_t a, b;
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n - 8, 8);
    return not_plain_ascii16(
               _mm_set_epi64x(static_cast<long long>(a), static_cast<long long>(b))) == 0;
  }
  unsigned bad = 0;
  for (std::size_t i = 0;; i += 16) {
    // The last block ends at the end, overlapping the one before.
    bad |= not_plain_ascii16(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + std::min(i, n - 16))));
    if (i + 16 >= n) break;
  }
  return bad == 0;
}
#else
bool plain_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return plain_ascii_byte(static_cast<unsigned char>(c)); });
}
#endif

// str_repr of ASCII text, whose bytes are its code points: no decoding into
// a u32string, and runs that need no escape appended whole.
void append_ascii_str_repr(std::string& out, std::string_view text) {
  const char quote = choose_quote(text);
  out += quote;
  auto as_is = [quote](char c) { return c >= ' ' && c < 0x7f && c != '\\' && c != quote; };
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    while (j < text.size() && as_is(text[j])) ++j;
    out.append(text.substr(i, j - i));
    if (j == text.size()) break;
    append_ascii_escape(out, static_cast<unsigned char>(text[j]), quote);
    i = j + 1;
  }
  out += quote;
}
}  // namespace

bool str_repr_is_quoted(std::string_view utf8) { return plain_ascii(utf8); }

void append_str_repr(std::string& out, std::string_view utf8) {
  if (plain_ascii(utf8)) {
    out += '\'';
    out += utf8;
    out += '\'';
    return;
  }
  append_escaped_str_repr(out, utf8);
}

void append_escaped_str_repr(std::string& out, std::string_view utf8) {
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return append_ascii_str_repr(out, utf8);
  const std::u32string text = decode_utf8(utf8);
  const char quote = choose_quote(text);
  out += quote;
  for (char32_t c : text) {
    if (c < 0x80) {
      if (!append_ascii_escape(out, c, quote)) out += static_cast<char>(c);
    } else if (is_printable(c)) {
      append_utf8(out, c);
    } else if (c <= 0xff) {
      out += "\\x";
      append_hex(out, c, 2);
    } else if (c <= 0xffff) {
      out += "\\u";
      append_hex(out, c, 4);
    } else {
      out += "\\U";
      append_hex(out, c, 8);
    }
  }
  out += quote;
}

std::string str_repr(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size() + 2);
  append_str_repr(out, utf8);
  return out;
}

std::string bytes_repr(std::string_view bytes) {
  const char quote = choose_quote(bytes);
  std::string out = "b";
  out += quote;
  for (char ch : bytes) {
    const auto c = static_cast<std::uint8_t>(ch);
    if (c >= 0x80) {
      out += "\\x";
      append_hex(out, c, 2);
    } else if (!append_ascii_escape(out, c, quote)) {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

std::string code_constant_name(const CodeObject& code) {
  std::string out = "__unveil_code_";
  for (unsigned char c : code.name) out += (std::isalnum(c) || c == '_') ? char(c) : '_';
  return out + "_" + std::to_string(code.firstlineno);
}

}  // namespace unveil

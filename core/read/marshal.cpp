// Reader for CPython's marshal format, versions 4 and 5.
//
// Mirrors Python/marshal.c's r_object: the same type codes, the same
// reference-slot numbering (FLAG_REF objects get the next slot in pre-order;
// singletons never get one), the same checks on ints and references. Where
// CPython would build a self-referencing object (a tuple or list that refers
// to itself while it is being read) we report an error instead, since the
// object model is an immutable DAG.
#include "read/marshal.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdio>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include "read/code_layout.h"
#include "read/code_object.h"
#include "support/byte_reader.h"
#include "support/error.h"

namespace unveil {

namespace {

constexpr std::uint8_t kFlagRef = 0x80;

[[noreturn]] void fail_at(std::size_t offset, const std::string& message) {
  throw Error(ErrorKind::Marshal, message, offset);
}

std::string describe_code(std::uint8_t code) {
  char buf[32];
  if (code >= 0x20 && code < 0x7f)
    std::snprintf(buf, sizeof buf, "0x%02x ('%c')", code, code);
  else
    std::snprintf(buf, sizeof buf, "0x%02x", code);
  return buf;
}

// ---- text helpers ---------------------------------------------------------

// Length of the UTF-8 sequence at s[i], accepting encoded surrogates as
// CPython's "surrogatepass" does; 0 if the bytes there are not valid UTF-8.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  auto cont = [&](std::size_t k, std::uint8_t lo = 0x80, std::uint8_t hi = 0xbf) {
    return k < s.size() && byte(k) >= lo && byte(k) <= hi;
  };
  std::uint8_t b = byte(i);
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    bool second = b == 0xe0 ? cont(i + 1, 0xa0, 0xbf) : cont(i + 1);  // no overlongs
    return second && cont(i + 2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    bool second = b == 0xf0   ? cont(i + 1, 0x90, 0xbf)
                  : b == 0xf4 ? cont(i + 1, 0x80, 0x8f)  // nothing past U+10FFFF
                              : cont(i + 1);
    return second && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

// Position of the first byte that is not valid UTF-8, if any.
std::optional<std::size_t> find_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<std::uint8_t>(s[i]) < 0x80) {  // ASCII, the common case
      ++i;
      continue;
    }
    std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

// marshal's "ascii" strings are really Latin-1 (PyUnicode_1BYTE_KIND).
std::string latin1_to_utf8(std::span<const std::uint8_t> bytes) {
  // Nearly every such str (names, short constants) is plain ASCII: one copy.
  const auto first_high =
      std::find_if(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b >= 0x80; });
  if (first_high == bytes.end())
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    if (b < 0x80) {
      out += char(b);
    } else {
      out += char(0xc0 | (b >> 6));
      out += char(0x80 | (b & 0x3f));
    }
  }
  return out;
}

// A decimal literal whose magnitude from_chars cannot represent: decide
// between overflow (±inf) and underflow (±0), as strtod would.
double out_of_range_value(std::string_view s) {
  bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  std::int64_t magnitude = 0;  // rough decimal exponent of the leading digit
  bool seen_nonzero = false, after_point = false;
  std::size_t i = 0;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.') {
      after_point = true;
    } else if (s[i] != '0' || seen_nonzero) {
      seen_nonzero = true;
      if (!after_point) ++magnitude;
    } else if (after_point) {
      --magnitude;
    }
  }
  std::int64_t exponent = 0;
  if (i < s.size()) {
    std::string_view e = s.substr(i + 1);
    bool eneg = !e.empty() && e[0] == '-';
    if (!e.empty() && (e[0] == '-' || e[0] == '+')) e.remove_prefix(1);
    for (char c : e) exponent = std::min<std::int64_t>(exponent * 10 + (c - '0'), 1'000'000'000);
    if (eneg) exponent = -exponent;
  }
  double v = magnitude + exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return negative ? -v : v;
}

// Parses the text of a legacy 'f'/'x' float the way PyOS_string_to_double
// does: optional sign, decimal or inf/infinity/nan, nothing else around it.
// from_chars is locale-independent, unlike strtod.
std::optional<double> parse_float_text(std::string_view s) {
  std::string_view body = s;
  if (!body.empty() && body[0] == '+') {
    body.remove_prefix(1);
    if (!body.empty() && body[0] == '-') return std::nullopt;
  }
  if (body.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] =
      std::from_chars(body.data(), body.data() + body.size(), value, std::chars_format::general);
  if (end != body.data() + body.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) return out_of_range_value(body);
  if (ec != std::errc{}) return std::nullopt;
  return value;
}

// ---- the reader -----------------------------------------------------------

bool is_container(char type) {
  switch (type) {
    case '(': case ')': case '[': case '{': case '<': case '>': case 'c': case ':':
      return true;
    default:
      return false;
  }
}

class MarshalReader {
 public:
  MarshalReader(std::span<const std::uint8_t> data, const VersionTraits& version,
                const MarshalOptions& options, std::size_t base_offset)
      : in_(data, ErrorKind::Marshal, base_offset), version_(version), options_(options) {}

  ObjectRef read_root() { return read_object(); }

 private:
  // Leaves the nesting count as it found it, however the read ends.
  class DepthGuard {
   public:
    DepthGuard(int& depth, int max_depth, std::size_t offset) : depth_(depth) {
      if (depth_ >= max_depth)
        fail_at(offset, "objects nested deeper than the limit of " + std::to_string(max_depth));
      ++depth_;
    }
    ~DepthGuard() { --depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    int& depth_;
  };

  // Reads one object. Returns nullptr only for the NULL marker, and only when
  // `null_allowed` (dict keys and values, where it ends the dict).
  ObjectRef read_object(bool null_allowed = false) {
    const std::size_t start = in_.offset();
    const std::uint8_t code = in_.u8();
    const bool flag = code & kFlagRef;
    const char type = char(code & ~kFlagRef);

    // Singletons: CPython never gives them a reference slot, FLAG_REF or not.
    switch (type) {
      case '0':
        if (!null_allowed) fail_at(start, "NULL object outside a dict");
        return nullptr;
      case 'N': return none_object();
      case 'F': return bool_object(false);
      case 'T': return bool_object(true);
      case 'S': return stop_iteration_object();
      case '.': return ellipsis_object();
      case 'r': return read_reference();
      default: break;
    }

    std::optional<DepthGuard> guard;
    if (is_container(type)) guard.emplace(depth_, options_.max_depth, start);

    // The slot is taken before any child is read, so children's slots follow
    // their parent's (pre-order), and a child referring to its parent is caught.
    std::optional<std::size_t> slot;
    if (flag) {
      slot = refs_.size();
      refs_.push_back(nullptr);
    }
    ObjectRef obj = read_body(type, code, start);
    if (slot) refs_[*slot] = obj;
    return obj;
  }

  ObjectRef read_reference() {
    const std::size_t at = in_.offset();
    const std::int32_t index = in_.i32();
    if (index < 0 || std::size_t(index) >= refs_.size())
      fail_at(at, "reference " + std::to_string(index) + " out of range (" +
                      std::to_string(refs_.size()) + " objects stored)");
    const ObjectRef& target = refs_[std::size_t(index)];
    if (!target)
      fail_at(at, "reference " + std::to_string(index) +
                      " to an object that is still being read (self-referencing objects are not "
                      "supported)");
    return target;
  }

  ObjectRef read_body(char type, std::uint8_t code, std::size_t start) {
    switch (type) {
      case 'i': return int_object(in_.i32());
      case 'I': return int_object(static_cast<std::int64_t>(in_.u64()));
      case 'l': return read_long();
      case 'g': return make_object(FloatValue{binary_float()});
      case 'y': {
        double real = binary_float();
        return make_object(ComplexValue{real, binary_float()});
      }
      case 'f': return make_object(FloatValue{text_float()});
      case 'x': {
        double real = text_float();
        return make_object(ComplexValue{real, text_float()});
      }
      case 's': return make_object(BytesValue{in_.string(read_size("bytes", 1), "bytes")});
      case 'u':
      case 't': return read_utf8(read_size("str", 1), start);
      case 'a':
      case 'A': return read_latin1(read_size("str", 1), start);
      case 'z':
      case 'Z': return read_latin1(in_.u8(), start);
      case '(': return make_object(TupleValue{read_items(read_size("tuple", 1))});
      case ')': return make_object(TupleValue{read_items(in_.u8())});
      case '[': return make_object(ListValue{read_items(read_size("list", 1))});
      case '<': return make_object(SetValue{read_items(read_size("set", 1))});
      case '>': return make_object(FrozenSetValue{read_items(read_size("frozenset", 1))});
      case '{': return read_dict();
      case 'c': return read_code(start);
      case ':':
        if (version_.marshal_version >= 5) return read_slice();
        fail_at(start, "slice (type code ':') needs marshal version 5 (Python 3.14), this is "
                       "version " + std::to_string(version_.marshal_version));
      default:
        fail_at(start, "unknown type code " + describe_code(code));
    }
  }

  // An i32 size or count, checked against what is left: each of the `n`
  // elements takes at least `min_bytes`, so no huge count allocates.
  std::size_t read_size(const char* what, std::size_t min_bytes) {
    const std::size_t at = in_.offset();
    const std::int32_t n = in_.i32();
    if (n < 0) fail_at(at, std::string("negative ") + what + " size " + std::to_string(n));
    if (std::size_t(n) > in_.remaining() / min_bytes)
      fail_at(at, std::string(what) + " size " + std::to_string(n) + " exceeds the " +
                      std::to_string(in_.remaining()) + " byte(s) left");
    return std::size_t(n);
  }

  double binary_float() { return std::bit_cast<double>(in_.u64()); }

  double text_float() {
    const std::size_t at = in_.offset();
    const std::string text = in_.string(in_.u8(), "float text");
    if (auto v = parse_float_text(text)) return *v;
    fail_at(at, "invalid float text '" + text + "'");
  }

  // TYPE_LONG: a signed count of base-2**15 digits, least significant first.
  ObjectRef read_long() {
    const std::size_t at = in_.offset();
    const std::int32_t n = in_.i32();
    if (n == 0) return make_object(IntValue{});
    if (n == std::numeric_limits<std::int32_t>::min())
      fail_at(at, "int digit count " + std::to_string(n) + " out of range");
    const bool negative = n < 0;
    const std::size_t count = std::size_t(negative ? -std::int64_t(n) : n);
    if (count > in_.remaining() / 2)
      fail_at(at, "int of " + std::to_string(count) + " digits exceeds the " +
                      std::to_string(in_.remaining()) + " byte(s) left");

    std::vector<std::uint16_t> digits(count);
    for (auto& d : digits) {
      const std::size_t digit_at = in_.offset();
      d = in_.u16();
      if (d >= 0x8000)
        fail_at(digit_at, "int digit " + std::to_string(d) + " out of range (must be < 2**15)");
    }
    if (digits.back() == 0)
      fail_at(in_.offset() - 2, "int has a zero most significant digit (unnormalized)");
    return make_object(to_int_value(std::move(digits), negative));
  }

  // `negative` mirrors the sign for small values too, so callers may test it alone.
  static IntValue small_int(std::int64_t v) { return IntValue{v, {}, v < 0}; }
  static ObjectRef int_object(std::int64_t v) {
    if (v >= kSmallIntMin && v <= kSmallIntMax) return small_int_object(v);
    return make_object(small_int(v));
  }

  static IntValue to_int_value(std::vector<std::uint16_t> digits, bool negative) {
    // Up to five digits whose top one is < 16 fit in 64 unsigned bits.
    if (digits.size() <= 5 && (digits.size() < 5 || digits.back() < 16)) {
      std::uint64_t magnitude = 0;
      for (std::size_t i = digits.size(); i-- > 0;) magnitude = (magnitude << 15) | digits[i];
      constexpr std::uint64_t kMax = std::uint64_t(std::numeric_limits<std::int64_t>::max());
      if (magnitude <= kMax) {
        auto v = std::int64_t(magnitude);
        return small_int(negative ? -v : v);
      }
      if (negative && magnitude == kMax + 1) return small_int(std::numeric_limits<std::int64_t>::min());
    }
    return IntValue{0, std::move(digits), negative};
  }

  ObjectRef read_utf8(std::size_t size, std::size_t start) {
    const std::size_t data_at = in_.offset();
    std::string text = in_.string(size, "str");
    if (auto bad = find_invalid_utf8(text))
      fail_at(data_at + *bad, "str is not valid UTF-8");
    return make_str(std::move(text), start);
  }

  ObjectRef read_latin1(std::size_t size, std::size_t start) {
    return make_str(latin1_to_utf8(in_.bytes(size, "str")), start);
  }

  // A str equal to placeholder_prefix + canonical decimal index stands for a
  // constant marshal could not hold.
  ObjectRef make_str(std::string text, std::size_t start) {
    const std::string& prefix = options_.placeholder_prefix;
    if (prefix.empty() || text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix))
      return make_object(StrValue{std::move(text)});
    std::string_view digits = std::string_view(text).substr(prefix.size());
    bool decimal = digits.find_first_not_of("0123456789") == std::string_view::npos &&
                   (digits.size() == 1 || digits[0] != '0');
    if (!decimal) return make_object(StrValue{std::move(text)});

    std::size_t index = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc{} || index >= options_.placeholder_names.size())
      fail_at(start, "placeholder index " + std::string(digits) + " out of range (" +
                         std::to_string(options_.placeholder_names.size()) + " placeholders)");
    return make_object(PlaceholderValue{options_.placeholder_names[index], index});
  }

  std::vector<ObjectRef> read_items(std::size_t count) {
    std::vector<ObjectRef> items;
    items.reserve(count);
    for (std::size_t i = 0; i < count; ++i) items.push_back(read_object());
    return items;
  }

  // Key/value pairs up to a NULL key.
  ObjectRef read_dict() {
    DictValue dict;
    for (;;) {
      ObjectRef key = read_object(/*null_allowed=*/true);
      if (!key) break;
      const std::size_t value_at = in_.offset();
      ObjectRef value = read_object(/*null_allowed=*/true);
      if (!value) fail_at(value_at, "NULL as a dict value");
      dict.items.emplace_back(std::move(key), std::move(value));
    }
    return make_object(std::move(dict));
  }

  ObjectRef read_slice() {
    ObjectRef start = read_object();
    ObjectRef stop = read_object();
    ObjectRef step = read_object();
    return make_object(SliceValue{std::move(start), std::move(stop), std::move(step)});
  }

  detail::RawIntField int_field() {
    detail::RawIntField f;
    f.offset = in_.offset();
    f.value = in_.i32();
    return f;
  }
  detail::RawObjectField object_field() {
    detail::RawObjectField f;
    f.offset = in_.offset();
    f.value = read_object();
    return f;
  }

  // Fields in the order of the version's layout (see bytecode.md §4).
  ObjectRef read_code(std::size_t start) {
    const bool split = version_.locals_layout == LocalsLayout::Split;
    detail::RawCode raw;
    raw.offset = start;
    raw.argcount = int_field();
    raw.posonlyargcount = int_field();
    raw.kwonlyargcount = int_field();
    if (split) raw.nlocals = int_field();
    raw.stacksize = int_field();
    raw.flags = int_field();
    raw.code = object_field();
    raw.consts = object_field();
    raw.names = object_field();
    if (split) {
      raw.varnames = object_field();
      raw.freevars = object_field();
      raw.cellvars = object_field();
    } else {
      raw.localsplusnames = object_field();
      raw.localspluskinds = object_field();
    }
    raw.filename = object_field();
    raw.name = object_field();
    if (!split) raw.qualname = object_field();
    raw.firstlineno = int_field();
    raw.linetable = object_field();
    if (!split) raw.exceptiontable = object_field();

    auto code = std::make_shared<const CodeObject>(
        detail::build_code_object(raw, version_, options_.placeholder_prefix));
    return make_object(CodeValue{std::move(code)});
  }

  ByteReader in_;
  const VersionTraits& version_;
  const MarshalOptions& options_;
  // Reference slots; nullptr while the object is still being read.
  std::vector<ObjectRef> refs_;
  int depth_ = 0;
};

}  // namespace

ObjectRef read_marshal(std::span<const std::uint8_t> data, const VersionTraits& version,
                       const MarshalOptions& options, std::size_t base_offset) {
  MarshalReader reader(data, version, options, base_offset);
  return reader.read_root();
}

}  // namespace unveil

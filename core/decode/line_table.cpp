// Line tables of 3.8–3.14, decoded the way CPython's own iterators read them
// (Objects/codeobject.c of each version; dis.findlinestarts for co_lnotab).
//
// Behaviour checked against the real interpreters:
//  * 3.10 and 3.11 co_lines() report one range per table entry (no merging)
//    and show any negative line as None.
//  * 3.12+ co_lines() merges consecutive entries with the same line and shows
//    only line -1 (CPython's "no line" value) as None.
//  * co_positions() shows -1 as None in each of its four fields.
// Malformed tables never throw: reading stops at the end of the table, ranges
// are clipped to co_code, and whatever the table leaves uncovered gets no line.
#include "decode/line_table.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

namespace unveil {
namespace {

constexpr int kNoLine = -1;  // CPython's ar_line for "no line"

// Wrapping int arithmetic, as CPython's `int` fields behave on real machines
// (and without C++ undefined behaviour on absurd tables).
int wrap_add(int a, int b) {
  return static_cast<int>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

enum class NoneRule {
  Never,         // ≤3.9: findlinestarts yields plain ints
  Negative,      // 3.10–3.11 co_lines: any line < 0 is None
  MinusOneOnly,  // 3.12+ co_lines: only -1 is None
};

// Collects co_lines()-style ranges, clipped to the code and gap-free.
class RangeSink {
 public:
  RangeSink(std::size_t code_size, bool merge, NoneRule rule)
      : code_size_(code_size), merge_(merge), rule_(rule) {}

  // False once the code is covered: the caller can stop reading.
  bool add(std::uint64_t start, std::uint64_t end, int raw_line) {
    if (start >= code_size_) return false;
    end = std::min<std::uint64_t>(end, code_size_);
    if (end <= start) return true;
    if (start > covered_) push(covered_, start, std::nullopt, kNoLine);  // a hole: no line
    push(start, end, convert(raw_line), raw_line);
    return end < code_size_;
  }

  std::vector<LineRange> finish() {
    if (covered_ < code_size_) push(covered_, code_size_, std::nullopt, kNoLine);
    return std::move(ranges_);
  }

 private:
  std::optional<int> convert(int raw) const {
    switch (rule_) {
      case NoneRule::Never: return raw;
      case NoneRule::Negative: return raw < 0 ? std::nullopt : std::optional<int>(raw);
      case NoneRule::MinusOneOnly: return raw == kNoLine ? std::nullopt : std::optional<int>(raw);
    }
    return raw;
  }

  void push(std::uint64_t start, std::uint64_t end, std::optional<int> line, int raw) {
    if (merge_ && !ranges_.empty() && ranges_.back().end == start && last_raw_ == raw) {
      ranges_.back().end = static_cast<std::uint32_t>(end);
    } else {
      ranges_.push_back(
          LineRange{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end), line});
    }
    last_raw_ = raw;
    covered_ = end;
  }

  std::size_t code_size_;
  bool merge_;
  NoneRule rule_;
  std::uint64_t covered_ = 0;
  int last_raw_ = kNoLine;
  std::vector<LineRange> ranges_;
};

std::uint8_t byte_at(std::string_view table, std::size_t i) {
  return static_cast<std::uint8_t>(table[i]);
}

// ---------------------------------------------------------------- 3.8–3.9

// Byte pairs (address increment, signed line increment). The line starts are
// exactly those of 3.8/3.9 dis.findlinestarts; each runs to the next start.
std::vector<LineRange> lines_from_lnotab(const CodeObject& code) {
  const std::string_view table = code.linetable;
  const std::size_t code_size = code.code.size();
  RangeSink sink(code_size, /*merge=*/false, NoneRule::Never);

  std::uint64_t addr = 0;
  std::int64_t line = code.firstlineno;
  std::optional<std::int64_t> last_line;
  std::optional<std::pair<std::uint64_t, std::int64_t>> open;  // the start awaiting its end

  auto start_line = [&](std::uint64_t at, std::int64_t lineno) {
    if (open) sink.add(open->first, at, static_cast<int>(open->second));
    open = {at, lineno};
    last_line = lineno;
  };

  for (std::size_t i = 0; i + 1 < table.size(); i += 2) {
    const std::uint8_t byte_incr = byte_at(table, i);
    const auto line_incr = static_cast<std::int8_t>(byte_at(table, i + 1));
    if (byte_incr) {
      if (line != last_line) start_line(addr, line);
      addr += byte_incr;
      // The rest of the table lies past the code (lines optimised away).
      if (addr >= code_size) {
        if (open) sink.add(open->first, code_size, static_cast<int>(open->second));
        return sink.finish();
      }
    }
    line += line_incr;
  }
  if (line != last_line) start_line(addr, line);
  if (open) sink.add(open->first, code_size, static_cast<int>(open->second));
  return sink.finish();
}

// ---------------------------------------------------------------- 3.10

// Byte pairs (range length in bytes, signed line delta; -128 = no line).
// Zero-length entries only move the line.
std::vector<LineRange> lines_from_linetable_310(const CodeObject& code) {
  const std::string_view table = code.linetable;
  RangeSink sink(code.code.size(), /*merge=*/false, NoneRule::Negative);
  std::uint64_t end = 0;
  int computed_line = code.firstlineno;
  for (std::size_t i = 0; i + 1 < table.size(); i += 2) {
    const std::uint64_t start = end;
    end += byte_at(table, i);
    const auto delta = static_cast<std::int8_t>(byte_at(table, i + 1));
    int line = kNoLine;
    if (delta != -128) {
      computed_line = wrap_add(computed_line, delta);
      line = computed_line;
    }
    if (start == end) continue;
    if (!sink.add(start, end, line)) break;
  }
  return sink.finish();
}

// ---------------------------------------------------------------- 3.11+

enum LocationCode : int {
  kOneLine0 = 10,
  kOneLine1 = 11,
  kOneLine2 = 12,
  kNoColumns = 13,
  kLong = 14,
  kNone = 15,
};

// Reads the location table's varints (6-bit groups, least significant first,
// 0x40 = more follows) without passing the end of the table.
class LocationReader {
 public:
  explicit LocationReader(std::string_view table) : table_(table) {}

  bool at_end() const { return pos_ >= table_.size(); }
  std::size_t position() const { return pos_; }
  void seek(std::size_t pos) { pos_ = pos; }

  std::optional<std::uint8_t> byte() {
    if (at_end()) return std::nullopt;
    return byte_at(table_, pos_++);
  }
  std::optional<unsigned> varint() {
    auto b = byte();
    if (!b) return std::nullopt;
    unsigned value = *b & 63;
    unsigned shift = 0;
    while (*b & 64) {
      b = byte();
      if (!b) return std::nullopt;
      shift += 6;
      if (shift < 32) value |= static_cast<unsigned>(*b & 63) << shift;
    }
    return value;
  }
  std::optional<int> signed_varint() {
    auto v = varint();
    if (!v) return std::nullopt;
    return (*v & 1) ? -static_cast<int>(*v >> 1) : static_cast<int>(*v >> 1);
  }
  // Skips to the next byte with bit 7 set: the next entry's header.
  void skip_to_next_entry() {
    while (pos_ < table_.size() && !(byte_at(table_, pos_) & 0x80)) ++pos_;
  }

 private:
  std::string_view table_;
  std::size_t pos_ = 0;
};

int location_code(std::uint8_t header) { return (header >> 3) & 15; }
std::uint64_t location_bytes(std::uint8_t header) { return ((header & 7) + 1) * 2u; }

// co_lines(): the line delta comes from the header (and, for the two forms
// that store it, the varint after it); the rest of the entry is skipped.
std::vector<LineRange> lines_from_locations(const CodeObject& code, int minor) {
  const bool merge = minor >= 12;
  RangeSink sink(code.code.size(), merge, merge ? NoneRule::MinusOneOnly : NoneRule::Negative);
  LocationReader reader(code.linetable);
  std::uint64_t end = 0;
  int computed_line = code.firstlineno;
  while (!reader.at_end()) {
    const std::size_t header_pos = reader.position();
    const std::uint8_t header = *reader.byte();
    int delta = 0;
    switch (location_code(header)) {
      case kOneLine1: delta = 1; break;
      case kOneLine2: delta = 2; break;
      case kNoColumns:
      case kLong: {
        auto d = reader.signed_varint();
        if (!d) return sink.finish();  // truncated entry
        delta = *d;
        break;
      }
      default: break;
    }
    computed_line = wrap_add(computed_line, delta);
    const int line = (header >> 3) == 0x1f ? kNoLine : computed_line;
    const std::uint64_t start = end;
    end += location_bytes(header);
    if (!sink.add(start, end, line)) break;
    reader.seek(header_pos + 1);  // CPython skips from just after the header
    reader.skip_to_next_entry();
  }
  return sink.finish();
}

struct Location {
  int line = kNoLine, end_line = kNoLine, column = kNoLine, end_column = kNoLine;
};

// One entry as co_positions() reads it; nullopt when the table ends inside it.
std::optional<Location> read_location(LocationReader& reader, std::uint8_t header,
                                      int& computed_line) {
  const int code = location_code(header);
  Location loc;
  switch (code) {
    case kNone:
      return loc;
    case kLong: {
      auto delta = reader.signed_varint();
      auto end_delta = reader.varint();
      auto column = reader.varint();
      auto end_column = reader.varint();
      if (!end_column) return std::nullopt;
      computed_line = wrap_add(computed_line, *delta);
      loc.line = computed_line;
      loc.end_line = wrap_add(computed_line, static_cast<int>(*end_delta));
      loc.column = wrap_add(static_cast<int>(*column), -1);
      loc.end_column = wrap_add(static_cast<int>(*end_column), -1);
      return loc;
    }
    case kNoColumns: {
      auto delta = reader.signed_varint();
      if (!delta) return std::nullopt;
      computed_line = wrap_add(computed_line, *delta);
      loc.line = loc.end_line = computed_line;
      return loc;
    }
    case kOneLine0:
    case kOneLine1:
    case kOneLine2: {
      auto column = reader.byte();
      auto end_column = reader.byte();
      if (!end_column) return std::nullopt;
      computed_line = wrap_add(computed_line, code - kOneLine0);
      loc.line = loc.end_line = computed_line;
      loc.column = *column;
      loc.end_column = *end_column;
      return loc;
    }
    default: {  // short forms 0–9: one byte of column data
      auto second = reader.byte();
      if (!second) return std::nullopt;
      loc.line = loc.end_line = computed_line;
      loc.column = (code << 3) | (*second >> 4);
      loc.end_column = loc.column + (*second & 15);
      return loc;
    }
  }
}

std::optional<int> position_field(int value) {
  return value == kNoLine ? std::nullopt : std::optional<int>(value);
}

std::vector<Position> positions_from_locations(const CodeObject& code) {
  const std::size_t units = code.code.size() / 2;
  std::vector<Position> out;
  out.reserve(units);
  LocationReader reader(code.linetable);
  int computed_line = code.firstlineno;
  while (out.size() < units && !reader.at_end()) {
    const std::uint8_t header = *reader.byte();
    auto loc = read_location(reader, header, computed_line);
    if (!loc) break;
    const Position pos{position_field(loc->line), position_field(loc->end_line),
                       position_field(loc->column), position_field(loc->end_column)};
    for (unsigned i = 0; i <= (header & 7u) && out.size() < units; ++i) out.push_back(pos);
  }
  out.resize(units);  // a short table leaves the rest without a location
  return out;
}

}  // namespace

std::vector<LineRange> decode_lines(const CodeObject& code, const VersionTraits& version) {
  switch (version.line_table) {
    case LineTableFormat::Lnotab: return lines_from_lnotab(code);
    case LineTableFormat::LineTable310: return lines_from_linetable_310(code);
    case LineTableFormat::Locations: return lines_from_locations(code, version.minor);
  }
  return {};
}

std::vector<Position> decode_positions(const CodeObject& code, const VersionTraits& version) {
  if (version.line_table != LineTableFormat::Locations) return {};
  return positions_from_locations(code);
}

}  // namespace unveil

// co_exceptiontable (3.11+), read as dis._parse_exception_table reads it.
//
// Each entry is four varints: start, length, target (in code units) and
// depth << 1 | lasti. A varint is 6-bit groups, most significant first, with
// 0x40 meaning "more follows"; the first byte of every entry also has 0x80
// set (CPython's assembler writes it so the table can be scanned). dis ignores
// that bit; we check it, since a missing or misplaced mark means the table is
// out of step and every later entry would be garbage.
#include "decode/exception_table.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "support/error.h"

namespace unveil {
namespace {

constexpr std::uint8_t kEntryStart = 0x80;
constexpr std::uint8_t kMore = 0x40;
constexpr std::uint8_t kValueBits = 0x3f;
// No code object has 2**32 code units; larger values are corruption.
constexpr std::uint64_t kMaxValue = 0xffffffffu;

class EntryReader {
 public:
  explicit EntryReader(std::string_view table) : table_(table) {}

  bool at_end() const { return pos_ >= table_.size(); }
  std::size_t position() const { return pos_; }

  // `entry_start`: this varint opens an entry, so its first byte (and only
  // that byte) carries the 0x80 mark.
  std::uint64_t varint(const char* what, bool entry_start) {
    const std::size_t begin = pos_;
    std::uint8_t b = next(what, entry_start);
    std::uint64_t value = b & kValueBits;
    while (b & kMore) {
      b = next(what, false);
      value = (value << 6) | (b & kValueBits);
      if (value > kMaxValue)
        throw Error(ErrorKind::Decode, std::string("exception table: ") + what + " is too large",
                    begin);
    }
    return value;
  }

 private:
  std::uint8_t next(const char* what, bool marked) {
    if (at_end())
      throw Error(ErrorKind::Decode,
                  std::string("exception table: entry truncated in its ") + what, pos_);
    const auto b = static_cast<std::uint8_t>(table_[pos_]);
    if (marked && !(b & kEntryStart))
      throw Error(ErrorKind::Decode,
                  "exception table: entry does not start with a 0x80-marked byte", pos_);
    if (!marked && (b & kEntryStart))
      throw Error(ErrorKind::Decode,
                  std::string("exception table: entry start mark inside ") + what, pos_);
    ++pos_;
    return b;
  }

  std::string_view table_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<ExceptionTableEntry> decode_exception_table(std::string_view table,
                                                        std::size_t code_size) {
  std::vector<ExceptionTableEntry> entries;
  EntryReader reader(table);
  while (!reader.at_end()) {
    const std::size_t entry_offset = reader.position();
    const std::uint64_t start = reader.varint("start", true) * 2;
    const std::uint64_t length = reader.varint("length", false) * 2;
    const std::uint64_t target = reader.varint("target", false) * 2;
    const std::uint64_t depth_lasti = reader.varint("depth/lasti", false);

    if (length == 0)
      throw Error(ErrorKind::Decode, "exception table: empty protected range", entry_offset);
    if (start + length > code_size)
      throw Error(ErrorKind::Decode,
                  "exception table: protected range " + std::to_string(start) + ".." +
                      std::to_string(start + length) + " outside the code (" +
                      std::to_string(code_size) + " bytes)",
                  entry_offset);
    if (target >= code_size)
      throw Error(ErrorKind::Decode,
                  "exception table: handler " + std::to_string(target) +
                      " outside the code (" + std::to_string(code_size) + " bytes)",
                  entry_offset);

    entries.push_back(ExceptionTableEntry{
        static_cast<std::uint32_t>(start),
        static_cast<std::uint32_t>(start + length - 2),  // inclusive, as dis prints it
        static_cast<std::uint32_t>(target),
        static_cast<std::uint32_t>(depth_lasti >> 1),
        (depth_lasti & 1) != 0,
    });
  }
  return entries;
}

}  // namespace unveil

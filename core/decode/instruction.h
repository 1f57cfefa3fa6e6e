// The decoded form of a code object: the one IR every later stage reads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/sentinel_optional.h"
#include "support/spare.h"
#include "opcodes/version.h"
#include "read/code_object.h"

namespace unveil {

// (32 bytes, the pointer first and the opcode last: the CFG passes walk a
// big function's instructions several times, and a smaller one keeps more of
// them in the cache.)
struct Instruction {
  const OpcodeInfo* info = nullptr;
  std::uint32_t offset = 0;  // byte offset of this instruction's opcode
  // The full oparg: this unit's byte combined with the preceding EXTENDED_ARGs
  // (for an EXTENDED_ARG itself, the partial value, as `dis` shows it).
  std::uint32_t arg = 0;
  // Offset of the first EXTENDED_ARG prefixing this instruction, or `offset`.
  // Jumps to this instruction land here.
  std::uint32_t start_offset = 0;
  // Byte offset just past this instruction's inline caches.
  std::uint32_t end_offset = 0;
  SentinelOptional<std::uint32_t> jump_target;  // byte offset, for jumps
  std::uint8_t opcode = 0;

  std::string_view name() const noexcept { return info->name; }
  // Compare this, not name(): one integer test instead of a string compare.
  Op op() const noexcept { return info->op; }
};
static_assert(sizeof(Instruction) <= 32);

// One entry of co_exceptiontable (3.11+), in bytes, as `dis` prints them:
// the protected range [start, end] includes the instruction at `end`.
// (dis._parse_exception_table's `end` is exclusive, i.e. our end + 2.)
struct ExceptionTableEntry {
  std::uint32_t start = 0;
  std::uint32_t end = 0;
  std::uint32_t target = 0;
  std::uint32_t depth = 0;
  bool lasti = false;
};

// One range of co_lines(): bytes [start, end) belong to `line` (none: no line).
struct LineRange {
  std::uint32_t start = 0;
  std::uint32_t end = 0;
  std::optional<int> line;
};

// One entry of co_positions() (3.11+): one per code unit, caches included.
struct Position {
  std::optional<int> line, end_line, column, end_column;
};

struct DecodedCode {
  std::shared_ptr<const CodeObject> code;
  const VersionTraits* traits = nullptr;
  // (Its storage goes to the next decode of this thread: see support/spare.h.)
  RecycledVector<Instruction> instructions;
  std::vector<ExceptionTableEntry> exception_table;
  std::vector<LineRange> lines;
  std::vector<Position> positions;  // empty before 3.11

  // Index into `instructions` of the instruction at byte `offset` (or its
  // EXTENDED_ARG prefix); nullopt if none starts there.
  std::optional<std::size_t> index_at(std::uint32_t offset) const;
};

}  // namespace unveil

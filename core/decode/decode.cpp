// co_code → instructions. Everything version-specific comes from the
// VersionTraits tables: which opcodes exist, which take an argument, how many
// CACHE units follow them, and how their jump arguments are measured.
#include "decode/decode.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "decode/exception_table.h"
#include "decode/line_table.h"
#include "support/error.h"
#include "support/tls.h"

namespace unveil {
namespace {

// The oparg is 32 bits: a byte of its own plus at most three EXTENDED_ARG bytes.
constexpr int kMaxExtendedArgs = 3;

std::string version_name(const VersionTraits& version) {
  return "Python 3." + std::to_string(version.minor);
}

std::string describe(const Instruction& ins) {
  return std::string(ins.name()) + " at " + std::to_string(ins.offset);
}

// Splits co_code into instructions, folding EXTENDED_ARG prefixes into the
// oparg and stepping over inline caches. Jump targets are resolved later,
// once every instruction boundary is known: `starts` gets a bit per code unit
// where one may land (an instruction's first EXTENDED_ARG, or the instruction).
std::vector<Instruction> split_instructions(const std::string& bytes,
                                            const VersionTraits& version,
                                            std::vector<std::uint64_t>& starts) {
  const std::size_t size = bytes.size();
  // Count first: from 3.11 on, caches make size / 2 several times too many,
  // and a large allocation costs more than this pass.
  std::size_t count = 0;
  for (std::size_t offset = 0; offset < size; ++count)
    offset += 2 + 2 * std::size_t{version.op(static_cast<std::uint8_t>(bytes[offset])).caches};
  std::vector<Instruction> out = SpareVectors<Instruction>::take();
  out.reserve(count);
  starts.assign(size / 128 + 1, 0);
  std::uint32_t extended = 0;  // oparg bits accumulated by the preceding prefixes
  int prefixes = 0;
  std::uint32_t prefix_start = 0;
  for (std::size_t offset = 0; offset < size;) {
    const auto opcode = static_cast<std::uint8_t>(bytes[offset]);
    const auto byte = static_cast<std::uint8_t>(bytes[offset + 1]);
    const OpcodeInfo& info = version.op(opcode);
    if (!info.known()) {
      throw Error(ErrorKind::Decode,
                  "unknown opcode " + std::to_string(opcode) + " for " + version_name(version),
                  offset);
    }
    Instruction ins;
    ins.offset = static_cast<std::uint32_t>(offset);
    ins.opcode = opcode;
    ins.info = &info;
    ins.arg = (extended << 8) | byte;
    // As in dis, a prefix's own start is itself; the prefixed instruction starts at the first.
    const bool is_prefix = opcode == version.extended_arg;
    ins.start_offset = prefixes > 0 && !is_prefix ? prefix_start : ins.offset;
    if (prefixes == 0) starts[offset / 128] |= std::uint64_t{1} << (offset / 2 % 64);
    const std::size_t end = offset + 2 + 2 * std::size_t{info.caches};
    if (end > size) {
      throw Error(ErrorKind::Decode,
                  describe(ins) + " needs " + std::to_string(info.caches) +
                      " CACHE entries but the code ends after " +
                      std::to_string((size - offset - 2) / 2),
                  offset);
    }
    ins.end_offset = static_cast<std::uint32_t>(end);

    if (is_prefix) {
      if (prefixes == kMaxExtendedArgs) {
        throw Error(ErrorKind::Decode,
                    "more than " + std::to_string(kMaxExtendedArgs) +
                        " EXTENDED_ARG prefixes in a row (the oparg would exceed 32 bits)",
                    offset);
      }
      if (end == size) {
        throw Error(ErrorKind::Decode, "EXTENDED_ARG at the end of the code prefixes nothing",
                    offset);
      }
      if (prefixes++ == 0) prefix_start = ins.offset;
      extended = ins.arg;
    } else {
      prefixes = 0;
      extended = 0;
    }
    out.push_back(ins);
    offset = end;
  }
  return out;
}

// For every code unit, the index of the non-EXTENDED_ARG instruction that owns
// it (its prefixes, its opcode and its caches all belong to it).
void unit_owners(const std::vector<Instruction>& instructions, std::size_t size,
                 std::uint8_t extended_arg, std::vector<std::uint32_t>& owners) {
  owners.assign(size / 2, 0);
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& ins = instructions[i];
    if (ins.opcode == extended_arg) continue;
    std::fill(owners.begin() + ins.start_offset / 2, owners.begin() + ins.end_offset / 2,
              static_cast<std::uint32_t>(i));
  }
}

// split_instructions()'s start bits, per thread. (No decode starts inside another.)
struct StartsScratch {
  std::vector<std::uint64_t> starts;
};

// Why `target` (inside the code, even) is not where an instruction starts, or "".
std::string misplaced_target(std::uint32_t target, const std::vector<Instruction>& instructions,
                             const std::vector<std::uint64_t>& starts, std::uint8_t extended_arg) {
  if ((starts[target / 128] >> (target / 2 % 64)) & 1) return {};
  // Only bad input gets here: find the instruction the unit belongs to.
  std::vector<std::uint32_t> owners;
  unit_owners(instructions, instructions.back().end_offset, extended_arg, owners);
  const Instruction& owner = instructions[owners[target / 2]];
  if (target == owner.start_offset) return {};
  const std::string head = "target " + std::to_string(target) + " is ";
  if (target >= owner.offset + 2) return head + "a CACHE entry of " + describe(owner);
  return head + "inside " + describe(owner) + ", whose EXTENDED_ARG prefixes start at " +
         std::to_string(owner.start_offset);
}

// `starts` is split_instructions()'s.
void resolve_jumps(std::vector<Instruction>& instructions, std::size_t size,
                   const VersionTraits& version, const std::vector<std::uint64_t>& starts) {
  if (std::none_of(instructions.begin(), instructions.end(),
                   [](const Instruction& ins) { return ins.info->jump != JumpKind::None; })) {
    return;
  }
  for (Instruction& ins : instructions) {
    const std::int64_t distance = std::int64_t{ins.arg} * version.jump_unit;
    std::int64_t target = 0;
    switch (ins.info->jump) {
      case JumpKind::None: continue;
      case JumpKind::Forward: target = std::int64_t{ins.end_offset} + distance; break;
      case JumpKind::Backward: target = std::int64_t{ins.end_offset} - distance; break;
      case JumpKind::Absolute: target = distance; break;
    }
    if (target < 0 || target >= static_cast<std::int64_t>(size)) {
      throw Error(ErrorKind::Decode,
                  "jump target " + std::to_string(target) + " outside the code (0.." +
                      std::to_string(size) + ")",
                  ins.offset);
    }
    const auto at = static_cast<std::uint32_t>(target);
    if (at % 2 != 0) {
      throw Error(ErrorKind::Decode,
                  "jump into the middle of an instruction: target " + std::to_string(at) +
                      " is an odd offset",
                  ins.offset);
    }
    if (std::string why = misplaced_target(at, instructions, starts, version.extended_arg); !why.empty()) {
      throw Error(ErrorKind::Decode, "jump into the middle of an instruction: " + why,
                  ins.offset);
    }
    ins.jump_target = at;
  }
}

// Handlers must start an instruction, as the CFG builder splits blocks there.
void check_handlers(const DecodedCode& out, std::size_t size,
                    const std::vector<std::uint64_t>& starts) {
  if (out.exception_table.empty()) return;
  for (const ExceptionTableEntry& entry : out.exception_table) {
    if (entry.target >= size || entry.target % 2 != 0) {
      throw Error(ErrorKind::Decode,
                  "exception handler target " + std::to_string(entry.target) +
                      " outside the code (0.." + std::to_string(size) + ")");
    }
    if (std::string why = misplaced_target(entry.target, out.instructions, starts,
                                              out.traits->extended_arg);
        !why.empty()) {
      throw Error(ErrorKind::Decode,
                  "exception handler in the middle of an instruction: " + why, entry.target);
    }
  }
}

}  // namespace

DecodedCode decode(std::shared_ptr<const CodeObject> code, const VersionTraits& version,
                   DecodeParts parts) {
  if (!code) throw Error(ErrorKind::Decode, "no code object to decode");
  const std::string& bytes = code->code;
  const std::size_t size = bytes.size();
  if (size % 2 != 0) {
    throw Error(ErrorKind::Decode,
                "co_code has odd length " + std::to_string(size) +
                    " (instructions are 2 bytes each)",
                size - 1);
  }
  if (size > std::numeric_limits<std::uint32_t>::max()) {
    throw Error(ErrorKind::Decode, "co_code of " + std::to_string(size) + " bytes is too long");
  }

  DecodedCode out;
  out.traits = &version;
  // Kept between decodes: most code has jumps, and this was an allocation each.
  std::vector<std::uint64_t>& starts = per_thread<StartsScratch>().starts;
  out.instructions = split_instructions(bytes, version, starts);
  resolve_jumps(out.instructions, size, version, starts);
  if (version.has_exception_table()) {
    out.exception_table = decode_exception_table(code->exceptiontable, size);
    check_handlers(out, size, starts);
  }
  if (parts.lines) out.lines = decode_lines(*code, version);
  if (parts.positions) out.positions = decode_positions(*code, version);
  out.code = std::move(code);
  return out;
}

std::optional<std::size_t> DecodedCode::index_at(std::uint32_t offset) const {
  auto it = std::lower_bound(
      instructions.begin(), instructions.end(), offset,
      [](const Instruction& ins, std::uint32_t value) { return ins.offset < value; });
  if (it == instructions.end() || it->offset != offset) return std::nullopt;
  return static_cast<std::size_t>(it - instructions.begin());
}

}  // namespace unveil

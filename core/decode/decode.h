// co_code bytes → instructions (the inverse of CPython's Python/assemble.c).
#pragma once

#include <memory>

#include "decode/instruction.h"

namespace unveil {

// What to decode besides the instructions and the exception table. The line
// table and the per-unit positions are for listings and `dis`; the decompiler
// reads lines only where a compiler chose its layout by them, and positions
// cost as much as the instructions themselves.
struct DecodeParts {
  bool lines = true;
  bool positions = true;
};
inline constexpr DecodeParts kInstructionsOnly{.lines = false, .positions = false};

// Decodes one code object (not its nested code objects): instructions with
// EXTENDED_ARG folded into the oparg, inline caches skipped, jump targets
// resolved to byte offsets, plus the exception table and the line table.
// Throws Error(Decode) naming the offset for an unknown opcode, an odd-length
// co_code, a jump outside the code or into the middle of an instruction, and
// a truncated EXTENDED_ARG or cache run.
// `parts` leaves out the line table (`lines`) and `positions` when not wanted.
DecodedCode decode(std::shared_ptr<const CodeObject> code, const VersionTraits& version,
                   DecodeParts parts = {});

}  // namespace unveil

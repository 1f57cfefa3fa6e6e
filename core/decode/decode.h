// co_code bytes → instructions (the inverse of CPython's Python/assemble.c).
#pragma once

#include <memory>

#include "decode/instruction.h"

namespace unveil {

// Decodes one code object (not its nested code objects): instructions with
// EXTENDED_ARG folded into the oparg, inline caches skipped, jump targets
// resolved to byte offsets, plus the exception table and the line table.
// Throws Error(Decode) naming the offset for an unknown opcode, an odd-length
// co_code, a jump outside the code or into the middle of an instruction, and
// a truncated EXTENDED_ARG or cache run.
DecodedCode decode(std::shared_ptr<const CodeObject> code, const VersionTraits& version);

}  // namespace unveil

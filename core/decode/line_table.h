// Line tables: co_lnotab (3.8–3.9), the 3.10 co_linetable, and the 3.11+
// location table with columns.
#pragma once

#include <vector>

#include "decode/instruction.h"

namespace unveil {

// The equivalent of code.co_lines(): contiguous ranges covering co_code.
// ≤3.9 ranges come from co_lnotab as CPython's lnotab-based co_lines does.
// Never throws for malformed tables: a table that runs past the code or ends
// early is clipped, since line numbers are advisory.
std::vector<LineRange> decode_lines(const CodeObject& code, const VersionTraits& version);

// The equivalent of code.co_positions() (3.11+): one entry per code unit.
// Empty for earlier versions.
std::vector<Position> decode_positions(const CodeObject& code, const VersionTraits& version);

}  // namespace unveil

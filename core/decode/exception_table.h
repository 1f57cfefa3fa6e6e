// co_exceptiontable (3.11+): varint-encoded (start, length, target, depth|lasti).
#pragma once

#include <string_view>
#include <vector>

#include "decode/instruction.h"

namespace unveil {

// Entries in bytes, as dis._parse_exception_table reports them. Throws
// Error(Decode) for a truncated entry or a range or target outside
// [0, code_size).
std::vector<ExceptionTableEntry> decode_exception_table(std::string_view table,
                                                        std::size_t code_size);

}  // namespace unveil

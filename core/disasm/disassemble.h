// A disassembler whose listing lines up with `dis` of the same version.
#pragma once

#include <string>

#include "decode/instruction.h"

namespace unveil {

struct DisasmOptions {
  bool recursive = true;     // also list nested code objects, as dis.dis does
  bool show_caches = false;  // list CACHE entries (3.11+)
};

// One line per instruction, in dis's columns: line number at line starts,
// ">>" at jump targets, offset, opname, oparg and the resolved argument in
// parentheses; an "ExceptionTable:" section for 3.11+.
std::string disassemble(const DecodedCode& code, const DisasmOptions& options = {});

}  // namespace unveil

// Resolution of an instruction's oparg to what it means (a constant, a name,
// a local, a comparison, a jump target...), following each version's encoding.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "decode/instruction.h"

namespace unveil {

struct ResolvedArg {
  ArgKind kind = ArgKind::None;
  // The integer meaning: the oparg for Plain, the target for Jump, the value
  // for SmallInt, the index for the table kinds, the flag bits for
  // NameShift1/NameShift2 (arg & 1 / arg & 3), the mask bits for Compare.
  std::int64_t number = 0;
  ObjectRef constant;  // Const
  // Name, Local, Free: the name; LocalPair: the first name; Compare,
  // BinaryOp, Intrinsic1/2, CommonConstant, SpecialMethod: the table entry;
  // FormatValue/ConvertValue: "", "str", "repr" or "ascii". Views into the
  // code object's name tables or the version's static tables: every
  // instruction with a name resolves it, and a copy per instruction cost
  // more than the lookup.
  std::string_view text;
  std::string_view second;  // LocalPair: the second name
  bool has_format_spec = false;  // FormatValue: bit 2
};

// Throws Error(Decode) naming the instruction's offset when an index is out
// of range of the code object's tables.
ResolvedArg resolve_argument(const DecodedCode& code, const Instruction& instruction);

}  // namespace unveil

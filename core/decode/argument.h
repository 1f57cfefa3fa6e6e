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

namespace detail {
// resolve_argument of any instruction (argument.cpp).
ResolvedArg resolve_any_argument(const DecodedCode& code, const Instruction& instruction);
}  // namespace detail

// Throws Error(Decode) naming the instruction's offset when an index is out
// of range of the code object's tables.
//
// The kinds most instructions have (a local, a name, a constant) are looked
// up here, inline: the lifter resolves every instruction, and the call and
// the general switch cost more than the lookup. Anything else, and any
// index out of range, takes the general path.
inline ResolvedArg resolve_argument(const DecodedCode& code, const Instruction& instruction) {
  if (instruction.info && code.code && code.traits) [[likely]] {
    const CodeObject& co = *code.code;
    const std::uint32_t arg = instruction.arg;
    ResolvedArg out;
    out.kind = instruction.info->arg;
    out.number = arg;
    switch (out.kind) {
      case ArgKind::Local: {
        const NameList& locals = code.traits->locals_layout == LocalsLayout::LocalsPlus
                                     ? co.localsplusnames
                                     : co.varnames;
        if (arg >= locals.size()) break;
        out.text = locals[arg];
        return out;
      }
      case ArgKind::Name:
        if (arg >= co.names.size()) break;
        out.text = co.names[arg];
        return out;
      case ArgKind::Const:
        if (arg >= co.consts.size()) break;
        out.constant = co.consts[arg];
        return out;
      default:
        break;
    }
  }
  return detail::resolve_any_argument(code, instruction);
}

}  // namespace unveil

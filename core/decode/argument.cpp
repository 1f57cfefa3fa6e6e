// oparg → meaning. The ArgKind in the version's opcode table says how to read
// the oparg; the traits say which tables (locals layout, cmp_op, nb_ops...)
// it indexes. No version numbers are tested here.
#include "decode/argument.h"

#include <array>
#include <string_view>
#include <vector>

#include "support/error.h"

namespace unveil {
namespace {

constexpr std::array<std::string_view, 4> kConversions = {"", "str", "repr", "ascii"};

// Formats "LOAD_CONST 12 out of range of co_consts (5 entries)", adding the
// raw oparg when the index was derived from it.
// (`ins` with its table entry: `info`.)
[[noreturn]] void out_of_range(const Instruction& ins, const OpcodeInfo& info, std::size_t index,
                               std::string_view table, std::size_t entries) {
  std::string message = std::string(info.name) + " " + std::to_string(index);
  if (index != ins.arg) message += " (oparg " + std::to_string(ins.arg) + ")";
  message += " out of range of " + std::string(table) + " (" + std::to_string(entries) +
             (entries == 1 ? " entry)" : " entries)");
  throw Error(ErrorKind::Decode, message, ins.offset);
}

// The instruction being resolved and its table entry (which a hand-built
// instruction may lack: then the version's), for the errors.
struct Resolving {
  const Instruction& ins;
  const OpcodeInfo& info;
};

template <class Table>
const auto& entry(const Resolving& r, const Table& table, std::size_t index,
                  std::string_view table_name) {
  if (index >= table.size()) [[unlikely]] out_of_range(r.ins, r.info, index, table_name, table.size());
  return table[index];
}

// The fast-locals table that LOAD_FAST & co. index.
struct NameTable {
  const NameList& names;
  std::string_view label;
};

NameTable locals_table(const DecodedCode& code) {
  if (code.traits->locals_layout == LocalsLayout::LocalsPlus) {
    return {code.code->localsplusnames, "co_localsplusnames"};
  }
  return {code.code->varnames, "co_varnames"};
}

std::string_view cell_or_free_name(const DecodedCode& code, const Resolving& r) {
  const Instruction& ins = r.ins;
  const CodeObject& co = *code.code;
  if (code.traits->locals_layout == LocalsLayout::LocalsPlus) {
    return entry(r, co.localsplusnames, ins.arg, "co_localsplusnames");
  }
  // ≤3.10: cells first, then free variables, as one sequence.
  const std::size_t cells = co.cellvars.size();
  if (ins.arg < cells) return co.cellvars[ins.arg];
  if (ins.arg - cells < co.freevars.size()) return co.freevars[ins.arg - cells];
  out_of_range(ins, r.info, ins.arg, "co_cellvars + co_freevars", cells + co.freevars.size());
}

}  // namespace

ResolvedArg detail::resolve_any_argument(const DecodedCode& code, const Instruction& instruction) {
  if (!code.code || !code.traits) {
    throw Error(ErrorKind::Decode, "resolve_argument needs a decoded code object",
                instruction.offset);
  }
  const VersionTraits& traits = *code.traits;
  const CodeObject& co = *code.code;
  const Instruction& ins = instruction;
  const OpcodeInfo& info = ins.info ? *ins.info : traits.op(ins.opcode);
  const Resolving r{ins, info};
  const std::uint32_t arg = ins.arg;

  ResolvedArg out;
  out.kind = info.arg;
  switch (info.arg) {
    case ArgKind::None:
      break;
    case ArgKind::Plain:
    case ArgKind::SmallInt:
      out.number = arg;
      break;
    case ArgKind::Const:
      out.number = arg;
      out.constant = entry(r, co.consts, arg, "co_consts");
      break;
    case ArgKind::Name:
      out.number = arg;
      out.text = entry(r, co.names, arg, "co_names");
      break;
    case ArgKind::NameShift1:
      out.number = arg & 1;
      out.text = entry(r, co.names, arg >> 1, "co_names");
      break;
    case ArgKind::NameShift2:
      out.number = arg & 3;
      out.text = entry(r, co.names, arg >> 2, "co_names");
      break;
    case ArgKind::Local: {
      const NameTable locals = locals_table(code);
      out.number = arg;
      out.text = entry(r, locals.names, arg, locals.label);
      break;
    }
    case ArgKind::LocalPair: {
      const NameTable locals = locals_table(code);
      out.number = arg;
      out.text = entry(r, locals.names, arg >> 4, locals.label);
      out.second = entry(r, locals.names, arg & 15, locals.label);
      break;
    }
    case ArgKind::Free:
      out.number = arg;
      out.text = cell_or_free_name(code, r);
      break;
    case ArgKind::Compare:
      out.number = arg & ((1u << traits.compare_shift) - 1);
      out.text = entry(r, traits.cmp_op, arg >> traits.compare_shift, "cmp_op");
      break;
    case ArgKind::Jump:
      if (!ins.jump_target) {
        throw Error(ErrorKind::Decode, std::string(info.name) + " has no resolved jump target",
                    ins.offset);
      }
      out.number = *ins.jump_target;
      break;
    case ArgKind::BinaryOp:
      out.number = arg;
      out.text = entry(r, traits.nb_ops, arg, "the binary operators");
      break;
    case ArgKind::Intrinsic1:
      out.number = arg;
      out.text = entry(r, traits.intrinsic_1, arg, "the 1-argument intrinsics");
      break;
    case ArgKind::Intrinsic2:
      out.number = arg;
      out.text = entry(r, traits.intrinsic_2, arg, "the 2-argument intrinsics");
      break;
    case ArgKind::FormatValue:
      out.number = arg;
      out.text = kConversions[arg & 3];
      out.has_format_spec = (arg & 4) != 0;
      break;
    case ArgKind::ConvertValue:
      out.number = arg;
      out.text = entry(r, kConversions, arg, "the conversions");
      break;
    case ArgKind::CommonConstant:
      out.number = arg;
      out.text = entry(r, traits.common_constants, arg, "the common constants");
      break;
    case ArgKind::SpecialMethod:
      out.number = arg;
      out.text = entry(r, traits.special_methods, arg, "the special methods");
      break;
  }
  return out;
}

}  // namespace unveil

// The 3.11+ stack effect table (stack_effect.cpp) as the stack-depth check
// reads it: one row per Op of a version, the arithmetic inline, since it is
// asked once per instruction.
#pragma once

#include <cstdint>

#include "cfg/flow.h"

namespace unveil::cfg {

// A count of stack values: base + per_arg * oparg + the term.
enum class Term : std::uint8_t {
  None,
  Bit0,           // oparg & 1 (LOAD_GLOBAL's NULL, LOAD_ATTR's method load, a kwargs dict)
  Bit2,           // (oparg >> 2) & 1 (FORMAT_VALUE's format spec)
  UnpackEx,       // (oparg & 0xff) + (oparg >> 8) (UNPACK_EX's targets around the star)
  FunctionFlags,  // one per MAKE_FUNCTION flag bit 0-3 (3.11-3.12)
  SliceStep,      // 1 if oparg == 3 (≤3.13 BUILD_SLICE: start, stop and a step)
};

struct Count {
  std::int8_t base = 0;
  std::int8_t per_arg = 0;
  Term term = Term::None;

  constexpr std::int64_t of(std::uint32_t oparg) const {
    const std::int64_t linear = base + std::int64_t{per_arg} * oparg;
    if (term == Term::None) return linear;  // most rows: no jump table
    std::int64_t extra = 0;
    switch (term) {
      case Term::None: break;
      case Term::Bit0: extra = oparg & 1u; break;
      case Term::Bit2: extra = (oparg >> 2) & 1u; break;
      case Term::UnpackEx: extra = (oparg & 0xffu) + (oparg >> 8); break;
      // (Bit by bit, not std::popcount: without a popcnt instruction in the
      // target that is a library call, and it made every lookup spill registers.)
      case Term::FunctionFlags:
        extra = (oparg & 1u) + ((oparg >> 1) & 1u) + ((oparg >> 2) & 1u) + ((oparg >> 3) & 1u);
        break;
      case Term::SliceStep: extra = oparg == 3 ? 1 : 0; break;
    }
    return linear + extra;
  }
};

// The effect of one Op in one version; `known` is false for an Op the table
// does not list there (specialized and instrumented opcodes).
struct TableRow {
  Count popped, pushed;
  std::int8_t jump_extra = 0;
  bool known = false;

  constexpr TableStackEffect of(std::uint32_t oparg) const {
    const std::int64_t in = pushed.of(oparg);
    return {popped.of(oparg), in, in + jump_extra};
  }
};

// The kOpCount rows of 3.<minor>, indexed by Op; null for a version the
// table does not cover (before 3.11, or newer than it was reviewed for).
const TableRow* table_rows(int minor);

}  // namespace unveil::cfg

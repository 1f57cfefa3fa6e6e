// How each opcode moves control and (before 3.11) the block stack, as data.
//
// Keyed by opname, which is stable across versions where the opcode numbers
// are not: the CFG never tests a version number, it asks these tables. An
// opname that is not listed falls through to the next instruction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "opcodes/version.h"

namespace unveil::cfg {

enum class Flow : std::uint8_t {
  Normal,       // falls through (it may still raise: that is the block's exception edge)
  Jump,         // always jumps to its target
  Branch,       // falls through or jumps to its target (conditional, FOR_ITER, SEND)
  Exit,         // leaves the frame: returns, raises or re-raises
  Setup,        // ≤3.10 SETUP_*: falls through; its target handles what follows
  CallFinally,  // 3.8 CALL_FINALLY: calls the finally body, which returns to the next instruction
  EndFinally,   // 3.8 END_FINALLY: falls through, returns to a CALL_FINALLY, or re-raises,
                // depending on how its finally body was entered (see exception_regions.cpp)
};

// What an instruction does to the ≤3.10 block stack (ceval's f_blockstack).
enum class BlockAction : std::uint8_t {
  None,
  PushHandler,   // SETUP_FINALLY/SETUP_WITH/SETUP_ASYNC_WITH: push a handler for what follows
  PopBlock,      // POP_BLOCK: pop that handler
  PopExcept,     // POP_EXCEPT, END_ASYNC_FOR: pop the except-handler block a handler entry pushed
  BeginFinally,  // 3.8 BEGIN_FINALLY: enter a finally body normally (pushes NULL)
  PopFinally,    // 3.8 POP_FINALLY: leave a finally body early (break/continue/return in it)
  EndFinally,    // 3.8 END_FINALLY: leave a finally body at its end
  CleanupFinish, // 3.8 WITH_CLEANUP_FINISH: a suppressed exception turns into a normal exit
};

struct FlowInfo {
  Flow flow = Flow::Normal;
  BlockAction action = BlockAction::None;
  // The opcode has a jump argument that is not control flow (3.14 END_ASYNC_FOR
  // "pretends" to jump back to its SEND for sys.monitoring; it never jumps).
  bool jump_is_annotation = false;
};

// The flow of `opname`; Normal/None for names not in the table.
FlowInfo flow_of(std::string_view opname) noexcept;
namespace detail {
// flow_of(Op)'s table (flow.cpp).
extern const std::array<FlowInfo, kOpCount> kFlowByOp;
}  // namespace detail
// The same by Op (OpcodeInfo::op, Instruction::op()): a table load, inline as
// the CFG builder asks it per instruction.
inline FlowInfo flow_of(Op op) noexcept { return detail::kFlowByOp[static_cast<std::size_t>(op)]; }

// True for every name the flow table lists (for the completeness test).
bool flow_listed(std::string_view opname) noexcept;

// Stack effect, as CPython's compiler (compile.c stack_effect, = dis.stack_effect)
// counts it, of the opcodes of the versions whose exceptions use the block stack
// (≤3.10, no exception table). `jump` selects the effect on the jump edge.
// nullopt for an opcode the table does not know.
std::optional<std::int64_t> block_stack_effect(Op op, std::uint32_t oparg, bool jump) noexcept;
std::optional<std::int64_t> block_stack_effect(std::string_view opname, std::uint32_t oparg,
                                               bool jump) noexcept;

// 3.11+: what an instruction pops (including what it only reads below the top,
// so that `popped` values must be there) and pushes, as the compiler counts
// them; `pushed_on_jump` is what the jump edge sees. nullopt for a name the
// table does not know in 3.<minor> (specialized and instrumented opcodes, which
// never appear in a code object's co_code).
struct TableStackEffect {
  std::int64_t popped = 0;
  std::int64_t pushed = 0;
  std::int64_t pushed_on_jump = 0;
};
std::optional<TableStackEffect> table_stack_effect(std::string_view opname, int minor,
                                                   std::uint32_t oparg);
// The same by Op (Instruction::op()): no name lookup.
std::optional<TableStackEffect> table_stack_effect(Op op, int minor, std::uint32_t oparg);

// Values ceval pushes when it enters a SETUP_* handler before 3.11: the saved
// exc_info (traceback, value, type) and the exception (traceback, value, type).
inline constexpr std::uint32_t kBlockStackHandlerPushes = 6;

}  // namespace unveil::cfg

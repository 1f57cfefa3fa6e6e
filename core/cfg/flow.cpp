// The flow table: every opname whose control flow or block-stack effect is not
// "fall through, leave the block stack alone", listed once for all versions.
// Facts from each version's Python/ceval.c (≤3.10) and Python/bytecodes.c.
#include "cfg/flow.h"

#include <algorithm>
#include <array>

namespace unveil::cfg {
namespace {

struct FlowEntry {
  std::string_view name;
  FlowInfo info;
};

constexpr FlowInfo flow(Flow f, BlockAction a = BlockAction::None) { return FlowInfo{f, a, false}; }
constexpr FlowInfo action(BlockAction a) { return FlowInfo{Flow::Normal, a, false}; }

constexpr auto kFlowTable = std::to_array<FlowEntry>({
    // Leave the frame. RERAISE and RAISE_VARARGS continue at the block's handler, if any.
    {"RETURN_VALUE", flow(Flow::Exit)},
    {"RETURN_CONST", flow(Flow::Exit)},  // 3.12-3.13
    {"RAISE_VARARGS", flow(Flow::Exit)},
    {"RERAISE", flow(Flow::Exit)},       // 3.9+
    {"INTERPRETER_EXIT", flow(Flow::Exit)},  // 3.12+, only in the interpreter's trampolines

    // Unconditional jumps (JUMP and JUMP_NO_INTERRUPT are 3.12+ pseudo-ops, listed
    // so that hand-assembled code using their numbers would still be understood).
    {"JUMP_FORWARD", flow(Flow::Jump)},
    {"JUMP_ABSOLUTE", flow(Flow::Jump)},  // ≤3.10
    {"JUMP_BACKWARD", flow(Flow::Jump)},  // 3.11+
    {"JUMP_BACKWARD_NO_INTERRUPT", flow(Flow::Jump)},
    {"JUMP", flow(Flow::Jump)},
    {"JUMP_NO_INTERRUPT", flow(Flow::Jump)},

    // Conditional: the not-taken path falls through.
    {"POP_JUMP_IF_FALSE", flow(Flow::Branch)},
    {"POP_JUMP_IF_TRUE", flow(Flow::Branch)},
    {"POP_JUMP_IF_NONE", flow(Flow::Branch)},      // 3.12+
    {"POP_JUMP_IF_NOT_NONE", flow(Flow::Branch)},  // 3.12+
    {"POP_JUMP_FORWARD_IF_FALSE", flow(Flow::Branch)},  // 3.11
    {"POP_JUMP_FORWARD_IF_TRUE", flow(Flow::Branch)},
    {"POP_JUMP_FORWARD_IF_NONE", flow(Flow::Branch)},
    {"POP_JUMP_FORWARD_IF_NOT_NONE", flow(Flow::Branch)},
    {"POP_JUMP_BACKWARD_IF_FALSE", flow(Flow::Branch)},
    {"POP_JUMP_BACKWARD_IF_TRUE", flow(Flow::Branch)},
    {"POP_JUMP_BACKWARD_IF_NONE", flow(Flow::Branch)},
    {"POP_JUMP_BACKWARD_IF_NOT_NONE", flow(Flow::Branch)},
    {"JUMP_IF_FALSE_OR_POP", flow(Flow::Branch)},  // ≤3.11
    {"JUMP_IF_TRUE_OR_POP", flow(Flow::Branch)},
    {"JUMP_IF_NOT_EXC_MATCH", flow(Flow::Branch)},  // 3.9-3.10
    {"FOR_ITER", flow(Flow::Branch)},  // jumps when the iterator is exhausted
    {"SEND", flow(Flow::Branch)},      // 3.11+: jumps when the sub-iterator returns

    // ≤3.10 block stack. SETUP_CLEANUP is a 3.11+ pseudo-op, listed for the same
    // reason as JUMP.
    {"SETUP_FINALLY", flow(Flow::Setup, BlockAction::PushHandler)},
    {"SETUP_WITH", flow(Flow::Setup, BlockAction::PushHandler)},
    {"SETUP_ASYNC_WITH", flow(Flow::Setup, BlockAction::PushHandler)},
    {"SETUP_CLEANUP", flow(Flow::Setup, BlockAction::PushHandler)},
    {"POP_BLOCK", action(BlockAction::PopBlock)},
    {"POP_EXCEPT", action(BlockAction::PopExcept)},
    // ≤3.13: falls through on StopAsyncIteration (popping the except-handler
    // block before 3.11), else re-raises. 3.14 gives it a backward "jump" to
    // its END_SEND that only feeds sys.monitoring (JUMPBY(0) in bytecodes.c).
    {"END_ASYNC_FOR", FlowInfo{Flow::Normal, BlockAction::PopExcept, true}},

    // 3.8's finally-as-subroutine.
    {"CALL_FINALLY", flow(Flow::CallFinally)},
    {"END_FINALLY", flow(Flow::EndFinally, BlockAction::EndFinally)},
    {"BEGIN_FINALLY", action(BlockAction::BeginFinally)},
    {"POP_FINALLY", action(BlockAction::PopFinally)},
    {"WITH_CLEANUP_FINISH", action(BlockAction::CleanupFinish)},
});

constexpr bool names_unique() {
  for (std::size_t i = 0; i < kFlowTable.size(); ++i)
    for (std::size_t j = i + 1; j < kFlowTable.size(); ++j)
      if (kFlowTable[i].name == kFlowTable[j].name) return false;
  return true;
}
static_assert(names_unique(), "an opname is listed twice in the flow table");

const FlowEntry* find_flow(std::string_view name) noexcept {
  auto it = std::find_if(kFlowTable.begin(), kFlowTable.end(),
                         [&](const FlowEntry& e) { return e.name == name; });
  return it == kFlowTable.end() ? nullptr : &*it;
}

}  // namespace

// The same table indexed by Op: one load per opcode instead of a scan of names.
constinit const std::array<FlowInfo, kOpCount> detail::kFlowByOp = [] {
  std::array<FlowInfo, kOpCount> table{};
  for (const FlowEntry& e : kFlowTable)
    if (const Op op = op_named(e.name); op != Op::Unknown) table[static_cast<std::size_t>(op)] = e.info;
  return table;
}();

FlowInfo flow_of(std::string_view opname) noexcept {
  const FlowEntry* entry = find_flow(opname);
  return entry ? entry->info : FlowInfo{};
}

bool flow_listed(std::string_view opname) noexcept { return find_flow(opname) != nullptr; }

}  // namespace unveil::cfg

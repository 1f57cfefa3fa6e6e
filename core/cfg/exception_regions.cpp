// Exception regions: which handler covers each block, and the stack it starts
// from, in one representation for both of CPython's mechanisms.
//
// 3.11+ (zero-cost exceptions): co_exceptiontable maps ranges of instructions
// to a handler with a stack depth and a lasti flag; on an exception ceval cuts
// the stack to the depth, pushes the raising offset if lasti, then the
// exception. Blocks were split at range boundaries, so a lookup per block
// suffices (and a check that every instruction agrees).
//
// 3.8-3.10 (block stack): SETUP_FINALLY/SETUP_WITH/SETUP_ASYNC_WITH push a
// handler block recording the stack level, POP_BLOCK pops it. On an exception
// ceval pops blocks until a handler block, unwinding any EXCEPT_HANDLER blocks
// on the way, pushes an EXCEPT_HANDLER block itself, pushes 6 values (the old
// exc_info, then the exception: traceback, value, type each) and jumps.
// POP_EXCEPT pops that EXCEPT_HANDLER block (END_ASYNC_FOR too, when the
// exception was StopAsyncIteration). Which handler covers an instruction is the
// top handler block of the block stack there, so a forward dataflow computes
// the block stack (and, to know the SETUP level, the stack depth) on entry to
// every block; paths that merge must agree, as ceval's compiler guarantees
// (but for 3.8's CALL_FINALLY, below).
//
// 3.8 also runs `finally` bodies as subroutines. Their body is entered three
// ways, each leaving one marker value under the body's stack:
//   * BEGIN_FINALLY pushes NULL (normal completion of the try body),
//   * CALL_FINALLY pushes a return address (break/continue/return),
//   * an exception pushes the 6 values and an EXCEPT_HANDLER block.
// END_FINALLY then falls through, jumps back to the return address, or
// re-raises, according to that marker. The graph models this as:
//   * CALL_FINALLY: a Call edge into the body, and a FallThrough edge to the
//     instruction after it, where END_FINALLY's return lands;
//   * END_FINALLY: a FallThrough edge only if some path entered the body by
//     BEGIN_FINALLY (or a `with` exit that suppressed the exception turned an
//     exceptional entry into a normal one, WITH_CLEANUP_FINISH); no edge for
//     the return (already the CALL_FINALLY's FallThrough); the re-raise goes
//     along the block's Exception edge like any raise.
// The dataflow tracks those markers as "finally" entries of the block stack
// whose set of entry kinds grows at merges; an END_FINALLY that only ends
// `except` clause matching (entered by an exception alone) thus re-raises and
// has no successor inside the function but its handler.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "cfg/builder.h"
#include "support/error.h"
#include "support/tls.h"

namespace unveil::cfg {

// ---------------------------------------------------------------------------
// 3.11+: the exception table.

void GraphBuilder::normalise_exception_table() {
  table_ = code_.exception_table;
  std::stable_sort(table_.begin(), table_.end(),
                   [](const ExceptionTableEntry& a, const ExceptionTableEntry& b) {
                     return a.start < b.start;
                   });
  for (std::size_t i = 1; i < table_.size(); ++i) {
    if (table_[i].start <= table_[i - 1].end) {
      throw Error(ErrorKind::Decode,
                  "cfg: exception table entries " + std::to_string(table_[i - 1].start) + ".." +
                      std::to_string(table_[i - 1].end) + " and " +
                      std::to_string(table_[i].start) + ".." + std::to_string(table_[i].end) +
                      " overlap",
                  table_[i].start);
    }
  }
  // 3.12+ leaves instructions without a location out of the table even when
  // the same handler covers both sides (a comprehension's `or` test ends in
  // such a hole). A jump cannot raise, so which handler covers it does not
  // matter; closing the hole keeps a test's value and its jump in one block.
  const auto& ins = code_.instructions;
  const std::uint8_t ext = code_.traits->extended_arg;
  // Merged in place: the kept entries are a prefix of the table.
  std::size_t kept = 0;
  for (std::size_t k = 0; k < table_.size(); ++k) {
    const ExceptionTableEntry e = table_[k];
    if (kept > 0) {
      ExceptionTableEntry& prev = table_[kept - 1];
      const bool same = prev.target == e.target && prev.depth == e.depth && prev.lasti == e.lasti;
      bool only_jumps = same;
      for (std::size_t i = instruction_at_or_after(prev.end + 2);
           only_jumps && i < ins.size() && ins[i].offset < e.start; ++i) {
        const Flow f = flow(ins[i]).flow;
        // FOR_ITER and SEND branch too, but they call into the iterator.
        const bool calls = ins[i].info && (ins[i].op() == Op::FOR_ITER || ins[i].op() == Op::SEND);
        only_jumps = ins[i].opcode == ext || f == Flow::Jump || (f == Flow::Branch && !calls);
      }
      if (only_jumps) {
        prev.end = e.end;
        continue;
      }
    }
    table_[kept++] = e;
  }
  table_.resize(kept);
}

void GraphBuilder::assign_handlers_from_table() {
  const auto& entries = table_;
  if (entries.empty()) return;  // nothing is covered: blocks start without a handler
  const auto& ins = code_.instructions;
  const std::uint8_t ext = code_.traits->extended_arg;
  std::size_t next = 0;  // first entry that does not end before the instruction
  // The entry covering the instruction at `at` (advancing `next`), or null.
  auto cover = [&](std::uint32_t at) -> const ExceptionTableEntry* {
    while (next < entries.size() && entries[next].end < at) ++next;
    return next < entries.size() && entries[next].start <= at ? &entries[next] : nullptr;
  };
  for (Block& b : graph_.blocks_) {
    std::uint32_t first = b.first;
    while (ins[first].opcode == ext) ++first;  // a prefix cannot raise (and `last` is none)
    const std::uint32_t last_at = ins[b.last].offset;
    const ExceptionTableEntry* block_entry = cover(ins[first].offset);
    // Blocks were split at the entries' bounds, so the entry that covers the
    // first instruction reaches the last, or none covers either and none
    // starts in between. Otherwise each instruction is looked at, to name the
    // one covered differently (or to find that only caches were).
    const bool whole = block_entry ? block_entry->end >= last_at
                                   : next == entries.size() || entries[next].start > last_at;
    if (!whole) {
      for (std::uint32_t i = first + 1; i <= b.last; ++i) {
        if (ins[i].opcode == ext) continue;
        if (cover(ins[i].offset) != block_entry) {
          throw Error(ErrorKind::Decode,
                      "cfg: inconsistent handlers inside the block at " + std::to_string(b.begin) +
                          ": " + describe(ins[i]) + " is covered differently",
                      ins[i].offset);
        }
      }
    }
    if (block_entry != nullptr) {
      b.handler = Handler{block_at_offset(block_entry->target, block_entry->start),
                          block_entry->depth, block_entry->lasti,
                          1u + (block_entry->lasti ? 1u : 0u)};
    }
  }
}

// ---------------------------------------------------------------------------
// ≤3.10: the block stack.

namespace {

enum FinallyKind : std::uint8_t { kByNormal = 1, kByCall = 2, kByException = 4 };

// ceval's CO_MAXBLOCKS: a deeper block stack is a fatal error at run time (and
// a SyntaxError at compile time), so deeper input is bad, and bounding it keeps
// the per-block states small.
constexpr std::size_t kMaxBlocks = 20;

struct StackEntry {
  bool is_setup = false;
  std::uint8_t kinds = 0;         // finally/except-handler entries: FinallyKind bits
  BlockId handler = kNoBlock;     // setup entries
  std::uint32_t level = 0;        // setup entries: the stack depth the handler unwinds to
};

struct BlockState {
  bool known = false;
  bool weak_depth = false;  // only reached by CALL_FINALLY so far
  std::uint32_t depth = 0;
  std::size_t raises = 0;  // times a CALL_FINALLY raised a weak depth
  std::vector<StackEntry> stack;
};

// Same length, and a setup entry where the other has one.
bool same_shape(const std::vector<StackEntry>& a, const std::vector<StackEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const StackEntry& x, const StackEntry& y) { return x.is_setup == y.is_setup; });
}

// The same SETUP_* entries (the handlers an exception finds), whatever
// except-handler/finally entries lie between them.
bool same_handlers(const std::vector<StackEntry>& a, const std::vector<StackEntry>& b) {
  auto setups = [](const std::vector<StackEntry>& s) {
    std::vector<std::pair<BlockId, std::uint32_t>> out;
    for (const StackEntry& e : s)
      if (e.is_setup) out.emplace_back(e.handler, e.level);
    return out;
  };
  return setups(a) == setups(b);
}

bool ends_in_entry(const std::vector<StackEntry>& s) { return !s.empty() && !s.back().is_setup; }

std::string describe_entry(const StackEntry& e, const Graph& graph) {
  if (!e.is_setup) return "an exception/finally entry";
  return "a handler at " + std::to_string(graph.block(e.handler).begin);
}

// The flow's working arrays, kept for the next code object of the thread:
// every ≤3.10 code object runs the flow, most with one or two blocks, and
// allocating the arrays cost more than filling them. No flow starts inside another.
struct BlockStackScratch {
  std::vector<BlockState> states;
  std::vector<bool> queued;
  std::vector<BlockId> work;
};

class BlockStackFlow {
 public:
  explicit BlockStackFlow(GraphBuilder& builder, BlockStackScratch& scratch)
      : b_(builder),
        ins_(builder.code_.instructions),
        blocks_(builder.blocks()),
        states_(scratch.states),
        queued_(scratch.queued),
        work_(scratch.work) {
    // Reset in place: a state's block stack keeps its capacity.
    states_.resize(blocks_.size());
    for (BlockState& s : states_) {
      std::vector<StackEntry> stack = std::move(s.stack);
      stack.clear();
      s = BlockState{};
      s.stack = std::move(stack);
    }
    queued_.assign(blocks_.size(), false);
    work_.clear();
  }

  void run() {
    std::int64_t start_depth = 0;
    // 3.10 generators start with the first value sent (None) on the stack;
    // their GEN_START pops it (compile.c starts such code at depth 1).
    const Instruction& first = ins_[blocks_[0].first];
    if (first.info && first.op() == Op::GEN_START) start_depth = 1;
    merge(0, {}, start_depth, Entry::Strong, 0);
    while (!work_.empty()) {
      const BlockId id = work_.back();
      work_.pop_back();
      queued_[id] = false;
      process(id);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::uint32_t offset) const {
    throw Error(ErrorKind::Decode, "cfg: " + what, offset);
  }

  // Runs per instruction: the checks inline, their messages out of line.
  std::int64_t effect(const Instruction& in, bool jump) const {
    auto e = block_stack_effect(in.op(), in.arg, jump);
    if (!e) [[unlikely]] no_effect(in);
    return *e;
  }

  std::int64_t checked(std::int64_t depth, const Instruction& in) const {
    if (depth < 0 || depth > std::numeric_limits<std::int32_t>::max()) [[unlikely]]
      bad_depth(depth, in);
    return depth;
  }

  [[noreturn, gnu::cold, gnu::noinline]] void no_effect(const Instruction& in) const {
    throw Error(ErrorKind::Limit,
                "cfg: no stack effect known for " + b_.describe(in) +
                    " (needed to place block-stack exception handlers)",
                in.offset);
  }

  [[noreturn, gnu::cold, gnu::noinline]] void bad_depth(std::int64_t depth, const Instruction& in) const {
    fail(std::string(depth < 0 ? "stack underflow" : "stack depth overflow") + " after " + b_.describe(in),
         in.offset);
  }

  // How a path reaches a block: normally; by CALL_FINALLY into a finally body,
  // whose depth only counts until another path enters (compile.c takes the
  // largest); or from a block reached only by such calls, which is just as
  // provisional but must not raise the depth (a loop there could raise it
  // forever).
  enum class Entry : std::uint8_t { Strong, Called, Provisional };

  void merge(BlockId to, const std::vector<StackEntry>& stack, std::int64_t depth, Entry how,
             std::uint32_t from) {
    const bool weak = how != Entry::Strong;
    BlockState& s = states_[to];
    const std::uint32_t at = blocks_[to].begin;
    if (stack.size() > kMaxBlocks) {
      fail("block stack deeper than CPython's limit of " + std::to_string(kMaxBlocks) +
               " at " + std::to_string(at) + " (from " + std::to_string(from) + ")",
           from);
    }
    const auto d = static_cast<std::uint32_t>(depth);
    bool changed = false;
    if (!s.known) {
      s.known = true;
      s.weak_depth = weak;
      s.depth = d;
      s.stack = stack;
      changed = true;
    } else if ((weak || s.weak_depth) && !same_shape(s.stack, stack) &&
               same_handlers(s.stack, stack) && ends_in_entry(s.stack) && ends_in_entry(stack)) {
      // 3.8 runs a finally body (the cleanup of `except E as name:`) from a
      // CALL_FINALLY after POP_EXCEPT as well as by an exception inside the
      // handler: block stacks that differ in except-handler entries but
      // install the same handlers. The exception's path decides the stack;
      // the call only adds its entry kind to the top.
      if (weak) {
        changed = (s.stack.back().kinds & kByCall) == 0;
        s.stack.back().kinds |= kByCall;
      } else {
        const std::uint8_t called = s.stack.back().kinds & kByCall;
        s.stack = stack;
        s.stack.back().kinds |= called;
        s.weak_depth = false;
        s.depth = d;
        changed = true;
      }
    } else {
      if (s.stack.size() != stack.size()) {
        fail("the block at " + std::to_string(at) + " is reached with " +
                 std::to_string(s.stack.size()) + " and (from " + std::to_string(from) + ") " +
                 std::to_string(stack.size()) + " blocks on the block stack",
             at);
      }
      for (std::size_t i = 0; i < stack.size(); ++i) {
        StackEntry& mine = s.stack[i];
        const StackEntry& theirs = stack[i];
        if (mine.is_setup != theirs.is_setup ||
            (mine.is_setup && (mine.handler != theirs.handler || mine.level != theirs.level))) {
          fail("inconsistent exception handlers at " + std::to_string(at) + ": " +
                   describe_entry(mine, b_.graph()) + " on one path, " +
                   describe_entry(theirs, b_.graph()) + " from " + std::to_string(from),
               at);
        }
        if (!mine.is_setup && (mine.kinds | theirs.kinds) != mine.kinds) {
          mine.kinds |= theirs.kinds;
          changed = true;
        }
      }
      if (!weak) {
        if (s.weak_depth) {
          s.weak_depth = false;
          changed |= s.depth != d;
          s.depth = d;
        } else if (s.depth != d) {
          fail("the block at " + std::to_string(at) + " is reached with stack depths " +
                   std::to_string(s.depth) + " and " + std::to_string(d) + " (from " +
                   std::to_string(from) + ")",
               at);
        }
      } else if (s.weak_depth && d > s.depth && how == Entry::Called) {
        // Once per call site in real code; a body that calls itself deeper
        // each time (bad input) would go on forever.
        if (++s.raises > blocks_.size()) {
          fail("the finally body at " + std::to_string(at) + " is called at ever deeper stacks",
               at);
        }
        s.depth = d;
        changed = true;
      }
    }
    if (changed && !queued_[to]) {
      queued_[to] = true;
      work_.push_back(to);
    }
  }

  // Applies a non-Setup block action. Returns the kinds of a popped finally
  // entry (END_FINALLY needs them).
  std::uint8_t apply(const Instruction& in, std::vector<StackEntry>& stack) const {
    const BlockAction action = b_.flow(in).action;
    auto top_finally = [&]() -> StackEntry& {
      if (stack.empty() || stack.back().is_setup) {
        fail(b_.describe(in) + " outside a finally body or exception handler", in.offset);
      }
      return stack.back();
    };
    switch (action) {
      case BlockAction::None:
      case BlockAction::PushHandler: return 0;  // PushHandler: see process()
      case BlockAction::PopBlock:
        if (stack.empty() || !stack.back().is_setup) {
          fail(b_.describe(in) + " has no SETUP_* block to pop", in.offset);
        }
        stack.pop_back();
        return 0;
      case BlockAction::PopExcept: {
        if ((top_finally().kinds & kByException) == 0) {
          fail(b_.describe(in) + " outside an exception handler", in.offset);
        }
        stack.pop_back();
        return 0;
      }
      case BlockAction::BeginFinally: stack.push_back(StackEntry{false, kByNormal}); return 0;
      case BlockAction::PopFinally:
      case BlockAction::EndFinally: {
        const std::uint8_t kinds = top_finally().kinds;
        stack.pop_back();
        return kinds;
      }
      case BlockAction::CleanupFinish: {
        StackEntry& e = top_finally();
        if (e.kinds & kByException) e.kinds |= kByNormal;
        return 0;
      }
    }
    return 0;
  }

  void process(BlockId id) {
    Block& block = blocks_[id];
    const BlockState state = states_[id];  // a copy: merges below may grow it
    // Reached only through CALL_FINALLY so far: what follows is provisional
    // too, until a path entering the finally body otherwise arrives.
    const Entry onward = state.weak_depth ? Entry::Provisional : Entry::Strong;
    block.reachable = true;
    block.entry_depth = state.depth;

    // The handler is the top SETUP entry; except-handler entries above it are
    // unwound on the way.
    block.handler.reset();
    for (std::size_t i = state.stack.size(); i-- > 0;) {
      const StackEntry& e = state.stack[i];
      if (!e.is_setup) continue;
      block.handler = Handler{e.handler, e.level, false, kBlockStackHandlerPushes};
      std::vector<StackEntry> at_handler(state.stack.begin(), state.stack.begin() + i);
      at_handler.push_back(StackEntry{false, kByException});
      merge(e.handler, at_handler, std::int64_t{e.level} + kBlockStackHandlerPushes, Entry::Strong,
            block.begin);
      break;
    }

    std::vector<StackEntry> stack = state.stack;
    std::int64_t depth = state.depth;
    for (std::uint32_t i = block.first; i < block.last; ++i) {
      const Instruction& in = ins_[i];
      if (b_.flow(in).action != BlockAction::None) apply(in, stack);  // most do nothing to the block stack
      depth = checked(depth + effect(in, false), in);
    }

    const Instruction& last = ins_[block.last];
    const FlowInfo& f = b_.flow(last);
    const std::uint8_t popped = apply(last, stack);
    PendingSuccessors& p = b_.pending_[id];
    auto fall_depth = [&] { return checked(depth + effect(last, false), last); };
    auto jump_depth = [&] { return checked(depth + effect(last, true), last); };
    switch (f.flow) {
      case Flow::Normal:
        if (p.fall != kNoBlock) merge(p.fall, stack, fall_depth(), onward, last.offset);
        break;
      case Flow::Setup: {
        const std::int64_t handler_entry = jump_depth();
        if (handler_entry < kBlockStackHandlerPushes) {
          fail(b_.describe(last) + " protects a stack of negative depth", last.offset);
        }
        std::vector<StackEntry> inside = stack;
        inside.push_back(StackEntry{true, 0, p.target_for_setup,
                                    static_cast<std::uint32_t>(handler_entry -
                                                               kBlockStackHandlerPushes)});
        if (p.fall != kNoBlock) merge(p.fall, inside, fall_depth(), onward, last.offset);
        break;
      }
      case Flow::Jump: merge(p.target, stack, jump_depth(), onward, last.offset); break;
      case Flow::Branch:
        if (p.fall != kNoBlock) merge(p.fall, stack, fall_depth(), onward, last.offset);
        merge(p.target, stack, jump_depth(), onward, last.offset);
        break;
      case Flow::Exit: break;
      case Flow::CallFinally: {
        if (p.fall != kNoBlock) merge(p.fall, stack, fall_depth(), onward, last.offset);
        std::vector<StackEntry> called = stack;
        called.push_back(StackEntry{false, kByCall});
        merge(p.target, called, jump_depth(), Entry::Called, last.offset);
        break;
      }
      case Flow::EndFinally:
        if (popped & kByNormal) {
          if (id + 1 < blocks_.size()) {
            p.fall = id + 1;
            merge(p.fall, stack, fall_depth(), onward, last.offset);
          } else {
            p.falls_off_end = true;
          }
        }
        break;
    }
  }

  GraphBuilder& b_;
  const std::vector<Instruction>& ins_;
  std::vector<Block>& blocks_;
  std::vector<BlockState>& states_;
  std::vector<bool>& queued_;
  std::vector<BlockId>& work_;
};

}  // namespace

void GraphBuilder::assign_handlers_from_block_stack() {
  // The SETUP_* targets are handlers, not successors: remember them apart.
  for (const Block& b : graph_.blocks_) {
    const Instruction& last = code_.instructions[b.last];
    if (flow(last).flow == Flow::Setup) {
      pending_[b.id].target_for_setup = block_at_offset(*last.jump_target, last.offset);
    }
  }
  BlockStackFlow(*this, per_thread<BlockStackScratch>()).run();
}

}  // namespace unveil::cfg

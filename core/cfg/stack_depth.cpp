// The value-stack depth check of 3.11+ code (⇄ CPython's stackdepth() in
// Python/flowgraph.c, run as a checker): one depth on entry to every reachable
// block, propagated along fall-through, jump, branch and exception edges.
//
// The compiler only emits code whose depth is the same on every path into a
// block, never pops what is not there, and protects with each exception-table
// entry only code whose stack is at least the entry's depth. Bytecode that
// breaks one of these (hand-made, corrupted, or a bug upstream) would make
// every later stage guess, so it is rejected here with the offset.
//
// ≤3.10 code gets the same checks from the block-stack dataflow in
// exception_regions.cpp, which needs the depths anyway to place handlers.
#include <array>
#include <limits>
#include <string>
#include <vector>

#include "cfg/builder.h"
#include "cfg/table_effect.h"
#include "support/error.h"
#include "support/tls.h"

namespace unveil::cfg {
namespace {

// co_stacksize is a C int; deeper is not code CPython could run.
constexpr std::int64_t kMaxDepth = std::numeric_limits<std::int32_t>::max();

std::string values(std::int64_t n) {
  return std::to_string(n) + (n == 1 ? " value" : " values");
}

// The rows of a version the table does not cover: none is known, so the
// first instruction checked fails (no test per instruction for a missing table).
constexpr std::array<TableRow, kOpCount> kNoRows{};

// The working arrays of one check, kept for the next (every graph is
// checked, most of a few blocks: allocating them cost more than filling them).
// No check starts inside another.
struct Scratch {
  std::vector<std::int64_t> depth;
  std::vector<std::uint32_t> from;
  std::vector<BlockId> work;
};

class StackDepthCheck {
 public:
  explicit StackDepthCheck(const GraphBuilder& builder, Scratch& scratch)
      : b_(builder),
        graph_(builder.graph()),
        ins_(builder.code_.instructions),
        rows_(table_rows(builder.code_.traits->minor)),
        ext_(builder.code_.traits->extended_arg),
        depth_(scratch.depth),
        from_(scratch.from),
        work_(scratch.work) {
    if (rows_ == nullptr) rows_ = kNoRows.data();
    depth_.assign(graph_.size(), -1);
    from_.assign(graph_.size(), 0);
    work_.clear();
  }

  void run() {
    reach(graph_.entry(), 0, 0);
    while (!work_.empty()) {
      const BlockId id = work_.back();
      work_.pop_back();
      visit(id);
    }
  }

 private:
  [[noreturn]] static void fail(const std::string& what, std::uint32_t offset) {
    throw Error(ErrorKind::Decode, "cfg: " + what, offset);
  }

  TableStackEffect effect(const Instruction& in) const {
    const TableRow& row = rows_[static_cast<std::size_t>(in.op())];
    if (!row.known) [[unlikely]] {
      fail("no stack effect is known for " + b_.describe(in) +
               " (specialized and instrumented opcodes cannot appear in co_code)",
           in.offset);
    }
    return row.of(in.arg);
  }

  // `in` pops more than the stack holds, or runs below its handler's depth.
  [[noreturn]] void fail_inside(const Instruction& in, std::int64_t depth, std::int64_t popped,
                                const Handler* handler) const {
    if (depth < popped) {
      fail("stack underflow: " + b_.describe(in) + " needs " + values(popped) +
               " on the stack, which holds " + std::to_string(depth),
           in.offset);
    }
    fail(b_.describe(in) + " runs with " + values(depth) + " on the stack, under the depth " +
             std::to_string(handler->depth) + " its exception handler at " +
             std::to_string(graph_.block(handler->block).begin) + " unwinds to",
         in.offset);
  }

  // The first path into a block fixes its depth; every other must agree.
  void reach(BlockId to, std::int64_t depth, std::uint32_t from) {
    if (depth_[to] < 0) {
      depth_[to] = depth;
      from_[to] = from;
      work_.push_back(to);
      return;
    }
    if (depth_[to] != depth) {
      const std::uint32_t at = graph_.block(to).begin;
      fail("the block at " + std::to_string(at) + " is reached with stack depths " +
               std::to_string(depth_[to]) + " (from " + std::to_string(from_[to]) + ") and " +
               std::to_string(depth) + " (from " + std::to_string(from) + ")",
           at);
    }
  }

  void visit(BlockId id) {
    const Block& block = graph_.blocks()[id];
    const Handler* handler = block.handler ? &*block.handler : nullptr;
    // What every instruction needs under it: what it pops, and the handler's depth.
    const std::int64_t floor =
        handler ? std::int64_t{handler->depth} : std::numeric_limits<std::int64_t>::min();
    std::int64_t depth = depth_[id];
    TableStackEffect last{};
    for (std::uint32_t i = block.first; i <= block.last; ++i) {
      const Instruction& in = ins_[i];
      if (in.opcode == ext_) continue;  // a prefix, part of the next instruction
      last = effect(in);
      if (depth < last.popped || depth < floor) [[unlikely]] {
        fail_inside(in, depth, last.popped, handler);
      }
      if (i != block.last) depth += last.pushed - last.popped;  // the last's depends on the edge
      if (depth > kMaxDepth) [[unlikely]] {
        fail("stack depth overflow after " + b_.describe(in), in.offset);
      }
    }

    const Instruction& end = ins_[block.last];
    const std::int64_t fall = depth - last.popped + last.pushed;
    const std::int64_t jump = depth - last.popped + last.pushed_on_jump;
    if (fall > kMaxDepth || jump > kMaxDepth) {
      fail("stack depth overflow after " + b_.describe(end), end.offset);
    }
    for (std::uint32_t e : block.succs) {
      const Edge& edge = graph_.edges()[e];
      switch (edge.kind) {
        case EdgeKind::FallThrough: reach(edge.to, fall, end.offset); break;
        case EdgeKind::Jump:
        case EdgeKind::Branch:
        case EdgeKind::Call: reach(edge.to, jump, end.offset); break;
        case EdgeKind::Exception:
          reach(edge.to, std::int64_t{handler->entry_depth()}, block.begin);
          break;
      }
    }
  }

  const GraphBuilder& b_;
  const Graph& graph_;
  const std::vector<Instruction>& ins_;
  const TableRow* rows_;  // by Op, of this version (kNoRows if the table has none)
  std::uint8_t ext_;
  std::vector<std::int64_t>& depth_;  // -1: not reached yet
  std::vector<std::uint32_t>& from_;  // the offset the first path came from
  std::vector<BlockId>& work_;
};

}  // namespace

void GraphBuilder::check_stack_depths() const { StackDepthCheck(*this, per_thread<Scratch>()).run(); }

}  // namespace unveil::cfg

// The control-flow graph of one code object (⇄ CPython's Python/flowgraph.c,
// run backwards): basic blocks over DecodedCode::instructions, typed edges, and
// for every block the exception handler that covers it, in one representation
// for the 3.11+ exception table and the ≤3.10 block stack.
//
//   DecodedCode code = decode(object, version);
//   cfg::Graph graph = cfg::build_graph(code);
//   auto dom = cfg::DominatorTree::dominators(graph);
//   auto loops = cfg::LoopForest::find(graph, dom);
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "decode/instruction.h"
#include "support/sentinel_optional.h"
#include "support/spare.h"

namespace unveil::cfg {

using BlockId = std::uint32_t;
inline constexpr BlockId kNoBlock = 0xffffffffu;

enum class EdgeKind : std::uint8_t {
  FallThrough,  // to the next block in the code: plain, or a conditional's not-taken path
  Jump,         // unconditional jump
  Branch,       // taken conditional jump; FOR_ITER exhausted; SEND done; JUMP_IF_*_OR_POP
  Exception,    // from a block to the handler that covers it
  Call,         // 3.8 CALL_FINALLY into the finally body; control comes back along
                // the CALL_FINALLY block's FallThrough edge once END_FINALLY returns
};
inline constexpr int kEdgeKindCount = 5;
std::string_view edge_kind_name(EdgeKind kind) noexcept;

// Which edge kinds an analysis follows.
class EdgeFilter {
 public:
  constexpr EdgeFilter() = default;  // no edges
  static constexpr EdgeFilter all() { return EdgeFilter((1u << kEdgeKindCount) - 1); }
  // Everything but Exception edges: the flow when nothing raises.
  static constexpr EdgeFilter normal() { return all().without(EdgeKind::Exception); }
  constexpr EdgeFilter with(EdgeKind kind) const { return EdgeFilter(bits_ | bit(kind)); }
  constexpr EdgeFilter without(EdgeKind kind) const { return EdgeFilter(bits_ & ~bit(kind)); }
  constexpr bool accepts(EdgeKind kind) const { return (bits_ & bit(kind)) != 0; }
  friend constexpr bool operator==(EdgeFilter, EdgeFilter) = default;

 private:
  constexpr explicit EdgeFilter(unsigned bits) : bits_(static_cast<std::uint8_t>(bits)) {}
  static constexpr unsigned bit(EdgeKind kind) { return 1u << static_cast<unsigned>(kind); }
  std::uint8_t bits_ = 0;
};

struct Edge {
  BlockId from = kNoBlock;
  BlockId to = kNoBlock;
  EdgeKind kind = EdgeKind::FallThrough;
  friend bool operator==(const Edge&, const Edge&) = default;
};

// Where an exception raised in a block goes, and the value stack it finds there:
// the stack is cut back to `depth` items, then `pushed` values are pushed.
struct Handler {
  BlockId block = kNoBlock;
  std::uint32_t depth = 0;
  // 3.11+: the offset of the raising instruction is pushed under the exception
  // (the table's lasti flag; RERAISE 1 uses it to restore f_lasti).
  bool lasti = false;
  // 3.11+: 1 + lasti (the exception). ≤3.10: 6 (exc_info and the exception,
  // three values each; kBlockStackHandlerPushes).
  std::uint32_t pushed = 0;

  std::uint32_t entry_depth() const noexcept { return depth + pushed; }
  friend bool operator==(const Handler&, const Handler&) = default;
};

// A Handler's "none", for Block::handler: no block.
struct NoHandler {
  static constexpr Handler none() noexcept { return Handler{}; }
  static constexpr bool is_none(const Handler& h) noexcept { return h.block == kNoBlock; }
};

// A run of consecutive indices [first, last): a block's edges. (Not
// std::ranges::iota_view: clang 14 with libstdc++ 12 cannot use it.)
struct IndexRange {
  std::uint32_t first = 0;
  std::uint32_t last = 0;

  struct iterator {
    std::uint32_t value;
    std::uint32_t operator*() const noexcept { return value; }
    iterator& operator++() noexcept {
      ++value;
      return *this;
    }
    bool operator==(const iterator&) const = default;
  };
  iterator begin() const noexcept { return {first}; }
  iterator end() const noexcept { return {last}; }
  std::size_t size() const noexcept { return last - first; }
  bool empty() const noexcept { return first == last; }
  std::uint32_t operator[](std::size_t k) const noexcept { return first + static_cast<std::uint32_t>(k); }
};

struct Block {
  BlockId id = kNoBlock;  // blocks are numbered in code order; the entry is 0
  // Indices into DecodedCode::instructions, inclusive. `first` may be an
  // EXTENDED_ARG (prefixes belong to the block of the instruction they
  // prefix); `last` never is.
  std::uint32_t first = 0;
  std::uint32_t last = 0;
  std::uint32_t begin = 0;  // byte offset of instructions[first]
  std::uint32_t end = 0;    // byte offset just past instructions[last] and its caches
  // Indices into Graph::edges(). Successors are ordered fall-through first,
  // then the jump/branch/call edge, then the exception edge; the builder adds
  // a block's edges together, so they are a range of indices. Predecessors,
  // ascending, are a slice of one array the graph owns: `pred_slots` is where
  // in it (Graph::preds gives the edge indices). (A vector each was two
  // allocations per block; a span, 8 bytes more than the range.)
  IndexRange succs;
  IndexRange pred_slots;
  SentinelOptional<Handler, NoHandler> handler;
  // Value-stack depth on entry, where the graph had to compute it (block-stack
  // versions, to place handlers); nullopt otherwise and for unreachable blocks.
  SentinelOptional<std::uint32_t> entry_depth;
  bool reachable = false;   // from the entry along any edge
  bool is_handler = false;  // the handler of at least one block

  std::uint32_t size() const noexcept { return last - first + 1; }
};
// (No pointer, no std::optional: 60 bytes, against 80. The passes over a big
// function's blocks are what outgrows the cache first.)
static_assert(sizeof(Block) <= 60);

class Graph {
 public:
  Graph() = default;
  // Blocks point into pred_edges_: a moved graph keeps them valid, a copy would not.
  Graph(Graph&&) noexcept = default;
  Graph& operator=(Graph&&) noexcept = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // The code the graph was built from. Not owned: it must outlive the graph
  // and stay where it is (the graph keeps its address).
  const DecodedCode& code() const noexcept { return *code_; }
  BlockId entry() const noexcept { return 0; }
  std::size_t size() const noexcept { return blocks_.size(); }
  std::span<const Block> blocks() const noexcept { return blocks_; }
  const Block& block(BlockId id) const { return blocks_.at(id); }
  std::span<const Edge> edges() const noexcept { return edges_; }
  const Edge& edge(std::uint32_t index) const { return edges_.at(index); }

  // The block whose first instruction (or its first EXTENDED_ARG) is at `offset`.
  std::optional<BlockId> block_at(std::uint32_t offset) const;
  // The block holding the code unit at `offset` (opcode, prefix or cache).
  std::optional<BlockId> block_containing(std::uint32_t offset) const;
  // The block's instructions, EXTENDED_ARG prefixes included. (Inline: lift
  // asks for them per block it visits.)
  std::span<const Instruction> instructions(BlockId id) const {
    const Block& b = blocks_.at(id);
    return std::span<const Instruction>(code_->instructions.data() + b.first, b.size());
  }
  const Instruction& last_instruction(BlockId id) const {
    return code_->instructions.at(blocks_.at(id).last);
  }
  // Whether any instruction of the code is `op` (EXTENDED_ARG not counted).
  // A pass that looks for a rare opcode asks this first instead of reading
  // blocks' instructions, which a big function's later passes find evicted.
  bool uses(Op op) const noexcept { return ops_.test(static_cast<std::size_t>(op)); }

  // Indices into edges() of the edges into `id`, ascending.
  std::span<const std::uint32_t> preds(BlockId id) const noexcept {
    const IndexRange slots = blocks_[id].pred_slots;
    return std::span<const std::uint32_t>(pred_edges_.data() + slots.first, slots.size());
  }

  // Calls f(const Edge&) for each successor / predecessor edge `filter` accepts.
  template <class F>
  void for_each_successor(BlockId id, EdgeFilter filter, F&& f) const {
    for (std::uint32_t e : blocks_[id].succs)
      if (filter.accepts(edges_[e].kind)) f(edges_[e]);
  }
  template <class F>
  void for_each_predecessor(BlockId id, EdgeFilter filter, F&& f) const {
    for (std::uint32_t e : preds(id))
      if (filter.accepts(edges_[e].kind)) f(edges_[e]);
  }

 private:
  friend class GraphBuilder;
  const DecodedCode* code_ = nullptr;
  // (Their storage is reused by the thread's next graph: see support/spare.h.)
  RecycledVector<Block> blocks_;
  RecycledVector<Edge> edges_;
  RecycledVector<std::uint32_t> pred_edges_;  // every block's preds, block after block
  std::bitset<kOpCount> ops_;  // the opcodes the code uses (uses())
};

// Splits `code` into basic blocks, adds the edges and assigns exception
// handlers. `code` must outlive the graph and not move. Throws Error(Decode) naming the
// offset for flow that cannot happen: a jump without a target, control falling
// off the end of the code, overlapping exception-table entries, a block stack
// (≤3.10) that differs between two paths into a block or pops what is not there,
// a stack depth that differs between paths or goes negative, or (3.11+) an
// exception handler that unwinds deeper than the stack it protects.
Graph build_graph(const DecodedCode& code);

}  // namespace unveil::cfg

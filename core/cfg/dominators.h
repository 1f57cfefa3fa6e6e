// Orders and dominator trees over a Graph (Cooper, Harvey & Kennedy, "A Simple,
// Fast Dominance Algorithm", 2001). Everything is iterative: Dynamo code objects
// have thousands of blocks and deep chains, so no recursion anywhere.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cfg/graph.h"

namespace unveil::cfg {

// Blocks reachable from the entry along `filter`'s edges, in reverse post-order
// of a depth-first search that follows each block's successors in edge order.
std::vector<BlockId> reverse_post_order(const Graph& graph, EdgeFilter filter = EdgeFilter::all());

class DominatorTree {
 public:
  // a dominates b: every path from the entry to b (along `filter`'s edges)
  // passes through a. Blocks unreachable along those edges are not in the tree.
  static DominatorTree dominators(const Graph& graph, EdgeFilter filter = EdgeFilter::all());

  // a post-dominates b: every path from b to an exit passes through a. Computed
  // on the reversed graph, rooted at a virtual exit node (id graph.size()) that
  // every block without an accepted successor flows to. Only blocks reachable
  // from the entry take part. Blocks that cannot reach any exit (an infinite
  // loop) are given a virtual edge to the exit too: repeatedly the unconnected
  // block latest in the forward reverse post-order (the bottom of the loop)
  // is linked, so that every block gets a post-dominator; `forced_exits()`
  // lists those blocks. `also`, when given, marks by edge index edges to
  // follow whatever their kind (an async for's exit is an exception edge).
  static DominatorTree post_dominators(const Graph& graph, EdgeFilter filter = EdgeFilter::all(),
                                       const std::vector<bool>* also = nullptr);

  bool is_post() const noexcept { return post_; }
  EdgeFilter filter() const noexcept { return filter_; }
  // The entry, or the virtual exit for post-dominators.
  BlockId root() const noexcept { return root_; }
  // graph.size() for post-dominators, kNoBlock otherwise.
  BlockId virtual_exit() const noexcept { return post_ ? root_ : kNoBlock; }
  // Blocks plus the virtual exit, if any: valid ids are below this.
  std::size_t node_count() const noexcept { return nodes_; }

  // Whether the block is in the tree (reachable from the root).
  bool contains(BlockId id) const noexcept { return id < nodes_ && pre(id) != kNoBlock; }
  // The immediate (post-)dominator; kNoBlock for the root and for blocks not in the tree.
  BlockId idom(BlockId id) const noexcept;
  // Reflexive; false when either block is not in the tree. O(1), and inline:
  // the structurer asks it in most of its decisions.
  bool dominates(BlockId a, BlockId b) const noexcept {
    if (!contains(a) || !contains(b)) return false;
    return pre(a) <= pre(b) && post(b) <= post(a);
  }
  bool strictly_dominates(BlockId a, BlockId b) const noexcept { return a != b && dominates(a, b); }
  // Children in the tree, in increasing id order.
  std::span<const BlockId> children(BlockId id) const;
  // The tree's nodes in reverse post-order of the (for post-dominators, reversed) graph.
  std::span<const BlockId> order() const noexcept { return part(kOrder); }
  // Post-dominators: the blocks linked to the virtual exit only because they
  // could not reach an exit.
  std::span<const BlockId> forced_exits() const noexcept { return part(kForcedExits); }

  // Dominance frontier of every node, indexed by id (for post-dominators: the
  // branches each block is control dependent on). Cost is proportional to the
  // total size of the frontiers.
  std::vector<std::vector<BlockId>> frontiers() const;

 private:
  bool post_ = false;
  EdgeFilter filter_;
  BlockId root_ = 0;
  std::uint32_t nodes_ = 0;  // blocks plus the virtual exit, if any
  // The id arrays, one after another in one allocation (a decompile builds
  // two trees per code object, mostly of a few blocks: a vector each was
  // most of a small tree's cost). part(k) is ids_[starts_[k], starts_[k + 1]).
  enum Part : std::size_t {
    // Tree DFS numbering, pre and post side by side per node (dominates()
    // reads both), kNoBlock if absent. First, so that it starts at ids_[0].
    kNumbers,
    kIdom,         // root: itself; not in tree: kNoBlock
    kOrder,        // reverse post-order
    kChildStart,   // children of n: child items [start[n], start[n + 1])
    kChildItems,
    kPredStart,    // predecessors in the analysed direction, as rows
    kPredItems,
    kForcedExits,
    kParts
  };
  RecycledVector<BlockId> ids_;  // (storage reused by the thread's next tree)
  std::uint32_t starts_[kParts + 1] = {};
  std::uint32_t pre(BlockId id) const noexcept { return ids_[2 * std::size_t{id}]; }
  std::uint32_t post(BlockId id) const noexcept { return ids_[2 * std::size_t{id} + 1]; }
  std::span<const BlockId> part(Part k) const noexcept {
    return std::span<const BlockId>(ids_).subspan(starts_[k], starts_[k + 1] - starts_[k]);
  }

  friend struct DominatorBuilder;
};

}  // namespace unveil::cfg

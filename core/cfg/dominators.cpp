// Cooper-Harvey-Kennedy over a compact adjacency view of the graph: forward for
// dominators, reversed with a virtual exit for post-dominators.
#include "cfg/dominators.h"

#include <algorithm>
#include <utility>

namespace unveil::cfg {
namespace {

constexpr std::uint32_t kNone = kNoBlock;

// Adjacency lists in one array (compressed sparse rows).
struct Csr {
  std::vector<std::uint32_t> start{0};
  std::vector<BlockId> items;

  void add_row(std::span<const BlockId> row) {
    items.insert(items.end(), row.begin(), row.end());
    start.push_back(static_cast<std::uint32_t>(items.size()));
  }
  std::span<const BlockId> row(BlockId n) const {
    return std::span<const BlockId>(items).subspan(start[n], start[n + 1] - start[n]);
  }
};

struct View {
  std::uint32_t nodes = 0;
  BlockId root = 0;
  Csr succ, pred;
  std::vector<BlockId> forced;
  // Post-order of `succ` from `root`, when building the view found it already.
  std::vector<BlockId> post_order;
};

// Post-order of the nodes reachable from `root`, successors in row order.
std::vector<BlockId> post_order(const Csr& succ, std::uint32_t nodes, BlockId root) {
  std::vector<BlockId> out;
  std::vector<bool> seen(nodes, false);
  std::vector<std::pair<BlockId, std::uint32_t>> stack{{root, 0}};
  seen[root] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    auto row = succ.row(node);
    if (next < row.size()) {
      const BlockId to = row[next++];
      if (!seen[to]) {
        seen[to] = true;
        stack.emplace_back(to, 0);
      }
    } else {
      out.push_back(node);
      stack.pop_back();
    }
  }
  return out;
}

// post_order over the graph's own successor lists along `filter`, without
// building rows first; `seen` comes back marking the blocks reached.
std::vector<BlockId> graph_post_order(const Graph& graph, EdgeFilter filter,
                                      std::vector<bool>& seen) {
  std::vector<BlockId> out;
  out.reserve(graph.size());
  seen.assign(graph.size(), false);
  std::vector<std::pair<BlockId, std::uint32_t>> stack{{graph.entry(), 0}};
  seen[graph.entry()] = true;
  const auto blocks = graph.blocks();
  const auto edges = graph.edges();
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const auto& succs = blocks[node].succs;
    if (next < succs.size()) {
      const Edge& e = edges[succs[next++]];
      if (filter.accepts(e.kind) && !seen[e.to]) {
        seen[e.to] = true;
        stack.emplace_back(e.to, 0);
      }
    } else {
      out.push_back(node);
      stack.pop_back();
    }
  }
  return out;
}

Csr filtered(const Graph& graph, EdgeFilter filter, bool successors,
             const std::vector<bool>& keep, const std::vector<bool>* also = nullptr) {
  Csr csr;
  csr.start.reserve(graph.size() + 1);
  csr.items.reserve(graph.edges().size());
  for (const Block& b : graph.blocks()) {
    if (keep[b.id]) {
      auto take = [&](std::uint32_t e) {
        const Edge& edge = graph.edges()[e];
        const BlockId other = successors ? edge.to : edge.from;
        if ((filter.accepts(edge.kind) || (also && (*also)[e])) && keep[other]) csr.items.push_back(other);
      };
      if (successors)
        for (std::uint32_t e : b.succs) take(e);
      else
        for (std::uint32_t e : b.preds) take(e);
    }
    csr.start.push_back(static_cast<std::uint32_t>(csr.items.size()));
  }
  return csr;
}

// The dominator tree needs the predecessors of the reachable blocks (among
// themselves) and a post-order, which one search of the graph gives along
// with reachability: the successor rows themselves are never needed.
View forward_view(const Graph& graph, EdgeFilter filter) {
  View v;
  v.nodes = static_cast<std::uint32_t>(graph.size());
  v.root = graph.entry();
  std::vector<bool> reach;
  v.post_order = graph_post_order(graph, filter, reach);
  v.pred = filtered(graph, filter, false, reach);
  return v;
}

View reverse_view(const Graph& graph, EdgeFilter filter, const std::vector<bool>* also) {
  const auto n = static_cast<std::uint32_t>(graph.size());
  const BlockId exit = n;
  // Every block that runs at all, also one entered only through a handler
  // (code after a `try` whose body always returns): it has post-dominators
  // along the filter's edges like any other.
  std::vector<bool> reach;
  graph_post_order(graph, EdgeFilter::all(), reach);
  const Csr fsucc = filtered(graph, filter, true, reach, also);
  Csr fpred = filtered(graph, filter, false, reach, also);

  // Exits, then the blocks that reach none of them (infinite loops), linked
  // one at a time from the bottom of the forward order.
  std::vector<BlockId> linked;
  for (BlockId b = 0; b < n; ++b) {
    if (reach[b] && fsucc.row(b).empty()) linked.push_back(b);
  }
  std::vector<bool> reaches_exit(n, false);
  std::vector<BlockId> stack;
  auto walk_back_from = [&](BlockId start) {
    if (reaches_exit[start]) return;
    reaches_exit[start] = true;
    stack.push_back(start);
    while (!stack.empty()) {
      const BlockId b = stack.back();
      stack.pop_back();
      for (BlockId p : fpred.row(b)) {
        if (!reaches_exit[p]) {
          reaches_exit[p] = true;
          stack.push_back(p);
        }
      }
    }
  };
  for (BlockId b : linked) walk_back_from(b);
  View v;
  std::vector<BlockId> forward_po = post_order(fsucc, n, graph.entry());
  // Post-order front = latest in reverse post-order.
  for (BlockId b : forward_po) {
    if (!reaches_exit[b]) {
      linked.push_back(b);
      v.forced.push_back(b);
      walk_back_from(b);
    }
  }
  std::vector<bool> is_linked(n, false);
  for (BlockId b : linked) is_linked[b] = true;

  v.nodes = n + 1;
  v.root = exit;
  // Reversed: a block's successors are its forward predecessors (the rows are
  // taken over, not copied), the exit's are the linked blocks.
  v.succ = std::move(fpred);
  std::sort(linked.begin(), linked.end());
  v.succ.add_row(linked);
  v.pred.start.reserve(n + 2);
  v.pred.items.reserve(fsucc.items.size() + linked.size());
  for (BlockId b = 0; b < n; ++b) {
    const auto row = fsucc.row(b);
    v.pred.items.insert(v.pred.items.end(), row.begin(), row.end());
    if (is_linked[b]) v.pred.items.push_back(exit);
    v.pred.start.push_back(static_cast<std::uint32_t>(v.pred.items.size()));
  }
  v.pred.add_row({});
  std::sort(v.forced.begin(), v.forced.end());
  return v;
}

}  // namespace

struct DominatorBuilder {
  static DominatorTree build(View view, bool post, EdgeFilter filter) {
    DominatorTree t;
    t.post_ = post;
    t.filter_ = filter;
    t.root_ = view.root;
    t.forced_exits_ = std::move(view.forced);
    const std::uint32_t n = view.nodes;

    std::vector<BlockId> order =
        view.post_order.empty() ? post_order(view.succ, n, view.root) : std::move(view.post_order);
    std::reverse(order.begin(), order.end());
    std::vector<std::uint32_t> rank(n, kNone);
    for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;

    // CHK: iterate to a fixed point in reverse post-order; `intersect` walks
    // the two fingers up the current tree by rank.
    std::vector<BlockId> idom(n, kNone);
    idom[view.root] = view.root;
    auto intersect = [&](BlockId a, BlockId b) {
      while (a != b) {
        while (rank[a] > rank[b]) a = idom[a];
        while (rank[b] > rank[a]) b = idom[b];
      }
      return a;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 1; i < order.size(); ++i) {
        const BlockId b = order[i];
        BlockId next = kNone;
        for (BlockId p : view.pred.row(b)) {
          if (idom[p] == kNone) continue;  // not processed yet (or unreachable)
          next = next == kNone ? p : intersect(p, next);
        }
        if (next != idom[b]) {
          idom[b] = next;
          changed = true;
        }
      }
    }

    // Children lists (by increasing id), then a DFS numbering of the tree for
    // O(1) dominance queries.
    std::vector<std::uint32_t> count(n + 1, 0);
    for (BlockId b = 0; b < n; ++b) {
      if (idom[b] != kNone && b != view.root) ++count[idom[b] + 1];
    }
    for (std::uint32_t i = 0; i < n; ++i) count[i + 1] += count[i];
    t.child_start_ = count;
    t.child_items_.assign(count[n], kNone);
    std::vector<std::uint32_t> fill(count.begin(), count.end() - 1);
    for (BlockId b = 0; b < n; ++b) {
      if (idom[b] != kNone && b != view.root) t.child_items_[fill[idom[b]]++] = b;
    }
    t.pre_.assign(n, kNone);
    t.post_number_.assign(n, kNone);
    std::uint32_t pre = 0, postn = 0;
    std::vector<std::pair<BlockId, std::uint32_t>> stack{{view.root, 0}};
    t.pre_[view.root] = pre++;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const std::uint32_t end = t.child_start_[node + 1] - t.child_start_[node];
      if (next < end) {
        const BlockId c = t.child_items_[t.child_start_[node] + next++];
        t.pre_[c] = pre++;
        stack.emplace_back(c, 0);
      } else {
        t.post_number_[node] = postn++;
        stack.pop_back();
      }
    }

    t.idom_ = std::move(idom);
    t.order_ = std::move(order);
    t.pred_start_ = std::move(view.pred.start);
    t.pred_items_ = std::move(view.pred.items);
    return t;
  }
};

std::vector<BlockId> reverse_post_order(const Graph& graph, EdgeFilter filter) {
  const auto n = static_cast<std::uint32_t>(graph.size());
  if (n == 0) return {};
  std::vector<bool> all(n, true);
  std::vector<BlockId> order = post_order(filtered(graph, filter, true, all), n, graph.entry());
  std::reverse(order.begin(), order.end());
  return order;
}

DominatorTree DominatorTree::dominators(const Graph& graph, EdgeFilter filter) {
  return DominatorBuilder::build(forward_view(graph, filter), false, filter);
}

DominatorTree DominatorTree::post_dominators(const Graph& graph, EdgeFilter filter,
                                             const std::vector<bool>* also) {
  return DominatorBuilder::build(reverse_view(graph, filter, also), true, filter);
}

BlockId DominatorTree::idom(BlockId id) const noexcept {
  if (id >= idom_.size() || id == root_) return kNoBlock;
  return idom_[id];
}

bool DominatorTree::dominates(BlockId a, BlockId b) const noexcept {
  if (!contains(a) || !contains(b)) return false;
  return pre_[a] <= pre_[b] && post_number_[b] <= post_number_[a];
}

std::span<const BlockId> DominatorTree::children(BlockId id) const {
  if (id >= idom_.size()) return {};
  return std::span<const BlockId>(child_items_)
      .subspan(child_start_[id], child_start_[id + 1] - child_start_[id]);
}

std::vector<std::vector<BlockId>> DominatorTree::frontiers() const {
  std::vector<std::vector<BlockId>> df(idom_.size());
  for (BlockId b : order_) {
    const auto preds = std::span<const BlockId>(pred_items_)
                           .subspan(pred_start_[b], pred_start_[b + 1] - pred_start_[b]);
    // A join; the root counts as one with any predecessor (control also
    // enters it from outside).
    if (preds.size() < 2 && !(b == root_ && !preds.empty())) continue;
    // Walk up from each predecessor to b's idom; for the root (a loop header
    // at the entry) all the way up, as the root is then in its own frontier.
    const BlockId stop = b == root_ ? kNone : idom_[b];
    for (BlockId p : preds) {
      if (!contains(p)) continue;
      for (BlockId runner = p; runner != stop;
           runner = runner == root_ ? kNone : idom_[runner]) {
        if (df[runner].empty() || df[runner].back() != b) df[runner].push_back(b);
      }
    }
  }
  for (auto& f : df) std::sort(f.begin(), f.end());
  return df;
}

}  // namespace unveil::cfg

// Cooper-Harvey-Kennedy over a compact adjacency view of the graph: forward for
// dominators, reversed with a virtual exit for post-dominators.
#include "cfg/dominators.h"
#include "support/tls.h"

#include <algorithm>
#include <utility>

namespace unveil::cfg {
namespace {

constexpr std::uint32_t kNone = kNoBlock;

// Adjacency lists in one array (compressed sparse rows).
struct Csr {
  std::vector<std::uint32_t> start{0};
  std::vector<BlockId> items;

  void clear() {
    start.assign(1, 0);
    items.clear();
  }
  void add_row(std::span<const BlockId> row) {
    items.insert(items.end(), row.begin(), row.end());
    start.push_back(static_cast<std::uint32_t>(items.size()));
  }
  std::span<const BlockId> row(BlockId n) const {
    return std::span<const BlockId>(items).subspan(start[n], start[n + 1] - start[n]);
  }
};

using DfsStack = std::vector<std::pair<BlockId, std::uint32_t>>;

// The working arrays of one tree, kept for the next: a decompile builds two
// trees per code object, most of them of a few blocks, and allocating these
// each time cost more than filling them. (Nothing here outlives a build, and
// no build starts inside another.)
struct Scratch {
  std::vector<bool> seen, reach, reaches_exit, is_linked;
  DfsStack stack;
  Csr fsucc, rsucc;
  std::vector<BlockId> linked, walk, forward_po;
  std::vector<std::uint32_t> rank, fill, idom, count;
  // The View's arrays: a tree copies what it keeps into its own storage.
  Csr view_pred;
  std::vector<BlockId> view_forced, view_post_order;
};

Scratch& scratch() { return per_thread<Scratch>(); }

// (Its arrays are the thread's Scratch ones: a View lives until its tree is built.)
struct View {
  std::uint32_t nodes = 0;
  BlockId root = 0;
  Csr& pred;
  std::vector<BlockId>& forced;
  std::vector<BlockId>& post_order;  // of the analysed direction, from `root`
};

View scratch_view() {
  Scratch& s = scratch();
  s.view_pred.clear();
  s.view_forced.clear();
  s.view_post_order.clear();
  return View{0, 0, s.view_pred, s.view_forced, s.view_post_order};
}

// Post-order of the nodes reachable from `root`, successors in row order, into `out`.
void post_order(const Csr& succ, std::uint32_t nodes, BlockId root, std::vector<BlockId>& out) {
  Scratch& s = scratch();
  out.clear();
  s.seen.assign(nodes, false);
  DfsStack& stack = s.stack;
  stack.assign(1, {root, 0});
  s.seen[root] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    auto row = succ.row(node);
    if (next < row.size()) {
      const BlockId to = row[next++];
      if (!s.seen[to]) {
        s.seen[to] = true;
        stack.emplace_back(to, 0);
      }
    } else {
      out.push_back(node);
      stack.pop_back();
    }
  }
}

// post_order over the graph's own successor lists along `filter`, without
// building rows first, into `out`; `seen` comes back marking the blocks reached.
void graph_post_order(const Graph& graph, EdgeFilter filter, std::vector<bool>& seen,
                      std::vector<BlockId>& out) {
  out.clear();
  out.reserve(graph.size());
  seen.assign(graph.size(), false);
  DfsStack& stack = scratch().stack;
  stack.assign(1, {graph.entry(), 0});
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
}

// The rows of the blocks `keep` accepts, along `filter`'s edges (and `also`'s),
// to blocks it accepts; a block it rejects gets an empty row.
template <class Keep>
void filtered(const Graph& graph, EdgeFilter filter, bool successors, Keep keep, Csr& csr,
              const std::vector<bool>* also = nullptr) {
  csr.clear();
  csr.start.reserve(graph.size() + 1);
  csr.items.reserve(graph.edges().size());
  for (const Block& b : graph.blocks()) {
    if (keep(b.id)) {
      auto take = [&](std::uint32_t e) {
        const Edge& edge = graph.edges()[e];
        const BlockId other = successors ? edge.to : edge.from;
        if ((filter.accepts(edge.kind) || (also && (*also)[e])) && keep(other)) csr.items.push_back(other);
      };
      if (successors)
        for (std::uint32_t e : b.succs) take(e);
      else
        for (std::uint32_t e : graph.preds(b.id)) take(e);
    }
    csr.start.push_back(static_cast<std::uint32_t>(csr.items.size()));
  }
}

// The dominator tree needs the predecessors of the reachable blocks (among
// themselves) and a post-order, which one search of the graph gives along
// with reachability: the successor rows themselves are never needed.
View forward_view(const Graph& graph, EdgeFilter filter) {
  Scratch& s = scratch();
  View v = scratch_view();
  v.nodes = static_cast<std::uint32_t>(graph.size());
  v.root = graph.entry();
  graph_post_order(graph, filter, s.reach, v.post_order);
  filtered(graph, filter, false, [&](BlockId b) { return bool(s.reach[b]); }, v.pred);
  return v;
}

View reverse_view(const Graph& graph, EdgeFilter filter, const std::vector<bool>* also) {
  Scratch& s = scratch();
  const auto n = static_cast<std::uint32_t>(graph.size());
  const BlockId exit = n;
  // Every block that runs at all, also one entered only through a handler
  // (code after a `try` whose body always returns): it has post-dominators
  // along the filter's edges like any other. The builder has marked them.
  const auto blocks = graph.blocks();
  auto reach = [&](BlockId b) { return blocks[b].reachable; };
  View v = scratch_view();
  const Csr& fsucc = s.fsucc;
  filtered(graph, filter, true, reach, s.fsucc, also);
  // The reversed graph's successors: a block's forward predecessors, then
  // the exit's row (the linked blocks).
  Csr& fpred = s.rsucc;
  filtered(graph, filter, false, reach, s.rsucc, also);

  // Exits, then the blocks that reach none of them (infinite loops), linked
  // one at a time from the bottom of the forward order.
  std::vector<BlockId>& linked = s.linked;
  linked.clear();
  std::uint32_t reached = 0, reaching = 0;  // blocks that run / that reach an exit
  for (BlockId b = 0; b < n; ++b) {
    if (!reach(b)) continue;
    ++reached;
    if (fsucc.row(b).empty()) linked.push_back(b);
  }
  std::vector<bool>& reaches_exit = s.reaches_exit;
  reaches_exit.assign(n, false);
  std::vector<BlockId>& stack = s.walk;
  stack.clear();
  auto walk_back_from = [&](BlockId start) {
    if (reaches_exit[start]) return;
    reaches_exit[start] = true;
    ++reaching;
    stack.push_back(start);
    while (!stack.empty()) {
      const BlockId b = stack.back();
      stack.pop_back();
      for (BlockId p : fpred.row(b)) {
        if (!reaches_exit[p]) {
          reaches_exit[p] = true;
          ++reaching;
          stack.push_back(p);
        }
      }
    }
  };
  for (BlockId b : linked) walk_back_from(b);
  // (When every block that runs reaches an exit, no search can find one that does not.)
  if (reaching < reached) {
    post_order(fsucc, n, graph.entry(), s.forward_po);
    // Post-order front = latest in reverse post-order.
    for (BlockId b : s.forward_po) {
      if (!reaches_exit[b]) {
        linked.push_back(b);
        v.forced.push_back(b);
        walk_back_from(b);
      }
    }
  }
  std::vector<bool>& is_linked = s.is_linked;
  is_linked.assign(n, false);
  for (BlockId b : linked) is_linked[b] = true;

  v.nodes = n + 1;
  v.root = exit;
  std::sort(linked.begin(), linked.end());
  fpred.add_row(linked);
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
  post_order(fpred, v.nodes, v.root, v.post_order);
  return v;
}

}  // namespace

struct DominatorBuilder {
  // Sizes the tree's id arrays, in the order of DominatorTree::Part (zeroed).
  static void lay_out(DominatorTree& t, const std::size_t (&sizes)[DominatorTree::kParts]) {
    t.starts_[0] = 0;
    for (std::size_t k = 0; k < DominatorTree::kParts; ++k)
      t.starts_[k + 1] = t.starts_[k] + static_cast<std::uint32_t>(sizes[k]);
    t.ids_ = SpareVectors<BlockId>::take();
    // (assign, not resize: into storage already there it is a plain fill,
    // where resize takes its general append path.)
    t.ids_.assign(t.starts_[DominatorTree::kParts], 0);
  }

  // The dominator tree of a graph of one block (a function without jumps or
  // handlers, which most small ones are), laid out as build() would: the block
  // is the root, numbered 0 and 0, its own idom, childless; its predecessors
  // are its accepted edges to itself.
  static DominatorTree single_block(const Graph& graph, EdgeFilter filter) {
    DominatorTree t;
    t.filter_ = filter;
    t.nodes_ = 1;
    std::uint32_t self = 0;
    graph.for_each_predecessor(0, filter, [&](const Edge&) { ++self; });
    lay_out(t, {2, 1, 1, 2, 0, 2, self, 0});
    t.ids_[t.starts_[DominatorTree::kPredStart] + 1] = self;  // the rest is 0
    return t;
  }

  static DominatorTree build(View view, bool post, EdgeFilter filter) {
    DominatorTree t;
    t.post_ = post;
    t.filter_ = filter;
    t.root_ = view.root;
    const std::uint32_t n = view.nodes;
    t.nodes_ = n;

    Scratch& s = scratch();
    std::vector<BlockId>& order = view.post_order;
    std::reverse(order.begin(), order.end());
    std::vector<std::uint32_t>& rank = s.rank;
    rank.assign(n, kNone);
    for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;

    // CHK: iterate to a fixed point in reverse post-order; `intersect` walks
    // the two fingers up the current tree by rank.
    std::vector<BlockId>& idom = s.idom;
    idom.assign(n, kNone);
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
    std::vector<std::uint32_t>& count = s.count;
    count.assign(n + 1, 0);
    for (BlockId b = 0; b < n; ++b) {
      if (idom[b] != kNone && b != view.root) ++count[idom[b] + 1];
    }
    for (std::uint32_t i = 0; i < n; ++i) count[i + 1] += count[i];

    lay_out(t, {2 * std::size_t{n}, n, order.size(), n + 1, count[n], view.pred.start.size(),
                view.pred.items.size(), view.forced.size()});
    auto part = [&](DominatorTree::Part k) { return t.ids_.begin() + t.starts_[k]; };
    std::copy(idom.begin(), idom.end(), part(DominatorTree::kIdom));
    std::copy(order.begin(), order.end(), part(DominatorTree::kOrder));
    std::copy(count.begin(), count.end(), part(DominatorTree::kChildStart));
    std::copy(view.pred.start.begin(), view.pred.start.end(), part(DominatorTree::kPredStart));
    std::copy(view.pred.items.begin(), view.pred.items.end(), part(DominatorTree::kPredItems));
    std::copy(view.forced.begin(), view.forced.end(), part(DominatorTree::kForcedExits));
    const auto child_items = part(DominatorTree::kChildItems);
    std::vector<std::uint32_t>& fill = s.fill;
    fill.assign(count.begin(), count.end() - 1);
    for (BlockId b = 0; b < n; ++b) {
      if (idom[b] != kNone && b != view.root) child_items[fill[idom[b]]++] = b;
    }
    const auto numbers = part(DominatorTree::kNumbers);  // pre at 2 * id, post at 2 * id + 1
    std::fill_n(numbers, 2 * std::size_t{n}, kNone);
    std::uint32_t pre = 0, postn = 0;
    DfsStack& stack = s.stack;
    stack.assign(1, {view.root, 0});
    numbers[2 * view.root] = pre++;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const std::uint32_t end = count[node + 1] - count[node];
      if (next < end) {
        const BlockId c = child_items[count[node] + next++];
        numbers[2 * c] = pre++;
        stack.emplace_back(c, 0);
      } else {
        numbers[2 * node + 1] = postn++;
        stack.pop_back();
      }
    }
    return t;
  }
};

std::vector<BlockId> reverse_post_order(const Graph& graph, EdgeFilter filter) {
  const auto n = static_cast<std::uint32_t>(graph.size());
  if (n == 0) return {};
  Csr succ;
  filtered(graph, filter, true, [](BlockId) { return true; }, succ);
  std::vector<BlockId> order;
  post_order(succ, n, graph.entry(), order);
  std::reverse(order.begin(), order.end());
  return order;
}

DominatorTree DominatorTree::dominators(const Graph& graph, EdgeFilter filter) {
  if (graph.size() == 1) return DominatorBuilder::single_block(graph, filter);
  return DominatorBuilder::build(forward_view(graph, filter), false, filter);
}

DominatorTree DominatorTree::post_dominators(const Graph& graph, EdgeFilter filter,
                                             const std::vector<bool>* also) {
  return DominatorBuilder::build(reverse_view(graph, filter, also), true, filter);
}

BlockId DominatorTree::idom(BlockId id) const noexcept {
  if (id >= nodes_ || id == root_) return kNoBlock;
  return ids_[starts_[kIdom] + id];
}

std::span<const BlockId> DominatorTree::children(BlockId id) const {
  if (id >= nodes_) return {};
  const auto start = part(kChildStart);
  return part(kChildItems).subspan(start[id], start[id + 1] - start[id]);
}

std::vector<std::vector<BlockId>> DominatorTree::frontiers() const {
  const auto idom_ = part(kIdom);
  const auto pred_start = part(kPredStart);
  std::vector<std::vector<BlockId>> df(nodes_);
  for (BlockId b : order()) {
    const auto preds = part(kPredItems).subspan(pred_start[b], pred_start[b + 1] - pred_start[b]);
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

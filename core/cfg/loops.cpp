// Loop nesting forest from back edges, and irreducible regions as the
// strongly connected components that remain once back edges are removed.
#include "cfg/loops.h"
#include "support/tls.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace unveil::cfg {
namespace {

// Union-find whose representative is always the most recently attached
// header: find(b) is the outermost collapsed loop header found so far for b.
class Collapse {
 public:
  // `parent` is working storage, overwritten.
  Collapse(std::vector<BlockId>& parent, std::size_t n) : parent_(parent) {
    parent_.resize(n);
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  BlockId find(BlockId b) {
    BlockId root = b;
    while (parent_[root] != root) root = parent_[root];
    while (parent_[b] != root) b = std::exchange(parent_[b], root);
    return root;
  }
  void attach(BlockId child, BlockId header) { parent_[child] = header; }

 private:
  std::vector<BlockId>& parent_;
};

// Depth-first preorder of the blocks reachable along `filter` (an outer
// header always precedes the headers of loops nested in it: it dominates them).
// The working arrays of one search, kept for the next: every code object
// looks for loops, most have a few blocks and none, and allocating these
// each time cost more than filling them. (No search starts inside another.)
struct Scratch {
  std::vector<bool> is_back, on_stack;
  std::vector<std::pair<BlockId, BlockId>> back;  // (header, latch) per back edge
  std::vector<std::uint32_t> index, low;
  std::vector<BlockId> scc_stack, component;
  std::vector<std::pair<BlockId, std::uint32_t>> stack;
  // The loop walk's.
  std::vector<bool> seen;
  std::vector<BlockId> parent, pre, work, members;
  std::vector<std::uint32_t> mark, first_back;
  std::vector<LoopId> created;
};

Scratch& scratch() { return per_thread<Scratch>(); }

void preorder(const Graph& graph, EdgeFilter filter, std::vector<BlockId>& out) {
  Scratch& s = scratch();
  out.clear();
  std::vector<bool>& seen = s.seen;
  seen.assign(graph.size(), false);
  auto& stack = s.stack;
  stack.assign(1, {graph.entry(), 0});
  seen[graph.entry()] = true;
  out.push_back(graph.entry());
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const auto& succs = graph.blocks()[node].succs;
    if (next < succs.size()) {
      const Edge& e = graph.edges()[succs[next++]];
      if (filter.accepts(e.kind) && !seen[e.to]) {
        seen[e.to] = true;
        out.push_back(e.to);
        stack.emplace_back(e.to, 0);
      }
    } else {
      stack.pop_back();
    }
  }
}

// Tarjan's strongly connected components, iteratively, over the blocks in the
// tree, skipping back edges. Returns the components with more than one block.
std::vector<std::vector<BlockId>> cyclic_components(const Graph& graph, const DominatorTree& dom,
                                                    const std::vector<bool>& is_back) {
  const std::size_t n = graph.size();
  constexpr std::uint32_t kUnvisited = 0xffffffffu;
  Scratch& s = scratch();
  std::vector<std::uint32_t>& index = s.index;
  std::vector<std::uint32_t>& low = s.low;
  index.assign(n, kUnvisited);
  low.assign(n, 0);
  std::vector<bool>& on_stack = s.on_stack;
  on_stack.assign(n, false);
  std::vector<BlockId>& scc_stack = s.scc_stack;
  scc_stack.clear();
  std::vector<std::vector<BlockId>> out;
  // One buffer for every component: almost all are a single block, and a
  // vector each was an allocation per block.
  std::vector<BlockId>& component = s.component;
  std::uint32_t counter = 0;
  const EdgeFilter filter = dom.filter();

  for (BlockId start : dom.order()) {
    if (index[start] != kUnvisited) continue;
    auto& stack = s.stack;
    stack.assign(1, {start, 0});
    index[start] = low[start] = counter++;
    scc_stack.push_back(start);
    on_stack[start] = true;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto& succs = graph.blocks()[node].succs;
      if (next < succs.size()) {
        const std::uint32_t e = succs[next++];
        const Edge& edge = graph.edges()[e];
        if (!filter.accepts(edge.kind) || is_back[e] || !dom.contains(edge.to)) continue;
        if (index[edge.to] == kUnvisited) {
          index[edge.to] = low[edge.to] = counter++;
          scc_stack.push_back(edge.to);
          on_stack[edge.to] = true;
          stack.emplace_back(edge.to, 0);
        } else if (on_stack[edge.to]) {
          low[node] = std::min(low[node], index[edge.to]);
        }
        continue;
      }
      const BlockId done = node;
      stack.pop_back();
      if (!stack.empty()) low[stack.back().first] = std::min(low[stack.back().first], low[done]);
      if (low[done] == index[done]) {
        component.clear();
        BlockId b;
        do {
          b = scc_stack.back();
          scc_stack.pop_back();
          on_stack[b] = false;
          component.push_back(b);
        } while (b != done);
        if (component.size() > 1) out.push_back(component);
      }
    }
  }
  return out;
}

}  // namespace

LoopForest LoopForest::find(const Graph& graph, const DominatorTree& dom) {
  if (dom.is_post() || dom.node_count() != graph.size()) {
    throw std::invalid_argument("cfg: loops need the forward dominator tree of the same graph");
  }
  LoopForest f;
  f.filter_ = dom.filter();
  const std::size_t n = graph.size();

  // Back edges and, per header, its latches (a run of `back` once sorted).
  Scratch& s = scratch();
  std::vector<std::pair<BlockId, BlockId>>& back = s.back;
  back.clear();
  // Whether some other edge goes up in block order: without one the rest of
  // the graph is acyclic, and the search for irreducible regions is skipped.
  bool upward = false;
  for (std::uint32_t e = 0; e < graph.edges().size(); ++e) {
    const Edge& edge = graph.edges()[e];
    if (!f.filter_.accepts(edge.kind) || !dom.contains(edge.from)) continue;
    if (dom.dominates(edge.to, edge.from)) {
      if (f.back_edges_.empty()) f.back_edges_ = SpareVectors<std::uint32_t>::take();
      f.back_edges_.push_back(e);
      back.emplace_back(edge.to, edge.from);
    } else if (edge.to <= edge.from) {
      upward = true;
    }
  }
  std::sort(back.begin(), back.end());
  // Where each header's run starts (none: not a header).
  std::vector<std::uint32_t>& first_back = s.first_back;
  if (!back.empty()) {
    first_back.assign(n, kNoLoop);
    for (std::uint32_t k = static_cast<std::uint32_t>(back.size()); k-- > 0;) first_back[back[k].first] = k;
  }

  // No back edge, no loop (most functions): skip the walk and its per-block tables.
  // (Without loops the per-block tables stay empty: their lookups answer kNoLoop.)
  if (!f.back_edges_.empty()) {
    f.innermost_ = SpareVectors<LoopId>::take();
    f.header_of_ = SpareVectors<LoopId>::take();
    f.innermost_.assign(n, kNoLoop);
    f.header_of_.assign(n, kNoLoop);
    // Headers innermost first (reverse preorder). Walking back from the latches
    // gathers the blocks whose innermost loop this is; an already-found inner
    // loop is met as its (collapsed) header and becomes a child.
    Collapse collapse(s.parent, n);
    std::vector<std::uint32_t>& mark = s.mark;  // loop being walked that saw the block
    mark.assign(n, kNoLoop);
    std::vector<BlockId>& work = s.work;
    work.clear();
    const std::vector<BlockId>& pre = s.pre;
    preorder(graph, f.filter_, s.pre);
    std::vector<LoopId>& created = s.created;  // header -> temporary loop index
    created.assign(n, kNoLoop);
    std::vector<Loop> found;
    found.reserve(back.size());  // (at most a loop per back edge)
    for (auto it = pre.rbegin(); it != pre.rend(); ++it) {
      const BlockId h = *it;
      if (first_back[h] == kNoLoop) continue;
      auto latch = back.begin() + std::ptrdiff_t(first_back[h]);
      const auto id = static_cast<LoopId>(found.size());
      Loop loop;
      loop.header = h;
      for (; latch != back.end() && latch->first == h; ++latch)  // sorted: drop repeats
        if (loop.latches.empty() || loop.latches.back() != latch->second) loop.latches.push_back(latch->second);
      loop.own_blocks.push_back(h);
      mark[h] = id;
      for (BlockId l : loop.latches) {
        const BlockId r = collapse.find(l);
        if (mark[r] != id) {
          mark[r] = id;
          work.push_back(r);
        }
      }
      std::vector<BlockId>& members = s.members;
      members.clear();
      while (!work.empty()) {
        const BlockId x = work.back();
        work.pop_back();
        members.push_back(x);
        graph.for_each_predecessor(x, f.filter_, [&](const Edge& e) {
          if (!dom.contains(e.from)) return;
          const BlockId r = collapse.find(e.from);
          if (mark[r] != id && r != h) {
            mark[r] = id;
            work.push_back(r);
          }
        });
      }
      for (BlockId x : members) {
        if (created[x] != kNoLoop) {
          found[created[x]].parent = id;  // x heads an inner loop
          loop.children.push_back(created[x]);
        } else {
          loop.own_blocks.push_back(x);
        }
        collapse.attach(x, h);
      }
      created[h] = id;
      found.push_back(std::move(loop));
    }

    // Renumber by header id so that an enclosing loop precedes its children.
    f.loops_.reserve(found.size());
    std::vector<LoopId> order(found.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](LoopId a, LoopId b) { return found[a].header < found[b].header; });
    std::vector<LoopId> renumber(found.size());
    for (LoopId i = 0; i < order.size(); ++i) renumber[order[i]] = i;
    for (LoopId old : order) {
      Loop loop = std::move(found[old]);
      if (loop.parent != kNoLoop) loop.parent = renumber[loop.parent];
      for (LoopId& c : loop.children) c = renumber[c];
      std::sort(loop.children.begin(), loop.children.end());
      std::sort(loop.own_blocks.begin(), loop.own_blocks.end());
      f.loops_.push_back(std::move(loop));
    }
    for (LoopId i = 0; i < f.loops_.size(); ++i) {
      Loop& loop = f.loops_[i];
      if (loop.parent != kNoLoop) loop.depth = f.loops_[loop.parent].depth + 1;
      f.header_of_[loop.header] = i;
      for (BlockId b : loop.own_blocks) f.innermost_[b] = i;
    }
  }

  // What is still cyclic without the back edges has no dominating header.
  if (!upward) return f;
  // (Marked only here: most graphs have no upward edge that is not a back edge.)
  std::vector<bool>& is_back = s.is_back;
  is_back.assign(graph.edges().size(), false);
  for (std::uint32_t e : f.back_edges_) is_back[e] = true;
  for (auto& component : cyclic_components(graph, dom, is_back)) {
    IrreducibleRegion region;
    std::sort(component.begin(), component.end());
    std::vector<bool> inside(n, false);
    for (BlockId b : component) inside[b] = true;
    for (BlockId b : component) {
      bool entry = b == graph.entry();
      graph.for_each_predecessor(b, f.filter_, [&](const Edge& e) {
        if (!inside[e.from] && dom.contains(e.from)) entry = true;
      });
      if (entry) region.entries.push_back(b);
    }
    region.blocks = std::move(component);
    f.irreducible_.push_back(std::move(region));
  }
  std::sort(f.irreducible_.begin(), f.irreducible_.end(),
            [](const IrreducibleRegion& a, const IrreducibleRegion& b) {
              return a.blocks.front() < b.blocks.front();
            });
  return f;
}

LoopId LoopForest::innermost(BlockId block) const noexcept {
  return block < innermost_.size() ? innermost_[block] : kNoLoop;
}

LoopId LoopForest::loop_of_header(BlockId block) const noexcept {
  return block < header_of_.size() ? header_of_[block] : kNoLoop;
}

bool LoopForest::contains(LoopId loop, BlockId block) const noexcept {
  for (LoopId l = innermost(block); l != kNoLoop; l = loops_[l].parent) {
    if (l == loop) return true;
  }
  return false;
}

std::vector<BlockId> LoopForest::body(LoopId loop) const {
  std::vector<BlockId> out;
  std::vector<LoopId> work{loop};
  while (!work.empty()) {
    const Loop& l = loops_.at(work.back());
    work.pop_back();
    out.insert(out.end(), l.own_blocks.begin(), l.own_blocks.end());
    work.insert(work.end(), l.children.begin(), l.children.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint32_t> LoopForest::exits(const Graph& graph, LoopId loop) const {
  std::vector<std::uint32_t> out;
  for (BlockId b : body(loop)) {
    for (std::uint32_t e : graph.blocks()[b].succs) {
      const Edge& edge = graph.edges()[e];
      if (filter_.accepts(edge.kind) && !contains(loop, edge.to)) out.push_back(e);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace unveil::cfg

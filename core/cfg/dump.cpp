#include "cfg/dump.h"

#include <optional>
#include <string>

#include "cfg/dominators.h"
#include "cfg/loops.h"

namespace unveil::cfg {
namespace {

std::string block_name(BlockId id, BlockId virtual_exit = kNoBlock) {
  if (id == kNoBlock) return "-";
  if (id == virtual_exit) return "exit";
  // (Appended, not `"B" + ...`: GCC 12 warns falsely on that at -O3, -Wrestrict.)
  std::string name = "B";
  name += std::to_string(id);
  return name;
}

}  // namespace

std::string dump_graph(const Graph& graph, const DumpOptions& options) {
  std::optional<DominatorTree> dom, pdom;
  std::optional<LoopForest> loops;
  if (options.dominators || options.loops) dom = DominatorTree::dominators(graph, options.filter);
  if (options.post_dominators) pdom = DominatorTree::post_dominators(graph, options.filter);
  if (options.loops) loops = LoopForest::find(graph, *dom);

  std::string out;
  for (const Block& b : graph.blocks()) {
    out += block_name(b.id) + " [" + std::to_string(b.begin) + "," + std::to_string(b.end) + ")";
    if (!b.reachable) out += " unreachable";
    if (options.dominators) out += " idom=" + block_name(dom->idom(b.id));
    if (pdom) out += " ipdom=" + block_name(pdom->idom(b.id), pdom->virtual_exit());
    if (loops) {
      if (LoopId l = loops->innermost(b.id); l != kNoLoop) out += " loop=L" + std::to_string(l);
      if (LoopId l = loops->loop_of_header(b.id); l != kNoLoop) {
        out += " header latches=";
        const auto& latches = loops->loop(l).latches;
        for (std::size_t i = 0; i < latches.size(); ++i) {
          if (i) out += ',';
          out += block_name(latches[i]);
        }
      }
    }
    if (b.handler) {
      out += " handler=" + block_name(b.handler->block) + " depth=" +
             std::to_string(b.handler->depth) + "+" + std::to_string(b.handler->pushed);
      if (b.handler->lasti) out += " lasti";
    }
    if (b.entry_depth) out += " entry_depth=" + std::to_string(*b.entry_depth);
    out += "\n";
    if (options.instructions) {
      for (const Instruction& ins : graph.instructions(b.id)) {
        out += "    " + std::to_string(ins.offset) + " " + std::string(ins.name());
        if (ins.info->has_arg()) out += " " + std::to_string(ins.arg);
        if (ins.jump_target) out += " (to " + std::to_string(*ins.jump_target) + ")";
        out += "\n";
      }
    }
    if (!b.succs.empty()) {
      out += "  ->";
      for (std::size_t i = 0; i < b.succs.size(); ++i) {
        const Edge& e = graph.edge(b.succs[i]);
        out += (i ? ", " : " ") + block_name(e.to) + " " + std::string(edge_kind_name(e.kind));
      }
      out += "\n";
    }
  }
  if (loops) {
    for (const IrreducibleRegion& r : loops->irreducible()) {
      out += "irreducible:";
      for (BlockId b : r.blocks) (out += ' ') += block_name(b);
      out += " entries:";
      for (BlockId b : r.entries) (out += ' ') += block_name(b);
      out += "\n";
    }
  }
  return out;
}

}  // namespace unveil::cfg

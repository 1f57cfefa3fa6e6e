// A text dump of a graph for tests and debugging.
#pragma once

#include <string>

#include "cfg/graph.h"

namespace unveil::cfg {

struct DumpOptions {
  bool dominators = true;       // idom=, from the dominator tree along `filter`
  bool post_dominators = false; // ipdom=, along `filter` (exit = the virtual exit)
  bool loops = true;            // loop headers, innermost loop, irreducible regions
  bool instructions = false;    // each block's instructions (offset, name, oparg)
  EdgeFilter filter = EdgeFilter::all();
};

// One line per block, then its edges:
//
//   B1 [8,20) idom=B0 loop=L0 header latches=B3 handler=B5 depth=0+6 entry_depth=1
//     -> B2 fallthrough, B4 branch, B5 exception
//
// `handler=B5 depth=0+1 lasti` reads: the handler starts at block 5, with the
// stack cut to 0 items and 1 value pushed (plus lasti, 3.11+). Unreachable
// blocks say so. Irreducible regions are listed at the end.
std::string dump_graph(const Graph& graph, const DumpOptions& options = {});

}  // namespace unveil::cfg

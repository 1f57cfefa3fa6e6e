// Internal: the state shared by the CFG construction steps (build.cpp splits
// blocks and adds the static edges; exception_regions.cpp assigns handlers and
// the edges that depend on them). Not part of the cfg API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cfg/flow.h"
#include "cfg/graph.h"

namespace unveil::cfg {

// Successors of one block before they become Edge records; kept apart so the
// edges of every block come out in one order (fall-through, target, exception).
struct PendingSuccessors {
  BlockId fall = kNoBlock;    // FallThrough
  BlockId target = kNoBlock;  // Jump, Branch or Call
  EdgeKind target_kind = EdgeKind::Jump;
  bool falls_off_end = false;  // the last instruction falls through past the code
  BlockId target_for_setup = kNoBlock;  // ≤3.10 SETUP_*: the handler it installs (no edge)
};

class GraphBuilder {
 public:
  explicit GraphBuilder(const DecodedCode& code);
  Graph build();

  // build.cpp
  void split_blocks();
  void add_static_successors();
  void finish();

  // exception_regions.cpp
  void normalise_exception_table();
  void assign_handlers_from_table();
  void assign_handlers_from_block_stack();

  // stack_depth.cpp: 3.11+ (≤3.10 gets it from the block-stack dataflow)
  void check_stack_depths() const;

  std::vector<Block>& blocks() { return graph_.blocks_; }
  const Graph& graph() const { return graph_; }

  // A table load by Op; no per-graph table, which cost more than the whole
  // rest of the build for the small functions that are most code objects.
  FlowInfo flow(const Instruction& ins) const {
    return ins.info && ins.info->known() ? flow_of(ins.info->op) : FlowInfo{};
  }
  BlockId block_at_offset(std::uint32_t offset, std::uint32_t from) const;
  std::string describe(const Instruction& ins) const;
  // Index of the instruction whose opcode is at `offset`, or instructions.size().
  std::size_t instruction_at(std::uint32_t offset) const;
  // Writes UnitSlot::instruction for every instruction: on the first
  // instruction_at, as code without jumps or handlers (half of all) never asks.
  void index_instructions() const;
  // Index of the first non-EXTENDED_ARG instruction whose opcode is at or
  // after `offset` (instructions.size() if none).
  std::size_t instruction_at_or_after(std::uint32_t offset) const;

  // Per code unit: the instruction whose opcode is there and the block that
  // starts there. Written only where one is, never cleared: a read is checked
  // against that instruction's or block's own offset, so what an earlier build
  // left behind is never taken (and nothing is filled per code unit).
  struct UnitSlot {
    std::uint32_t instruction;
    BlockId block;
  };

  // The working arrays below are storage kept between builds (see build.cpp).
  const DecodedCode& code_;
  Graph graph_;
  std::vector<PendingSuccessors>& pending_;
  // 3.11+: the exception table sorted by start, with the holes closed that
  // only jumps sit in (normalise_exception_table).
  std::vector<ExceptionTableEntry>& table_;
  std::vector<UnitSlot>& units_;
  mutable bool instructions_indexed_ = false;
};

}  // namespace unveil::cfg

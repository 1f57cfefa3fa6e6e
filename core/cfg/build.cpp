// Splitting DecodedCode into basic blocks and adding the edges that follow from
// the instructions alone (⇄ the block structure CPython's flowgraph.c builds
// before assembling). Handlers and their edges come from exception_regions.cpp.
#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "cfg/builder.h"
#include "support/error.h"
#include "support/tls.h"

namespace unveil::cfg {
namespace {

bool transfers_to_target(Flow f) {
  return f == Flow::Jump || f == Flow::Branch || f == Flow::Setup || f == Flow::CallFinally;
}

// An instruction after which a new block must start: anything but a plain
// fall-through, and POP_BLOCK, after which the handler changes (SETUP_* is a
// Setup flow already).
bool ends_block(const FlowInfo& f) {
  return f.flow != Flow::Normal || f.action == BlockAction::PopBlock;
}

// The working arrays of one build, kept for the next: every code object
// builds a graph, most of a few blocks, and allocating these each time cost
// more than filling them. (No build starts inside another.)
struct Scratch {
  std::vector<PendingSuccessors> pending;
  std::vector<ExceptionTableEntry> table;
  std::vector<GraphBuilder::UnitSlot> units;
  std::vector<std::uint64_t> leader;  // a bit per instruction: a block starts there
  std::vector<std::uint32_t> start, fill;
  std::vector<BlockId> stack;
};

Scratch& scratch() { return per_thread<Scratch>(); }

}  // namespace

GraphBuilder::GraphBuilder(const DecodedCode& code)
    : code_(code),
      pending_(scratch().pending),
      table_(scratch().table),
      units_(scratch().units) {
  table_.clear();
  if (code.traits == nullptr) throw Error(ErrorKind::Decode, "cfg: decoded code has no version");
  graph_.code_ = &code;
  graph_.blocks_ = SpareVectors<Block>::take();
  graph_.edges_ = SpareVectors<Edge>::take();
  graph_.pred_edges_ = SpareVectors<std::uint32_t>::take();
  const auto& ins = code.instructions;
  const std::size_t units = ins.empty() ? 0 : ins.back().end_offset / 2;
  if (units_.size() < units) units_.resize(units);  // never shrunk: see UnitSlot
}

void GraphBuilder::index_instructions() const {
  const auto& ins = code_.instructions;
  for (std::uint32_t i = 0; i < ins.size(); ++i) units_[ins[i].offset / 2].instruction = i;
  instructions_indexed_ = true;
}

Graph GraphBuilder::build() {
  if (code_.instructions.empty()) {
    throw Error(ErrorKind::Decode, "cfg: the code has no instructions, so no entry block", 0);
  }
  if (code_.traits->has_exception_table()) normalise_exception_table();
  split_blocks();
  add_static_successors();
  if (code_.traits->has_exception_table()) {
    assign_handlers_from_table();
  } else {
    assign_handlers_from_block_stack();
  }
  finish();
  if (code_.traits->has_exception_table()) check_stack_depths();
  return std::move(graph_);
}

std::string GraphBuilder::describe(const Instruction& ins) const {
  return std::string(ins.info ? ins.info->name : "?") + " at " + std::to_string(ins.offset);
}

std::size_t GraphBuilder::instruction_at(std::uint32_t offset) const {
  const auto& ins = code_.instructions;
  if (!instructions_indexed_) index_instructions();
  const std::size_t unit = offset / 2;
  if (unit < units_.size()) {
    const std::uint32_t i = units_[unit].instruction;
    if (i < ins.size() && ins[i].offset == offset) return i;
  }
  return ins.size();
}

std::size_t GraphBuilder::instruction_at_or_after(std::uint32_t offset) const {
  const auto& ins = code_.instructions;
  std::size_t i = instruction_at(offset);
  if (i == ins.size()) {
    // Not where an opcode is (a cache, or past the end): only exception-table
    // bounds of unusual code get here, so a search is cheap enough.
    i = static_cast<std::size_t>(
        std::partition_point(ins.begin(), ins.end(),
                             [&](const Instruction& in) { return in.offset < offset; }) -
        ins.begin());
  }
  while (i < ins.size() && ins[i].opcode == code_.traits->extended_arg) ++i;
  return i;
}

BlockId GraphBuilder::block_at_offset(std::uint32_t offset, std::uint32_t from) const {
  const auto& blocks = graph_.blocks_;
  const std::size_t unit = offset / 2;
  if (unit < units_.size()) {
    const BlockId id = units_[unit].block;
    if (id < blocks.size() && blocks[id].begin == offset) return id;
  }
  throw Error(ErrorKind::Decode,
              "cfg: control reaches offset " + std::to_string(offset) +
                  ", which does not start an instruction",
              from);
}

void GraphBuilder::split_blocks() {
  const auto& ins = code_.instructions;
  const std::uint8_t ext = code_.traits->extended_arg;

  // Leaders are marked by the index of the first EXTENDED_ARG of the group.
  std::vector<std::uint64_t>& leader = scratch().leader;
  leader.assign(ins.size() / 64 + 1, 0);
  leader[0] = 1;
  std::size_t leaders = 1;  // blocks: the first, and one per other leader
  auto mark_group = [&](std::size_t i) {  // i: an instruction after a non-prefix one
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    leaders += (leader[i / 64] & bit) == 0;
    leader[i / 64] |= bit;
  };
  auto mark = [&](std::uint32_t offset) {
    std::size_t i = instruction_at_or_after(offset);
    if (i == ins.size()) return;
    while (i > 0 && ins[i - 1].opcode == ext) --i;
    mark_group(i);
  };

  for (std::size_t i = 0; i < ins.size(); ++i) {
    const Instruction& in = ins[i];
    if (in.opcode == ext) continue;
    if (in.info) graph_.ops_.set(static_cast<std::size_t>(in.op()));
    const FlowInfo f = flow(in);
    // Most instructions: no jump, no block boundary after them.
    if (f.flow == Flow::Normal && f.action != BlockAction::PopBlock && !in.jump_target) continue;
    if (transfers_to_target(f.flow)) {
      if (!in.jump_target) {
        throw Error(ErrorKind::Decode, "cfg: " + describe(in) + " has no jump target", in.offset);
      }
      mark(*in.jump_target);
    } else if (in.jump_target && !f.jump_is_annotation) {
      throw Error(ErrorKind::Decode,
                  "cfg: " + describe(in) + " has a jump target but no known control flow",
                  in.offset);
    }
    // The next instruction is the one at end_offset, and starts a group.
    if (ends_block(f) && i + 1 < ins.size()) mark_group(i + 1);
  }
  // A handler covers whole blocks: split where a protected range starts and
  // ends (the first instruction whose opcode is inside / past it), and at the
  // handler itself.
  for (const ExceptionTableEntry& entry : table_) {
    mark(entry.start);
    mark(entry.end + 2);
    mark(entry.target);
  }

  // A block per leader, in code order: the set bits, a word at a time.
  auto& blocks = graph_.blocks_;
  blocks.reserve(leaders);  // blocks are big: the list never regrows
  for (std::size_t w = 0; w < leader.size(); ++w) {
    for (std::uint64_t bits = leader[w]; bits != 0; bits &= bits - 1) {
      const auto i = static_cast<std::uint32_t>(w * 64 + std::countr_zero(bits));
      if (!blocks.empty()) blocks.back().last = i - 1;
      Block& b = blocks.emplace_back();
      b.id = static_cast<BlockId>(blocks.size() - 1);
      b.first = i;
      b.begin = ins[i].offset;
      units_[b.begin / 2].block = b.id;
    }
  }
  blocks.back().last = static_cast<std::uint32_t>(ins.size() - 1);
  // Only the last block can end in a prefix: every other ends before a group.
  if (ins.back().opcode == ext) {
    throw Error(ErrorKind::Decode, "cfg: EXTENDED_ARG at the end of the code prefixes nothing",
                ins.back().offset);
  }
  for (Block& b : blocks) b.end = ins[b.last].end_offset;
}

void GraphBuilder::add_static_successors() {
  const auto& ins = code_.instructions;
  const std::size_t n = graph_.blocks_.size();
  pending_.assign(n, PendingSuccessors{});
  for (const Block& b : graph_.blocks_) {
    const Instruction& last = ins[b.last];
    PendingSuccessors& p = pending_[b.id];
    auto fall = [&] {
      if (b.id + 1 < n) {
        p.fall = b.id + 1;
      } else {
        p.falls_off_end = true;
      }
    };
    auto target = [&](EdgeKind kind) {
      p.target = block_at_offset(*last.jump_target, last.offset);
      p.target_kind = kind;
    };
    switch (flow(last).flow) {
      case Flow::Normal:
      case Flow::Setup: fall(); break;
      case Flow::Jump: target(EdgeKind::Jump); break;
      case Flow::Branch: fall(); target(EdgeKind::Branch); break;
      case Flow::Exit: break;
      case Flow::CallFinally: fall(); target(EdgeKind::Call); break;
      case Flow::EndFinally: break;  // depends on how the finally body was entered
    }
  }
}

void GraphBuilder::finish() {
  auto& blocks = graph_.blocks_;
  auto& edges = graph_.edges_;
  const bool table = code_.traits->has_exception_table();
  Scratch& s = scratch();
  // Predecessor counts, at start[to + 1] until summed into where each list starts.
  std::vector<std::uint32_t>& start = s.start;
  start.assign(blocks.size() + 1, 0);
  edges.reserve(blocks.size() * 3);  // at most a fall-through, a target and a handler each
  auto add = [&](BlockId from, BlockId to, EdgeKind kind) {
    edges.push_back(Edge{from, to, kind});
    ++start[to + 1];
  };
  for (Block& b : blocks) {
    const PendingSuccessors& p = pending_[b.id];
    const auto first = static_cast<std::uint32_t>(edges.size());
    if (p.fall != kNoBlock) add(b.id, p.fall, EdgeKind::FallThrough);
    if (p.target != kNoBlock) add(b.id, p.target, p.target_kind);
    if (b.handler) {
      add(b.id, b.handler->block, EdgeKind::Exception);
      blocks[b.handler->block].is_handler = true;
    }
    b.succs = IndexRange{first, static_cast<std::uint32_t>(edges.size())};
  }
  // Predecessor lists: counted, then filled in edge order (so each ascends).
  for (std::size_t i = 0; i < blocks.size(); ++i) start[i + 1] += start[i];
  auto& preds = graph_.pred_edges_;
  preds.assign(edges.size(), 0);
  std::vector<std::uint32_t>& fill = s.fill;
  fill.assign(start.begin(), start.end() - 1);
  for (std::uint32_t e = 0; e < edges.size(); ++e) preds[fill[edges[e].to]++] = e;
  for (std::size_t i = 0; i < blocks.size(); ++i)
    blocks[i].pred_slots = IndexRange{start[i], start[i + 1]};

  // The block-stack pass has marked what it reached; the table needs a search.
  if (table) {
    std::vector<BlockId>& stack = s.stack;
    stack.assign(1, 0);
    blocks[0].reachable = true;
    while (!stack.empty()) {
      const BlockId id = stack.back();
      stack.pop_back();
      for (std::uint32_t e : blocks[id].succs) {
        Block& to = blocks[edges[e].to];
        if (!to.reachable) {
          to.reachable = true;
          stack.push_back(to.id);
        }
      }
    }
  }
  for (const Block& b : blocks) {
    if (b.reachable && pending_[b.id].falls_off_end) {
      const Instruction& last = code_.instructions[b.last];
      throw Error(ErrorKind::Decode,
                  "cfg: control falls off the end of the code after " + describe(last),
                  last.offset);
    }
  }
}

Graph build_graph(const DecodedCode& code) { return GraphBuilder(code).build(); }

}  // namespace unveil::cfg

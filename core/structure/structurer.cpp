#include "structure/structurer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

#include "ast/build.h"
#include "ast/rewrite.h"
#include "decode/argument.h"
#include "lift/sinks.h"
#include "structure/comprehension.h"
#include "structure/simplify.h"
#include "emit/unparse.h"
#include "support/error.h"
#include "support/spare.h"

namespace unveil::structure {

using cfg::BlockId;
using cfg::EdgeFilter;
using cfg::EdgeKind;
using cfg::kNoBlock;
using lift::Item;
using TK = lift::Terminator::Kind;

namespace {
bool is_exc_match_block(const cfg::Graph& g, cfg::BlockId b);
// The edges control flows along in source terms: not exceptions, and not
// 3.8's CALL_FINALLY into a finally body (a `return`/`break` runs the body
// and comes back: the statement just goes on).
constexpr EdgeFilter kFlow = EdgeFilter::normal().without(EdgeKind::Call);
constexpr std::size_t kMaxSteps = 1'000'000;
constexpr std::size_t kMaxNesting = 400;

// An instruction that only passes control on (a NOP or a jump, and the
// EXTENDED_ARG of a far one; the pseudo-op JUMP never reaches co_code).
bool only_moves_on(Op op) {
  return op == Op::NOP || op == Op::JUMP_FORWARD || op == Op::JUMP_ABSOLUTE || op == Op::NOT_TAKEN ||
         op == Op::JUMP_BACKWARD || op == Op::EXTENDED_ARG;
}

// Handlers that no source construct wrote: 3.12+ generators' StopIteration
// conversion and the throw() cleanup of await/yield from.
bool implicit_handler(const cfg::Graph& g, BlockId b) {
  for (const Instruction& ins : g.instructions(b)) {
    std::string_view n = ins.name();
    if (n == "NOP" || n == "EXTENDED_ARG") continue;
    if (n == "CLEANUP_THROW") return true;
    if (n == "SWAP") {
      // 3.12+ inlined comprehension: restore the shadowed variables and re-raise.
      for (const Instruction& i : g.instructions(b)) {
        std::string_view m = i.name();
        if (m != "SWAP" && m != "POP_TOP" && m != "STORE_FAST" && m != "RERAISE" && m != "NOP")
          return false;
      }
      return g.last_instruction(b).name() == "RERAISE";
    }
    if (n == "CALL_INTRINSIC_1") {
      ResolvedArg a = resolve_argument(g.code(), ins);
      return a.text == "INTRINSIC_STOPITERATION_ERROR";
    }
    return false;
  }
  return false;
}
}  // namespace

Structurer::Structurer(const DecodedCode& code, lift::Definer& definer)
    : code_(code),
      graph_(cfg::build_graph(code)),
      // Exception edges count for dominance and loops: a loop inside an except
      // clause is still a loop, and a handler that loops back is in the loop.
      dom_(cfg::DominatorTree::dominators(graph_, EdgeFilter::all())),
      pdom_(graph_),
      loops_(cfg::LoopForest::find(graph_, dom_)),
      lifter_(code, definer) {
  // (Per-block arrays every structurer has: storage given back by earlier ones.)
  rpo_index_ = SpareVectors<std::uint32_t>::take();
  emitted_ = SpareVectors<bool>::take();
  emitted_.assign(graph_.size(), false);
  rpo_index_.assign(graph_.size(), 0xffffffffu);
  auto order = dom_.order();
  for (std::size_t k = 0; k < order.size(); ++k) rpo_index_[order[k]] = std::uint32_t(k);
  // Listed once so that each loop_span_end looks at these few blocks, not at
  // the whole graph (that made nested-loop code quadratic in size).
  for (const cfg::Block& blk : graph_.blocks())
    if (!blk.reachable && graph_.last_instruction(blk.id).jump_target) unreachable_jumps_.push_back(blk.id);
}

Structurer::BlockMarks::BlockMarks(MarkRows& pool, std::size_t blocks) : pool_(pool) {
  while (row_ < pool_.busy.size() && pool_.busy[row_]) ++row_;
  if (row_ == pool_.busy.size()) {
    pool_.rows.emplace_back(blocks, 0);
    pool_.stamp.push_back(0);
    pool_.busy.push_back(false);
  } else if (pool_.rows[row_].size() < blocks) {
    pool_.rows[row_].resize(blocks, 0);
  }
  pool_.busy[row_] = true;
  if (++pool_.stamp[row_] == 0) {  // wrapped: forget every old stamp
    std::fill(pool_.rows[row_].begin(), pool_.rows[row_].end(), 0);
    pool_.stamp[row_] = 1;
  }
}

void Structurer::fail(BlockId b, const std::string& what) const {
  std::size_t offset = b < graph_.size() ? graph_.block(b).begin : 0;
  throw Error(ErrorKind::Decode, "structure: " + what, offset);
}

void Structurer::check_handlers() const {
  if (!loops_.reducible()) fail(loops_.irreducible()[0].entries[0], "irreducible control flow");
}

ast::StmtList Structurer::run() {
  check_handlers();
  Seq s = sequence(graph_.entry(), kNoBlock, {});
  // Every handler must have become a try/with: never drop an except clause silently.
  for (const cfg::Block& b : graph_.blocks())
    if (b.is_handler && b.reachable && is_try_handler(b.id) && !implicit_handler(graph_, b.id) &&
        std::find(used_handlers_.begin(), used_handlers_.end(), b.id) == used_handlers_.end())
      fail(b.id, "an exception handler that no try/with statement explains");
  return std::move(s.stmts);
}

// Instructions in block `b`, EXTENDED_ARG prefixes not counted.
std::size_t Structurer::instruction_count(BlockId b) const {
  const std::uint8_t ext = code_.traits->extended_arg;
  auto ins = graph_.instructions(b);
  return static_cast<std::size_t>(
      std::count_if(ins.begin(), ins.end(), [&](const Instruction& i) { return i.opcode != ext; }));
}

void Structurer::mark(BlockId b) {
  if (emitted_[b]) fail(b, "block reached twice (unstructured flow)");
  emitted_[b] = true;
  last_marked_ = std::max(last_marked_ == kNoBlock ? 0 : last_marked_, b);
}

// ≤3.9 keeps code that no jump reaches, except after a return in its own
// block. An if whose first arm ends in return/raise had an `else` exactly
// when such code remains: the jump over the else (`JUMP_FORWARD end`, kept
// after a raise or a nested if); after a return, which loses that jump,
// what the end label starts (the implicit `return None`, an enclosing
// construct's jump) right after an else that ends in a return. (After an
// else that raises, that code is there either way, and either form compiles
// the same.)
// Nothing when the first arm does not end in a return/raise of its own (it
// jumps to a shared one, say).
std::optional<bool> Structurer::else_was_written(BlockId body, BlockId orelse, BlockId else_last) const {
  auto dead = [&](BlockId x) { return x < graph_.size() && !graph_.block(x).reachable; };
  if (orelse == 0) return std::nullopt;
  const BlockId arm_end = orelse - 1;
  if (dead(arm_end)) {
    if (graph_.last_instruction(arm_end).jump_target) return true;
    return std::nullopt;
  }
  std::string_view last = graph_.last_instruction(arm_end).name();
  if (last == "RAISE_VARARGS") return false;  // (a written else leaves its jump, dead)
  // The same after a break, or a continue that is the whole arm. (An arm with
  // statements that ends in a jump to the loop head may be the if's own end,
  // threaded to the head.)
  if ((last == "JUMP_ABSOLUTE" || last == "JUMP_FORWARD") && !context_.empty()) {
    const BlockId to = jump_successor(arm_end);
    if (to == context_.back().follow || (to != kNoBlock && !loops_.contains(context_.back().loop, to)))
      return false;
    if (to == context_.back().header && arm_end == body && is_lone_jump(body)) return false;
  }
  if (last != "RETURN_VALUE") return std::nullopt;
  return else_last != kNoBlock && graph_.last_instruction(else_last).name() == "RETURN_VALUE" &&
         dead(else_last + 1);
}

BlockId Structurer::fall_successor(BlockId b) const {
  BlockId out = kNoBlock;
  graph_.for_each_successor(b, EdgeFilter().with(EdgeKind::FallThrough),
                            [&](const cfg::Edge& e) { out = e.to; });
  return out;
}
BlockId Structurer::jump_successor(BlockId b) const {
  BlockId out = kNoBlock;
  graph_.for_each_successor(b, EdgeFilter().with(EdgeKind::Jump).with(EdgeKind::Branch),
                            [&](const cfg::Edge& e) { out = e.to; });
  return out;
}
BlockId Structurer::normal_successor(BlockId b) const {
  BlockId j = jump_successor(b);
  return j != kNoBlock ? j : fall_successor(b);
}

// 3.12+ copies a small exit block into the paths that reach it (PEP 626):
// a block with the same instructions as `original` is that block.
namespace {
// A run of instructions as (opcode, arg) pairs, NOPs and EXTENDED_ARG left out.
std::vector<std::pair<std::uint8_t, std::uint32_t>> code_of(std::span<const Instruction> ins) {
  std::vector<std::pair<std::uint8_t, std::uint32_t>> out;
  for (const Instruction& i : ins)
    if (i.name() != "NOP" && i.name() != "EXTENDED_ARG") out.emplace_back(i.opcode, i.arg);
  return out;
}
// The instructions of a run that are code (NOPs and EXTENDED_ARG left out).
std::vector<const Instruction*> real_instructions(std::span<const Instruction> ins) {
  std::vector<const Instruction*> out;
  for (const Instruction& i : ins)
    if (i.name() != "NOP" && i.name() != "EXTENDED_ARG") out.push_back(&i);
  return out;
}
// Two runs of instructions that are the same code (NOPs and EXTENDED_ARG aside).
bool same_code(std::span<const Instruction> a, std::span<const Instruction> b) { return code_of(a) == code_of(b); }

// `except E as e`'s cleanup at instruction k: e = None; del e.
bool unbinds_name_at(std::span<const Instruction> ins, std::size_t k) {
  return k + 2 < ins.size() && ins[k].op() == Op::LOAD_CONST && ins[k + 1].name().starts_with("STORE_") &&
         ins[k + 2].name().starts_with("DELETE_") && ins[k + 1].arg == ins[k + 2].arg;
}

// POP_TOP just before the block's last instruction: a for loop's `break`
// pops the iterator then jumps, after the statements before it.
bool pops_before_last(const cfg::Graph& g, BlockId x) {
  auto ins = g.instructions(x);
  return ins.size() >= 2 && ins[ins.size() - 2].op() == Op::POP_TOP;
}
}  // namespace

// `return` or `return None`, else nullptr.
const ast::Return* return_none(const ast::StmtPtr& s) {
  auto* r = s->as<ast::Return>();
  return r && (!r->value || ast::is_none(r->value)) ? r : nullptr;
}

// Whether the instruction loads the constant None.
bool Structurer::loads_none(const Instruction& i) const {
  ObjectRef c = resolve_argument(code_, i).constant;
  return c && c->is<NoneValue>();
}

bool Structurer::copies_block(BlockId b, BlockId original) const {
  if (b == kNoBlock || original == kNoBlock || b == original) return false;
  const Instruction& last = graph_.last_instruction(b);
  if (last.jump_target || fall_successor(b) != kNoBlock) return false;  // must end the frame
  return same_code(graph_.instructions(b), graph_.instructions(original));
}

// b (from instruction `first` on) is a copy of the loop's follow, or of the
// block ending the frame that the follow only jumps to (3.12+ gives each
// exit of a loop in an except clause its own copy of the clause's end).
bool Structurer::copies_follow(BlockId b, BlockId follow, std::size_t first) const {
  if (follow == kNoBlock) return false;
  auto copies = [&](BlockId original) {
    return first == 0 ? copies_block(b, original) : copies_block_from(b, first, original);
  };
  const BlockId end = through_jumps(follow);
  return copies(follow) || (end != follow && copies(end));
}

// The block whose POP_EXCEPT ends the except clause that `inside` is in,
// reached from b through a few blocks of the same protected region with no
// branch; kNoBlock when there is none.
BlockId Structurer::clause_end_from(BlockId b, BlockId inside) const {
  if (clauses_.empty() || clauses_.back().finally) return kNoBlock;
  const auto& region = graph_.block(inside).handler;
  if (!region) return kNoBlock;
  for (int hops = 0; hops < 4 && b != kNoBlock && b < graph_.size(); ++hops) {
    const auto& mine = graph_.block(b).handler;
    auto ins = graph_.instructions(b);
    const bool pops = std::any_of(ins.begin(), ins.end(), [](const Instruction& i) { return i.op() == Op::POP_EXCEPT; });
    if (pops) return !mine || mine->block == region->block || ins.front().op() == Op::POP_EXCEPT ? b : kNoBlock;
    const BlockId jump = jump_successor(b), fall = fall_successor(b);
    if (!mine || mine->block != region->block || (jump != kNoBlock && fall != kNoBlock)) return kNoBlock;
    b = jump != kNoBlock ? jump : fall;
  }
  return kNoBlock;
}

// Reaching the end of the innermost except clause at b, from inside a loop
// in that clause: a `break` when nothing follows the loop in the clause (and
// no other loop of the clause is around it). Ending the clause silently
// would run on in the loop, so any other case fails with `why`. False when
// no loop runs inside the clause.
bool Structurer::breaks_to_clause_end(BlockId b, const char* why) const {
  const bool loop_in_clause =
      !context_.empty() && !clauses_.empty() && context_.back().clauses == clauses_.size();
  if (!loop_in_clause) return false;
  const bool one_loop = context_.size() < 2 || context_[context_.size() - 2].clauses < clauses_.size();
  if (context_.back().follow != kNoBlock || !one_loop) fail(b, why);
  return true;
}

// 3.12+: from b on, the except clause that `inside` is in ends
// (clause_end_from) by POP_EXCEPT (and the unbinding of `except E as e`),
// then a copy of the code after the try.
bool Structurer::ends_clause_by_copy(BlockId b, BlockId inside) const {
  const BlockId end = clause_end_from(b, inside);
  if (end == kNoBlock || clauses_.back().after_try == kNoBlock) return false;
  auto ins = graph_.instructions(end);
  std::size_t copy = 0;
  while (ins[copy].op() != Op::POP_EXCEPT) ++copy;  // (clause_end_from found one)
  ++copy;
  if (copy + 3 < ins.size() && unbinds_name_at(ins, copy)) copy += 3;
  return copies_block_from(end, copy, clauses_.back().after_try);
}

// b's instructions from index `first` on are those of `original`, a block
// that ends the frame: a PEP 626 copy of it sharing b with what came before.
bool Structurer::copies_block_from(BlockId b, std::size_t first, BlockId original) const {
  if (b == kNoBlock || original == kNoBlock || original >= graph_.size() || b == original) return false;
  const Instruction& last = graph_.last_instruction(original);
  if (last.jump_target || fall_successor(original) != kNoBlock || normal_successor(original) != kNoBlock) return false;
  auto mine = graph_.instructions(b);
  if (first >= mine.size()) return false;
  return same_code(mine.subspan(first), graph_.instructions(original));
}

// 3.12+ `break` out of a for whose follow only ends the frame: pop the
// iterator, then a copy of the follow (less the loop exit's own END_FOR).
// The exit of a for loop that starts `ins` (3.12+ END_FOR, and 3.13's
// POP_TOP after it), which comes before the code after the loop.
std::size_t Structurer::loop_exit_length(std::span<const Instruction> ins) const {
  if (ins.empty() || ins.front().op() != Op::END_FOR) return 0;
  return lift::version_row(code_.traits->minor).end_for_then_pop_top && ins.size() > 1 && ins[1].op() == Op::POP_TOP
             ? 2
             : 1;
}

bool Structurer::breaks_into_copy(BlockId b, BlockId follow, const lift::Stack& stack, std::size_t first) const {
  if (follow == kNoBlock || stack.empty() || stack.back().kind != Item::Kind::Iter) return false;
  auto ins = graph_.instructions(b);
  if (first >= ins.size()) return false;
  ins = ins.subspan(first);
  // (An inner loop's else that breaks out of this loop starts with the inner loop's exit.)
  ins = ins.subspan(loop_exit_length(ins));
  if (ins.empty() || ins.front().op() != Op::POP_TOP) return false;
  auto original = graph_.instructions(follow);
  const std::size_t skip = loop_exit_length(original);
  if (original.size() <= skip || original.size() - skip != ins.size() - 1) return false;
  const Instruction& last = graph_.last_instruction(follow);
  if (last.jump_target || fall_successor(follow) != kNoBlock || normal_successor(follow) != kNoBlock) return false;
  // (The copy after the loop may check a local the break path knows is bound.)
  auto same_load = [](const Instruction& a, const Instruction& o) {
    return a.arg == o.arg && (a.opcode == o.opcode || (a.op() == Op::LOAD_FAST && o.op() == Op::LOAD_FAST_CHECK));
  };
  for (std::size_t k = 1; k < ins.size(); ++k)
    if (!same_load(ins[k], original[skip + k - 1])) return false;
  return true;
}

bool Structurer::in_current_loop(BlockId b) const {
  if (context_.empty()) return true;
  const LoopContext& loop = context_.back();
  if (loops_.contains(loop.loop, b)) return true;
  // The body's paths that leave the loop (to a `break` or a `return`) are not
  // in the natural loop, but still in its body: dominated by the header and
  // not at or past the follow.
  if (b >= graph_.size() || b == loop.follow) return false;
  return dom_.dominates(loop.header, b) && (loop.follow == kNoBlock || !dom_.dominates(loop.follow, b));
}

Structurer::Seq Structurer::sequence(BlockId b, BlockId stop, lift::Stack stack, bool at_header, std::size_t first) {
  // Nesting depth bounds the recursion (generated code can nest very deeply).
  if (++depth_ > kMaxNesting) {
    --depth_;
    fail(b, "statements nested too deeply");
  }
  struct Guard {
    std::size_t& d;
    ~Guard() { --d; }
  } guard{depth_};
  Seq out = sequence_raw(b, stop, std::move(stack), at_header, first);
  remove_finally_copies(out);
  return out;
}

// 3.12+: whether block `b`, which ends an except clause with POP_EXCEPT and
// goes on to leave the frame, holds from instruction `first` on the copy of
// the code after a try whose body never goes on (Clause::tail), at the
// clause's own level.
std::optional<ast::StmtList> Structurer::after_try_copied_here(BlockId b, std::size_t first) {
  if (clauses_.empty() || !lift::version_row(code_.traits->minor).inlines_small_exits) return std::nullopt;
  const Clause& clause = clauses_.back();
  if (clause.finally || clause.exit != kNoBlock || clause.tail_block != kNoBlock || depth_ != clause.depth)
    return std::nullopt;
  // A body that goes on elsewhere may have an `else` that ends the frame
  // (structure_except tells); but a constant's `return` written in the
  // clause also comes after POP_EXCEPT: that stays the clause's.
  if (clause.after_try != kNoBlock) {
    std::vector<Op> ops;
    for (const Instruction& i : graph_.instructions(b).subspan(first))
      if (i.op() != Op::NOP) ops.push_back(i.op());
    if (ops == std::vector<Op>{Op::RETURN_CONST} || ops == std::vector<Op>{Op::LOAD_CONST, Op::RETURN_VALUE})
      return std::nullopt;
  }
  // A copy needs nothing from the stack; `return v` written in the clause
  // computes v before POP_EXCEPT (SWAP keeps it above the exception).
  try {
    return lifter_.run(graph_, b, {}, first, graph_.instructions(b).size()).stmts;
  } catch (const Error&) {
    return std::nullopt;
  }
}

// 3.10+ gives each jump to the implicit final `return None` (it has no
// line) its own copy; a `return None` block that several branches reach
// (outside exception handling) was written in the source.
bool Structurer::shared_final_return(BlockId b) const {
  if (!lift::version_row(code_.traits->minor).copies_final_return || !(code_.code->flags & kCoOptimized)) return false;
  auto ins = graph_.instructions(b);
  const bool lone_return = (ins.size() == 1 && ins[0].op() == Op::RETURN_CONST) ||
                           (ins.size() == 2 && ins[0].op() == Op::LOAD_CONST && ins[1].op() == Op::RETURN_VALUE);
  if (!lone_return || graph_.block(b).handler) return false;
  std::size_t preds = 0;
  bool plain = true;
  graph_.for_each_predecessor(b, kFlow, [&](const cfg::Edge& e) {
    ++preds;
    plain = plain && !graph_.block(e.from).handler && !graph_.block(e.from).is_handler;
  });
  return preds >= 2 && plain;
}

Structurer::Seq Structurer::sequence_raw(BlockId b, BlockId stop, lift::Stack stack, bool at_header,
                                         std::size_t first) {
  Seq out;
  out.stack = std::move(stack);
  while (true) {
    if (++steps_ > kMaxSteps) fail(b, "too many steps");
    if (b == stop) {
      if (first > 0) fail(b, "a statement ends inside the block where its enclosing one ends");
      return out;
    }
    if (b == kNoBlock) fail(0, "control flows past the end");
    // (A match case's body that starts inside a block: a `break` into the copied code after the loop.)
    if (first > 0 && !context_.empty() && breaks_into_copy(b, context_.back().follow, out.stack, first)) {
      out.stmts.push_back(ast::break_());
      out.open = false;
      return out;
    }
    if (!at_header && first == 0) {
      if (!context_.empty()) {
        const LoopContext& loop = context_.back();
        // (≤3.9 threads a jump to a block that only jumps back to the head:
        // a lone jump several arms reach, none of them its owner, is where
        // they all go back to the head.)
        const bool shared_back_jump =
            lift::version_row(code_.traits->minor).keeps_dead_code && only_jumps(b) && !single_entry(b) &&
            loop.continues_at(through_jumps(b));
        if (loop.continues_at(b) || shared_back_jump) {
          out.stmts.push_back(ast::continue_());
          out.open = false;
          return out;
        }
        if (b == loop.follow || copies_follow(b, loop.follow) || breaks_into_copy(b, loop.follow, out.stack)) {
          out.stmts.push_back(ast::break_());
          out.open = false;
          return out;
        }
        for (const LoopContext& outer : context_)
          if (b == outer.header || b == outer.follow) fail(b, "jump out of nested loops");
      }
      if (leaves_region(b, out.stack.size())) {
        Region& r = regions_.back();
        // Leaving through NOPs and forward jumps (each arm of an if gets
        // its own) is leaving where they lead.
        if (r.exit != kNoBlock && r.exit != b) {
          // (Where the two ways out meet: later code may reach the blocks after that too.)
          std::vector<BlockId> mine{b}, theirs{r.exit};
          for (int hops = 0; hops < 16 && through_jumps(mine.back()) != mine.back(); ++hops)
            mine.push_back(normal_successor(mine.back()));
          for (int hops = 0; hops < 16 && through_jumps(theirs.back()) != theirs.back(); ++hops)
            theirs.push_back(normal_successor(theirs.back()));
          auto meet = std::find_first_of(mine.begin(), mine.end(), theirs.begin(), theirs.end());
          if (meet == mine.end()) fail(b, "try body leaves at two places");
          b = *meet;
        }
        r.exit = b;
        out.left = true;
        // From inside a loop that runs inside the region, only a `break`
        // leaves it without a statement of its own (the loop's end is
        // the region's).
        if (!context_.empty() && context_.back().regions == regions_.size()) {
          if (context_.back().follow != kNoBlock) fail(b, "a loop leaves its try body elsewhere than where it ends");
          out.stmts.push_back(ast::break_());
          out.open = false;
        }
        return out;
      }
      // An async for's head is inside the region whose handler ends the loop.
      if (auto head = async_for_head(b)) {
        b = structure_async_for(b, *head, out);
        if (b == kNoBlock) {
          out.open = false;
          return out;
        }
        continue;
      }
      if (auto h = region_to_enter(b)) {
        b = structure_try(b, *h, out);
        if (b == kNoBlock) {
          out.open = false;
          return out;
        }
        continue;
      }
      if (loops_.loop_of_header(b) != cfg::kNoLoop && graph_.last_instruction(b).name() != "SEND" &&
          !is_rotated_entry(b)) {
        b = structure_loop(b, out);
        if (b == kNoBlock) {
          out.open = false;
          return out;
        }
        continue;
      }
    }
    at_header = false;
    if (auto m = structure_match(b, first, stop, out)) {
      b = m->block;
      first = m->first;
      if (b == kNoBlock) {
        out.open = false;
        return out;
      }
      continue;
    }
    // (A block entered in its middle is the match's: it marked it.)
    if (first == 0) mark(b);
    lift::BlockEffect eff = first == 0 ? lifter_.run(graph_, b, std::move(out.stack))
                                       : lifter_.run(graph_, b, std::move(out.stack), first, graph_.instructions(b).size());
    first = 0;
    // Moved: only their count is looked at below. (The first block's list is
    // taken whole: a copy of it was an allocation per sequence.)
    const std::size_t lifted = eff.stmts.size();
    if (out.stmts.empty())
      std::swap(out.stmts, eff.stmts);
    else
      out.stmts.insert(out.stmts.end(), std::make_move_iterator(eff.stmts.begin()),
                       std::make_move_iterator(eff.stmts.end()));
    // (Only the branch cases read eff.stack again: the others take it.)
    if (eff.term.kind == TK::Branch || eff.term.kind == TK::KeepBranch)
      out.stack = eff.stack;
    else
      out.stack = std::move(eff.stack);
    switch (eff.term.kind) {
      case TK::Exit:
        if (!context_.empty() && ends_in_break_copy(b, context_.back())) {
          out.stmts.resize(out.stmts.size() - context_.back().tail_stmts);
          out.stmts.push_back(ast::break_());
          out.open = false;
          return out;
        }
        if (const ast::Return* r = out.stmts.empty() ? nullptr : return_none(out.stmts.back())) {
          // (≤3.9 a try/except body runs off its end by a jump: a `return
          // None` inside it is written, even in the function's last lines.)
          const bool in_except_body = !regions_.empty() &&
                                      handler_kind(regions_.back().handler) == HandlerKind::Except &&
                                      !lift::version_row(code_.traits->minor).copies_final_return;
          if (in_except_body || shared_final_return(b)) {
            ast::Return written = *r;
            written.written = true;
            out.stmts.back() = ast::make_stmt(std::move(written), out.stmts.back()->line);
          }
          // A module or class body has no return statement: in a loop, a copy
          // of its implicit final `return None` is where a `break` goes.
          if (!(code_.code->flags & kCoOptimized) && !context_.empty()) {
            out.stmts.back() = ast::break_();
            out.open = false;
            return out;
          }
        }
        // 3.12+ copies what follows an except clause (the code after its loop
        // or its try, when that only ends the frame) into the clause, after
        // its POP_EXCEPT: that is `break`, or the clause's end.
        if (eff.pop_except && eff.after_pop_except < graph_.instructions(b).size()) {
          auto keep_before_copy = [&] {
            out.stmts.resize(out.stmts.size() - (lifted - eff.stmts_before_pop_except));
          };
          // (`except E as e:` unbinds e first: e = None; del e.)
          std::size_t copy = eff.after_pop_except;
          if (auto ins = graph_.instructions(b); copy + 3 < ins.size() && unbinds_name_at(ins, copy)) copy += 3;
          if (!context_.empty() && copies_follow(b, context_.back().follow, copy)) {
            keep_before_copy();
            out.stmts.push_back(ast::break_());
          } else if (!clauses_.empty() && !clauses_.back().finally &&
                     copies_block_from(b, copy, clauses_.back().after_try) &&
                     (clauses_.back().exit == kNoBlock || clauses_.back().exit == clauses_.back().after_try)) {
            keep_before_copy();
            clauses_.back().exit = clauses_.back().after_try;
            if (breaks_to_clause_end(b, "a loop in an except clause leaves by a copy of the code after the try")) {
              out.stmts.push_back(ast::break_());
              out.open = false;
            }
            return out;
          } else if (auto tail = after_try_copied_here(b, copy)) {
            // A try whose body never goes on: what follows POP_EXCEPT (and
            // the unbinding of `except E as e`) is the code after the try, copied.
            Clause& clause = clauses_.back();
            clause.tail = std::move(*tail);
            clause.tail_block = b;
            clause.tail_first = copy;
            keep_before_copy();
            return out;
          }
        }
        out.open = false;
        return out;
      case TK::Fall: {
        const BlockId prev = b;
        b = normal_successor(b);
        // (3.8 `return v` in `except E as e:` pops the exception, runs the
        // cleanup by CALL_FINALLY, then returns: the clause goes on to it.)
        if (!clauses_.empty() && ((eff.pop_except && !clauses_.back().finally) ||
                                  (eff.end_finally && clauses_.back().finally)) &&
            !(graph_.last_instruction(prev).op() == Op::CALL_FINALLY && dead_end(b))) {
          // The end of an except clause: continue, break, or on to the join.
          // A clause that ends the loop body also jumps to the head (the
          // try's end, threaded); ≤3.9 keeps the dead end of the clause
          // after a written `continue`. (One in the middle of the clause has
          // more of the clause after it, not its END_FINALLY.)
          auto clause_ends_here = [&] {
            if (prev + 1 >= graph_.size()) return true;
            auto next = graph_.instructions(prev + 1);
            return !next.empty() && (next.front().name() == "END_FINALLY" || next.front().name() == "RERAISE" ||
                                     unbinds_name_at(next, 0) || is_exc_match_block(graph_, prev + 1));
          };
          const bool written_continue =
              !lift::version_row(code_.traits->minor).keeps_dead_code ||
              (prev + 1 < graph_.size() && !graph_.block(prev + 1).reachable) || !clause_ends_here();
          // 3.11+ `return` in an except clause nested in another: the inner
          // POP_EXCEPT ends a block (the table covers it), the outer one and
          // the return follow, entered from here only. The clause goes on.
          // (Deeper nesting has a block of POP_EXCEPT per enclosing clause.)
          // (Not a 3.12+ copy of what follows the outer try.)
          auto unwinds_outer_then_returns = [&] {
            BlockId x = b;
            for (std::size_t outer = 1; outer < clauses_.size() && single_entry(x); ++outer) {
              auto ins = graph_.instructions(x);
              if (ins.front().op() != Op::POP_EXCEPT) return false;
              const Op last = ins.back().op();
              if (dead_end(x)) {
                std::size_t k = 0;
                while (k < ins.size() && ins[k].op() == Op::POP_EXCEPT) ++k;
                return (last == Op::RETURN_VALUE || last == Op::RETURN_CONST) &&
                       !copies_block_from(x, k, clauses_[clauses_.size() - 1 - outer].after_try);
              }
              if (!std::all_of(ins.begin(), ins.end(), [](const Instruction& i) {
                    return i.op() == Op::POP_EXCEPT || i.op() == Op::NOP;
                  }))
                return false;
              x = normal_successor(x);
            }
            return false;
          };
          if (eff.pop_except && unwinds_outer_then_returns()) break;
          // ≤3.9 a clause goes on by POP_EXCEPT; JUMP_FORWARD: what follows
          // POP_EXCEPT and only unwinds on its way to ending the frame
          // (POP_BLOCK, a finally's CALL_FINALLY) is the clause's `return`.
          // (Not when that path leaves an enclosing try body on the way:
          // that is where the body ends, for the try around to structure.)
          auto stays_inside = [&] {
            BlockId x = b;
            for (int hops = 0; hops < 8 && x != kNoBlock; ++hops) {
              if (leaves_region(x, out.stack.size())) return false;
              x = normal_successor(x);
            }
            return true;
          };
          if (eff.pop_except && !lift::version_row(code_.traits->minor).copies_final_return &&
              !graph_.last_instruction(prev).jump_target && !only_jumps(b) && single_entry(b) &&
              only_ends_frame(b) && stays_inside())
            break;
          // (A `continue` through an empty finally body, or through 3.8's
          // unbinding of `except E as e` by CALL_FINALLY: the clause runs on
          // into a jump of its own, reached from it only, to the loop's
          // head. A jump there is the clause's way to the loop's end.)
          const bool continues =
              !context_.empty() &&
              (context_.back().continues_at(b) ||
               (eff.pop_except &&
                (!graph_.last_instruction(prev).jump_target || graph_.last_instruction(prev).op() == Op::CALL_FINALLY) &&
                single_entry(b) && only_jumps(b) &&
                context_.back().continues_at(through_jumps(b))));
          if (continues && written_continue) {
            out.stmts.push_back(ast::continue_());
          } else if (!context_.empty() && b == context_.back().follow) {
            out.stmts.push_back(ast::break_());
          } else {
            if (clauses_.back().exit != kNoBlock && clauses_.back().exit != b)
              fail(b, "except clauses end at different places");
            clauses_.back().exit = b;
            if (breaks_to_clause_end(b, "a loop in an except clause leaves it at its end")) {
              out.stmts.push_back(ast::break_());
              out.open = false;
            }
            return out;
          }
          out.open = false;
          return out;
        }
        break;
      }
      case TK::Branch:
      case TK::KeepBranch: {
        // Statements of this block stay; the value its branch computes may be one expression.
        if (eff.term.kind == TK::Branch && try_exit_tail_value(b, eff, out)) {
          out.open = false;
          return out;
        }
        BlockId next = kNoBlock;
        std::optional<BlockId> arms_follow;  // where the arms meet, if the try found it
        if (try_value_branch(b, eff, stop, out, next, arms_follow)) {
          b = next;
          break;
        }
        if (eff.term.kind == TK::KeepBranch) {
          b = structure_keep(b, eff, stop, out, false, arms_follow);
          break;
        }
        // 3.12+ `x or y`: COPY 1; POP_JUMP_IF_TRUE; POP_TOP; y — the tested value stays.
        if (!out.stack.empty() && out.stack.back().kind == Item::Kind::Value &&
            out.stack.back().expr == eff.term.cond && !eff.term.exc_match)
          b = structure_keep(b, eff, stop, out, true, arms_follow);
        else
          b = structure_if(b, eff, stop, out, arms_follow);
        break;
      }
      case TK::Send: {
        // [receiver, value] → result; the yield loop around SEND is the await itself.
        if (out.stack.size() < 2) fail(b, "SEND without a receiver");
        out.stack.pop_back();
        Item receiver = out.stack.back();
        out.stack.pop_back();
        out.stack.push_back(receiver);
        b = jump_successor(b);
        if (b != kNoBlock && !graph_.block(b).reachable) fail(b, "SEND target unreachable");
        break;
      }
      case TK::ForIter:
        fail(b, "FOR_ITER outside a loop header");
    }
    if (b == kNoBlock) {
      out.open = false;
      return out;
    }
  }
}

// --- exception regions ----------------------------------------------------------

const std::vector<BlockId>& Structurer::handler_chain(BlockId b) const {
  static const std::vector<BlockId> none;
  if (b == kNoBlock || !graph_.block(b).handler) return none;
  if (handler_chains_.empty()) handler_chains_.resize(graph_.size());
  std::optional<std::vector<BlockId>>& kept = handler_chains_[b];
  if (kept) return *kept;
  std::vector<BlockId> chain;
  chain.reserve(4);  // (most are one to three handlers deep: one allocation, not one per handler)
  for (int guard = 0; guard < 256 && b != kNoBlock; ++guard) {
    const auto& h = graph_.block(b).handler;
    if (!h) break;
    b = h->block;
    if (std::find(chain.begin(), chain.end(), b) != chain.end()) break;
    chain.push_back(b);
  }
  return kept.emplace(std::move(chain));
}

bool Structurer::is_try_handler(BlockId h) const {
  auto ins = graph_.instructions(h);
  std::size_t k = 0;
  while (k < ins.size() && (ins[k].name() == "NOP" || ins[k].name() == "EXTENDED_ARG")) ++k;
  if (k >= ins.size()) return false;
  if (code_.traits->has_exception_table()) return ins[k].name() == "PUSH_EXC_INFO";
  // Block stack: every SETUP_* target, except the cleanup of `except E as e`
  // (`e = None; del e; reraise`).
  if (k + 2 < ins.size() && ins[k].name() == "LOAD_CONST" && ins[k + 1].name().starts_with("STORE_") &&
      ins[k + 2].name().starts_with("DELETE_"))
    return false;
  return true;
}

namespace {
bool is_exc_match_block(const cfg::Graph& g, BlockId b) {
  for (const Instruction& i : g.instructions(b)) {
    if (i.name() == "CHECK_EXC_MATCH" || i.name() == "JUMP_IF_NOT_EXC_MATCH") return true;
    if (i.name() == "COMPARE_OP" && resolve_argument(g.code(), i).text == "exception match") return true;
  }
  return false;
}
}  // namespace

std::optional<BlockId> Structurer::region_to_enter(BlockId b) const {
  BlockId top = regions_.empty() ? kNoBlock : regions_.back().handler;
  std::optional<BlockId> outermost;
  for (BlockId h : handler_chain(b)) {
    if (h == top) break;
    bool active = false;
    for (const Region& r : regions_) active = active || r.handler == h;
    if (active) break;
    if (is_try_handler(h)) outermost = h;
  }
  return outermost;
}

// Every path from `b` ends the frame (return/raise) in code that only `b`
// leads to, laid out before `limit`.
bool Structurer::only_ends_frame(BlockId b, std::uint32_t limit, bool raising) const {
  RecycledVector<BlockId> work = block_list();
  work.push_back(b);
  auto seen = block_marks();
  seen[b] = true;
  while (!work.empty()) {
    BlockId x = work.back();
    work.pop_back();
    if (!dom_.dominates(b, x) || loops_.loop_of_header(x) != cfg::kNoLoop || graph_.block(x).begin >= limit)
      return false;
    if (raising && dead_end(x) && graph_.last_instruction(x).op() != Op::RAISE_VARARGS) return false;
    graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) {
      if (!seen[e.to]) seen[e.to] = true, work.push_back(e.to);
    });
  }
  return true;
}

bool Structurer::dead_end(BlockId b) const {
  std::size_t succ = 0;
  graph_.for_each_successor(b, kFlow, [&](const cfg::Edge&) { ++succ; });
  return succ == 0;
}

// `return` out of a `with` (or a 3.8 try/finally): from `b` straight on to
// the frame's end, only the __exit__(None, None, None) call (3.8: the
// finally body's CALL_FINALLY) and moving the returned value (which is either
// computed inside or a constant) around it. Returning None there is the
// function's implicit end after the `with`, not a `return`.
bool Structurer::unwinds_then_returns(BlockId b, bool* value_below_exit) const {
  bool exit_call = false;
  bool swapped = false;  // the value moved above __exit__ before the first exit call
  if (value_below_exit) *value_below_exit = false;
  const Instruction* previous = nullptr;
  for (int guard = 0; guard < 8 && b != kNoBlock; ++guard) {
    for (const Instruction& i : graph_.instructions(b)) {
      switch (i.op()) {
        case Op::CALL: case Op::PRECALL: case Op::CALL_FUNCTION:
          exit_call = exit_call || i.arg == 2 || i.arg == 3;
          break;
        case Op::WITH_CLEANUP_START: case Op::CALL_FINALLY:  // 3.8
          exit_call = true;
          break;
        case Op::BEGIN_FINALLY: case Op::WITH_CLEANUP_FINISH: case Op::POP_FINALLY:
          break;
        case Op::RETURN_CONST:
          return exit_call && !loads_none(i);
        case Op::RETURN_VALUE:
          // (A constant is loaded after the unwinding; any other value was
          // on the stack through it, swapped above __exit__ when the body
          // pushed it.)
          if (value_below_exit) *value_below_exit = !swapped && !(previous && previous->op() == Op::LOAD_CONST);
          return exit_call && !(previous && previous->op() == Op::LOAD_CONST && loads_none(*previous));
        case Op::SWAP: case Op::ROT_TWO:
          swapped = swapped || !exit_call;
          break;
        case Op::NOP: case Op::POP_BLOCK: case Op::LOAD_CONST:
        case Op::DUP_TOP: case Op::POP_TOP: case Op::EXTENDED_ARG: case Op::JUMP_FORWARD:
        case Op::JUMP_ABSOLUTE: case Op::JUMP_BACKWARD: case Op::JUMP_BACKWARD_NO_INTERRUPT:
          break;
        default:
          return false;
      }
      if (i.op() != Op::NOP && i.op() != Op::EXTENDED_ARG) previous = &i;
    }
    if (jump_successor(b) != kNoBlock && fall_successor(b) != kNoBlock) return false;
    b = normal_successor(b);
  }
  return false;
}

// The block where control leaves the region of `handler` normally: among the
// exits, the last in code order that goes on, else the last one. A `return`
// out of a `with` is not its exit: a with whose body only returns has none.
// A block that is only RETURN_VALUE: ≤3.9's peephole optimizer puts one in
// place of a jump to it, so the value came from before (a `return` written
// there loads its value in the same block, or in the region).
bool Structurer::returns_value_from_before(BlockId b) const {
  auto ins = graph_.instructions(b);
  return !ins.empty() && ins.front().op() == Op::RETURN_VALUE;
}

BlockId Structurer::expected_exit(BlockId handler) const {
  BlockId going_on = kNoBlock, any = kNoBlock;
  const bool with = handler_kind(handler) != HandlerKind::Except;
  for (const cfg::Block& blk : graph_.blocks()) {
    const auto& chain = handler_chain(blk.id);
    if (std::find(chain.begin(), chain.end(), handler) == chain.end()) continue;
    // (3.11+ leaves a NOP between protected ranges unprotected: one that
    // goes on inside the region is not a way out of it.)
    auto protected_gap = [&](BlockId x) {
      for (const Instruction& i : graph_.instructions(x))
        if (i.op() != Op::NOP && i.op() != Op::EXTENDED_ARG) return false;
      const BlockId next = fall_successor(x);
      if (next == kNoBlock || jump_successor(x) != kNoBlock) return false;
      const auto& c = handler_chain(next);
      return std::find(c.begin(), c.end(), handler) != c.end();
    };
    graph_.for_each_successor(blk.id, kFlow, [&](const cfg::Edge& e) {
      const auto& c = handler_chain(e.to);
      if (std::find(c.begin(), c.end(), handler) != c.end()) return;
      if (with && unwinds_then_returns(e.to)) return;
      if (protected_gap(e.to)) return;
      auto later = [&](BlockId cur) { return cur == kNoBlock || graph_.block(e.to).begin > graph_.block(cur).begin; };
      if (later(any)) any = e.to;
      if (!dead_end(e.to) && later(going_on)) going_on = e.to;
    });
  }
  // (≤3.9 a try/except body goes on by a jump: one that only ends the frame
  // never goes on, unless it is the jump to a RETURN_VALUE the peephole
  // optimizer replaced by it.)
  if (!with && !lift::version_row(code_.traits->minor).copies_final_return && !(any != kNoBlock && returns_value_from_before(any)))
    return going_on;
  return going_on != kNoBlock ? going_on : any;
}

bool Structurer::leaves_region(BlockId b, std::size_t stack_depth) const {
  if (regions_.empty()) return false;
  // `return v` out of try/finally or with: v was computed inside, then the
  // exit code runs outside the protected range before RETURN_VALUE; that
  // block stays part of the body (the value still on the stack says so).
  if (graph_.last_instruction(b).name() == "RETURN_VALUE" && normal_successor(b) == kNoBlock &&
      stack_depth > regions_.back().entry_depth)
    return false;
  // Likewise any exit that ends the frame and is not the region's own exit
  // (the last one in code order: inline copies come first).
  BlockId expected = regions_.back().expected_exit;
  if (expected != kNoBlock && b != expected && dead_end(b)) return false;
  // (Also one that only unwinds enclosing regions on its way to ending the
  // frame, `return` through a try/finally around, when the region's own
  // exit goes on.)
  // (A try/except body goes on by a jump; 3.10 may copy what follows it, so
  // that it ends the frame too.)
  if (expected != kNoBlock && b != expected && !dead_end(b) && only_ends_frame(b) &&
      (handler_kind(regions_.back().handler) != HandlerKind::Except || !only_ends_frame(expected) ||
       (only_jumps(expected) && !only_jumps(b))))
    return false;
  if (!raising_finally_.empty() && raising_finally_.back() == regions_.size() && dead_end(b)) return false;
  // (Also from a try inside that finally body: the finally goes on by
  // re-raising, so a return reached only from there is a `return`.)
  if (!raising_finally_.empty() && raising_finally_.back() < regions_.size() && single_entry(b)) {
    BlockId x = b;
    for (int hops = 0; hops < 8 && x != kNoBlock && jump_successor(x) == kNoBlock; ++hops) {
      const Op last = graph_.last_instruction(x).op();
      if (last == Op::RETURN_VALUE || last == Op::RETURN_CONST) return false;
      x = fall_successor(x);
    }
  }
  // ≤3.9 a try/except body goes on by POP_BLOCK; JUMP_FORWARD: one that
  // ends the frame right after POP_BLOCK is a `return` inside the body.
  if (expected == kNoBlock && dead_end(b) && handler_kind(regions_.back().handler) == HandlerKind::Except &&
      !lift::version_row(code_.traits->minor).copies_final_return && !returns_value_from_before(b))
    return false;
  // (Out of a with, only a value the body pushed: the compiler swaps it
  // above __exit__. One below __exit__ was there before the with and is
  // returned after it, as in a copy of a finally body that holds a with.)
  const HandlerKind kind = handler_kind(regions_.back().handler);
  bool value_below_exit = false;
  if (b != expected && kind != HandlerKind::Except && unwinds_then_returns(b, &value_below_exit) &&
      (kind != HandlerKind::With || !value_below_exit))
    return false;
  // `break`/`continue` out of the try: its unwinding (a finally copy, a
  // with's exit) runs outside the protected range, then jumps.
  if (b != expected && unwinds_to_loop_edge(b)) return false;
  return outside_region(b, 0);
}

// Whether `b` is outside the innermost region. Jumps the compiler left
// unprotected (3.12+ a loop's back jump inside a with, 3.13 a jump on None)
// cannot raise: such a block is outside only if where it goes is. A NOP
// reached only from inside is inside (3.11: the line of a loop's exit, left
// unprotected).
bool Structurer::outside_region(BlockId b, int depth) const {
  const auto& chain = handler_chain(b);
  if (std::find(chain.begin(), chain.end(), regions_.back().handler) != chain.end()) return false;
  auto inside_nop = [&] {
    for (const Instruction& i : graph_.instructions(b))
      if (i.op() != Op::NOP && i.op() != Op::EXTENDED_ARG) return false;
    int preds = 0;
    bool from_inside = true;
    graph_.for_each_predecessor(b, kFlow, [&](const cfg::Edge& e) {
      ++preds;
      const auto& from = handler_chain(e.from);
      from_inside = from_inside && std::find(from.begin(), from.end(), regions_.back().handler) != from.end();
    });
    // (Only when it goes on inside: a NOP before code outside, such as the
    // `try:` line of the next try statement, is where the body leaves.)
    const BlockId next = fall_successor(b);
    return preds >= 1 && from_inside && next != kNoBlock && !outside_region(next, depth + 1);
  };
  if (depth == 0 && inside_nop()) return false;
  if (depth > 8 || !only_jumps(b)) return true;
  bool outside = false;
  graph_.for_each_successor(b, kFlow, [&](const cfg::Edge& e) {
    outside = outside || e.to == b || outside_region(e.to, depth + 1);
  });
  return outside;
}

// A block of jumps that cannot raise: unconditional ones, and tests of a
// bool or of None.
bool Structurer::only_jumps(BlockId b) const {
  if (b == kNoBlock || b >= graph_.size()) return false;
  for (const Instruction& i : graph_.instructions(b)) {
    switch (i.op()) {
      case Op::NOP: case Op::NOT_TAKEN: case Op::EXTENDED_ARG: case Op::JUMP_FORWARD: case Op::JUMP_BACKWARD:
      case Op::JUMP_ABSOLUTE: case Op::JUMP_BACKWARD_NO_INTERRUPT: case Op::POP_JUMP_IF_NONE:
      case Op::POP_JUMP_IF_NOT_NONE:
        break;
      default:
        return false;
    }
  }
  return graph_.last_instruction(b).jump_target.has_value();
}

// From `b` straight on (no branch) to the current loop's header or follow.
bool Structurer::unwinds_to_loop_edge(BlockId b) const {
  if (context_.empty()) return false;
  const LoopContext& loop = context_.back();
  for (int guard = 0; guard < 16 && b != kNoBlock && b < graph_.size(); ++guard) {
    if (emitted_[b]) return false;
    BlockId next = normal_successor(b);
    if (next == kNoBlock || (fall_successor(b) != kNoBlock && jump_successor(b) != kNoBlock)) return false;
    if (loop.continues_at(next) || next == loop.follow) return true;
    b = next;
  }
  return false;
}

// A block of one unconditional jump (and NOPs).
bool Structurer::is_lone_jump(BlockId b) const {
  if (b == kNoBlock || b >= graph_.size() || fall_successor(b) != kNoBlock) return false;
  for (const Instruction& i : graph_.instructions(b)) {
    Op op = i.op();
    if (op != Op::JUMP_BACKWARD && op != Op::JUMP_BACKWARD_NO_INTERRUPT && !only_moves_on(op) &&
        op != Op::EXTENDED_ARG)
      return false;
  }
  return graph_.last_instruction(b).jump_target.has_value();
}

Structurer::HandlerKind Structurer::handler_kind(BlockId h) const {
  auto ins = graph_.instructions(h);
  if (!code_.traits->has_exception_table()) {
    std::string_view first = ins.empty() ? "" : ins[0].name();
    if (first == "WITH_EXCEPT_START" || first == "WITH_CLEANUP_START") return HandlerKind::With;
    if (is_exc_match_block(graph_, h)) return HandlerKind::Except;
    if (ins.size() >= 3 && ins[0].name() == "POP_TOP" && ins[1].name() == "POP_TOP" &&
        ins[2].name() == "POP_TOP")
      return HandlerKind::Except;
    return HandlerKind::Finally;
  }
  std::size_t k = 0;
  while (k < ins.size() && ins[k].name() != "PUSH_EXC_INFO") ++k;
  std::string_view next = k + 1 < ins.size() ? ins[k + 1].name() : "";
  if (next == "WITH_EXCEPT_START") return HandlerKind::With;
  if (next == "POP_TOP") return HandlerKind::Except;
  for (const Instruction& i : ins)
    if (i.name() == "CHECK_EXC_MATCH") return HandlerKind::Except;
  return HandlerKind::Finally;
}

lift::Stack Structurer::handler_stack(BlockId protected_block, const lift::Stack& stack) const {
  const auto& h = graph_.block(protected_block).handler;
  // (Room for what the handler pushes, at most six: a copy of `stack` at its
  // size grew again at the first push.)
  lift::Stack out;
  out.reserve(stack.size() + 6);
  out.assign(stack.begin(), stack.end());
  // (3.8 enters a finally body with BEGIN_FINALLY's NULL or with the six
  // items of an exception: a try inside it has the deeper depth statically,
  // the stack it was entered with at run time.)
  // (Five more per finally body it is in.)
  const std::size_t finally_bodies =
      lift::version_row(code_.traits->minor).finally_subroutine
          ? std::size_t(std::count_if(clauses_.begin(), clauses_.end(), [](const Clause& c) { return c.finally; }))
          : 0;
  const std::size_t above = h->depth > out.size() ? h->depth - out.size() : 0;
  if (above % 5 != 0 || above > 5 * finally_bodies) fail(protected_block, "handler depth above the stack");
  out.resize(std::min<std::size_t>(h->depth, out.size()));
  Item exc = Item::of(Item::Kind::Exception);
  exc.sink = std::make_shared<lift::TargetSink>();
  if (h->pushed == 6) {
    // ≤3.10: the saved exc_info triple, then traceback, value (what `as` binds), type.
    for (int k = 0; k < 4; ++k) out.push_back(Item::of(Item::Kind::Marker));
    out.push_back(exc);
    out.push_back(Item::of(Item::Kind::Marker));
    return out;
  }
  if (h->lasti) out.push_back(Item::of(Item::Kind::Marker));
  out.push_back(exc);
  return out;
}

namespace {
// `body` without the `return None` that ends it and each arm of its last if.
ast::StmtList without_return_none(ast::StmtList body) {
  if (body.empty()) return body;
  if (return_none(body.back())) {
    body.pop_back();
    return without_return_none(std::move(body));
  }
  if (auto* i = body.back()->as<ast::If>()) {
    ast::If c{i->test, without_return_none(i->body), without_return_none(i->orelse)};
    if (c.body.empty()) c.body.push_back(ast::pass());
    body.back() = ast::make_stmt(std::move(c), body.back()->line);
  }
  return body;
}

// When every arm of `body`'s last statement (an if/else, elif chains
// included) ends in the same `return`, drops those returns (an arm left
// empty gets `pass`) and returns the statement; nullptr otherwise.
ast::StmtPtr hoist_common_return(ast::StmtList& body) {
  if (body.empty()) return nullptr;
  if (body.back()->as<ast::Return>()) return body.back();
  auto* i = body.back()->as<ast::If>();
  if (!i || i->orelse.empty() || i->body.empty()) return nullptr;
  ast::StmtList then = i->body, orelse = i->orelse;
  ast::StmtPtr a = hoist_common_return(then), b = hoist_common_return(orelse);
  if (!a || !b || unparse(ast::StmtList{a}) != unparse(ast::StmtList{b})) return nullptr;
  if (then.back().get() == a.get()) then.pop_back();
  if (orelse.back().get() == b.get()) orelse.pop_back();
  if (then.empty()) then.push_back(ast::pass());
  ast::If c{i->test, then, orelse};
  body.back() = ast::make_stmt(std::move(c), body.back()->line);
  return a;
}
}  // namespace

void Structurer::remove_finally_copies(Seq& seq) const {
  // Later copies first, so earlier indices stay valid.
  for (auto it = seq.finally_copies.rbegin(); it != seq.finally_copies.rend(); ++it) {
    auto [index, fin] = *it;
    if (fin.empty()) continue;
    const std::size_t try_index = index - 1;  // the try statement the copy follows
    // Values kept on the stack across the copy (a return value) were spilled
    // to temporaries just before it.
    auto spilled = [&](std::size_t k) {
      auto* a = k < seq.stmts.size() ? seq.stmts[k]->as<ast::Assign>() : nullptr;
      auto* n = a && a->targets.size() == 1 ? a->targets[0]->as<ast::Name>() : nullptr;
      return n && lifter_.temporaries().count(n->id) > 0;
    };
    while (spilled(index)) ++index;
    // `finally: pass` may leave no statement on the normal path: its line
    // sits on the jump that goes on.
    if (fin.size() == 1 && fin[0]->is<ast::Pass>() &&
        (index >= seq.stmts.size() || !seq.stmts[index]->is<ast::Pass>()))
      continue;
    if (index + fin.size() > seq.stmts.size())
      fail(0, "the normal-path copy of a finally body is missing");
    ast::StmtList copy(seq.stmts.begin() + std::ptrdiff_t(index),
                       seq.stmts.begin() + std::ptrdiff_t(index + fin.size()));
    // At the end of the frame the copy's arms end in the implicit `return
    // None` (3.10+ copies it into each): the same copy, then that return.
    ast::StmtPtr ends_frame;
    bool returns_in_try = false;
    if (unparse(copy) != unparse(fin)) {
      bool last = index + fin.size() == seq.stmts.size() && !seq.open;
      // (A `return` written at the end of an arm of the finally body reads
      // the same as the implicit one copied there.)
      if (last && unparse(without_return_none(copy)) == unparse(without_return_none(fin))) {
        ends_frame = ast::return_(ast::none());
      } else if (ast::StmtPtr ret = last ? hoist_common_return(copy) : nullptr;
                 ret && unparse(copy) == unparse(fin)) {
        // `return v` at the end of the try body: v is computed before the
        // copy, the return after it, which 3.12+ copied into each arm of
        // the finally body's last if.
        ends_frame = ret;
        returns_in_try = true;
      } else {
        fail(0, "the normal-path copy of a finally body differs");
      }
    }
    seq.stmts.erase(seq.stmts.begin() + std::ptrdiff_t(index),
                    seq.stmts.begin() + std::ptrdiff_t(index + fin.size()));
    auto* t = returns_in_try && try_index < seq.stmts.size() ? seq.stmts[try_index]->as<ast::Try>() : nullptr;
    if (t) {
      ast::Try with_return = *t;
      with_return.body.push_back(ends_frame);
      seq.stmts[try_index] = ast::make_stmt(std::move(with_return), seq.stmts[try_index]->line);
    } else if (ends_frame) {
      seq.stmts.push_back(ends_frame);
    }
  }
  seq.finally_copies.clear();
}

namespace {
// Removes the copy of a finally body inlined before each `return`, and
// before each `break`/`continue` that leaves the try (not those of a loop
// inside it) (3.9+). Returns false when one has no copy in front of it.
// Whether `value`, returned right after a copy of `fin`, reads a name the
// copy stores: `return v` in a try evaluates v before the finally runs, so
// v read after the copy is code after the try (3.10 copies it), not that.
bool reads_name_stored_in(const ast::ExprPtr& value, const ast::StmtList& fin) {
  if (!value) return false;
  ast::NameSet stored;
  for (const ast::StmtPtr& st : fin)
    ast::visit_stmt(st, [&](const ast::ExprPtr& e) {
      if (auto* n = e->as<ast::Name>(); n && n->ctx != ast::ExprContext::Load) stored.emplace(n->id.view());
    }, true);
  bool reads = false;
  ast::visit_expr(value, [&](const ast::ExprPtr& e) {
    if (auto* n = e->as<ast::Name>(); n && stored.count(n->id)) reads = true;
  });
  return reads;
}

bool strip_inline_finally(ast::StmtList& body, const ast::StmtList& fin, const std::string& fin_text,
                          bool in_inner_loop = false) {
  bool ok = true;
  auto leaves_at = [&](std::size_t k) {
    const ast::StmtPtr& st = body[k];
    return st->is<ast::Return>() || (!in_inner_loop && (st->is<ast::Break>() || st->is<ast::Continue>()));
  };
  for (std::size_t k = 0; k < body.size(); ++k) {
    // The copy first: a finally body may `return` itself (inside an if).
    if (!fin.empty() && k + fin.size() < body.size() && leaves_at(k + fin.size()) &&
        unparse(ast::StmtList(body.begin() + std::ptrdiff_t(k), body.begin() + std::ptrdiff_t(k + fin.size()))) ==
            fin_text) {
      if (auto* r = body[k + fin.size()]->as<ast::Return>(); r && reads_name_stored_in(r->value, fin)) return false;
      body.erase(body.begin() + std::ptrdiff_t(k), body.begin() + std::ptrdiff_t(k + fin.size()));
      continue;  // (k is now the statement that leaves)
    }
    const ast::StmtPtr& st = body[k];
    bool leaves = leaves_at(k);
    if (leaves) {
      if (k < fin.size()) return false;
      ast::StmtList copy(body.begin() + std::ptrdiff_t(k - fin.size()), body.begin() + std::ptrdiff_t(k));
      if (unparse(copy) != fin_text) return false;
      if (auto* r = st->as<ast::Return>(); r && reads_name_stored_in(r->value, fin)) return false;
      body.erase(body.begin() + std::ptrdiff_t(k - fin.size()), body.begin() + std::ptrdiff_t(k));
      k -= fin.size();
      continue;
    }
    auto strip = [&](ast::StmtList& b, bool inner) { ok = ok && strip_inline_finally(b, fin, fin_text, inner); };
    if (auto* w = st->as<ast::While>()) {
      ast::While c = *w;
      strip(c.body, true);
      strip(c.orelse, in_inner_loop);
      body[k] = ast::make_stmt(std::move(c), st->line);
    } else if (auto* f = st->as<ast::For>()) {
      ast::For c = *f;
      strip(c.body, true);
      strip(c.orelse, in_inner_loop);
      body[k] = ast::make_stmt(std::move(c), st->line);
    } else {
      body[k] = ast::map_bodies(st, [&](const ast::StmtList& b) {
        ast::StmtList c = b;
        strip(c, in_inner_loop);
        return c;
      });
    }
  }
  return ok;
}

// `if c: ...; return v` then `return v`: the arms' copies of the return
// after the if are that return (3.12+ copies a small exit into each arm
// that jumps to it), so the arms end without them. Falling off an arm
// reaches the same return, so this changes nothing; it lets a finally copy
// that ends in an if be found before its return. Applied through the whole
// body.
ast::StmtList drop_return_copies(const ast::StmtList& arm, const std::string& ret);
// The return every path through `arm` ends in (through the arms of a final
// if/else), or nullptr.
ast::StmtPtr common_final_return(const ast::StmtList& arm) {
  if (arm.empty()) return nullptr;
  if (arm.back()->is<ast::Return>()) return arm.back();
  auto* i = arm.back()->as<ast::If>();
  if (!i || i->orelse.empty()) return nullptr;
  ast::StmtPtr a = common_final_return(i->body), b = common_final_return(i->orelse);
  return a && b && unparse(ast::StmtList{a}) == unparse(ast::StmtList{b}) ? a : nullptr;
}
ast::StmtList hoist_copied_returns(const ast::StmtList& body) {
  ast::StmtList out;
  for (std::size_t k = 0; k < body.size(); ++k) {
    ast::StmtPtr st = ast::map_bodies(body[k], [](const ast::StmtList& b) { return hoist_copied_returns(b); });
    auto* i = st->as<ast::If>();
    ast::StmtPtr ret = !i ? nullptr
                       : k + 1 < body.size() ? (body[k + 1]->is<ast::Return>() ? body[k + 1] : nullptr)
                                             : common_final_return({st});  // (the last statement: every arm returns)
    if (i && ret) {
      const std::string text = unparse(ast::StmtList{ret});
      ast::StmtList then = drop_return_copies(i->body, text);
      if (then.empty()) then.push_back(ast::pass());
      out.push_back(
          ast::make_stmt(ast::If{i->test, std::move(then), drop_return_copies(i->orelse, text), i->keep_else}, st->line));
      if (k + 1 == body.size()) out.push_back(ret);
      continue;
    }
    out.push_back(std::move(st));
  }
  return out;
}
ast::StmtList drop_return_copies(const ast::StmtList& arm, const std::string& ret) {
  ast::StmtList out = arm;
  if (out.empty()) return out;
  if (out.back()->is<ast::Return>() && unparse(ast::StmtList{out.back()}) == ret) {
    out.pop_back();
  } else if (auto* i = out.back()->as<ast::If>()) {
    ast::StmtList then = drop_return_copies(i->body, ret);
    if (then.empty()) then.push_back(ast::pass());
    out.back() = ast::make_stmt(ast::If{i->test, std::move(then), drop_return_copies(i->orelse, ret), i->keep_else},
                                out.back()->line);
  }
  return out;
}

// `e = None; del e`, which ends every `except ... as e:` clause.
ast::StmtList drop_exception_unbind(const ast::StmtList& body, const std::string& name) {
  ast::StmtList out;
  for (std::size_t k = 0; k < body.size(); ++k) {
    if (k + 1 < body.size())
      if (auto* a = body[k]->as<ast::Assign>(); a && a->targets.size() == 1)
        if (auto* n = a->targets[0]->as<ast::Name>(); n && n->id == name)
          if (auto* c = a->value->as<ast::Constant>(); c && c->value->is<NoneValue>())
            if (auto* d = body[k + 1]->as<ast::Delete>(); d && d->targets.size() == 1)
              if (auto* dn = d->targets[0]->as<ast::Name>(); dn && dn->id == name) {
                ++k;
                continue;
              }
    if (auto* i = body[k]->as<ast::If>()) {
      out.push_back(ast::if_(i->test, drop_exception_unbind(i->body, name),
                             drop_exception_unbind(i->orelse, name)));
      continue;
    }
    out.push_back(body[k]);
  }
  return out;
}

}  // namespace

Structurer::Seq Structurer::clause_body(BlockId start, lift::Stack stack, Join& join, BlockId after_try,
                                        TailCopy& tail, std::size_t handler_index) {
  clauses_.push_back(Clause{.after_try = after_try, .depth = depth_ + 1});
  // (3.12+ copies a clause's end, POP_EXCEPT and all, into each arm of an if
  // that ends the clause: the arms meet only after the try.)
  const BlockId stop = lift::version_row(code_.traits->minor).inlines_small_exits ? after_try : kNoBlock;
  Seq s = sequence(start, stop, std::move(stack));
  BlockId exit = clauses_.back().exit;
  Clause done = std::move(clauses_.back());
  clauses_.pop_back();
  if (done.tail_block != kNoBlock) {
    if (tail.block == kNoBlock) {
      tail.block = done.tail_block;
      tail.first = done.tail_first;
    } else if (!same_code(graph_.instructions(tail.block).subspan(tail.first),
                          graph_.instructions(done.tail_block).subspan(done.tail_first))) {
      tail.same = false;
    }
    tail.handlers.emplace_back(handler_index, std::move(done.tail));
  }
  if (exit != kNoBlock) {
    if (join.block != kNoBlock && join.block != exit) fail(start, "except clauses end at different places");
    join.block = exit;
    join.clauses.push_back(handler_index);
  }
  return s;
}

// Values computed inside a protected body that stay on the stack past its end
// (generated code calls inside a try and uses the result after it) are stored
// in temporaries inside the body, so the call stays protected.
// Stack slot k of `seq`, a value that computes something, assigned to a
// temporary at the end of seq's statements; every slot holding it reads the
// name from then on. (Names and constants stay as they are.)
void Structurer::name_value(Seq& seq, std::size_t k) {
  Item& it = seq.stack[k];
  if (it.kind != Item::Kind::Value || !it.expr) return;
  if (it.expr->is<ast::Name>() || lifter_.computes_nothing(it.expr)) return;
  std::string t = lifter_.new_temporary();
  seq.stmts.push_back(ast::assign(ast::name(t, ast::ExprContext::Store), lifter_.expression_of(it)));
  const ast::ExprPtr old = it.expr;
  for (Item& o : seq.stack)
    if (o.kind == Item::Kind::Value && o.expr == old) o = Item::value(ast::name(t));
}

void Structurer::keep_values_inside(Seq& body, const lift::Stack& entry) {
  if (!body.open) return;
  for (std::size_t k = 0; k < body.stack.size(); ++k) {
    const Item& it = body.stack[k];
    if (k < entry.size() && entry[k].kind == Item::Kind::Value && it.kind == Item::Kind::Value &&
        entry[k].expr == it.expr)
      continue;
    name_value(body, k);
  }
}

// A with whose body never completes still goes on after it when __exit__
// suppresses an exception. 3.8: the handler is the cleanup the body's end
// would have entered (BEGIN_FINALLY's NULL on the stack), the code after the
// with follows it. 3.9+: the handler tests WITH_EXCEPT_START's result and
// jumps to where it pops the exception state and __exit__, then runs the code
// after the with. Nothing it pops has a source form.
BlockId Structurer::with_suppressed_exit(BlockId b, BlockId handler, const lift::Stack& entry, Seq& out) {
  lift::Stack stack = entry;
  stack[stack.size() - 2] = Item::of(Item::Kind::Marker);  // __exit__ (the with's own ctx item)
  if (graph_.instructions(handler).front().name() == "WITH_CLEANUP_START") {
    stack.pop_back();
    stack.push_back(Item::of(Item::Kind::Marker));
    out.stack = stack;
    return handler;
  }
  BlockId test = handler;
  for (int k = 0; k < 2 && test != kNoBlock && !graph_.last_instruction(test).jump_target; ++k)
    test = fall_successor(test);
  bool tests_exit_result = false;
  if (test != kNoBlock)
    for (const Instruction& ins : graph_.instructions(test))
      tests_exit_result = tests_exit_result || ins.name() == "WITH_EXCEPT_START";
  BlockId suppressed = tests_exit_result ? jump_successor(test) : kNoBlock;
  if (suppressed == kNoBlock) fail(b, "a with statement whose handler does not test __exit__'s result");
  if (!clauses_.empty()) fail(b, "code after a with statement whose body never completes, in an except clause");
  lift::Stack hs = handler_stack(b, stack);
  if (graph_.instructions(handler).front().name() == "PUSH_EXC_INFO")
    hs.insert(hs.end() - 1, Item::of(Item::Kind::Marker));  // the exception it saved
  out.stack = hs;
  return suppressed;
}

// Values computed before a protected region and still on the stack below
// it (a return value kept across a finally copy that holds a with or a
// try) are named before the statement: its body and the code after it
// then read the name, and the value is computed once, in its place.
void Structurer::name_values_below(Seq& out, std::size_t keep) {
  const std::size_t below = out.stack.size() > keep ? out.stack.size() - keep : 0;
  for (std::size_t k = 0; k < below; ++k) name_value(out, k);
}

BlockId Structurer::structure_try(BlockId b, BlockId handler, Seq& out) {
  HandlerKind kind = handler_kind(handler);
  used_handlers_.push_back(handler);
  // (A with keeps __exit__ and what __enter__ returned above them.)
  name_values_below(out, kind == HandlerKind::With ? 2 : 0);
  lift::Stack entry_stack = out.stack;
  regions_.push_back({handler, kNoBlock, out.stack.size(), expected_exit(handler)});
  Seq body = sequence(b, kNoBlock, out.stack);
  Region done = regions_.back();
  regions_.pop_back();
  keep_values_inside(body, entry_stack);
  if (kind == HandlerKind::With) {
    if (entry_stack.size() < 2 || entry_stack.back().kind != Item::Kind::Slot)
      fail(b, "with statement without BEFORE_WITH");
    auto* sink = dynamic_cast<lift::TargetSink*>(entry_stack.back().sink.get());
    ast::ExprPtr ctx = entry_stack[entry_stack.size() - 2].expr;
    out.stmts.push_back(ast::with_({ast::with_item(ctx, sink ? sink->target() : nullptr)}, std::move(body.stmts)));
    out.stack = std::move(body.stack);
    if (done.exit == kNoBlock) return with_suppressed_exit(b, handler, entry_stack, out);
    return done.exit;
  }
  if (kind == HandlerKind::Finally && lift::version_row(code_.traits->minor).finally_subroutine) {
    // 3.8: one finally body, entered from the try body's end (BEGIN_FINALLY),
    // or only by CALL_FINALLY and exceptions when the body always returns.
    const bool completes = done.exit != kNoBlock;
    if (completes && graph_.instructions(done.exit)[0].op() != Op::BEGIN_FINALLY)
      fail(done.exit, "3.8 try/finally left other than by BEGIN_FINALLY");
    lift::Stack fin_stack = std::move(body.stack);  // (the body's stack is not used after)
    if (!completes) fin_stack.push_back(Item::of(Item::Kind::Marker));  // what BEGIN_FINALLY pushes
    clauses_.push_back(Clause{.finally = true});
    Seq fin = sequence(completes ? done.exit : handler, kNoBlock, std::move(fin_stack));
    BlockId join = clauses_.back().exit;
    clauses_.pop_back();
    ast::StmtList fin_stmts = std::move(fin.stmts);
    if (fin_stmts.empty()) fin_stmts.push_back(ast::pass());  // `finally: pass`
    out.stmts.push_back(ast::try_(std::move(body.stmts), {}, {}, std::move(fin_stmts)));
    out.stack = std::move(fin.stack);
    return join;
  }
  if (kind == HandlerKind::Finally) {
    mark(handler);
    lift::Stack hs = handler_stack(b, entry_stack);
    emitted_[handler] = false;
    raising_finally_.push_back(regions_.size());
    Seq fin = sequence(handler, kNoBlock, hs);
    raising_finally_.pop_back();
    ast::StmtList body_stmts = std::move(body.stmts);  // (only its stack is used after)
    // `return` inside try: the finally copy sits just before it. (3.12+
    // may have copied the return into the arms of an if that ends the
    // finally copy: each arm's return is the one after the if.)
    if (!fin.stmts.empty()) {
      const std::string fin_text = unparse(fin.stmts);
      ast::StmtList stripped = body_stmts;
      if (strip_inline_finally(stripped, fin.stmts, fin_text)) {
        body_stmts = std::move(stripped);
      } else {
        body_stmts = hoist_copied_returns(body_stmts);
        if (!strip_inline_finally(body_stmts, fin.stmts, fin_text))
          fail(b, "a return in try/finally without the finally copy before it");
      }
    }
    if (fin.stmts.empty()) fin.stmts.push_back(ast::pass());  // `finally: pass`
    out.stmts.push_back(ast::try_(std::move(body_stmts), {}, {}, fin.stmts));
    // A body that never completes (it returns) has no normal-path copy.
    if (done.exit != kNoBlock) out.finally_copies.emplace_back(out.stmts.size(), fin.stmts);
    out.stack = body.stack;
    return done.exit;
  }
  return structure_except(b, handler, body, done, out);
}

BlockId Structurer::structure_except(BlockId b, BlockId handler, Seq& body, Region done, Seq& out) {
  lift::Stack st = handler_stack(b, out.stack);
  std::vector<ast::ExceptHandler> handlers;
  Join join;
  const BlockId left_before = regions_.empty() ? kNoBlock : regions_.back().exit;
  TailCopy tail;
  BlockId c = handler;
  for (int guard = 0; guard < 1000; ++guard) {
    auto ins = graph_.instructions(c);
    if (ins.empty()) fail(c, "empty handler block");
    if (ins[0].name() == "RERAISE" || ins[0].name() == "END_FINALLY") {
      mark(c);
      break;
    }
    bool typed = is_exc_match_block(graph_, c);
    if (!typed) {
      Seq cb = clause_body(c, st, join, done.exit, tail, handlers.size());
      handlers.push_back(ast::except_handler(nullptr, std::nullopt, std::move(cb.stmts)));
      break;
    }
    mark(c);
    std::shared_ptr<lift::Sink> name_sink = std::make_shared<lift::TargetSink>();
    for (std::size_t k = st.size(); k-- > 0 && k + 3 >= st.size();)
      if (st[k].kind == Item::Kind::Exception) st[k].sink = name_sink;
    lift::BlockEffect eff = lifter_.run(graph_, c, st);
    if (eff.term.kind != TK::Branch || !eff.term.exc_match || !eff.stmts.empty())
      fail(c, "except clause test is not `except Type`");
    BlockId taken = jump_successor(c), fall = fall_successor(c);
    BlockId match = eff.term.jump_if ? taken : fall, next = eff.term.jump_if ? fall : taken;
    Seq cb = clause_body(match, eff.stack, join, done.exit, tail, handlers.size());
    auto* sink = dynamic_cast<lift::TargetSink*>(name_sink.get());
    std::optional<std::string> name;
    if (sink && sink->target())
      if (auto* n = sink->target()->as<ast::Name>()) name = n->id;
    ast::StmtList stmts = name ? drop_exception_unbind(cb.stmts, *name) : std::move(cb.stmts);
    handlers.push_back(ast::except_handler(eff.term.cond, std::move(name), std::move(stmts)));
    st = eff.stack;
    c = next;
  }
  BlockId next = join.block != kNoBlock ? join.block : done.exit;
  ast::StmtList orelse;
  lift::Stack after_stack = body.stack;
  // Clauses that leave the enclosing try body (a break out of a loop in
  // them jumps past the else to its end): the body's way on up to there is
  // the else, not code after the try that the clauses would run too.
  const BlockId clauses_left = regions_.empty() ? kNoBlock : regions_.back().exit;
  auto else_reaches = [&](BlockId to) {
    auto seen = block_marks();
    RecycledVector<BlockId> work = block_list();
    work.push_back(done.exit);
    seen[done.exit] = true;
    while (!work.empty()) {
      const BlockId x = work.back();
      work.pop_back();
      if (x == to) return true;
      graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) {
        if (!seen[e.to]) seen[e.to] = true, work.push_back(e.to);
      });
    }
    return false;
  };
  if (join.block == kNoBlock && done.exit != kNoBlock && clauses_left != kNoBlock && clauses_left != left_before &&
      clauses_left != done.exit && else_reaches(clauses_left)) {
    Seq e = sequence(done.exit, clauses_left, body.stack);
    if (!e.open || e.left) fail(done.exit, "except clauses leave the try body where its else does not go");
    orelse = std::move(e.stmts);
    next = clauses_left;
    after_stack = e.stack;
  } else if (join.block != kNoBlock && done.exit != kNoBlock && done.exit != join.block) {
    Seq e = sequence(done.exit, join.block, body.stack);
    orelse = std::move(e.stmts);
    if (e.left) {
      // The body's way on leaves the enclosing try body without a statement
      // (its end): the code where the clauses go on is theirs alone, and
      // written after the try the body would run it too.
      Seq rest = sequence(join.block, kNoBlock, body.stack);
      if (!rest.stmts.empty()) {
        if (join.clauses.size() != 1) fail(join.block, "except clauses go on to code their try body does not reach");
        auto& clause = handlers[join.clauses.front()].body;
        clause.insert(clause.end(), rest.stmts.begin(), rest.stmts.end());
      }
      next = kNoBlock;
      after_stack = rest.stack;
    }
  } else if (join.block == kNoBlock && done.exit != kNoBlock &&
             lift::version_row(code_.traits->minor).else_before_handlers &&
             graph_.block(done.exit).begin < graph_.block(handler).begin) {
    // Every handler leaves, and the body's normal exit is laid out before
    // them: that code is the try's `else`, up to where it joins the code
    // after the handlers. The function's implicit `return None` laid out
    // there is its end, not an `else`.
    if (auto end = else_end(done.exit, handler)) {
      Seq e = sequence(done.exit, *end, body.stack);
      const auto* ret = e.stmts.size() == 1 ? e.stmts[0]->as<ast::Return>() : nullptr;
      bool implicit_end = !e.open && ret && (!ret->value || ast::is_none(ret->value));
      if (!implicit_end) orelse = std::move(e.stmts);
      next = e.open ? *end : kNoBlock;
      after_stack = e.stack;
    }
  }
  if (tail.block != kNoBlock) {
    // 3.12+ copies a small exit into each path that reaches it: clauses
    // that each end in the same copy of the code after the try, and a body
    // whose normal path only ends the frame, are a try with an `else` (that
    // path, less the copy at its end) followed by that code once.
    const ast::StmtList& once = tail.handlers.front().second;
    if (tail.same && join.block == kNoBlock && done.exit != kNoBlock && orelse.empty() && !once.empty() &&
        lift::version_row(code_.traits->minor).inlines_small_exits) {
      if (auto end = else_end(done.exit, handler); end && *end == kNoBlock) {
        Seq e = sequence(done.exit, kNoBlock, body.stack);
        orelse = std::move(e.stmts);
        if (orelse.size() >= once.size() &&
            unparse(ast::StmtList(orelse.end() - std::ptrdiff_t(once.size()), orelse.end())) == unparse(once))
          orelse.resize(orelse.size() - once.size());
        out.stmts.push_back(ast::try_(std::move(body.stmts), std::move(handlers), std::move(orelse)));
        out.stmts.insert(out.stmts.end(), once.begin(), once.end());
        return kNoBlock;
      }
    }
    if (tail.same && join.block == kNoBlock && done.exit == kNoBlock) {
      // The code after the try, once.
      out.stmts.push_back(ast::try_(std::move(body.stmts), std::move(handlers), std::move(orelse)));
      const ast::StmtList& once = tail.handlers.front().second;
      out.stmts.insert(out.stmts.end(), once.begin(), once.end());
      return kNoBlock;
    }
    // The try goes on elsewhere, or the clauses end differently (each
    // `return` written in its clause): each stays where it is.
    for (auto& [k, stmts] : tail.handlers) handlers[k].body.insert(handlers[k].body.end(), stmts.begin(), stmts.end());
  }
  out.stmts.push_back(ast::try_(std::move(body.stmts), std::move(handlers), std::move(orelse)));
  out.stack = after_stack;
  return next;
}

// Where the `else` starting at `start` (laid out before `handler`) ends: the
// one block after the handlers it reaches (kNoBlock when it only leaves the
// frame); nullopt when it reaches several.
std::optional<BlockId> Structurer::else_end(BlockId start, BlockId handler) const {
  const std::uint32_t limit = graph_.block(handler).begin;
  auto seen = block_marks();
  RecycledVector<BlockId> work = block_list();
  work.push_back(start);
  seen[start] = true;
  BlockId end = kNoBlock;
  while (!work.empty()) {
    BlockId x = work.back();
    work.pop_back();
    bool boundary = graph_.block(x).begin > limit ||
                    (!context_.empty() && (context_.back().continues_at(x) || x == context_.back().follow));
    if (boundary) {
      if (end != kNoBlock && end != x) return std::nullopt;
      end = x;
      continue;
    }
    graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) {
      if (!seen[e.to]) seen[e.to] = true, work.push_back(e.to);
    });
  }
  return end;
}

// One condition is one expression, inside one exception region: a test in
// another region (a try's else clause after a test in its body) is code of
// its own, however its jumps line up with the chain's.
bool Structurer::same_region_as_chain(BlockId b) const {
  return chain_head_ == kNoBlock || graph_.block(b).handler == graph_.block(chain_head_).handler;
}

std::optional<Structurer::Cond> Structurer::pure_condition(BlockId b, const lift::Stack& stack) {
  if (b == kNoBlock || emitted_[b] || loops_.loop_of_header(b) != cfg::kNoLoop) return std::nullopt;
  if (!in_current_loop(b) || !same_region_as_chain(b)) return std::nullopt;
  if (!context_.empty() && (context_.back().continues_at(b) || b == context_.back().follow))
    return std::nullopt;
  if (!lift::Lifter::may_branch(graph_.instructions(b))) return std::nullopt;  // (before the walk below)
  // One way in, or several from the chain being collapsed (`(a and b) or
  // c`: c is reached from a and from b), all branches under its head.
  std::size_t preds = 0;
  bool from_chain = chain_head_ != kNoBlock;
  graph_.for_each_predecessor(b, kFlow, [&](const cfg::Edge& e) {
    ++preds;
    from_chain = from_chain && e.from != b && dom_.dominates(chain_head_, e.from) &&
                 e.kind != EdgeKind::Jump && jump_successor(e.from) != kNoBlock &&
                 fall_successor(e.from) != kNoBlock;
  });
  if (preds != 1 && !from_chain) return std::nullopt;
  std::shared_ptr<const lift::BlockEffect> lifted;
  try {
    lifted = lifter_.effect(graph_, b, stack);
  } catch (const Error&) {
    return std::nullopt;
  }
  const lift::BlockEffect& eff = *lifted;
  if (!eff.stmts.empty() || eff.term.kind != TK::Branch || eff.stack.size() != stack.size())
    return std::nullopt;
  for (std::size_t k = 0; k < stack.size(); ++k)
    if (eff.stack[k].expr != stack[k].expr) return std::nullopt;
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  Cond c = eff.term.jump_if ? Cond{eff.term.cond, taken, fall} : Cond{eff.term.cond, fall, taken};
  c.shared = preds != 1;
  return c;
}

namespace {
// Whether test `t` may be the first link of a chained comparison (`a < b < c`)
// on `stack`: a comparison whose last operand is still on the stack for the
// next link. Most tests are not: the callers copy the stack only for one that is.
bool may_start_chain(const ast::ExprPtr& t, const lift::Stack& stack) {
  auto* cmp = t->as<ast::Compare>();
  return cmp && !cmp->comparators.empty() && !stack.empty() && stack.back().kind == Item::Kind::Value &&
         stack.back().expr == cmp->comparators.back();
}
}  // namespace

// A chained comparison (`lo <= x < hi`) that starts at block `b` and leaves
// `stack` as it was: one link of an and/or chain. Its other blocks go to `used`.
std::optional<Structurer::Cond> Structurer::chained_link(BlockId b, const lift::Stack& stack,
                                                         std::vector<BlockId>& used) {
  if (b == kNoBlock || emitted_[b] || loops_.loop_of_header(b) != cfg::kNoLoop ||
      !lift::Lifter::may_branch(graph_.instructions(b)) || !single_entry(b))
    return std::nullopt;
  if (!in_current_loop(b) || !same_region_as_chain(b) ||
      (!context_.empty() && (context_.back().continues_at(b) || b == context_.back().follow)))
    return std::nullopt;
  std::shared_ptr<const lift::BlockEffect> lifted;
  try {
    lifted = lifter_.effect(graph_, b, stack);
  } catch (const Error&) {
    return std::nullopt;
  }
  const lift::BlockEffect& eff = *lifted;
  if (!eff.stmts.empty() || eff.term.kind != TK::Branch || eff.stack.size() != stack.size() + 1)
    return std::nullopt;
  for (std::size_t k = 0; k < stack.size(); ++k)
    if (eff.stack[k].expr != stack[k].expr) return std::nullopt;
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  Cond c = eff.term.jump_if ? Cond{eff.term.cond, taken, fall} : Cond{eff.term.cond, fall, taken};
  if (!may_start_chain(c.expr, eff.stack)) return std::nullopt;  // (chain_links' own first test, before the copy)
  lift::Stack work = eff.stack;
  RecycledVector<BlockId> links = block_list();
  auto chain = chain_links(b, c, work, links);
  if (!chain || work.size() != stack.size()) return std::nullopt;
  for (std::size_t k = 0; k < stack.size(); ++k)
    if (work[k].expr != stack[k].expr) return std::nullopt;
  for (BlockId u : links)
    if (std::find(used.begin(), used.end(), u) != used.end()) return std::nullopt;
  used.insert(used.end(), links.begin(), links.end());
  return chain;
}

// Short-circuit jump chains: a condition block that only feeds another branch
// with a shared target is one `and`/`or` condition. The block fed may itself
// be such a chain (`a or b and c`): it is collapsed first, and taken whole.
Structurer::Cond Structurer::collapse(BlockId head, Cond c, const lift::Stack& stack) {
  RecycledVector<BlockId> used = block_list();
  c = collapse_unmarked(head, c, stack, used);
  for (BlockId u : used) mark(u);
  return c;
}

// collapse for a value that may still be given up: the blocks the chain takes
// are appended to `used`, not marked.
Structurer::Cond Structurer::collapse_unmarked(BlockId head, Cond c, const lift::Stack& stack,
                                               std::vector<BlockId>& used) {
  const BlockId outer = chain_head_;
  chain_head_ = head;
  c = collapse_into(head, c, stack, used, 0);
  chain_head_ = outer;
  return c;
}

// The condition starting at block `b` (statement-free, one predecessor) with
// its own chain collapsed; the blocks it took are appended to `used`.
std::optional<Structurer::Cond> Structurer::compound_condition(BlockId b, const lift::Stack& stack,
                                                               std::vector<BlockId>& used, int depth,
                                                               std::optional<std::optional<Cond>>& pure) {
  if (depth > 64 || std::find(used.begin(), used.end(), b) != used.end()) return std::nullopt;
  auto p = pure_condition(b, stack);
  pure.emplace(p);
  if (!p) p = chained_link(b, stack, used);
  if (!p) return std::nullopt;
  used.push_back(b);
  return collapse_into(b, *p, stack, used, depth + 1);
}

Structurer::Cond Structurer::collapse_into(BlockId first, Cond c, const lift::Stack& stack,
                                           std::vector<BlockId>& used,
                                           int depth) {
  using ast::BoolOperator;
  // `c` takes the condition `x` it feeds on its true side (an `and`) or its
  // false side (an `or`) when `x` shares c's other target.
  // (Two lone jumps to one place are one target: 3.12+ gives each link of a
  // loop's bottom test its own JUMP_BACKWARD.)
  // (Before 3.12 each lone jump is a statement of its own: `if a: continue`.)
  const bool copied_jumps = lift::version_row(code_.traits->minor).back_jump_block_is_loop_end;
  auto same = [&](BlockId a, BlockId b) {
    return a == b ||
           (copied_jumps && is_lone_jump(a) && is_lone_jump(b) && normal_successor(a) == normal_successor(b));
  };
  // A condition entered from several links joins only the plain way: `(a and
  // b) or (c and d)`, where c is where a and b both fail.
  auto joins = [&](const Cond& x, bool on_true) -> std::optional<Cond> {
    if (on_true) {
      if (same(x.f, c.f)) return Cond{flatten_boolop(BoolOperator::And, c.expr, x.expr), x.t, c.f, c.shared};
      if (!x.shared && same(x.t, c.f))
        return Cond{flatten_boolop(BoolOperator::And, c.expr, negate(x.expr)), x.f, c.f, c.shared};
    } else {
      if (same(x.t, c.t)) return Cond{flatten_boolop(BoolOperator::Or, c.expr, x.expr), c.t, x.f, c.shared};
      if (!x.shared && same(x.f, c.t))
        return Cond{flatten_boolop(BoolOperator::Or, c.expr, negate(x.expr)), c.t, x.t, c.shared};
    }
    return std::nullopt;
  };
  // A block entered from several links joins the chain those links are all in.
  const std::size_t own_from = used.size();
  // (`end`: the links taken before this try; a try only appends to `used`.)
  auto all_links_mine = [&](BlockId fed, std::size_t end) {
    bool mine = true;
    const auto taken_end = used.begin() + std::ptrdiff_t(end);
    graph_.for_each_predecessor(fed, kFlow, [&](const cfg::Edge& e) {
      mine = mine && (e.from == first ||
                      std::find(used.begin() + std::ptrdiff_t(own_from), taken_end, e.from) != taken_end);
    });
    return mine;
  };
  // The block fed is taken with its own chain first; else alone (`(a and b)
  // or c`: b's own chain `b or c` is not what a shares). A try appends its
  // blocks to `used` and a failed one is cut off again: no copy per try.
  struct CutOff {  // a try that fails (or throws) leaves `used` as it found it
    std::vector<BlockId>& v;
    std::size_t size;
    bool keep = false;
    ~CutOff() {
      if (!keep) v.resize(size);
    }
  };
  // Each side's pure_condition as the whole try found it: a try of the block
  // alone comes right after a failed whole try, in the same state.
  std::optional<std::optional<Cond>> pure_of[2];
  auto grow = [&](bool whole) {
    for (bool on_true : {true, false}) {
      BlockId fed = on_true ? c.t : c.f;
      std::optional<std::optional<Cond>>& pure = pure_of[on_true ? 0 : 1];
      const std::size_t before = used.size();
      CutOff cut{used, before};
      std::optional<Cond> joined;
      if (whole) {
        pure.reset();
        if (auto x = compound_condition(fed, stack, used, depth, pure);
            x && (!x->shared || all_links_mine(fed, before)))
          joined = joins(*x, on_true);
      } else if (depth < 64 && std::find(used.begin(), used.end(), fed) == used.end()) {
        if (auto x = pure ? *pure : pure_condition(fed, stack); x && (!x->shared || all_links_mine(fed, before))) {
          used.push_back(fed);
          joined = joins(*x, on_true);
        }
      }
      if (joined) {
        cut.keep = true;
        c = *joined;
        return true;
      }
    }
    return false;
  };
  for (int guard = 0; guard < 10000 && (grow(true) || grow(false)); ++guard) {
  }
  return c;
}

// A block where an if's arms can meet: inside the current loop's body and not
// its header (a jump there is a `continue`).
bool Structurer::can_merge_at(BlockId x) const {
  if (x == kNoBlock || x >= graph_.size()) return false;
  return context_.empty() || (!context_.back().continues_at(x) && in_current_loop(x));
}

BlockId Structurer::if_follow(BlockId b, BlockId t, BlockId f, BlockId stop) const {
  auto usable = [&](BlockId x) { return can_merge_at(x); };
  // A try inside an arm continues after its handlers too (`if c: try: return
  // f() except E: pass` goes on where the handler ends): the search follows
  // the handlers of regions entered inside the arms, not those around `b`.
  const std::vector<BlockId>& around = handler_chain(b);
  // In a loop that never ends normally, its `return` post-dominates the
  // whole body without being where an if's arms meet.
  const bool loop_without_follow = !context_.empty() && context_.back().follow == kNoBlock;
  BlockId p = pdom_.idom(b);
  // (In a loop, the post-dominator can be where an arm goes only after
  // another turn of the loop: code after the if must be reached from both
  // arms within this turn.)
  // (Forward edges only: they go up in reverse post-order, so the search
  // stays between the arm and p.)
  auto this_turn = [&](BlockId from) {
    if (context_.empty() || from == p) return true;
    if (p >= graph_.size() || rpo_index_[p] == 0xffffffffu) return false;
    const std::uint32_t limit = rpo_index_[p];
    // (An arm that ends the frame or leaves the loop does not go around.)
    RecycledVector<BlockId> work = block_list();
    work.push_back(from);
    auto seen = block_marks();
    seen[from] = true;
    bool around = false;
    while (!work.empty()) {
      const BlockId x = work.back();
      work.pop_back();
      bool found = false;
      graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) {
        if (e.to == p) {
          found = true;
        } else if (!usable(e.to)) {
          around = around || context_.back().continues_at(e.to);  // else it leaves the loop
        } else if (rpo_index_[e.to] >= limit || rpo_index_[e.to] <= rpo_index_[x]) {
          around = true;  // past p, or back, within the loop
        } else if (!seen[e.to]) {
          seen[e.to] = true;
          work.push_back(e.to);
        }
      });
      if (found) return true;
    }
    return !around;
  };
  if (usable(p) && !loop_without_follow && (stop == kNoBlock || p == stop || pdom_.dominates(stop, p)) &&
      this_turn(t) && this_turn(f))
    return p;
  // An arm leaves (return/raise/break): the merge is the earliest block (in
  // reverse post-order) both reach. Blocks are visited in that order from a
  // min-heap, so the search stops at the merge instead of walking the rest of
  // the function: all forward paths into a block come from earlier blocks, so
  // its "reached from" mask is complete when it is popped.
  constexpr std::uint8_t kFromT = 1, kFromF = 2;
  // Which arms reach each block: two visited sets (no map to allocate per call).
  auto from_t = block_marks(), from_f = block_marks();
  auto from = [&](BlockId x) {
    return static_cast<std::uint8_t>((from_t[x] ? kFromT : 0) | (from_f[x] ? kFromF : 0));
  };
  // (A heap in storage earlier searches gave back, not a std::priority_queue:
  // that one's growth was a few allocations per search.)
  using Entry = std::pair<std::uint32_t, BlockId>;
  RecycledVector<Entry> heap = SpareVectors<Entry>::take();
  auto reach = [&](BlockId x, std::uint8_t side) {
    if (!usable(x) || rpo_index_[x] == 0xffffffffu) return;
    if (from(x) == 0) {
      heap.push_back({rpo_index_[x], x});
      std::push_heap(heap.begin(), heap.end(), std::greater<>{});
    }
    if (side & kFromT) from_t[x] = true;
    if (side & kFromF) from_f[x] = true;
  };
  reach(t, kFromT);
  reach(f, kFromF);
  std::uint32_t last = 0;
  while (!heap.empty()) {
    // (not a structured binding: clang 14 cannot capture one in the lambda below)
    const std::uint32_t order = heap.front().first;
    const BlockId x = heap.front().second;
    std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
    heap.pop_back();
    if (order < last) return if_follow_by_search(b, t, f, stop);  // a back edge: search it all
    last = order;
    std::uint8_t m = from(x);
    if (m == (kFromT | kFromF)) return x;
    if (x == stop) continue;
    bool back = false;
    auto next = [&](BlockId to) {
      if (usable(to) && rpo_index_[to] != 0xffffffffu && rpo_index_[to] <= order) back = true;
      reach(to, m);
    };
    graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) { next(e.to); });
    if (BlockId h = handler_inside(x, around); h != kNoBlock) next(h);
    if (back) return if_follow_by_search(b, t, f, stop);
  }
  return lone_arm_follow(t, f, stop, around);
}

// The arms never meet. When one of them only ends the frame (return/raise)
// and the other goes on (to `stop`, or out of the loop body: continue/break),
// the if is `if c: return` and the code after it is the other arm.
BlockId Structurer::lone_arm_follow(BlockId t, BlockId f, BlockId stop,
                                    const std::vector<BlockId>& around) const {
  auto ends_frame = [&](BlockId from) {
    if (!can_merge_at(from) || from == stop) return false;
    auto seen = block_marks();
    RecycledVector<BlockId> work = block_list();
    work.push_back(from);
    seen[from] = true;
    bool goes_on = false;
    auto next = [&](BlockId to) {
      if (to == stop || !can_merge_at(to)) goes_on = true;
      else if (!seen[to]) seen[to] = true, work.push_back(to);
    };
    while (!work.empty() && !goes_on) {
      BlockId x = work.back();
      work.pop_back();
      graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) { next(e.to); });
      if (BlockId h = handler_inside(x, around); h != kNoBlock) next(h);
    }
    return !goes_on;
  };
  // The code after an `if` comes after its body: an arm laid out after the
  // other is an `else` (`if c: x = 1 else: raise E`).
  auto first = [&](BlockId a, BlockId b) { return graph_.block(a).begin < graph_.block(b).begin; };
  bool t_ends = ends_frame(t), f_ends = ends_frame(f);
  if (t_ends && !f_ends && can_merge_at(f) && first(t, f)) return f;
  if (f_ends && !t_ends && can_merge_at(t) && first(f, t)) return t;
  // Both end the frame, and the body jumps over an else that returns to
  // code laid out after it: that code follows the if (`if c: a else:
  // return` + `rest`).
  auto unwinds_first = [&](BlockId x) {
    const Op op = graph_.instructions(x).front().op();
    return op == Op::POP_BLOCK || op == Op::POP_EXCEPT;
  };
  if (t_ends && f_ends) {
    const BlockId body = first(t, f) ? t : f, orelse = body == t ? f : t;
    BlockId x = body;
    for (int hops = 0; hops < 16 && x < graph_.size() && x != stop; ++hops) {
      const BlockId fall = fall_successor(x), jump = jump_successor(x);
      if (fall == kNoBlock && jump != kNoBlock) {
        // (In the same try region: a jump to the end of an except clause
        // is the clause's end, not code after the if.)
        if (graph_.block(jump).begin > graph_.block(orelse).begin && can_merge_at(jump) &&
            !dom_.dominates(orelse, jump) && graph_.last_instruction(x).op() == Op::JUMP_FORWARD &&
            handler_chain(jump) == handler_chain(body) && !unwinds_first(jump))
          return jump;
        break;
      }
      if (jump != kNoBlock || fall == kNoBlock) break;
      x = fall;
    }
  }
  return stop;
}

// The handler of `x` when it is not one of `around` (the handlers around the
// branch being structured): a try entered inside an arm; else kNoBlock.
BlockId Structurer::handler_inside(BlockId x, const std::vector<BlockId>& around) const {
  const auto& h = graph_.block(x).handler;
  if (!h || std::find(around.begin(), around.end(), h->block) != around.end()) return kNoBlock;
  return h->block;
}

// The same by two full searches (graphs whose arms loop back).
BlockId Structurer::if_follow_by_search(BlockId b, BlockId t, BlockId f, BlockId stop) const {
  auto usable = [&](BlockId x) { return can_merge_at(x); };
  const std::vector<BlockId>& around = handler_chain(b);
  auto reach = [&](BlockId from) {
    std::vector<bool> seen(graph_.size(), false);
    // A queue: the blocks taken are kept, `head` is the next one (no std::deque
    // and its two allocations per search).
    RecycledVector<BlockId> work = block_list();
    std::size_t head = 0;
    if (usable(from)) work.push_back(from), seen[from] = true;
    while (head < work.size()) {
      BlockId x = work[head++];
      if (x == stop) continue;
      auto next = [&](BlockId to) {
        if (!seen[to] && usable(to)) seen[to] = true, work.push_back(to);
      };
      graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) { next(e.to); });
      if (BlockId h = handler_inside(x, around); h != kNoBlock) next(h);
    }
    return seen;
  };
  auto rt = reach(t), rf = reach(f);
  BlockId best = kNoBlock;
  for (BlockId x = 0; x < graph_.size(); ++x)
    if (rt[x] && rf[x] && rpo_index_[x] != 0xffffffffu &&
        (best == kNoBlock || rpo_index_[x] < rpo_index_[best]))
      best = x;
  return best != kNoBlock ? best : lone_arm_follow(t, f, stop, around);
}

namespace {
std::string expr_text(const ast::ExprPtr& e) { return unparse_expr(*e); }

// `t if c else t`-shaped conditional values back to and/or and chained
// comparisons. Else `body if test else orelse`, or, when the false arm is laid
// out first, `orelse if not test else body`: a conditional expression
// compiles its first value first.
ast::ExprPtr tidy_value(const ast::ExprPtr& test, const ast::ExprPtr& body, const ast::ExprPtr& orelse,
                        bool true_arm_first = true) {
  using ast::BoolOperator;
  // The tested value itself (the same node: kept on the stack) on one side.
  if (body == test) return flatten_boolop(BoolOperator::Or, test, orelse);
  if (orelse == test) {
    // `a < b and b < c` with b shared (DUP/COPY): the chain `a < b < c`.
    auto* c1 = test->as<ast::Compare>();
    auto* c2 = body->as<ast::Compare>();
    if (c1 && c2 && !c1->comparators.empty() && c2->left == c1->comparators.back()) {
      std::vector<ast::CmpOperator> ops = c1->ops;
      ast::ExprList comps = c1->comparators;
      ops.insert(ops.end(), c2->ops.begin(), c2->ops.end());
      comps.insert(comps.end(), c2->comparators.begin(), c2->comparators.end());
      return ast::compare(c1->left, ops, comps);
    }
    return flatten_boolop(BoolOperator::And, test, body);
  }
  // `t and x or y`: x's `or y` shared with the false arm.
  if (auto* bo = body->as<ast::BoolOp>(); bo && bo->op == BoolOperator::Or && bo->values.size() >= 2 &&
                                          expr_text(bo->values.back()) == expr_text(orelse)) {
    ast::ExprList head(bo->values.begin(), bo->values.end() - 1);
    ast::ExprPtr x = head.size() == 1 ? head[0] : ast::boolop(BoolOperator::Or, head);
    return flatten_boolop(BoolOperator::Or, flatten_boolop(BoolOperator::And, test, x), orelse);
  }
  // `(t or x) and y`: y's `and` shared with the true arm.
  if (auto* bo = orelse->as<ast::BoolOp>(); bo && bo->op == BoolOperator::And && bo->values.size() >= 2 &&
                                            expr_text(bo->values.back()) == expr_text(body)) {
    ast::ExprList head(bo->values.begin(), bo->values.end() - 1);
    ast::ExprPtr x = head.size() == 1 ? head[0] : ast::boolop(BoolOperator::And, head);
    return flatten_boolop(BoolOperator::And, flatten_boolop(BoolOperator::Or, test, x), body);
  }
  if (!true_arm_first) return ast::if_exp(negate(test), orelse, body);
  return ast::if_exp(test, body, orelse);
}
}  // namespace

constexpr std::size_t kUnset = static_cast<std::size_t>(-1);  // value_region's depth, not known yet

// The value the region from `b` leaves on the stack at `merge`, when every
// path is statement-free (and/or values, conditional expressions, chained
// comparisons); nullptr otherwise. Below that value, every path must leave
// the same first `depth` items of `base` (the stack at the first branch; a
// chained comparison's cleanup pops the shared operand): the first path to
// arrive sets `depth`. Blocks are lifted tentatively and recorded in `seen`.
ast::ExprPtr Structurer::value_region(BlockId b, const lift::Stack& stack, BlockId merge,
                                      const lift::Stack& base, std::size_t& depth,
                                      std::vector<BlockId>& seen, int budget) {
  if (budget <= 0 || b == kNoBlock || b == merge || loops_.loop_of_header(b) != cfg::kNoLoop) return nullptr;
  if (!context_.empty() && (context_.back().continues_at(b) || b == context_.back().follow)) return nullptr;
  std::shared_ptr<const lift::BlockEffect> eff;
  try {
    eff = lifter_.effect(graph_, b, stack);
  } catch (const Error&) {
    return nullptr;
  }
  if (!eff->stmts.empty()) return nullptr;
  seen.push_back(b);
  return value_of_effect(b, *eff, merge, base, depth, seen, budget);
}

// The rest of value_region, from the effect of `b` already lifted.
ast::ExprPtr Structurer::value_of_effect(BlockId b, const lift::BlockEffect& eff, BlockId merge,
                                         const lift::Stack& base, std::size_t& depth,
                                         std::vector<BlockId>& seen, int budget) {
  auto at_merge = [&](BlockId next, const lift::Stack& st) -> ast::ExprPtr {
    if (next == merge) {
      if (st.empty() || st.back().kind != Item::Kind::Value) return nullptr;
      if (depth == kUnset) depth = st.size() - 1;
      if (st.size() != depth + 1 || depth > base.size()) return nullptr;
      for (std::size_t k = 0; k < depth; ++k)
        if (st[k].expr != base[k].expr) return nullptr;
      return st.back().expr;
    }
    return value_region(next, st, merge, base, depth, seen, budget - 1);
  };
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  // A branch whose arms meet before `merge` (`not (b() and c)`, then the
  // outer `or`): the value at that nearer merge first, then on from there,
  // so that nothing after it is computed once per arm.
  if (eff.term.kind == TK::Branch || eff.term.kind == TK::KeepBranch) {
    BlockId inner = pdom_.idom(b);
    if (inner != merge && inner < graph_.size() && merge < graph_.size() && pdom_.dominates(merge, inner) &&
        std::find(seen.begin(), seen.end(), inner) == seen.end()) {
      lift::Stack below = eff.stack;
      if (eff.term.kind == TK::KeepBranch && !below.empty()) below.pop_back();
      else if (!below.empty() && below.back().kind == Item::Kind::Value && below.back().expr == eff.term.cond)
        below.pop_back();
      std::size_t inner_depth = below.size();
      if (auto v = value_of_effect(b, eff, inner, below, inner_depth, seen, budget - 1)) {
        lift::Stack at_inner = below;
        at_inner.push_back(Item::value(v));
        return value_region(inner, at_inner, merge, base, depth, seen, budget - 1);
      }
      return nullptr;
    }
  }
  switch (eff.term.kind) {
    case TK::Fall:
      return at_merge(normal_successor(b), eff.stack);
    case TK::Branch: {
      bool keeps = !eff.stack.empty() && eff.stack.back().kind == Item::Kind::Value &&
                   eff.stack.back().expr == eff.term.cond;
      const lift::Stack& st = eff.stack;
      lift::Stack popped;  // (a kept test is popped on the arm it does not jump to)
      if (keeps) {
        popped = eff.stack;
        popped.back() = Item::of(Item::Kind::Marker);
      }
      BlockId t = eff.term.jump_if ? taken : fall, f = eff.term.jump_if ? fall : taken;
      const lift::Stack& tst = (keeps && !eff.term.jump_if) ? popped : st;
      const lift::Stack& fst = (keeps && eff.term.jump_if) ? popped : st;
      ast::ExprPtr test = eff.term.cond;
      if (!keeps) {
        // `a if b and c else d`: the test's other links share its targets.
        RecycledVector<BlockId> used = block_list();
        Cond c = collapse_unmarked(b, Cond{test, t, f}, st, used);
        for (BlockId u : used) {
          if (std::find(seen.begin(), seen.end(), u) != seen.end()) return nullptr;
          seen.push_back(u);
        }
        test = c.expr;
        t = c.t;
        f = c.f;
      }
      auto tv = at_merge(t, tst), fv = tv ? at_merge(f, fst) : nullptr;
      if (!tv || !fv) return nullptr;
      return tidy_value(test, tv, fv, graph_.block(t).begin < graph_.block(f).begin);
    }
    case TK::KeepBranch: {
      const lift::Stack& keep = eff.stack;
      lift::Stack popped = eff.stack;
      popped.pop_back();
      BlockId t = eff.term.jump_if ? taken : fall, f = eff.term.jump_if ? fall : taken;
      auto tv = at_merge(t, eff.term.jump_if ? keep : popped);
      auto fv = tv ? at_merge(f, eff.term.jump_if ? popped : keep) : nullptr;
      if (!tv || !fv) return nullptr;
      return tidy_value(eff.term.cond, tv, fv);
    }
    default:
      return nullptr;
  }
}

// 3.12+ copies a small block that ends the frame into each block that jumps
// to it, so `raise E(a if c else b)` becomes two arms `a; CALL; RAISE` and
// `b; CALL; RAISE`. Values already waiting on the stack at the branch (E)
// show that the arms belong to one expression: each computes one value, then
// both run the same instructions, which are lifted once with the conditional
// expression on the stack. (Without waiting values the arms are statements,
// `if c: return a` then `return b`, which compile the same.)
bool Structurer::try_exit_tail_value(BlockId b, const lift::BlockEffect& eff, Seq& out) {
  if (eff.term.exc_match) return false;
  const lift::Stack& base = eff.stack;
  if (!base.empty() && base.back().kind == Item::Kind::Value && base.back().expr == eff.term.cond) return false;
  if (base.empty() || (base.back().kind != Item::Kind::Value && base.back().kind != Item::Kind::Null)) return false;
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  RecycledVector<BlockId> used = block_list();
  const Cond c = collapse_unmarked(
      b, eff.term.jump_if ? Cond{eff.term.cond, taken, fall} : Cond{eff.term.cond, fall, taken}, base, used);
  const BlockId t = c.t, f = c.f;
  // Each arm entered from the test's links only (`a and b` shares a target).
  auto exits = [&](BlockId x) {
    if (x == kNoBlock || x >= graph_.size() || emitted_[x] || !graph_.block(x).reachable || !dead_end(x))
      return false;
    bool from_test = true;
    graph_.for_each_predecessor(x, kFlow, [&](const cfg::Edge& e) {
      from_test = from_test && (e.from == b || std::find(used.begin(), used.end(), e.from) != used.end());
    });
    return from_test;
  };
  if (!exits(t) || !exits(f) || graph_.block(t).handler != graph_.block(f).handler) return false;
  auto ti = graph_.instructions(t), fi = graph_.instructions(f);
  std::size_t common = 0;
  while (common < ti.size() && common < fi.size()) {
    const Instruction& x = ti[ti.size() - 1 - common];
    const Instruction& y = fi[fi.size() - 1 - common];
    if (x.opcode != y.opcode || x.arg != y.arg || x.jump_target || y.jump_target) break;
    ++common;
  }
  const std::uint8_t ext = code_.traits->extended_arg;
  // The shortest shared tail after which each arm has pushed exactly one value.
  for (std::size_t tail = 1; tail <= common && tail < ti.size() && tail < fi.size(); ++tail) {
    const std::size_t ts = ti.size() - tail, fs = fi.size() - tail;
    if (ti[ts - 1].opcode == ext || fi[fs - 1].opcode == ext) continue;
    auto arm_value = [&](BlockId x, std::size_t split) -> ast::ExprPtr {
      lift::BlockEffect e;
      try {
        e = lifter_.run(graph_, x, base, 0, split);
      } catch (const Error&) {
        return nullptr;
      }
      if (!e.stmts.empty() || e.term.kind != TK::Fall || e.stack.size() != base.size() + 1 ||
          e.stack.back().kind != Item::Kind::Value)
        return nullptr;
      for (std::size_t k = 0; k < base.size(); ++k)
        if (e.stack[k].kind != base[k].kind || e.stack[k].expr != base[k].expr) return nullptr;
      return e.stack.back().expr;
    };
    ast::ExprPtr tv = arm_value(t, ts);
    ast::ExprPtr fv = tv ? arm_value(f, fs) : nullptr;
    if (!fv) continue;
    lift::Stack st = base;
    st.push_back(Item::value(tidy_value(c.expr, tv, fv, graph_.block(t).begin < graph_.block(f).begin)));
    lift::BlockEffect rest;
    try {
      rest = lifter_.run(graph_, t, st, ts, ti.size());
    } catch (const Error&) {
      return false;
    }
    if (rest.term.kind != TK::Exit) return false;
    for (BlockId u : used) mark(u);
    mark(t);
    mark(f);
    out.stmts.insert(out.stmts.end(), rest.stmts.begin(), rest.stmts.end());
    out.stack = rest.stack;
    return true;
  }
  return false;
}

// A branch whose arms only compute one value for the merge: one expression.
// `eff` is the branch block's effect; its statements are already in `out`,
// and the values it pushed before the condition stay below the new value.
bool Structurer::try_value_branch(BlockId b, const lift::BlockEffect& eff, BlockId stop, Seq& out,
                                  BlockId& next, std::optional<BlockId>& arms_follow) {
  const Instruction& last = graph_.last_instruction(b);
  if (!last.jump_target) return false;
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  BlockId merge = if_follow(b, taken, fall, stop);
  arms_follow = merge;
  if (merge == kNoBlock) return false;
  lift::Stack base = eff.stack;  // the stack below the value: the condition, if kept, is part of it
  if (!base.empty() && (eff.term.kind == TK::KeepBranch || base.back().expr == eff.term.cond))
    base.pop_back();
  RecycledVector<BlockId> seen = block_list();
  std::size_t depth = kUnset;
  ast::ExprPtr v = value_of_effect(b, eff, merge, base, depth, seen, 64);
  if (!v) return false;
  for (BlockId x : seen)
    if (x != b && emitted_[x]) return false;
  for (BlockId x : seen) emitted_[x] = true;
  out.stack.assign(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(depth));
  out.stack.push_back(Item::value(v));
  next = merge;
  return true;
}

// `if a < b < c:` — the first comparison leaves b on the stack; its true arm
// compares b with c, its false arm only pops b and joins the second
// comparison's false target. The links become one chained comparison. Links
// may share one cleanup (3.11+ `a is b is c is None`): it must then be entered
// from the chain's blocks only (`head` is the block of the first link).
std::optional<Structurer::Cond> Structurer::chained_condition(BlockId head, Cond c, lift::Stack& stack) {
  RecycledVector<BlockId> used = block_list();
  auto chain = chain_links(head, c, stack, used);
  if (!chain) return std::nullopt;
  for (BlockId u : used) mark(u);
  return chain;
}

// The links of the chained comparison whose first link `head` tests `c`
// with the shared operand on top of `stack`; the blocks it takes are
// appended to `used` (nothing is marked), `stack` becomes the stack after it.
std::optional<Structurer::Cond> Structurer::chain_links(BlockId head, Cond c, lift::Stack& stack,
                                                        std::vector<BlockId>& taken) {
  if (!may_start_chain(c.expr, stack)) return std::nullopt;  // (before the copy: most do not)
  lift::Stack work = stack;
  RecycledVector<BlockId> used = block_list();
  bool linked = false;
  for (int links = 0; links < 64; ++links) {
    auto* cmp = c.expr->as<ast::Compare>();
    if (!cmp || cmp->comparators.empty() || work.empty() || work.back().kind != Item::Kind::Value ||
        work.back().expr != cmp->comparators.back())
      break;
    BlockId next = c.t, cleanup = c.f;
    bool shared = cleanup < graph_.size() && !emitted_[cleanup];
    if (!single_entry(next) || !(single_entry(cleanup) || shared)) break;
    const std::span<const Item> rest(work.data(), work.size() - 1);  // (read before work changes)
    std::shared_ptr<const lift::BlockEffect> lifted;
    try {
      lifted = lifter_.effect(graph_, next, work);
    } catch (const Error&) {
      break;
    }
    const lift::BlockEffect& e = *lifted;
    if (!e.stmts.empty() || e.term.kind != TK::Branch || e.stack.size() < rest.size()) break;
    bool same = true;
    for (std::size_t k = 0; k < rest.size(); ++k) same = same && e.stack[k].expr == rest[k].expr;
    auto* cmp2 = e.term.cond->as<ast::Compare>();
    if (!same || !cmp2 || cmp2->left != work.back().expr) break;
    BlockId taken = jump_successor(next), fall = fall_successor(next);
    Cond c2 = e.term.jump_if ? Cond{e.term.cond, taken, fall} : Cond{e.term.cond, fall, taken};
    bool more = e.stack.size() == rest.size() + 1;  // the next link's shared operand
    if (!more && e.stack.size() == rest.size() && !joins(cleanup, c2.f) && joins(cleanup, c2.t)) {
      // The last link jumps when it fails (3.11+ `x is None` as POP_JUMP_IF_NOT_NONE):
      // the chain's test is its inverse, if that is still one comparison.
      if (auto inv = negate(e.term.cond); inv->as<ast::Compare>()) {
        c2 = Cond{inv, c2.f, c2.t};
        cmp2 = inv->as<ast::Compare>();
      }
    }
    if (!more && (e.stack.size() != rest.size() || !joins(cleanup, c2.f))) break;
    std::vector<ast::CmpOperator> ops = cmp->ops;
    ast::ExprList comps = cmp->comparators;
    ops.insert(ops.end(), cmp2->ops.begin(), cmp2->ops.end());
    comps.insert(comps.end(), cmp2->comparators.begin(), cmp2->comparators.end());
    c = Cond{ast::compare(cmp->left, ops, comps), c2.t, c2.f};
    used.push_back(next);
    used.push_back(cleanup);
    work = e.stack;
    if (!more) {
      linked = true;
      break;
    }
  }
  if (!linked) return std::nullopt;
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (BlockId u : used) {  // a shared cleanup: entered from the chain only
    bool inside = true;
    graph_.for_each_predecessor(u, kFlow, [&](const cfg::Edge& e) {
      inside = inside && (e.from == head || std::binary_search(used.begin(), used.end(), e.from));
    });
    if (!inside) return std::nullopt;
  }
  taken.insert(taken.end(), used.begin(), used.end());
  stack = std::move(work);
  return c;
}

// The false arm of a chain link pops the shared operand and then does what
// `target` does: goes to it, to a PEP 626 copy of it, or repeats it inline.
bool Structurer::joins(BlockId cleanup, BlockId target) const {
  if (pops_only(cleanup)) {
    BlockId to = through_jumps(normal_successor(cleanup));
    target = through_jumps(target);
    return to == target || copies_block(to, target) || copies_block(target, to);
  }
  auto ins = graph_.instructions(cleanup);
  std::size_t k = 0;
  while (k < ins.size() && ins[k].name() == "NOP") ++k;
  if (k >= ins.size() || ins[k].name() != "POP_TOP" || target == kNoBlock) return false;
  const Instruction& last = graph_.last_instruction(cleanup);
  if (last.jump_target || fall_successor(cleanup) != kNoBlock) return false;  // must end the frame
  std::vector<std::pair<std::uint8_t, std::uint32_t>> a, b;
  for (std::size_t j = k + 1; j < ins.size(); ++j)
    if (ins[j].name() != "NOP" && ins[j].name() != "EXTENDED_ARG") a.emplace_back(ins[j].opcode, ins[j].arg);
  for (const Instruction& i : graph_.instructions(target))
    if (i.name() != "NOP" && i.name() != "EXTENDED_ARG") b.emplace_back(i.opcode, i.arg);
  return a == b;
}

// Where a block that only jumps (NOPs and one unconditional jump: `if not
// a < b < c` jumps over the cleanup) leads; any other block is itself.
BlockId Structurer::through_jumps(BlockId b) const {
  for (int hops = 0; hops < 16 && b != kNoBlock && b < graph_.size(); ++hops) {
    for (const Instruction& i : graph_.instructions(b))
      if (!only_moves_on(i.op())) return b;
    BlockId next = normal_successor(b);
    if (next == b) return b;
    b = next;
  }
  return b;
}

bool Structurer::single_entry(BlockId b) const {
  if (b == kNoBlock || b >= graph_.size() || emitted_[b]) return false;
  std::size_t preds = 0;
  graph_.for_each_predecessor(b, kFlow, [&](const cfg::Edge&) { ++preds; });
  return preds == 1;
}

// A block that only drops the top of the stack and goes on (NOPs and jumps aside).
// One POP_TOP, then an unconditional jump (forward or back): a `break` out
// of a for (the iterator popped).
bool Structurer::pops_then_jumps(BlockId b) const {
  auto ins = graph_.instructions(b);
  if (ins.empty() || !graph_.last_instruction(b).jump_target) return false;
  int pops = 0;
  for (const Instruction& i : ins) {
    Op op = i.op();
    if (op == Op::POP_TOP) ++pops;
    else if (!only_moves_on(op) && op != Op::JUMP_BACKWARD && op != Op::EXTENDED_ARG) return false;
  }
  return pops == 1;
}

bool Structurer::pops_only(BlockId b) const {
  if (b == kNoBlock || b >= graph_.size()) return false;
  int pops = 0;
  for (const Instruction& i : graph_.instructions(b)) {
    if (i.op() == Op::POP_TOP) ++pops;
    else if (!only_moves_on(i.op())) return false;
  }
  return pops == 1;
}

BlockId Structurer::structure_if(BlockId b, lift::BlockEffect& eff, BlockId stop, Seq& out,
                                 std::optional<BlockId> arms_follow) {
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  Cond c = eff.term.jump_if ? Cond{eff.term.cond, taken, fall} : Cond{eff.term.cond, fall, taken};
  if (auto chain = chained_condition(b, c, out.stack)) c = *chain;
  c = collapse(b, c, out.stack);
  // (if_follow does not depend on which arm is which.)
  const bool same_arms = (c.t == taken && c.f == fall) || (c.t == fall && c.f == taken);
  BlockId follow = arms_follow && same_arms ? *arms_follow : if_follow(b, c.t, c.f, stop);
  // In a rotated `while c:` (rotated_entry) only a written `continue` jumps
  // back to the test before the loop: the other arm goes on after the if.
  if (!context_.empty() && context_.back().entry != kNoBlock) {
    auto continues = [&](BlockId x) {
      return x == context_.back().entry ||
             (x < graph_.size() && fall_successor(x) == kNoBlock && normal_successor(x) == context_.back().entry);
    };
    if (continues(c.t) && can_merge_at(c.f)) follow = c.f;
    else if (continues(c.f) && can_merge_at(c.t)) follow = c.t;
  }
  ast::ExprPtr test = c.expr;
  BlockId body = c.t, orelse = c.f;
  auto begin = [&](BlockId x) { return graph_.block(x).begin; };
  bool negated = false;
  if (body == follow || (orelse != follow && begin(orelse) < begin(body))) {
    std::swap(body, orelse);
    test = negate(test);
    negated = true;
  }
  // 3.12+ lays out `if c: break` at a loop's end as `if c jump body; continue`
  // (the continue a lone back jump); before, such a block is a `continue`
  // the source wrote.
  auto is_continue = [&](BlockId x) {
    if (context_.empty() || x == follow) return false;
    if (context_.back().continues_at(x)) return true;
    return lift::version_row(code_.traits->minor).back_jump_block_is_loop_end && instruction_count(x) == 1 &&
           context_.back().continues_at(normal_successor(x)) && fall_successor(x) == kNoBlock;
  };
  // (Not when that negates a test as written and turns `in`/`is` into `not
  // in`/`is not`: the compiler folds `not (a in b)` too, so only `if a not in
  // b: continue` has this form.)
  auto flips_operator = [](const ast::ExprPtr& e) {
    auto* c = e->as<ast::Compare>();
    if (!c || c->ops.size() != 1) return false;
    ast::CmpOperator op = c->ops[0];
    return op == ast::CmpOperator::In || op == ast::CmpOperator::NotIn || op == ast::CmpOperator::Is ||
           op == ast::CmpOperator::IsNot;
  };
  // (Not a lone jump that several links of the test share, where the other
  // arm stays in the loop: the compiler gives each link of `if a and b:
  // body` its own copy of the jump, so the source wrote `if c: continue`
  // before the rest of the body.)
  auto shared_continue = [&] {
    std::size_t preds = 0;
    graph_.for_each_predecessor(body, kFlow, [&](const cfg::Edge&) { ++preds; });
    return body != context_.back().header && preds > 1 && loops_.contains(context_.back().loop, orelse);
  };
  if (orelse != follow && is_continue(body) && !is_continue(orelse) && !shared_continue() &&
      (negated || body == context_.back().header || !flips_operator(test))) {
    std::swap(body, orelse);
    test = negate(test);
  }
  // An else that only raises: the first arm's jump over it still says
  // where the if ends (≤3.9 keeps that jump even after an arm that raises,
  // dead; later versions only when the first arm goes on).
  const Instruction& before_else = graph_.last_instruction(orelse > 0 ? orelse - 1 : 0);
  const bool live_jump_over_else = orelse > 0 && graph_.block(orelse - 1).reachable && !is_lone_jump(body) &&
                                   before_else.op() == Op::JUMP_FORWARD && before_else.jump_target &&
                                   only_ends_frame(orelse, *before_else.jump_target, /*raising=*/true);
  // (≤3.9: also when the else was taken for what follows the if, the first
  // arm never reaching it.)
  const bool dead_jump_over_else =
      orelse > 0 && lift::version_row(code_.traits->minor).keeps_dead_code && !graph_.block(orelse - 1).reachable;
  if ((follow == kNoBlock || (follow == orelse && dead_jump_over_else)) && orelse > 0 &&
      begin(body) < begin(orelse) && (dead_jump_over_else || live_jump_over_else) &&
      graph_.last_instruction(orelse - 1).jump_target) {
    BlockId end = jump_successor(orelse - 1);
    if (end != kNoBlock && begin(end) > begin(orelse) && can_merge_at(end) &&
        (stop == kNoBlock || end == stop || pdom_.dominates(stop, end)))
      follow = end;
  }
  Seq then_seq = sequence(body, follow, out.stack);
  const BlockId outer_last = last_marked_;
  last_marked_ = kNoBlock;
  Seq else_seq = sequence(orelse, follow, out.stack);
  const BlockId else_last = last_marked_;
  last_marked_ = std::max(outer_last == kNoBlock ? 0 : outer_last, else_last == kNoBlock ? 0 : else_last);
  // ≤3.9: after an arm that ends in return/raise, whether the rest was an
  // `else` shows in the dead code the compiler left (else_was_written).
  std::optional<bool> written_else;
  if (lift::version_row(code_.traits->minor).keeps_dead_code && !then_seq.open && !else_seq.stmts.empty() &&
      !then_seq.stmts.empty() && begin(body) < begin(orelse))
    written_else = else_was_written(body, orelse, else_last);
  // An empty first arm flips the test, unless it is a block of its own that
  // only jumps on: `if c: pass` + `else:` (a negated test jumps straight on).
  // An arm that left the protected region (it ran off the try body's end)
  // skips what follows the if inside the region: only an arm that also
  // leaves, or a follow that is itself the way out, says that.
  auto goes_on_inside = [&](const Seq& arm) { return arm.open && !arm.left; };
  auto runs_off = [&](const Seq& arm) { return arm.open && arm.left; };
  if ((runs_off(then_seq) && goes_on_inside(else_seq)) || (runs_off(else_seq) && goes_on_inside(then_seq)))
    if (follow != kNoBlock && !leaves_region(follow, (then_seq.left ? else_seq : then_seq).stack.size()))
      fail(b, "one arm of an if leaves the try body, the other goes on in it");
  const bool written_pass = body != follow && is_lone_jump(body) && normal_successor(body) == follow;
  if (then_seq.stmts.empty() && !else_seq.stmts.empty() && !written_pass) {
    std::swap(then_seq, else_seq);
    test = negate(test);
  }
  // Values merging at the follow: a conditional expression.
  lift::Stack merged;
  if (then_seq.open && else_seq.open) {
    if (then_seq.stack.size() != else_seq.stack.size())
      fail(b, "stack depth differs between the arms of a branch");
    // The then arm's stack becomes the merged one (not a copy): each slot is
    // read as the then arm's before it is replaced.
    merged = std::move(then_seq.stack);
    for (std::size_t k = 0; k < merged.size(); ++k) {
      const ast::ExprPtr& then_value = merged[k].expr;
      if (then_value == else_seq.stack[k].expr) continue;
      if (merged[k].kind != Item::Kind::Value || else_seq.stack[k].kind != Item::Kind::Value)
        fail(b, "non-value merged at a branch");
      if (!then_seq.stmts.empty() || !else_seq.stmts.empty()) {
        // Arms with statements that leave different values (generated code):
        // each arm stores its value in one temporary, computed where it was.
        std::string t = lifter_.new_temporary();
        then_seq.stmts.push_back(ast::assign(ast::name(t, ast::ExprContext::Store), then_value));
        else_seq.stmts.push_back(ast::assign(ast::name(t, ast::ExprContext::Store), else_seq.stack[k].expr));
        merged[k] = Item::value(ast::name(t));
        continue;
      }
      merged[k] = Item::value(ast::if_exp(test, then_value, else_seq.stack[k].expr));
    }
  } else {
    merged = std::move(then_seq.open ? then_seq.stack : else_seq.stack);  // (the arms' stacks are not used after)
  }
  bool is_value = then_seq.open && else_seq.open && then_seq.stmts.empty() &&
                  else_seq.stmts.empty() && [&] {
                    if (merged.size() != out.stack.size()) return true;
                    for (std::size_t k = 0; k < merged.size(); ++k)
                      if (merged[k].expr != out.stack[k].expr) return true;
                    return false;
                  }();
  // 3.12–3.13 `return a if c else None`: the return copied into each arm
  // keeps LOAD_CONST + RETURN_VALUE (a return statement would be RETURN_CONST).
  if (!is_value && lift::version_row(code_.traits->minor).return_const && !then_seq.open && !else_seq.open &&
      then_seq.stmts.size() == 1 && else_seq.stmts.size() == 1 && begin(body) < begin(orelse)) {
    auto* r1 = then_seq.stmts[0]->as<ast::Return>();
    auto* r2 = else_seq.stmts[0]->as<ast::Return>();
    auto returns_loaded_constant = [&](BlockId x) {
      auto ins = graph_.instructions(x);
      return ins.size() >= 2 && ins.back().name() == "RETURN_VALUE" && ins[ins.size() - 2].name() == "LOAD_CONST" &&
             fall_successor(x) == kNoBlock;
    };
    if (r1 && r2 && r1->value && r2->value && (returns_loaded_constant(body) || returns_loaded_constant(orelse))) {
      out.stmts.push_back(ast::return_(tidy_value(test, r1->value, r2->value)));
      return kNoBlock;
    }
  }
  if (!is_value) {
    ast::StmtList body_stmts = std::move(then_seq.stmts);  // the arms are not used after this
    if (body_stmts.empty()) body_stmts.push_back(ast::pass());
    if (written_else == false) {  // the rest goes on after the if
      out.stmts.push_back(ast::if_(test, std::move(body_stmts)));
      out.stmts.insert(out.stmts.end(), else_seq.stmts.begin(), else_seq.stmts.end());
    } else {
      ast::StmtPtr stmt = ast::if_(test, std::move(body_stmts), std::move(else_seq.stmts));
      if (written_else == true) {
        ast::If kept = *stmt->as<ast::If>();
        kept.keep_else = true;
        stmt = ast::make_stmt(std::move(kept), stmt->line);
      }
      out.stmts.push_back(stmt);
    }
  }
  out.stack = std::move(merged);
  if (!then_seq.open && !else_seq.open) return kNoBlock;
  // Every arm that goes on left the try body: so did the if (the sequence
  // goes on where they left, and leaves too).
  // (Only instead of a follow inside the region, which no arm reaches.)
  if (!regions_.empty() && regions_.back().exit != kNoBlock && (runs_off(then_seq) || runs_off(else_seq)) &&
      !goes_on_inside(then_seq) && !goes_on_inside(else_seq) && follow != kNoBlock &&
      !leaves_region(follow, out.stack.size()))
    return regions_.back().exit;
  return follow;
}

BlockId Structurer::structure_keep(BlockId b, lift::BlockEffect& eff, BlockId stop, Seq& out,
                                   bool pop_in_block, std::optional<BlockId> arms_follow) {
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  BlockId follow = arms_follow ? *arms_follow : if_follow(b, taken, fall, stop);
  lift::Stack keep = out.stack;
  lift::Stack popped = out.stack;
  if (popped.empty()) fail(b, "stack underflow at JUMP_IF_*_OR_POP");
  if (pop_in_block) popped.back() = Item::of(Item::Kind::Marker);  // its POP_TOP is silent
  else popped.pop_back();
  Seq t = sequence(taken, follow, keep);
  Seq f = sequence(fall, follow, popped);
  // The jump keeps the tested value: `c or fv` / `c and fv` (a chained
  // comparison when fv continues c's comparison), else a conditional value.
  const ast::ExprPtr& c = eff.term.cond;
  auto combine = [&](const ast::ExprPtr& tv, const ast::ExprPtr& fv) {
    if (tv == c) return eff.term.jump_if ? tidy_value(c, tv, fv) : tidy_value(c, fv, tv);
    return ast::if_exp(eff.term.jump_if ? c : negate(c), tv, fv);
  };
  // Both arms return (3.8–3.10 copy the return into each): `return a and b`.
  auto lone_return = [](const Seq& s) -> const ast::Return* {
    return !s.open && s.stmts.size() == 1 ? s.stmts[0]->as<ast::Return>() : nullptr;
  };
  if (auto *rt = lone_return(t), *rf = lone_return(f); rt && rf && rt->value && rf->value) {
    out.stmts.push_back(ast::return_(combine(rt->value, rf->value)));
    out.open = false;
    return kNoBlock;
  }
  if (!t.open || !f.open || !t.stmts.empty() || !f.stmts.empty() || t.stack.size() != f.stack.size() ||
      t.stack.empty())
    fail(b, "and/or value that is not an expression");
  ast::ExprPtr tv = lifter_.expression_of(t.stack.back()), fv = lifter_.expression_of(f.stack.back());
  if (!tv || !fv) fail(b, "and/or value without a source form");
  out.stack = f.stack;
  out.stack.back() = Item::value(combine(tv, fv));
  return follow;
}

// Where the loop's own code ends in the layout: the last block reached from
// the header inside the loop by normal edges (handlers are not the span:
// 3.12+ lays them out at the end).
std::uint32_t Structurer::loop_span_end(cfg::LoopId loop) const {
  BlockId h = loops_.loop(loop).header;
  std::uint32_t end = 0;
  auto seen = block_marks();
  RecycledVector<BlockId> work = block_list();
  work.push_back(h);
  seen[h] = true;
  while (!work.empty()) {
    BlockId x = work.back();
    work.pop_back();
    end = std::max(end, graph_.block(x).begin);
    graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) {
      if (!seen[e.to] && loops_.contains(loop, e.to)) seen[e.to] = true, work.push_back(e.to);
    });
  }
  // 3.8/3.9 keep the unreachable jump back that followed a body ending in
  // `return`: the loop reaches that far.
  for (BlockId u : unreachable_jumps_)
    if (*graph_.last_instruction(u).jump_target == graph_.block(h).begin) end = std::max(end, graph_.block(u).begin);
  return end;
}

// The last of two or more copies of one small `return` that the paths out of
// `loop` end in (each break's copy of the code after the loop), or kNoBlock.
BlockId Structurer::copied_return_after(cfg::LoopId loop) const {
  const BlockId h = loops_.loop(loop).header;
  // (Not a loop with a bottom test: a rotated `while c:`, whose copies the
  // test before the loop shares.)
  for (BlockId latch : loops_.loop(loop).latches) {
    if (fall_successor(latch) != kNoBlock) return kNoBlock;
    bool tested = false;
    graph_.for_each_predecessor(latch, kFlow, [&](const cfg::Edge& e) {
      tested = tested || (fall_successor(e.from) == latch && jump_successor(e.from) != kNoBlock);
    });
    if (tested) return kNoBlock;
  }
  auto returns = [&](BlockId x) {
    const Op op = graph_.last_instruction(x).op();
    return dead_end(x) && (op == Op::RETURN_VALUE || op == Op::RETURN_CONST);
  };
  RecycledVector<BlockId> exits = block_list();
  for (const cfg::Block& blk : graph_.blocks())
    if (blk.reachable && !loops_.contains(loop, blk.id) && dom_.dominates(h, blk.id) && returns(blk.id))
      exits.push_back(blk.id);
  if (exits.size() < 2) return kNoBlock;
  std::vector<std::vector<std::pair<std::uint8_t, std::uint32_t>>> codes;
  for (BlockId x : exits) codes.push_back(code_of(graph_.instructions(x)));
  // The whole copy: the shortest (the others unwind first), the last of those.
  std::size_t last = 0;
  for (std::size_t k = 0; k < exits.size(); ++k)
    if (codes[k].size() <= codes[last].size()) last = k;
  const auto& original = codes[last];
  const Op first = graph_.instructions(exits[last]).front().op();
  if (original.size() > 4 || first == Op::POP_EXCEPT || first == Op::POP_TOP) return kNoBlock;
  // (Not `return None`: a written `return` in the loop reads the same.)
  const Instruction& ret = graph_.last_instruction(exits[last]);
  if ((ret.op() == Op::RETURN_CONST && loads_none(ret)) || original.size() == 1) return kNoBlock;
  for (const auto& mine : codes)
    if (mine.size() < original.size() || !std::equal(original.begin(), original.end(), mine.end() - original.size()))
      return kNoBlock;
  return exits[last];
}

// A break out of `loop` that ends the enclosing loop's body jumps straight
// back to that loop's head (jumps to jumps are threaded; a for loop's break
// pops the iterator first): no other jump from the body goes there, so the
// loop ends at the enclosing loop's head (an implicit `continue`).
BlockId Structurer::breaks_to_enclosing_head(cfg::LoopId loop, std::span<const BlockId> targets,
                                             BlockId exit) const {
  if (context_.empty() || !loops_.contains(context_.back().loop, loops_.loop(loop).header)) return kNoBlock;
  const LoopContext& enclosing = context_.back();
  // The blocks of jumps only that a path through `b` passes, and where it arrives.
  auto jumps_from = [&](BlockId b, std::vector<BlockId>& passed) {
    for (int hops = 0; hops < 16 && b < graph_.size() && through_jumps(b) != b; ++hops) {
      passed.push_back(b);
      b = normal_successor(b);
    }
    return b;
  };
  // (When the else goes through a jump the breaks take too, that jump is where the loop ends.)
  std::vector<BlockId> else_jumps, break_jumps;
  if (exit != kNoBlock) jumps_from(exit, else_jumps);
  // (A bottom test's exit is the loop's own end, not a break: 3.10+ `while c:`.)
  auto bottom_test_exit = [&](BlockId to) {
    if (graph_.last_instruction(loops_.loop(loop).header).op() == Op::FOR_ITER) return false;
    for (BlockId latch : loops_.loop(loop).latches) {
      BlockId test = latch;
      if (fall_successor(latch) == kNoBlock && instruction_count(latch) == 1) {
        graph_.for_each_predecessor(latch, kFlow, [&](const cfg::Edge& e) {
          if (loops_.contains(loop, e.from) && fall_successor(e.from) == latch) test = e.from;
        });
      }
      if (jump_successor(test) == to || fall_successor(test) == to) return true;
    }
    return false;
  };
  for (BlockId to : targets) {
    if (to == exit || bottom_test_exit(to)) continue;
    break_jumps.clear();
    BlockId dest = jumps_from(to, break_jumps);
    if (dest < graph_.size() && !enclosing.continues_at(dest) && pops_before_last(graph_, dest) &&
        fall_successor(dest) == kNoBlock)
      dest = jumps_from(jump_successor(dest), break_jumps);
    const bool shared = std::any_of(break_jumps.begin(), break_jumps.end(), [&](BlockId j) {
      return std::find(else_jumps.begin(), else_jumps.end(), j) != else_jumps.end();
    });
    if (shared) return kNoBlock;
    if (dest == kNoBlock || !enclosing.continues_at(dest)) continue;
    // (Breaks that meet in a jump to the head end the loop at that jump.)
    for (BlockId j : break_jumps) {
      std::size_t preds = 0;
      graph_.for_each_predecessor(j, kFlow, [&](const cfg::Edge&) { ++preds; });
      if (preds > 1) return j;
    }
    return dest;
  }
  return kNoBlock;
}

BlockId Structurer::loop_follow(cfg::LoopId loop, BlockId exit) const {
  BlockId h = loops_.loop(loop).header;
  RecycledVector<BlockId> targets = block_list();
  // (An except clause's re-raise of an unmatched exception belongs to its
  // try statement in the body, wherever it is laid out: it runs in the
  // clause's cleanup handler, which the head is not in.)
  auto clause_reraise = [&](BlockId to) {
    const auto& mine = graph_.block(to).handler;
    const auto& head = graph_.block(h).handler;
    return dead_end(to) && graph_.last_instruction(to).op() == Op::RERAISE && mine &&
           (!head || head->block != mine->block);
  };
  for (std::uint32_t e : loops_.exits(graph_, loop))
    if (graph_.edge(e).kind != EdgeKind::Exception && !clause_reraise(graph_.edge(e).to))
      targets.push_back(graph_.edge(e).to);
  // A loop left only from except clauses in it (`while True: try: ...
  // except E: break`): its natural body has no exit, the clauses do. The
  // one place outside the header's dominance they go on to is its end.
  // (Clauses of a try inside the loop only: a try around the loop, whose
  // region covers the header, is left by the exception itself.)
  if (targets.empty()) {
    const std::vector<BlockId>& around = handler_chain(h);
    RecycledVector<BlockId> inner_handlers = block_list();
    for (const cfg::Block& hb : graph_.blocks())
      if (hb.is_handler && std::find(around.begin(), around.end(), hb.id) == around.end())
        inner_handlers.push_back(hb.id);
    auto in_inner_clause = [&](BlockId x) {
      return std::any_of(inner_handlers.begin(), inner_handlers.end(),
                         [&](BlockId hb) { return dom_.dominates(hb, x); });
    };
    BlockId only = kNoBlock;
    bool one = true;
    for (const cfg::Block& blk : graph_.blocks()) {
      if (!blk.reachable || loops_.contains(loop, blk.id) || !dom_.dominates(h, blk.id) || !in_inner_clause(blk.id))
        continue;
      graph_.for_each_successor(blk.id, kFlow, [&](const cfg::Edge& e) {
        if (dom_.dominates(h, e.to)) return;
        one = one && (only == kNoBlock || only == e.to);
        only = e.to;
      });
    }
    if (one && only != kNoBlock) return only;
  }
  // A loop that is the last statement of an except clause and has a `break`:
  // each of its exits ends the clause on its own (no two meet before their
  // POP_EXCEPT), so nothing in the clause follows it. (Exits that meet
  // first meet where the loop ends.)
  {
    std::set<BlockId> ends;
    bool all = !targets.empty();
    for (BlockId to : targets) {
      const BlockId end = clause_end_from(to, h);
      all = all && end != kNoBlock;
      ends.insert(end);
    }
    if (all && ends.size() >= 2) return kNoBlock;
  }
  // 3.12+ copies a small block that ends the frame into every jump to it: a
  // loop whose code after it is `return x` has that at each break (after
  // the POP_EXCEPT or POP_TOP the break needs). The last whole copy stands
  // for the code after the loop.
  if (exit == kNoBlock && lift::version_row(code_.traits->minor).inlines_small_exits &&
      std::all_of(targets.begin(), targets.end(), [&](BlockId to) { return dead_end(to); })) {
    if (BlockId last = copied_return_after(loop); last != kNoBlock) return last;
  }
  // Code after the loop is laid out after it; an exit inside the loop's span
  // is the body's own `return`/`raise`. When every exit of a loop without a
  // test is such code, the loop never ends normally: no follow.
  if (exit == kNoBlock && !targets.empty()) {
    const std::uint32_t span_end = loop_span_end(loop);
    if (std::all_of(targets.begin(), targets.end(), [&](BlockId to) { return only_ends_frame(to, span_end); }))
      return kNoBlock;
  }
  // A for loop's exit that only drops the iterator goes on to the code
  // after the loop; a break that only an exception reaches (from an except
  // clause) jumps there too, out of the post-dominators' sight.
  if (exit != kNoBlock && instruction_count(exit) == loop_exit_length(graph_.instructions(exit)) &&
      jump_successor(exit) == kNoBlock) {
    const BlockId after = fall_successor(exit);
    bool breaks = false, only_breaks = after != kNoBlock && loops_.loop_of_header(after) == cfg::kNoLoop;
    if (only_breaks)
      graph_.for_each_predecessor(after, kFlow, [&](const cfg::Edge& e) {
        if (e.from == exit) return;
        breaks = true;
        only_breaks = only_breaks && dom_.dominates(h, e.from) && !loops_.contains(loop, e.from);
      });
    if (breaks && only_breaks) return after;
  }
  BlockId p = pdom_.idom(h);
  // (Unless the breaks and the else meet in the enclosing loop: a jump
  // there is where this loop ends.)
  const bool meet_inside = p < graph_.size() && !context_.empty() && loops_.contains(context_.back().loop, p);
  if (!meet_inside)
    if (BlockId head = breaks_to_enclosing_head(loop, targets, exit); head != kNoBlock) return head;
  if (p != kNoBlock && p < graph_.size() && !loops_.contains(loop, p)) {
    // Where both the else and the breaks end up can be the enclosing loop's
    // head, when the else is a `continue` and each break leaves an except
    // clause around this loop: the loop ends where the breaks go once they
    // popped the iterator.
    auto outer_head = [&](BlockId x) {
      return std::any_of(context_.begin(), context_.end(), [&](const LoopContext& c) { return c.continues_at(x); });
    };
    // (Or the enclosing loop's end, when the else breaks out of it too.)
    auto outer_follow = [&](BlockId x) {
      return std::any_of(context_.begin(), context_.end(), [&](const LoopContext& c) { return c.follow == x; });
    };
    if (exit == kNoBlock || !(outer_head(p) || outer_follow(p))) return p;
    BlockId brk = kNoBlock;
    for (BlockId to : targets) {
      if (to == exit) continue;
      const bool pops_iterator =
          pops_before_last(graph_, to) && fall_successor(to) == kNoBlock && jump_successor(to) != kNoBlock;
      if (!pops_iterator || (brk != kNoBlock && brk != jump_successor(to))) return p;
      brk = jump_successor(to);
    }
    return brk != kNoBlock && !outer_head(brk) && !outer_follow(brk) ? brk : p;
  }
  if (exit != kNoBlock) {
    // `for ...: break` + `else: return`: the else only ends the frame, and
    // the code after the loop is where the one `break` goes once it popped
    // the iterator.
    // Where the breaks go once they popped the iterator, if they all go to
    // one place (in a for loop, the statements before the break may share
    // the block).
    const bool for_loop = graph_.last_instruction(h).op() == Op::FOR_ITER;
    auto breaks = [&](BlockId x) {
      if (dom_.dominates(exit, x)) return false;  // (after the loop's own end: not a break)
      if (pops_then_jumps(x)) return true;
      const BlockId to = jump_successor(x);
      bool from_body = false;  // entered from the loop's body, as a break is
      graph_.for_each_predecessor(x, kFlow, [&](const cfg::Edge& e) {
        // (Or from an if in it whose other arm leaves the frame: laid out
        // before the loop's exit.)
        from_body = from_body || loops_.contains(loop, e.from) ||
                    (dom_.dominates(h, e.from) && graph_.block(e.from).begin < graph_.block(exit).begin);
      });
      return for_loop && from_body && pops_before_last(graph_, x) &&
             fall_successor(x) == kNoBlock && to != kNoBlock && graph_.block(to).begin > graph_.block(x).begin &&
             loops_.innermost(x) == loops_.loop(loop).parent;
    };
    BlockId after = kNoBlock;
    for (const cfg::Block& blk : graph_.blocks()) {
      BlockId x = blk.id;
      if (!blk.reachable || loops_.contains(loop, x) || !dom_.dominates(h, x) || !breaks(x)) continue;
      BlockId dest = jump_successor(x);
      if (dest == kNoBlock || fall_successor(x) != kNoBlock) continue;
      if (after != kNoBlock && after != dest) return exit;
      after = dest;
    }
    if (!only_ends_frame(exit)) {
      // A `raise` in the body leaves the head without a post-dominator; an
      // else that goes on to where the breaks go still ends there.
      if (after != kNoBlock && after != exit && after < graph_.size() && pdom_.dominates(after, exit) &&
          !loops_.contains(loop, after))
        return after;
      return exit;
    }
    // 3.12+ a loop in an except clause whose breaks end the clause: each
    // break is a copy of the code after the try, and the else (here, the
    // exit) ends the frame. Nothing follows the loop in the clause.
    if (after == kNoBlock && std::any_of(targets.begin(), targets.end(), [&](BlockId to) {
          return to != exit && ends_clause_by_copy(to, h);
        }))
      return kNoBlock;
    return after != kNoBlock ? after : exit;
  }
  // A lone jump on to where another exit jumps as well is a `break` (a
  // `while True:` body that ends in `if c: break`), not the loop's end.
  auto end_at = [&](BlockId x) {
    if (!is_lone_jump(x)) return x;
    const BlockId to = jump_successor(x);
    bool other_exit = false;
    graph_.for_each_predecessor(to, kFlow, [&](const cfg::Edge& e) {
      other_exit = other_exit || (e.from != x && dom_.dominates(h, e.from) && !loops_.contains(loop, e.from));
    });
    return other_exit ? to : x;
  };
  // A bottom test (3.10–3.13 `while c:`): its exit is where the loop ends.
  for (BlockId latch : loops_.loop(loop).latches) {
    // 3.12+ puts the back jump in a block of its own after the test: the
    // test is its one predecessor.
    if (fall_successor(latch) == kNoBlock && instruction_count(latch) == 1) {
      BlockId test = kNoBlock;
      int preds = 0;
      graph_.for_each_predecessor(latch, kFlow, [&](const cfg::Edge& e) {
        test = e.from;
        ++preds;
      });
      if (preds == 1 && loops_.contains(loop, test) && fall_successor(test) == latch) latch = test;
    }
    BlockId t = jump_successor(latch), f = fall_successor(latch);
    if (t == kNoBlock || f == kNoBlock) continue;
    // (≤3.9 tests `while c:` at the top: a test at the bottom is `if c:
    // raise` that ends the body, its jump back to the head threaded, when
    // the loop also goes on elsewhere.)
    const BlockId out = !loops_.contains(loop, t) ? t : !loops_.contains(loop, f) ? f : kNoBlock;
    if (out == kNoBlock) continue;
    if (lift::version_row(code_.traits->minor).while_test_at_top &&
        only_ends_frame(out) &&
        std::any_of(targets.begin(), targets.end(),
                    [&](BlockId to) { return !only_ends_frame(to); }))
      continue;
    return end_at(out);
  }
  BlockId best = kNoBlock;
  for (BlockId to : targets) {
    bool copy = false;  // a PEP 626 copy of another exit is not where the loop ends
    // (the copy sits in the loop body, before the original after the loop)
    for (BlockId other : targets)
      copy = copy || (graph_.block(to).begin < graph_.block(other).begin && copies_block(to, other));
    if (copy) continue;
    if (best == kNoBlock || graph_.block(to).begin < graph_.block(best).begin) best = to;
  }
  // A `return`/`raise` leaving the loop is not where it ends: prefer an exit that goes on.
  if (best != kNoBlock && dead_end(best))
    for (BlockId to : targets)
      if (!dead_end(to) && (dead_end(best) || graph_.block(to).begin < graph_.block(best).begin))
        best = to;
  // Statements before a `break` are laid out in the loop's span and jump
  // out past it: the loop ends where they jump.
  // (A break's own unwinding, POP_BLOCK and the like, is where it leaves a
  // try: that block still ends the loop.)
  auto unwinds_only = [&](BlockId x) {
    for (const Instruction& i : graph_.instructions(x)) {
      const Op op = i.op();
      if (!only_moves_on(op) && op != Op::POP_BLOCK && op != Op::POP_EXCEPT && op != Op::POP_TOP) return false;
    }
    return true;
  };
  if (best != kNoBlock && !loops_.contains(loop, best) && !unwinds_only(best)) {
    const std::uint32_t span_end = loop_span_end(loop);
    if (graph_.block(best).begin < span_end) {
      BlockId after = kNoBlock;
      bool one = true;
      std::vector<BlockId> work{best};
      std::unordered_set<BlockId> seen{best};
      while (!work.empty() && one && seen.size() < 64) {
        const BlockId x = work.back();
        work.pop_back();
        graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) {
          if (loops_.contains(loop, e.to)) {
            one = false;
          } else if (graph_.block(e.to).begin >= span_end) {
            one = one && (after == kNoBlock || after == e.to);
            after = e.to;
          } else if (seen.insert(e.to).second) {
            work.push_back(e.to);
          }
        });
      }
      if (one && work.empty() && after != kNoBlock) return after;
    }
  }
  return best != kNoBlock ? end_at(best) : best;
}

// A loop that appends to an empty display just below its iterator is a
// comprehension (inlined on 3.12+, the body of `<listcomp>` before).
ast::ExprPtr Structurer::inlined_comprehension(const ast::Stmt& loop, const lift::Stack& stack,
                                               cfg::LoopId id) const {
  const ast::For* f = loop_of(loop);
  if (stack.empty() || stack.back().kind != Item::Kind::Value || !f || !f->orelse.empty()) return nullptr;
  if (!has_comprehension_marker(f->body)) return nullptr;
  const ast::ExprPtr& acc = stack.back().expr;
  std::optional<ComprehensionKind> kind;
  if (auto* l = acc->as<ast::List>(); l && l->elts.empty()) kind = ComprehensionKind::List;
  if (auto* st = acc->as<ast::Set>(); st && st->elts.empty()) kind = ComprehensionKind::Set;
  if (auto* d = acc->as<ast::Dict>(); d && d->keys.empty()) kind = ComprehensionKind::Dict;
  if (!kind) return nullptr;
  bool own_line = false;
  if (lift::version_row(code_.traits->minor).filter_jump_by_line) {
    std::uint32_t begin = graph_.block(loops_.loop(id).header).begin, end = begin;
    for (const cfg::Block& b : graph_.blocks())
      if (loops_.contains(id, b.id)) end = std::max(end, b.end);
    own_line = filter_on_own_line(code_, begin, end);
  }
  ast::ExprPtr comp = rebuild_comprehension(*kind, loop, nullptr, own_line);
  // (Never the loop with its markers: that would name `_append_`.)
  if (!comp) fail(loops_.loop(id).header, "a comprehension's loop has no comprehension form");
  return comp;
}

std::vector<bool> Structurer::LazyPostDominators::async_for_exits(const cfg::Graph& graph) {
  std::vector<bool> out;
  for (std::size_t e = 0; e < graph.edges().size(); ++e) {
    const cfg::Edge& edge = graph.edges()[e];
    if (edge.kind != EdgeKind::Exception) continue;
    auto ins = graph.instructions(edge.to);
    if (ins.empty() || ins.front().name() != "END_ASYNC_FOR") continue;
    if (out.empty()) out.assign(graph.edges().size(), false);
    out[e] = true;
  }
  return out;
}

// `async for` (⇄ codegen's async for): the head awaits anext() of the
// iterator inside a region whose handler, END_ASYNC_FOR, ends the loop on
// StopAsyncIteration. ≤3.10: SETUP_FINALLY, then GET_ANEXT ... YIELD_FROM;
// POP_BLOCK. 3.11+: GET_ANEXT; LOAD_CONST None, then the SEND loop of the await.
std::optional<Structurer::AsyncForHead> Structurer::async_for_head(BlockId h) const {
  if (!graph_.uses(Op::GET_ANEXT) || loops_.loop_of_header(h) == cfg::kNoLoop) return std::nullopt;
  AsyncForHead head;
  BlockId b = h;
  for (int k = 0; k < 3 && b != kNoBlock; ++k) {
    head.blocks.push_back(b);
    bool anext = false;
    for (const Instruction& ins : graph_.instructions(b)) anext = anext || ins.op() == Op::GET_ANEXT;
    if (anext) {
      head.anext = b;
      break;
    }
    b = fall_successor(b);
  }
  if (head.anext == kNoBlock) return std::nullopt;
  const auto& handler = graph_.block(head.anext).handler;
  if (!handler || graph_.instructions(handler->block).empty() ||
      graph_.instructions(handler->block).front().name() != "END_ASYNC_FOR")
    return std::nullopt;
  for (b = head.anext; b != kNoBlock && head.blocks.size() < 8;) {
    std::string_view last = graph_.last_instruction(b).name();
    if (last == "SEND") {
      head.body = jump_successor(b);
      break;
    }
    if (last == "POP_BLOCK") {
      head.body = fall_successor(b);
      break;
    }
    b = fall_successor(b);
    if (b != kNoBlock) head.blocks.push_back(b);
  }
  if (head.body == kNoBlock) return std::nullopt;
  return head;
}

BlockId Structurer::structure_async_for(BlockId h, const AsyncForHead& head, Seq& out) {
  cfg::LoopId loop = loops_.loop_of_header(h);
  if (out.stack.empty() || (out.stack.back().kind != Item::Kind::AsyncIter && out.stack.back().kind != Item::Kind::Value))
    fail(h, "async for without an iterator");
  // (A comprehension's `.0` argument already is the async iterator.)
  lift::Stack stack = out.stack;
  ast::ExprPtr iter = stack.back().expr;
  for (BlockId b : head.blocks) mark(b);
  BlockId exit = graph_.block(head.anext).handler->block;
  used_handlers_.push_back(exit);
  // The head's own blocks post-dominate it: the loop ends at the first
  // post-dominator outside it (pdom_ counts the edges into END_ASYNC_FOR).
  BlockId follow = pdom_.idom(h);
  while (follow < graph_.size() && loops_.contains(loop, follow)) follow = pdom_.idom(follow);
  // (Reached only by `break`: it pops the iterator and goes to the loop's end.)
  if (follow < graph_.size() && pops_then_jumps(follow) && fall_successor(follow) == kNoBlock)
    follow = jump_successor(follow);
  // A `break` that 3.12+ ends with a copy of the return after the loop (it
  // pops the iterator first) is no follow.
  else if (follow >= graph_.size() || (graph_.instructions(follow).front().name() == "POP_TOP" &&
                                       only_ends_frame(follow)))
    follow = loop_follow(loop, exit);
  auto sink = std::make_shared<lift::TargetSink>();
  lift::Stack body_stack = stack;
  Item slot = Item::of(Item::Kind::Slot);
  slot.sink = sink;
  body_stack.push_back(slot);
  context_.push_back(loop_context(h, follow, loop));
  Seq body = sequence(head.body, kNoBlock, body_stack);
  context_.pop_back();
  if (!sink->target()) fail(h, "async for loop without a target");
  // END_ASYNC_FOR drops the exception and the iterator; when nothing follows
  // it in the loop (no `else` that a `break` skips) it starts what follows.
  lift::Stack exit_stack = handler_stack(head.anext, stack);
  Seq orelse;  // (given the exit stack, not a copy: it is not used after)
  if (exit != follow) orelse = sequence(exit, follow, std::move(exit_stack));
  else orelse.stack = std::move(exit_stack);
  ast::StmtPtr loop_stmt =
      ast::async_for(sink->target(), iter, strip_trailing_continue(std::move(body.stmts)), std::move(orelse.stmts));
  out.stack = std::move(orelse.stack);
  if (exit != follow) {
    if (auto comp = inlined_comprehension(*loop_stmt, out.stack, loop)) {
      out.stack.back() = Item::value(comp);
      return follow;
    }
  } else if (stack.size() >= 2 && out.stack.size() >= stack.size() - 1) {
    // The code after the loop starts at END_ASYNC_FOR, from the handler's
    // stack: the accumulator of an async comprehension is the item below
    // the iterator, in both.
    lift::Stack after_loop(stack.begin(), stack.end() - 1);
    if (auto comp = inlined_comprehension(*loop_stmt, after_loop, loop)) {
      out.stack[stack.size() - 2] = Item::value(comp);
      return follow;
    }
  }
  out.stmts.push_back(loop_stmt);
  return follow;
}

// 3.10–3.13 lay out `while c:` as the test, the body, then a copy of the
// test that jumps back to the body; a `continue` jumps to the first test. That
// makes two loops: the body's (headed by its first block) inside one headed by
// the test, which holds nothing else but the continues' jumps to it. The test
// is then `loop`'s entry: an if before the loop, and a jump to it a continue.
BlockId Structurer::rotated_entry(cfg::LoopId loop) const {
  if (lift::version_row(code_.traits->minor).while_test_at_top) return kNoBlock;
  const cfg::LoopId outer = loops_.loop(loop).parent;
  if (outer == cfg::kNoLoop || loops_.loop(outer).children.size() != 1) return kNoBlock;
  const BlockId test = loops_.loop(outer).header, body = loops_.loop(loop).header;
  const BlockId fall = fall_successor(test), jump = jump_successor(test);
  if (fall == kNoBlock || jump == kNoBlock || (fall != body && jump != body)) return kNoBlock;
  if (loops_.contains(outer, fall == body ? jump : fall)) return kNoBlock;
  for (BlockId x : loops_.loop(outer).own_blocks) {
    if (x == test) continue;
    std::size_t succ = 0;
    bool to_test = true;
    graph_.for_each_successor(x, kFlow, [&](const cfg::Edge& e) {
      ++succ;
      to_test = to_test && e.to == test;
    });
    if (succ != 1 || !to_test) return kNoBlock;
  }
  return test;
}

bool Structurer::is_rotated_entry(BlockId b) const {
  const cfg::LoopId outer = loops_.loop_of_header(b);
  if (outer == cfg::kNoLoop || loops_.loop(outer).children.size() != 1) return false;
  return rotated_entry(loops_.loop(outer).children[0]) == b;
}

// 3.12+ copies a small exit into every jump to it. A for loop followed by
// `return v` then has that copy at the end of each break (after the break
// pops the iterator) and at the end of its else, and nowhere else: the
// copied code, which is the code after the loop, when every way out of the
// loop but exceptions and returns of its own ends in it.
std::optional<Structurer::CopiedTail> Structurer::copied_tail_after_for(cfg::LoopId loop, BlockId exit) {
  if (!lift::version_row(code_.traits->minor).inlines_small_exits || exit == kNoBlock || !dead_end(exit))
    return std::nullopt;
  using Code = std::vector<std::pair<std::uint8_t, std::uint32_t>>;
  auto ends_with = [](const Code& code, const Code& end) {
    return code.size() >= end.size() && std::equal(end.begin(), end.end(), code.end() - std::ptrdiff_t(end.size()));
  };
  auto returns = [](Op op) { return op == Op::RETURN_VALUE || op == Op::RETURN_CONST; };
  const Code else_code = code_of(graph_.instructions(exit));
  const bool else_returns = returns(graph_.last_instruction(exit).op());
  std::optional<Code> tail;
  for (std::uint32_t e : loops_.exits(graph_, loop)) {
    const BlockId to = graph_.edge(e).to;
    if (graph_.edge(e).kind == EdgeKind::Exception || to == exit) continue;
    if (!dead_end(to)) return std::nullopt;
    if (!returns(graph_.last_instruction(to).op())) continue;  // a `raise` of its own
    const auto real = real_instructions(graph_.instructions(to));
    const Code mine = code_of(graph_.instructions(to));
    // What follows the break's pop of the iterator: the else's end when it
    // returns too, else what follows the last POP_TOP. (A `return` written
    // in the loop computes its value before it pops the iterator.)
    std::size_t k = 0;
    if (else_returns) {
      while (k < mine.size() && k < else_code.size() && mine[mine.size() - 1 - k] == else_code[else_code.size() - 1 - k])
        ++k;
    } else {
      while (k < real.size() && real[real.size() - 1 - k]->op() != Op::POP_TOP) ++k;
    }
    if (k == 0 || k >= mine.size() || real[mine.size() - 1 - k]->op() != Op::POP_TOP) continue;
    Code mine_tail(mine.end() - std::ptrdiff_t(k), mine.end());
    if (tail && *tail != mine_tail) return std::nullopt;
    tail = std::move(mine_tail);
  }
  if (!tail || tail->size() > 4) return std::nullopt;
  // The tail's statements, lifted from the copy in a break (it needs
  // nothing from the stack).
  for (std::uint32_t e : loops_.exits(graph_, loop)) {
    const BlockId to = graph_.edge(e).to;
    if (graph_.edge(e).kind == EdgeKind::Exception || to == exit || !ends_with(code_of(graph_.instructions(to)), *tail))
      continue;
    auto ins = graph_.instructions(to);
    std::size_t first = ins.size(), seen = 0;
    while (first > 0 && seen < tail->size()) {
      --first;
      if (ins[first].op() != Op::NOP && ins[first].opcode != code_.traits->extended_arg) ++seen;
    }
    try {
      CopiedTail out{*tail, lifter_.run(graph_, to, {}, first, ins.size()).stmts};
      if (out.stmts.empty()) return std::nullopt;
      return out;
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// A break of `loop` whose block ends in the loop's copied tail after popping
// the iterator.
bool Structurer::ends_in_break_copy(BlockId b, const LoopContext& loop) const {
  if (loop.tail_code.empty() || !dead_end(b)) return false;
  const auto mine = code_of(graph_.instructions(b));
  const auto& tail = loop.tail_code;
  if (mine.size() <= tail.size() || !std::equal(tail.begin(), tail.end(), mine.end() - std::ptrdiff_t(tail.size())))
    return false;
  return real_instructions(graph_.instructions(b))[mine.size() - tail.size() - 1]->op() == Op::POP_TOP;
}

// A loop whose header holds only NOPs and goes on to the header of its one
// nested loop: both are one `while True:`, the nested one the body's first
// line (the end of the body jumps there; a `continue` from an except clause,
// which needs the loop's line event, to the NOP). That nested header, or kNoBlock.
BlockId Structurer::nop_head_alias(cfg::LoopId loop) const {
  const cfg::Loop& l = loops_.loop(loop);
  auto ins = graph_.instructions(l.header);
  if (l.children.size() != 1 || !std::all_of(ins.begin(), ins.end(), [](const Instruction& i) { return i.op() == Op::NOP; }))
    return kNoBlock;
  const BlockId next = fall_successor(l.header);
  if (next == kNoBlock || jump_successor(l.header) != kNoBlock) return kNoBlock;
  if (loops_.loop_of_header(next) != l.children[0]) return kNoBlock;
  // (Only when the outer loop is there for the jumps back from outside the
  // nested one's flow: code after the nested loop, or a bottom test, makes
  // them two loops.)
  // (A jump to the NOP is a `continue`, maybe after popping what a chained
  // comparison left.)
  auto continues = [&](BlockId to) {
    for (int hops = 0; hops < 8 && to < graph_.size(); ++hops) {
      if (to == l.header) return true;
      auto block = graph_.instructions(to);
      const bool moves_on = std::all_of(block.begin(), block.end(), [&](const Instruction& i) {
        return only_moves_on(i.op()) || i.op() == Op::POP_TOP;
      });
      if (!moves_on || (fall_successor(to) != kNoBlock && jump_successor(to) != kNoBlock)) return false;
      to = normal_successor(to);
    }
    return false;
  };
  for (std::uint32_t e : loops_.exits(graph_, l.children[0]))
    if (const BlockId to = graph_.edge(e).to;
        graph_.edge(e).kind != EdgeKind::Exception && loops_.contains(loop, to) && !continues(to))
      return kNoBlock;
  return next;
}

BlockId Structurer::structure_loop(BlockId h, Seq& out) {
  cfg::LoopId loop = loops_.loop_of_header(h);
  const Instruction& last = graph_.last_instruction(h);
  if (last.name() == "FOR_ITER") {
    mark(h);
    lift::BlockEffect eff = lifter_.run(graph_, h, out.stack);
    // A comprehension's `.0` argument already is an iterator.
    if (!eff.stack.empty() && eff.stack.back().kind == Item::Kind::Value)
      eff.stack.back().kind = Item::Kind::Iter;
    if (!eff.stmts.empty() || eff.stack.empty() || eff.stack.back().kind != Item::Kind::Iter)
      fail(h, "FOR_ITER without an iterator");
    lift::Stack stack = eff.stack;
    ast::ExprPtr iter = stack.back().expr;
    BlockId exit = jump_successor(h);
    const std::optional<CopiedTail> tail = copied_tail_after_for(loop, exit);
    BlockId follow = tail ? kNoBlock : loop_follow(loop, exit);
    auto sink = std::make_shared<lift::TargetSink>();
    lift::Stack body_stack = stack;
    Item slot = Item::of(Item::Kind::Slot);
    slot.sink = sink;
    body_stack.push_back(slot);
    context_.push_back(loop_context(h, follow, loop));
    if (tail) {
      context_.back().tail_code = tail->code;
      context_.back().tail_stmts = tail->stmts.size();
    }
    Seq body = sequence(fall_successor(h), kNoBlock, body_stack);
    context_.pop_back();
    if (!sink->target()) fail(h, "for loop without a target");
    lift::Stack exit_stack = stack;
    if (lift::version_row(code_.traits->minor).for_iter_exit_pops) exit_stack.pop_back();
    Seq orelse;  // (given the exit stack, not a copy: it is not used after)
    if (exit != follow) orelse = sequence(exit, follow, std::move(exit_stack));
    else orelse.stack = std::move(exit_stack);
    if (tail) {
      // The code after the loop once, after it; the else ends in a copy of
      // it, or leaves the frame otherwise.
      const std::size_t n = tail->stmts.size();
      if (orelse.stmts.size() >= n && unparse(ast::StmtList(orelse.stmts.end() - std::ptrdiff_t(n), orelse.stmts.end())) ==
                                          unparse(tail->stmts))
        orelse.stmts.resize(orelse.stmts.size() - n);
      out.stmts.push_back(
          ast::for_(sink->target(), iter, strip_trailing_continue(std::move(body.stmts)), std::move(orelse.stmts)));
      out.stmts.insert(out.stmts.end(), tail->stmts.begin(), tail->stmts.end());
      out.stack = std::move(orelse.stack);
      return kNoBlock;
    }
    ast::StmtPtr loop_stmt =
        ast::for_(sink->target(), iter, strip_trailing_continue(std::move(body.stmts)), std::move(orelse.stmts));
    out.stack = std::move(orelse.stack);
    if (auto comp = inlined_comprehension(*loop_stmt, out.stack, loop)) {
      out.stack.back() = Item::value(comp);
      return follow;
    }
    out.stmts.push_back(loop_stmt);
    return orelse.open ? follow : (follow);
  }
  // A test at the top that leaves the loop: `while test:`.
  if (!last.jump_target || graph_.last_instruction(h).name().find("JUMP_IF") == std::string_view::npos ||
      graph_.last_instruction(h).name().find("OR_POP") != std::string_view::npos) {
    BlockId follow = loop_follow(loop, kNoBlock);
    context_.push_back(loop_context(h, follow, loop));
    BlockId start = h;
    if (const BlockId alias = context_.back().alias; alias != kNoBlock) {
      mark(h);
      start = alias;
    }
    Seq body = sequence(start, kNoBlock, out.stack, true);
    context_.pop_back();
    out.stmts.push_back(ast::while_(ast::boolean(true), strip_trailing_continue(std::move(body.stmts))));
    return follow;
  }
  lift::BlockEffect eff = lifter_.run(graph_, h, out.stack);
  BlockId taken = jump_successor(h), fall = fall_successor(h);
  bool top_test = lift::version_row(code_.traits->minor).while_test_at_top;
  // The test at the top may be an and/or chain over several blocks
  // (`while a is None or b:`): it leaves the loop once it is taken whole.
  Cond c{nullptr, kNoBlock, kNoBlock};
  RecycledVector<BlockId> used = block_list();
  bool exits = false;
  if (eff.stmts.empty() && eff.term.kind == TK::Branch && top_test) {
    c = eff.term.jump_if ? Cond{eff.term.cond, taken, fall} : Cond{eff.term.cond, fall, taken};
    context_.push_back(loop_context(h, kNoBlock, loop));
    chain_head_ = h;
    c = collapse_into(h, c, eff.stack, used, 0);
    chain_head_ = kNoBlock;
    context_.pop_back();
    exits = loops_.contains(loop, c.t) != loops_.contains(loop, c.f);
    // Leaving through a lone jump is `if c: break` in `while True:` (a
    // `while c:` jumps straight out: conditional jumps to jumps are threaded).
    BlockId out_side = loops_.contains(loop, c.t) ? c.f : c.t;
    if (exits && is_lone_jump(out_side)) exits = false;
    if (!exits) used.clear();
  }
  if (!exits) {
    BlockId follow = loop_follow(loop, kNoBlock);
    context_.push_back(loop_context(h, follow, loop));
    Seq body = sequence(h, kNoBlock, out.stack, true);
    context_.pop_back();
    out.stmts.push_back(ast::while_(ast::boolean(true), strip_trailing_continue(std::move(body.stmts))));
    return follow;
  }
  mark(h);
  for (BlockId u : used) mark(u);
  ast::ExprPtr test = c.expr;
  BlockId body_block = c.t, exit = c.f;
  if (!loops_.contains(loop, body_block)) std::swap(body_block, exit), test = negate(test);
  BlockId follow = loop_follow(loop, exit);
  context_.push_back(loop_context(h, follow, loop));
  Seq body = sequence(body_block, kNoBlock, eff.stack);
  context_.pop_back();
  Seq orelse;  // (given the exit stack, not a copy: it is not used after)
  if (exit != follow) orelse = sequence(exit, follow, std::move(eff.stack));
  else orelse.stack = std::move(eff.stack);
  out.stmts.push_back(ast::while_(test, strip_trailing_continue(std::move(body.stmts)), std::move(orelse.stmts)));
  out.stack = std::move(orelse.stack);
  return follow;
}

}  // namespace unveil::structure

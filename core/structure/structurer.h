// Structuring (⇄ the statement half of CPython's Python/codegen.c, run
// backwards): statements from the control-flow graph. Constructs close where
// the graph says: an `if` at the immediate post-dominator of its branch (or,
// when an arm leaves the function, at the first block both arms reach), a loop
// at its exit. Values left on the stack at a merge become conditional
// expressions or and/or. Every block is emitted at most once; a graph this
// cannot express throws Error(Decode) so the driver can fall back.
#pragma once

#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "ast/stmt.h"
#include "cfg/dominators.h"
#include "cfg/graph.h"
#include "cfg/loops.h"
#include "decode/instruction.h"
#include "lift/lifter.h"
#include "support/spare.h"
#include "support/tls.h"

namespace unveil::structure {

struct CaseShape;
struct GuardOnlyCase;

class Structurer {
 public:
  // `code` must outlive the structurer.
  Structurer(const DecodedCode& code, lift::Definer& definer);
  ast::StmtList run();
  const lift::Lifter& lifter() const { return lifter_; }

 private:
  struct Seq {
    ast::StmtList stmts;
    lift::Stack stack;
    bool open = true;  // control reaches the end (the stop block)
    bool left = false;  // it ended by leaving the protected region it is in (no statement says so)
    // `finally` bodies whose normal-path copy starts at this statement index.
    std::vector<std::pair<std::size_t, ast::StmtList>> finally_copies;
  };
  struct Region {
    cfg::BlockId handler;
    cfg::BlockId exit = cfg::kNoBlock;  // where the protected body leaves normally
    std::size_t entry_depth = 0;         // stack depth when the body starts
    cfg::BlockId expected_exit = cfg::kNoBlock;
  };
  struct Clause {
    cfg::BlockId exit = cfg::kNoBlock;  // where the clause continues after POP_EXCEPT / END_FINALLY
    bool finally = false;               // 3.8: a finally body, ended by END_FINALLY
    cfg::BlockId after_try = cfg::kNoBlock;  // where the try goes on, which 3.12+ may copy into the clause
    std::size_t depth = 0;              // sequence depth of the clause's own statements
    // 3.12+, a try whose body never goes on: the code after the try exists only
    // as copies at the ends of the clauses (from instruction `tail_first` of
    // `tail_block`), lifted as `tail`.
    cfg::BlockId tail_block = cfg::kNoBlock;
    std::size_t tail_first = 0;
    ast::StmtList tail{};
  };
  // The copies of the code after a try that its clauses end with (Clause::tail).
  struct TailCopy {
    cfg::BlockId block = cfg::kNoBlock;  // the first copy
    std::size_t first = 0;
    bool same = true;  // every copy is the same code (else each was written in its clause)
    std::vector<std::pair<std::size_t, ast::StmtList>> handlers;  // clause index, its copy
  };
  enum class HandlerKind { Except, Finally, With };
  struct LoopContext {
    cfg::BlockId header;
    cfg::BlockId follow;
    cfg::LoopId loop;
    // 3.10–3.13 `while c:` with a `continue`: the test before the loop, where
    // the continue jumps (rotated_entry). kNoBlock otherwise.
    cfg::BlockId entry = cfg::kNoBlock;
    // 3.12+ `while True:` whose body starts with a line of its own (a
    // `try:`): the loop's end jumps past the header's NOP to that line, a
    // `continue` that needs the header's line to the NOP (nop_head_alias).
    cfg::BlockId alias = cfg::kNoBlock;
    // 3.12+ for loop whose code after it (a small `return`) is copied into
    // each break (after it pops the iterator) and the end of the else
    // (copied_tail_after_for): that code, and its statements.
    std::vector<std::pair<std::uint8_t, std::uint32_t>> tail_code{};
    std::size_t tail_stmts = 0;
    std::size_t regions = 0;  // protected regions open around the loop
    std::size_t clauses = 0;  // except (and 3.8 finally) clauses open around the loop
    // Where a jump is a `continue`.
    bool continues_at(cfg::BlockId b) const {
      return b == header || (entry != cfg::kNoBlock && b == entry) || (alias != cfg::kNoBlock && b == alias);
    }
  };
  struct Cond {
    ast::ExprPtr expr;
    cfg::BlockId t, f;     // where control goes when expr is true / false
    bool shared = false;   // its first block is entered from several links of a chain
  };

  // `first`: start at that instruction of `b` (a match case's body; the match marked `b`).
  Seq sequence(cfg::BlockId b, cfg::BlockId stop, lift::Stack stack, bool at_header = false, std::size_t first = 0);
  Seq sequence_raw(cfg::BlockId b, cfg::BlockId stop, lift::Stack stack, bool at_header, std::size_t first);
  // match.cpp: a match statement starting in `b` at or after instruction
  // `first`; where the code after it goes on (block kNoBlock: it never does).
  struct Resume {
    cfg::BlockId block = cfg::kNoBlock;
    std::size_t first = 0;
  };
  std::optional<Resume> structure_match(cfg::BlockId b, std::size_t first, cfg::BlockId stop, Seq& out);
  std::optional<Resume> guard_only_match(cfg::BlockId b, std::size_t first, cfg::BlockId stop, Seq& out);
  cfg::BlockId match_follow(cfg::BlockId b, const std::vector<cfg::BlockId>& arms, cfg::BlockId stop,
                            const std::vector<cfg::BlockId>& own) const;
  std::optional<Resume> match_from(cfg::BlockId b, std::size_t first, std::size_t start, CaseShape shape,
                                   cfg::BlockId stop, Seq& out, const GuardOnlyCase* pre = nullptr);
  void remove_finally_copies(Seq& seq) const;
  // Exception regions (3.11+ tables; handlers that start with PUSH_EXC_INFO).
  // The handlers around `b`, innermost first. Asked many times per block (an
  // allocation each): made once per block, kept until the structurer goes.
  const std::vector<cfg::BlockId>& handler_chain(cfg::BlockId b) const;
  bool is_try_handler(cfg::BlockId h) const;
  std::optional<cfg::BlockId> region_to_enter(cfg::BlockId b) const;
  bool leaves_region(cfg::BlockId b, std::size_t stack_depth) const;
  cfg::BlockId expected_exit(cfg::BlockId handler) const;
  bool returns_value_from_before(cfg::BlockId b) const;
  bool dead_end(cfg::BlockId b) const;
  // (`limit`: code laid out from there on does not count; by default none.)
  bool only_ends_frame(cfg::BlockId b, std::uint32_t limit = std::numeric_limits<std::uint32_t>::max(),
                       bool raising = false) const;
  bool is_lone_jump(cfg::BlockId b) const;
  bool outside_region(cfg::BlockId b, int depth) const;
  bool only_jumps(cfg::BlockId b) const;
  bool pops_then_jumps(cfg::BlockId b) const;
  bool unwinds_to_loop_edge(cfg::BlockId b) const;
  // `value_below_exit`: set when the value returned was on the stack below __exit__ through the unwinding.
  bool unwinds_then_returns(cfg::BlockId b, bool* value_below_exit = nullptr) const;
  HandlerKind handler_kind(cfg::BlockId h) const;
  lift::Stack handler_stack(cfg::BlockId protected_block, const lift::Stack& stack) const;
  cfg::BlockId structure_try(cfg::BlockId b, cfg::BlockId handler, Seq& out);
  cfg::BlockId with_suppressed_exit(cfg::BlockId b, cfg::BlockId handler, const lift::Stack& entry, Seq& out);
  void name_value(Seq& seq, std::size_t k);
  void keep_values_inside(Seq& body, const lift::Stack& entry);
  cfg::BlockId structure_except(cfg::BlockId b, cfg::BlockId handler, Seq& body, Region done, Seq& out);
  struct Join {
    cfg::BlockId block = cfg::kNoBlock;  // where the except clauses go on
    std::vector<std::size_t> clauses;    // the clauses that go on there
  };
  Seq clause_body(cfg::BlockId start, lift::Stack stack, Join& join, cfg::BlockId after_try, TailCopy& tail,
                  std::size_t handler_index);
  bool shared_final_return(cfg::BlockId b) const;
  std::optional<ast::StmtList> after_try_copied_here(cfg::BlockId b, std::size_t first);
  bool copies_block_from(cfg::BlockId b, std::size_t first, cfg::BlockId original) const;
  bool breaks_into_copy(cfg::BlockId b, cfg::BlockId follow, const lift::Stack& stack, std::size_t first = 0) const;
  std::optional<cfg::BlockId> else_end(cfg::BlockId start, cfg::BlockId handler) const;
  // `arms_follow`: if_follow of b's two successors, when already known.
  cfg::BlockId structure_if(cfg::BlockId b, lift::BlockEffect& eff, cfg::BlockId stop, Seq& out,
                            std::optional<cfg::BlockId> arms_follow = std::nullopt);
  cfg::BlockId structure_keep(cfg::BlockId b, lift::BlockEffect& eff, cfg::BlockId stop, Seq& out,
                              bool pop_in_block, std::optional<cfg::BlockId> arms_follow = std::nullopt);
  cfg::BlockId structure_loop(cfg::BlockId h, Seq& out);
  cfg::BlockId rotated_entry(cfg::LoopId loop) const;
  bool is_rotated_entry(cfg::BlockId b) const;
  cfg::BlockId nop_head_alias(cfg::LoopId loop) const;
  struct CopiedTail {
    std::vector<std::pair<std::uint8_t, std::uint32_t>> code;
    ast::StmtList stmts;
  };
  std::optional<CopiedTail> copied_tail_after_for(cfg::LoopId loop, cfg::BlockId exit);
  bool ends_in_break_copy(cfg::BlockId b, const LoopContext& loop) const;
  LoopContext loop_context(cfg::BlockId h, cfg::BlockId follow, cfg::LoopId loop) const {
    LoopContext context{h, follow, loop, rotated_entry(loop), nop_head_alias(loop)};
    context.regions = regions_.size();
    context.clauses = clauses_.size();
    return context;
  }
  struct AsyncForHead {
    cfg::BlockId anext = cfg::kNoBlock;  // the block that awaits anext(): its handler ends the loop
    cfg::BlockId body = cfg::kNoBlock;   // where the next item is on the stack
    std::vector<cfg::BlockId> blocks;    // the head's blocks, header to the await's end
  };
  std::optional<AsyncForHead> async_for_head(cfg::BlockId h) const;
  cfg::BlockId structure_async_for(cfg::BlockId h, const AsyncForHead& head, Seq& out);
  ast::ExprPtr value_region(cfg::BlockId b, const lift::Stack& stack, cfg::BlockId merge,
                            const lift::Stack& base, std::size_t& depth, std::vector<cfg::BlockId>& seen,
                            int budget);
  ast::ExprPtr value_of_effect(cfg::BlockId b, const lift::BlockEffect& eff, cfg::BlockId merge,
                               const lift::Stack& base, std::size_t& depth, std::vector<cfg::BlockId>& seen,
                               int budget);
  bool try_exit_tail_value(cfg::BlockId b, const lift::BlockEffect& eff, Seq& out);
  // (`arms_follow` gets the if_follow it computed, for structure_if when it fails.)
  bool try_value_branch(cfg::BlockId b, const lift::BlockEffect& eff, cfg::BlockId stop, Seq& out,
                        cfg::BlockId& next, std::optional<cfg::BlockId>& arms_follow);
  ast::ExprPtr inlined_comprehension(const ast::Stmt& loop, const lift::Stack& stack, cfg::LoopId id) const;
  Cond collapse(cfg::BlockId head, Cond c, const lift::Stack& stack);
  Cond collapse_unmarked(cfg::BlockId head, Cond c, const lift::Stack& stack, std::vector<cfg::BlockId>& used);
  Cond collapse_into(cfg::BlockId first, Cond c, const lift::Stack& stack, std::vector<cfg::BlockId>& used,
                     int depth);
  // (`pure` gets pure_condition(b, stack) when it was asked.)
  std::optional<Cond> compound_condition(cfg::BlockId b, const lift::Stack& stack,
                                         std::vector<cfg::BlockId>& used, int depth,
                                         std::optional<std::optional<Cond>>& pure);
  std::optional<Cond> chained_condition(cfg::BlockId head, Cond c, lift::Stack& stack);
  std::optional<Cond> chain_links(cfg::BlockId head, Cond c, lift::Stack& stack, std::vector<cfg::BlockId>& taken);
  std::optional<Cond> chained_link(cfg::BlockId b, const lift::Stack& stack, std::vector<cfg::BlockId>& used);
  bool single_entry(cfg::BlockId b) const;
  cfg::BlockId through_jumps(cfg::BlockId b) const;
  bool pops_only(cfg::BlockId b) const;
  bool joins(cfg::BlockId cleanup, cfg::BlockId target) const;
  bool same_region_as_chain(cfg::BlockId b) const;
  std::optional<Cond> pure_condition(cfg::BlockId b, const lift::Stack& stack);
  cfg::BlockId if_follow(cfg::BlockId b, cfg::BlockId t, cfg::BlockId f, cfg::BlockId stop) const;
  cfg::BlockId handler_inside(cfg::BlockId x, const std::vector<cfg::BlockId>& around) const;
  cfg::BlockId if_follow_by_search(cfg::BlockId b, cfg::BlockId t, cfg::BlockId f, cfg::BlockId stop) const;
  cfg::BlockId lone_arm_follow(cfg::BlockId t, cfg::BlockId f, cfg::BlockId stop,
                               const std::vector<cfg::BlockId>& around) const;
  bool can_merge_at(cfg::BlockId x) const;
  std::optional<bool> else_was_written(cfg::BlockId body, cfg::BlockId orelse, cfg::BlockId else_last) const;
  std::size_t loop_exit_length(std::span<const Instruction> ins) const;
  cfg::BlockId breaks_to_enclosing_head(cfg::LoopId loop, std::span<const cfg::BlockId> targets,
                                       cfg::BlockId exit) const;
  cfg::BlockId loop_follow(cfg::LoopId loop, cfg::BlockId exit) const;
  cfg::BlockId copied_return_after(cfg::LoopId loop) const;
  std::uint32_t loop_span_end(cfg::LoopId loop) const;
  bool in_current_loop(cfg::BlockId b) const;
  bool copies_block(cfg::BlockId b, cfg::BlockId original) const;
  void name_values_below(Seq& out, std::size_t keep);
  bool copies_follow(cfg::BlockId b, cfg::BlockId follow, std::size_t first = 0) const;
  bool ends_clause_by_copy(cfg::BlockId b, cfg::BlockId inside) const;
  cfg::BlockId clause_end_from(cfg::BlockId b, cfg::BlockId inside) const;
  bool breaks_to_clause_end(cfg::BlockId b, const char* why) const;
  cfg::BlockId fall_successor(cfg::BlockId b) const;
  cfg::BlockId jump_successor(cfg::BlockId b) const;
  cfg::BlockId normal_successor(cfg::BlockId b) const;
  std::size_t instruction_count(cfg::BlockId b) const;
  bool loads_none(const Instruction& i) const;
  void mark(cfg::BlockId b);
  void check_handlers() const;
  [[noreturn]] void fail(cfg::BlockId b, const std::string& what) const;

  // A visited set over the blocks for a graph walk. The walks that decide
  // where an if or a loop ends are many and each reaches few blocks: a
  // std::vector<bool> of the whole graph per walk made that quadratic. A set
  // is a stamp per block; a new walk takes a new stamp (no clearing), and
  // walks that run inside one another take different stamp rows.
  struct MarkRows {
    std::vector<std::vector<std::uint32_t>> rows;
    std::vector<std::uint32_t> stamp;  // per row: the stamp of its current walk
    std::vector<bool> busy;
  };
  class BlockMarks {
   public:
    struct Ref {
      std::uint32_t& slot;
      std::uint32_t stamp;
      operator bool() const { return slot == stamp; }
      Ref& operator=(bool v) {
        slot = v ? stamp : 0;
        return *this;
      }
    };
    BlockMarks(MarkRows& pool, std::size_t blocks);
    BlockMarks(const BlockMarks&) = delete;
    BlockMarks& operator=(const BlockMarks&) = delete;
    ~BlockMarks() { pool_.busy[row_] = false; }
    Ref operator[](cfg::BlockId b) { return Ref{pool_.rows[row_][b], pool_.stamp[row_]}; }

   private:
    MarkRows& pool_;
    std::size_t row_ = 0;
  };
  // The rows are the thread's, shared by every structurer on it (nested code
  // is structured inside its parent's walks): a pool per structurer cost a
  // few allocations per code object. A row only grows, and stamps only rise,
  // so what another graph left in a row never reads as marked.
  BlockMarks block_marks() const { return BlockMarks(per_thread<MarkRows>(), graph_.size()); }
  // A walk's work list, or the blocks a try took: storage the thread's walks
  // gave back (the list of a walk of a few blocks was one to three allocations).
  static RecycledVector<cfg::BlockId> block_list() { return SpareVectors<cfg::BlockId>::take(); }

  const DecodedCode& code_;
  cfg::Graph graph_;
  cfg::DominatorTree dom_;
  // Post-dominators, built on first use: only an if or a loop asks, and most
  // code objects have neither (building them was a tenth of a small call).
  class LazyPostDominators {
   public:
    explicit LazyPostDominators(const cfg::Graph& graph) : graph_(graph) {}
    cfg::BlockId idom(cfg::BlockId b) const { return tree().idom(b); }
    bool dominates(cfg::BlockId a, cfg::BlockId b) const { return tree().dominates(a, b); }

   private:
    const cfg::DominatorTree& tree() const {
      // Along the edges of source-level flow: not exceptions, not 3.8's
      // CALL_FINALLY into a finally body (as kFlow in structurer.cpp).
      if (!tree_) {
        std::vector<bool> loop_exits = async_for_exits(graph_);
        tree_ = cfg::DominatorTree::post_dominators(graph_, cfg::EdgeFilter::normal().without(cfg::EdgeKind::Call),
                                                    loop_exits.empty() ? nullptr : &loop_exits);
      }
      return *tree_;
    }
    // By edge index: the exception edges into END_ASYNC_FOR, where an async
    // for ends; empty (no allocation) when there are none.
    static std::vector<bool> async_for_exits(const cfg::Graph& graph);
    const cfg::Graph& graph_;
    mutable std::optional<cfg::DominatorTree> tree_;
  };
  LazyPostDominators pdom_;
  cfg::LoopForest loops_;
  RecycledVector<std::uint32_t> rpo_index_;
  std::vector<cfg::BlockId> unreachable_jumps_;  // unreachable blocks that end in a jump
  lift::Lifter lifter_;
  std::vector<LoopContext> context_;
  std::vector<Region> regions_;
  // regions_.size() when each finally body run on the exception path began
  // (3.9+): it goes on only by re-raising, so leaving a region there to
  // end the frame is a `return`, not the end of that region's body.
  std::vector<std::size_t> raising_finally_;
  std::vector<Clause> clauses_;
  std::vector<cfg::BlockId> used_handlers_;
  RecycledVector<bool> emitted_;
  mutable std::vector<std::optional<std::vector<cfg::BlockId>>> handler_chains_;  // by block (handler_chain)
  std::size_t steps_ = 0;
  std::size_t depth_ = 0;
  cfg::BlockId last_marked_ = cfg::kNoBlock;  // the latest block (in layout) marked since it was reset
  cfg::BlockId chain_head_ = cfg::kNoBlock;  // the first block of the and/or chain being collapsed
};

}  // namespace unveil::structure

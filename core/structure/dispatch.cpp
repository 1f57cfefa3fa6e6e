#include "structure/dispatch.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ast/build.h"
#include "ast/rewrite.h"
#include "cfg/flow.h"
#include "cfg/graph.h"
#include "decode/argument.h"
#include "lift/operators.h"
#include "lift/version_table.h"
#include "support/error.h"

namespace unveil::structure {

namespace {

using cfg::BlockId;
using cfg::EdgeFilter;
using cfg::EdgeKind;
using cfg::kNoBlock;
using lift::Item;
using TK = lift::Terminator::Kind;

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorKind::Decode, "dispatch: " + what); }

// Every name the code and the code nested in it use: the state machine's own
// variables must not be one of them (nor shadow a name a closure reads).
void collect_names(const CodeObject& c, std::set<std::string>& out, int depth = 0) {
  if (depth > 200) refuse("code objects nested too deeply");
  for (const auto* list : {&c.names, &c.varnames, &c.cellvars, &c.freevars, &c.localsplusnames})
    out.insert(list->begin(), list->end());
  for (const ObjectRef& k : c.consts)
    if (auto* cv = k ? k->as<CodeValue>() : nullptr; cv && cv->code) collect_names(*cv->code, out, depth + 1);
}

// A handler no source construct wrote that the state machine keeps as it is:
// 3.12+ generators turn a StopIteration escaping the body into RuntimeError,
// and so does the compiler again for the rebuilt generator.
bool implicit_stop_iteration_handler(const cfg::Graph& g, BlockId h) {
  for (const Instruction& ins : g.instructions(h)) {
    if (!ins.info || ins.op() == Op::NOP || ins.name() == "EXTENDED_ARG") continue;
    return ins.name() == "CALL_INTRINSIC_1" &&
           resolve_argument(g.code(), ins).text == "INTRINSIC_STOPITERATION_ERROR";
  }
  return false;
}

// Nodes that evaluate something (names and constants read nothing that a
// second read could change here: stack values are spilled after the block's
// statements).
bool evaluates(const ast::ExprPtr& e) { return !e->is<ast::Name>() && !e->is<ast::Constant>(); }

class Dispatcher {
 public:
  Dispatcher(const DecodedCode& code, lift::Lifter& lifter)
      : code_(code), graph_(cfg::build_graph(code)), lifter_(lifter),
        row_(lift::version_row(code.traits->minor)) {
    std::set<std::string> taken;
    collect_names(*code.code, taken);
    // Builtins the lowering calls must be the builtins: not a variable of
    // this function or one around it. (A module that rebinds them globally
    // is not seen from here.)
    const CodeObject& c = *code.code;
    bool handles = false;  // exception regions or with: the except clauses, type(), isinstance()...
    for (const cfg::Block& b : graph_.blocks()) handles = handles || (b.reachable && b.handler);
    for (const Instruction& ins : code.instructions) {
      if (!ins.info) continue;
      saves_locals_ = saves_locals_ || ins.op() == Op::LOAD_FAST_AND_CLEAR;
      handles = handles || ins.op() == Op::BEFORE_WITH || ins.op() == Op::SETUP_WITH ||
                ins.op() == Op::BEFORE_ASYNC_WITH;
    }
    std::vector<const char*> builtins{"next", "iter", "StopIteration"};
    if (handles) builtins.insert(builtins.end(), {"isinstance", "issubclass", "type", "BaseException"});
    if (saves_locals_) builtins.insert(builtins.end(), {"NameError", "object"});
    for (const char* b : builtins)
      for (const auto* list : {&c.varnames, &c.cellvars, &c.freevars})
        if (std::find(list->begin(), list->end(), b) != list->end())
          refuse(std::string("the code has a variable named ") + b);
    auto free = [&](std::string n) {
      while (taken.count(n)) n += "_";
      return n;
    };
    state_ = free("_state");
    // Slot and caught-exception names are prefix + index: no name may start
    // so and go on with a digit.
    auto free_prefix = [&](std::string prefix) {
      for (bool clash = true; clash;) {
        clash = false;
        for (const std::string& n : taken)
          if (n.size() > prefix.size() && n.starts_with(prefix) &&
              std::isdigit(static_cast<unsigned char>(n[prefix.size()])))
            clash = true;
        if (clash) prefix += "_";
      }
      return prefix;
    };
    slot_prefix_ = free_prefix("_s");
    caught_prefix_ = free_prefix("_e");
    cond_ = free(slot_prefix_ + "c");
    pending_ = free("_pending");
    pending_context_ = free("_pending_context");
    pending_traceback_ = free("_pending_traceback");
    unbound_ = free("_unbound");
    stack_limit_ = std::size_t(std::max(0, code.code->stacksize)) + 16;
  }

  ast::StmtList run(std::string_view reason) {
    state_of(graph_.entry(), 0, "", 0);
    for (std::size_t k = 0; k < states_.size(); ++k) bodies_.push_back(lower(k));  // lowering adds states
    thread_forwarding_states();
    std::string why(reason);
    for (char& c : why)
      if (c == '\n' || c == '\r') c = ' ';
    ast::StmtList out;
    out.push_back(ast::comment("unveil: control flow rebuilt as a state machine (" + why + ")"));
    if (saves_locals_) out.push_back(ast::assign(ast::name(unbound_, ast::ExprContext::Store), ast::call(ast::name("object"))));
    out.push_back(set_state(forward_[0]));
    out.push_back(level_loop(0));
    check_markers(out);
    return out;
  }

 private:
  // What the machine's except clause does with an exception a state raised.
  struct Catch {
    std::size_t to = 0;    // the state it sets
    std::size_t slot = 0;  // the first slot the exception goes to
    bool triple = false;   // (traceback, value, type) (≤3.10) rather than the exception alone
    // The handler is outside the clauses this state runs in (≤3.10 unwinds
    // them on the way): leave this clause with the exception pending.
    bool escape = false;
    // The pending exception was raised again to get here: give it back the
    // context and traceback it had.
    bool restore = false;
    auto key() const { return std::tuple(to, slot, triple, escape, restore); }
  };

  struct State {
    BlockId block;
    std::size_t first;  // instruction to start at (past a for loop's END_FOR)
    // The stack on entry, a letter a slot: 'v' a value in its spill
    // variable; holding nothing and pushed again as they are: 'n' the NULL
    // of a call (3.11+ and a method call's marker), 'p' the exception an
    // except clause replaced (which only POP_EXCEPT reads: one slot, three
    // on the block-stack versions), 'f' the NULL that 3.8's BEGIN_FINALLY
    // pushes, a letter from kReturnLetter up a 3.8 return address, 'm' any
    // other marker (3.11+ lasti); and 's' a value like 'v' that is a local
    // an inlined comprehension saved (see saves_locals_).
    std::string shape;
    // How many except clauses are running (an exception pushed as handled
    // and not yet popped): the state runs inside that many `except` clauses
    // of the machine, so that sys.exc_info(), bare `raise` and implicit
    // chaining see the exception the bytecode is handling.
    int level = 0;
    // Where an exception raised in the state goes, if anywhere.
    std::optional<Catch> handler;
    // A state no block is behind (block == kNoBlock): its body is made with it.
    std::optional<ast::StmtList> made;
  };

  const DecodedCode& code_;
  cfg::Graph graph_;
  lift::Lifter& lifter_;
  const lift::VersionRow& row_;
  std::string state_, slot_prefix_, caught_prefix_, cond_, pending_, pending_context_, pending_traceback_;
  // The expression of a 'p' slot's marker: it tells the replaced exception
  // from other markers when a stack is read back into a shape.
  ast::ExprPtr replaced_ = ast::name("<replaced exception>");
  ast::ExprPtr finally_null_ = ast::name("<BEGIN_FINALLY>");
  // 3.12+ inlined comprehensions save the locals they reuse
  // (LOAD_FAST_AND_CLEAR) and put them back, unbound if they were: a saved
  // value is a slot letter 's', held by a slot variable read through one of
  // these names; an unbound local is saved as unbound_.
  bool saves_locals_ = false;
  std::string unbound_;
  std::set<const ast::Expr*> saved_reads_;
  std::vector<ast::ExprPtr> saved_keep_;  // (keeps the nodes those pointers name alive)
  // 3.8 return addresses (CALL_FINALLY): a slot letter kReturnLetter + k is
  // the address of return_sites_[k], the block after the call, held by the
  // marker return_markers_[k].
  static constexpr unsigned char kReturnLetter = 0x80;
  std::vector<BlockId> return_sites_;
  std::vector<ast::ExprPtr> return_markers_;
  // Escape states, by (handler catch's target, level).
  std::map<std::pair<std::size_t, int>, std::size_t> escapes_;
  std::vector<State> states_;
  std::vector<ast::StmtList> bodies_;  // per state, its lowered statements
  std::vector<std::size_t> forward_;   // per state, the state it stands for (itself, or where it only goes on to)
  // States by where they start and the stack they start with: a block
  // entered with two stacks is two states (3.8 runs a finally body with
  // BEGIN_FINALLY's NULL on the normal path and an exception on the other).
  std::map<std::tuple<BlockId, std::size_t, std::string>, std::size_t> index_;
  static constexpr std::size_t kMaxStacksPerBlock = 64;
  std::map<std::pair<BlockId, std::size_t>, std::size_t> stacks_at_;
  // Deeper than the code says its stack gets (with room for 3.8's finally
  // entries, which the compiler counts as six and the machine as one).
  std::size_t stack_limit_ = 0;

  std::string shape_of(const lift::Stack& stack) const {
    std::string out;
    for (const Item& i : stack) {
      char letter = i.kind == Item::Kind::Null     ? 'n'
                    : i.kind != Item::Kind::Marker ? (i.kind == Item::Kind::Value && saved_reads_.count(i.expr.get()) ? 's' : 'v')
                    : i.expr == replaced_          ? 'p'
                    : i.expr == finally_null_      ? 'f'
                                                   : 'm';
      for (std::size_t k = 0; letter == 'm' && k < return_markers_.size(); ++k)
        if (i.expr == return_markers_[k]) letter = char(kReturnLetter + k);
      out += letter;
    }
    return out;
  }
  std::string slot(std::size_t k) const { return slot_prefix_ + std::to_string(k); }
  bool is_slot(std::string_view n) const {
    return n.size() > slot_prefix_.size() && n.starts_with(slot_prefix_) &&
           std::all_of(n.begin() + std::ptrdiff_t(slot_prefix_.size()), n.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  }

  // The state that starts block `b` at instruction `first` with a stack of
  // `shape`, inside `level` except clauses.
  std::size_t state_of(BlockId b, std::size_t first, const std::string& shape, int level) {
    if (b == kNoBlock) refuse("control flows past the end");
    if (first >= graph_.instructions(b).size()) return state_of(fall(b), 0, shape, level);
    auto [it, added] = index_.try_emplace({b, first, shape}, states_.size());
    if (added) {
      // A block is entered with a few stacks (a finally body: normally, per
      // return site, and with an exception), not with one that grows each
      // time round a loop (bytecode no compiler wrote).
      if (++stacks_at_[{b, first}] > kMaxStacksPerBlock || shape.size() > stack_limit_)
        refuse("a block entered with ever different stacks");
      states_.push_back({b, first, shape, level, std::nullopt, std::nullopt});
      if (states_.size() > 100'000) refuse("too many states");
    } else if (states_[it->second].level != level) {
      refuse("a block entered inside different numbers of except clauses");
    }
    return it->second;
  }

  BlockId successor(BlockId b, EdgeFilter filter) const {
    BlockId out = kNoBlock;
    graph_.for_each_successor(b, filter, [&](const cfg::Edge& e) { out = e.to; });
    return out;
  }
  BlockId fall(BlockId b) const { return successor(b, EdgeFilter().with(EdgeKind::FallThrough)); }
  BlockId jump(BlockId b) const { return successor(b, EdgeFilter().with(EdgeKind::Jump).with(EdgeKind::Branch)); }
  BlockId next(BlockId b) const {
    BlockId j = jump(b);
    return j != kNoBlock ? j : fall(b);
  }

  // The state where a for loop over block `b`'s FOR_ITER goes on when the
  // iterator is exhausted: 3.12+ jumps past the loop's END_FOR (and 3.13's POP_TOP).
  std::size_t exhausted_state(BlockId exit, const std::string& shape, int level) {
    if (exit == kNoBlock) refuse("FOR_ITER without an exit");
    auto ins = graph_.instructions(exit);
    std::size_t skip = 0;
    while (skip < ins.size() && ins[skip].info && ins[skip].name() == "EXTENDED_ARG") ++skip;
    if (skip < ins.size() && ins[skip].info && ins[skip].op() == Op::END_FOR) {
      ++skip;
      if (row_.end_for_then_pop_top && skip < ins.size() && ins[skip].info && ins[skip].op() == Op::POP_TOP) ++skip;
    } else {
      skip = 0;
    }
    if (skip > 0 && skip >= ins.size()) {
      // The block is only the loop's exit: go on where it falls.
      if (graph_.last_instruction(exit).jump_target) refuse("a loop exit that jumps");
      return state_of(fall(exit), 0, shape, level);
    }
    return state_of(exit, skip, shape, level);
  }

  static ast::StmtPtr store(const std::string& target, ast::ExprPtr value) {
    return ast::assign(ast::name(target, ast::ExprContext::Store), std::move(value));
  }
  ast::StmtPtr store_slot(std::size_t k, ast::ExprPtr value) const { return store(slot(k), std::move(value)); }
  ast::StmtPtr set_state(std::size_t state) const { return store(state_, ast::integer(std::int64_t(state))); }
  ast::StmtList go_to(std::size_t state) const { return {set_state(state), ast::continue_()}; }

  // Assigns the stack's values to their slot variables (those not already
  // there), evaluated in stack order, then `cond` if given. Returns the
  // expression to test `cond` by afterwards.
  ast::ExprPtr spill(const lift::Stack& stack, const ast::ExprPtr& cond, ast::StmtList& out) const {
    struct Spill {
      std::size_t slot;
      ast::ExprPtr value;  // what is assigned
      const ast::Expr* item;  // the stack item's own expression (copies share it)
    };
    std::vector<Spill> spills;
    for (std::size_t k = 0; k < stack.size(); ++k) {
      const Item& item = stack[k];
      if (item.kind == Item::Kind::Null || item.kind == Item::Kind::Marker) continue;
      if (item.kind != Item::Kind::Value && item.kind != Item::Kind::Iter)
        refuse("a stack item with no value form lives across blocks");
      if (item.sink) refuse("a pending store lives across blocks");
      ast::ExprPtr e = lifter_.expression_of(item);
      if (!e) refuse("a stack item with no value form lives across blocks");
      if (auto* n = e->as<ast::Name>(); n && n->id == slot(k) && item.kind == Item::Kind::Value) continue;
      spills.push_back({k, e, item.kind == Item::Kind::Value ? item.expr.get() : nullptr});
    }
    if (spills.empty()) return cond;
    // One assignment after another, each later value reading the slots of
    // the values it shares with earlier ones (a DUP_TOP'd `o.a` stays one
    // evaluation): possible unless a value reads a slot's old content that
    // an earlier assignment replaced.
    // (A subtree that will be read from a slot is not evaluated: names in it do not count.)
    auto reads_replaced = [&](const ast::ExprPtr& e, std::size_t before) {
      bool found = false;
      ast::map_expr(e, [&](const ast::ExprPtr& x) -> ast::ExprPtr {
        if (evaluates(x))
          for (std::size_t j = 0; j < before; ++j)
            if (x.get() == spills[j].value.get() || x.get() == spills[j].item) return x;
        if (auto* n = x->as<ast::Name>())
          for (std::size_t j = 0; j < before; ++j) found = found || n->id == slot(spills[j].slot);
        return nullptr;
      });
      return found;
    };
    bool sequential = true;
    for (std::size_t k = 0; k < spills.size() && sequential; ++k) sequential = !reads_replaced(spills[k].value, k);
    ast::ExprList values;
    ast::ExprPtr test = cond;
    if (sequential) {
      auto earlier = [&](std::size_t before) {
        return [&, before](const ast::ExprPtr& x) -> ast::ExprPtr {
          if (!evaluates(x)) return nullptr;
          for (std::size_t j = 0; j < before; ++j)
            if (x.get() == spills[j].value.get() || x.get() == spills[j].item) return ast::name(slot(spills[j].slot));
          return nullptr;
        };
      };
      for (std::size_t k = 0; k < spills.size(); ++k) values.push_back(ast::map_expr(spills[k].value, earlier(k)));
      if (cond) {
        test = ast::map_expr(cond, earlier(spills.size()));
        if (reads_replaced(cond, spills.size())) sequential = false;
      }
    }
    if (!sequential) {
      // All evaluated before any is assigned; the test too, into its own variable.
      values.clear();
      for (const Spill& sp : spills) values.push_back(sp.value);
      test = cond;
      for (const Spill& sp : spills)
        if (cond && sp.item == cond.get()) test = ast::name(slot(sp.slot));
    }
    // A computation shared by two of them would run twice.
    std::set<const ast::Expr*> seen;
    ast::ExprList checked = values;
    if (test) checked.push_back(test);
    for (const ast::ExprPtr& v : checked) {
      std::set<const ast::Expr*> mine;
      ast::visit_expr(v, [&](const ast::ExprPtr& x) {
        if (evaluates(x)) mine.insert(x.get());
      });
      for (const ast::Expr* x : mine)
        if (!seen.insert(x).second) refuse("a value shared by two stack slots");
    }
    if (sequential) {
      for (std::size_t k = 0; k < spills.size(); ++k)
        out.push_back(store_slot(spills[k].slot, values[k]));
      return test;
    }
    ast::ExprList targets;
    for (const Spill& sp : spills) targets.push_back(ast::name(slot(sp.slot), ast::ExprContext::Store));
    // (The test reads what the block saw, not the slots as just assigned.)
    if (test == cond && cond && !cond->is<ast::Constant>()) {
      targets.push_back(ast::name(cond_, ast::ExprContext::Store));
      values.push_back(cond);
      test = ast::name(cond_);
    }
    if (targets.size() == 1)
      out.push_back(ast::assign(targets[0], values[0]));
    else
      out.push_back(ast::assign(ast::tuple(std::move(targets), ast::ExprContext::Store), ast::tuple(std::move(values))));
    return test;
  }

  // The stack a state of `shape` starts with: values in their slot variables.
  lift::Stack entry_stack(const std::string& shape) {
    lift::Stack entry;
    for (std::size_t k = 0; k < shape.size(); ++k)
      entry.push_back(shape[k] == 'n'   ? Item::of(Item::Kind::Null)
                      : shape[k] == 'm' ? Item::of(Item::Kind::Marker)
                      : shape[k] == 'p' ? Item::of(Item::Kind::Marker, replaced_)
                      : shape[k] == 'f' ? Item::of(Item::Kind::Marker, finally_null_)
                      : is_return(shape[k])
                          ? Item::of(Item::Kind::Marker, return_markers_[std::size_t(shape[k] - char(kReturnLetter))])
                      : shape[k] == 's' ? Item::value(saved_read(k))
                                        : Item::value(ast::name(slot(k))));
    return entry;
  }
  ast::ExprPtr saved_read(std::size_t k) {
    ast::ExprPtr read = ast::name(slot(k));
    saved_reads_.insert(read.get());
    saved_keep_.push_back(read);
    return read;
  }

  // Where an exception raised in state `k` goes. The stack is cut back to
  // the handler's depth; then 3.11+ pushes the raising offset (lasti, which
  // only RERAISE reads: it holds nothing here) and the exception, and a
  // handler that starts with PUSH_EXC_INFO begins an except clause (its state
  // starts after it, one level deeper, the replaced exception under the
  // caught one). ≤3.10 first unwinds the except clauses the handler is
  // outside of, and every handler begins one: the replaced exception and
  // the caught one are pushed as (traceback, value, type) triples.
  void enter_handler(std::size_t k) {
    const State st = states_[k];
    const auto& h = graph_.block(st.block).handler;
    if (!h || implicit_stop_iteration_handler(graph_, h->block)) return;
    // Only an instruction that can raise goes to the handler. (A cleanup's
    // `COPY 3; POP_EXCEPT` is covered by the handler outside its clause,
    // which it never reaches from inside.)
    auto ins = graph_.instructions(st.block);
    bool raises = false;
    for (std::size_t i = st.first; i < ins.size() && !raises; ++i) {
      if (ins[i].info && ins[i].op() == Op::POP_EXCEPT) break;  // the state ends there
      raises = can_raise(ins[i]);
    }
    if (!raises) return;
    const bool triple = h->pushed == cfg::kBlockStackHandlerPushes;
    if (!triple && h->pushed != 1u + (h->lasti ? 1u : 0u)) refuse("a handler that pushes something unknown");
    std::string kept = st.shape.substr(0, triple ? kept_below_setup(st.shape, *h) : kept_slots(st.shape, h->depth));
    // The clauses running where the handler is: one replaced exception each below it.
    const int outside = int(std::count(kept.begin(), kept.end(), 'p')) / row_.pop_except_pops;
    if (outside > st.level) refuse("a handler inside more except clauses than the code it covers");
    Catch c;
    if (triple) {
      c.triple = true;
      c.slot = kept.size() + 3;
      c.to = state_of(h->block, 0, kept + "pppvvv", outside + 1);
    } else {
      kept += h->lasti ? "m" : "";
      auto start = graph_.instructions(h->block);
      const bool clause = !start.empty() && start[0].info && start[0].op() == Op::PUSH_EXC_INFO;
      c.slot = clause ? kept.size() + 1 : kept.size();
      c.to = clause ? state_of(h->block, 1, kept + "pv", outside + 1) : state_of(h->block, 0, kept + "v", outside);
    }
    // (3.11+ enters a handler without restoring the exception: the clauses
    // in between end only by POP_EXCEPT, which the compiler always puts
    // first. Bytecode that skips it has no form here.)
    if (outside < st.level && !triple) refuse("a handler outside the except clauses of the code it covers");
    if (outside < st.level) {  // ≤3.10: the clauses in between end first
      Catch leave;
      leave.escape = true;
      leave.to = escape_state(c, outside, st.level - 1);
      states_[k].handler = leave;
    } else {
      states_[k].handler = c;
    }
  }

  // The state that carries a pending exception out of the clause of `level`
  // towards the handler `c` at level `outside`: one clause out at a time,
  // and there raised again for that level's except clause to catch.
  std::size_t escape_state(const Catch& c, int outside, int level) {
    auto [it, added] = escapes_.try_emplace({c.to, level}, states_.size());
    if (!added) return it->second;
    const std::size_t k = it->second;
    states_.push_back({kNoBlock, 0, "", level, std::nullopt, ast::StmtList{}});
    if (level > outside) {
      const std::size_t next = escape_state(c, outside, level - 1);
      states_[k].made = ast::StmtList{set_state(next), ast::break_()};
    } else {
      Catch back = c;
      back.restore = true;
      states_[k].handler = back;
      states_[k].made = ast::StmtList{ast::raise_(ast::name(pending_))};
    }
    return k;
  }

  // How many slots of `shape` a handler that cuts the stack back to `depth`
  // keeps. Depths count as CPython's compiler does, where a 3.8 finally body
  // runs six values up however it was entered (the exception's two triples,
  // or BEGIN_FINALLY's NULL or CALL_FINALLY's return address counted as six).
  static std::size_t kept_slots(const std::string& shape, std::uint32_t depth) {
    auto k = counted_slots(shape, depth);
    if (!k) refuse("a handler deeper than the stack it protects");
    return *k;
  }
  static std::optional<std::size_t> counted_slots(const std::string& shape, std::uint32_t depth) {
    std::uint32_t counted = 0;
    std::size_t k = 0;
    while (k < shape.size() && counted < depth) {
      const char letter = shape[k++];
      counted += letter == 'f' || is_return(letter) ? cfg::kBlockStackHandlerPushes : 1;
    }
    if (counted != depth) return std::nullopt;
    return k;
  }

  // ≤3.10: the stack a SETUP_* instruction left below its handler, per
  // handler block, as the states that ran it saw it. The graph's one depth
  // per handler is the compiler's count, which a 3.8 finally body entered
  // by CALL_FINALLY with a returned value under it does not match.
  std::map<BlockId, std::vector<std::string>> setups_;
  void record_setup(const Instruction& at, const std::string& kept) {
    const auto h = at.jump_target ? graph_.block_at(*at.jump_target) : std::nullopt;
    if (!h) refuse("a SETUP without its handler");
    auto& seen = setups_[*h];
    if (std::find(seen.begin(), seen.end(), kept) == seen.end()) seen.push_back(kept);
  }
  std::size_t kept_below_setup(const std::string& shape, const cfg::Handler& h) const {
    const auto counted = counted_slots(shape, h.depth);
    std::vector<std::size_t> seen;
    if (auto it = setups_.find(h.block); it != setups_.end())
      for (const std::string& kept : it->second)
        if (shape.starts_with(kept)) seen.push_back(kept.size());
    if (seen.empty() && counted) return *counted;
    if (counted && std::find(seen.begin(), seen.end(), *counted) != seen.end()) return *counted;
    if (seen.size() == 1) return seen[0];
    refuse("a handler deeper than the stack it protects");
  }

  // A shape for a message: return addresses as 'r'.
  static std::string printable(std::string shape) {
    for (char& c : shape)
      if (is_return(c)) c = 'r';
    return shape;
  }

  static bool is_return(char letter) { return static_cast<unsigned char>(letter) >= kReturnLetter; }
  char return_letter(BlockId site) {
    auto it = std::find(return_sites_.begin(), return_sites_.end(), site);
    if (it != return_sites_.end()) return char(kReturnLetter + (it - return_sites_.begin()));
    if (return_sites_.size() >= 0x7f) refuse("too many finally subroutine calls");
    return_sites_.push_back(site);
    return_markers_.push_back(ast::name("<return to block " + std::to_string(site) + ">"));
    return char(kReturnLetter + return_sites_.size() - 1);
  }

  // A stack whose top is an exception as a handler received it (≤3.10):
  // the replaced exception's triple, then the caught one's.
  static bool ends_in_caught_triple(const std::string& shape) {
    return shape.size() >= 6 && shape.ends_with("pppvvv");
  }

  // Instructions that only move values the stack already holds (or constants)
  // and cannot raise. (Everything else may, which is the safe side.)
  static bool can_raise(const Instruction& ins) {
    if (!ins.info) return false;
    switch (ins.op()) {
      case Op::NOP:
      case Op::COPY:
      case Op::SWAP:
      case Op::POP_TOP:
      case Op::PUSH_NULL:
      case Op::LOAD_CONST:
      case Op::STORE_FAST:
      case Op::POP_EXCEPT:
      case Op::PUSH_EXC_INFO:
      case Op::SETUP_FINALLY:
      case Op::POP_BLOCK:
      case Op::BEGIN_FINALLY:
      case Op::JUMP_FORWARD:
      case Op::JUMP_BACKWARD_NO_INTERRUPT:
        return false;
      default:
        return ins.name() != "EXTENDED_ARG" && ins.name() != "CACHE";
    }
  }

  // Instructions the lifter gives a structured meaning (a with's __exit__,
  // an except clause's bounds) that the state machine lowers itself.
  static bool lowered_here(const Instruction& ins) {
    if (!ins.info) return false;
    switch (ins.op()) {
      case Op::LIST_APPEND:
      case Op::SET_ADD:
      case Op::MAP_ADD:
      case Op::LOAD_FAST_AND_CLEAR:
      case Op::PUSH_EXC_INFO:
      case Op::POP_EXCEPT:
      case Op::BEFORE_WITH:
      case Op::SETUP_WITH:
      case Op::BEFORE_ASYNC_WITH:
      case Op::SETUP_ASYNC_WITH:
      case Op::SETUP_FINALLY:
      case Op::WITH_EXCEPT_START:
      case Op::CHECK_EG_MATCH:
      case Op::BEGIN_FINALLY:
      case Op::END_FINALLY:
      case Op::WITH_CLEANUP_START:
      case Op::CALL_FINALLY:
      case Op::POP_FINALLY:
        return true;
      default:
        return false;
    }
  }

  ast::StmtList lower(std::size_t k) {
    if (states_[k].made) return std::move(*states_[k].made);
    enter_handler(k);
    const State st = states_[k];  // (a copy: lowering adds states)
    const BlockId b = st.block;
    auto ins = graph_.instructions(b);
    const std::size_t size = ins.size();
    lift::Stack stack = entry_stack(st.shape);
    ast::StmtList out;
    for (std::size_t pos = st.first;;) {
      std::size_t end = pos;
      while (end < size && !lowered_here(ins[end])) ++end;
      if (end > pos || end == size) {
        lift::BlockEffect eff = pos == 0 && end == size ? lifter_.run(graph_, b, std::move(stack))
                                                        : lifter_.run(graph_, b, std::move(stack), pos, end);
        if (eff.pop_except || eff.end_finally) refuse("exception handling code");
        // A popped slot variable is left as `_s0` by the lifter: reading it does nothing.
        ast::StmtList part;
        for (ast::StmtPtr& s : eff.stmts) {
          auto* e = s->as<ast::ExprStmt>();
          auto* n = e ? e->value->as<ast::Name>() : nullptr;
          if (!(n && is_slot(n->id))) part.push_back(std::move(s));
        }
        part = keep_in_place_operators(b, pos, end, std::move(part));
        for (ast::StmtPtr& s : saves_locals_ ? restore_saved_locals(std::move(part)) : std::move(part))
          out.push_back(std::move(s));
        if (end == size) {
          finish(st, std::move(eff), out);
          return out;
        }
        stack = std::move(eff.stack);
      }
      // The lowered instruction reads slot variables: everything is spilled.
      spill(stack, nullptr, out);
      Point p{st, ins, end, end + 1, shape_of(stack), {}, out};
      p.stack = entry_stack(p.shape);
      if (lower_instruction(p) == Step::Ended) return out;
      stack = std::move(p.stack);
      pos = p.next;
      if (pos >= size) {  // the lowered instruction ends the block: go on where it falls
        spill(stack, nullptr, out);
        for (auto& s : go_to(state_of(fall(b), 0, shape_of(stack), st.level))) out.push_back(std::move(s));
        return out;
      }
    }
  }

  // --- instructions the machine lowers itself --------------------------------------------

  // Where lowering stands in a state at an instruction it lowers itself,
  // with the stack all in slots.
  struct Point {
    const State& st;
    std::span<const Instruction> ins;
    std::size_t at;      // the instruction
    std::size_t next;    // where the state goes on, past what was lowered
    std::string shape;   // the stack's slots
    lift::Stack stack;   // the stack the lifter goes on with (the slots, and maybe a value pushed over them)
    ast::StmtList& out;
    const Instruction& ins_at() const { return ins[at]; }
  };
  enum class Step { GoOn, Ended };

  void set_shape(Point& p, std::string shape) {
    p.shape = std::move(shape);
    p.stack = entry_stack(p.shape);
  }
  // Leave the clause of the state's level for `state` one level out.
  Step leave_clause(Point& p, std::size_t state) {
    p.out.push_back(set_state(state));
    p.out.push_back(ast::break_());
    return Step::Ended;
  }
  Step jump_to(Point& p, std::size_t state) {
    for (auto& s : go_to(state)) p.out.push_back(std::move(s));
    return Step::Ended;
  }

  Step lower_instruction(Point& p) {
    switch (p.ins_at().op()) {
      case Op::POP_EXCEPT:
        return pop_except(p);
      case Op::SETUP_FINALLY:  // ≤3.10: only the handler, which is the graph's
        record_setup(p.ins_at(), p.shape);
        return Step::GoOn;
      case Op::SETUP_ASYNC_WITH:  // (the awaited __aenter__() is above the handler's stack)
        if (p.shape.empty()) refuse("SETUP_ASYNC_WITH without __aenter__'s result");
        record_setup(p.ins_at(), p.shape.substr(0, p.shape.size() - 1));
        return Step::GoOn;
      case Op::BEFORE_WITH:
      case Op::SETUP_WITH:
      case Op::BEFORE_ASYNC_WITH:
        return enter_with(p);
      case Op::WITH_EXCEPT_START:
        return call_exit(p);
      case Op::LIST_APPEND:
      case Op::SET_ADD:
      case Op::MAP_ADD:
        return add_to_container(p);
      case Op::LOAD_FAST_AND_CLEAR:
        return save_local(p);
      case Op::BEGIN_FINALLY:  // 3.8: the finally body's normal entry
        set_shape(p, p.shape + 'f');
        return Step::GoOn;
      case Op::END_FINALLY:
        return end_finally(p);
      case Op::WITH_CLEANUP_START:
        return with_cleanup(p);
      case Op::CALL_FINALLY:
        return call_finally(p);
      case Op::POP_FINALLY:
        return pop_finally(p);
      case Op::PUSH_EXC_INFO:
        refuse("PUSH_EXC_INFO that does not start a handler");
      default:
        refuse("except* (exception groups)");
    }
  }

  // The except clause ends: leave the machine's clause (which restores the
  // exception it replaced) and go on one level out.
  Step pop_except(Point& p) {
    const std::size_t n = std::size_t(row_.pop_except_pops);
    const std::string& shape = p.shape;
    if (shape.size() < n || shape.substr(shape.size() - n) != std::string(n, 'p') || p.st.level == 0)
      refuse("POP_EXCEPT outside an except clause");
    return leave_clause(p, state_of(p.st.block, p.at + 1, shape.substr(0, shape.size() - n), p.st.level - 1));
  }

  // [mgr] -> [bound __exit__, __enter__()], both looked up on the type
  // (async: __aexit__, and __aenter__() for the await that follows).
  Step enter_with(Point& p) {
    if (p.shape.empty() || p.shape.back() != 'v') refuse("a with statement without its manager");
    const Instruction& at = p.ins_at();
    const bool async = at.op() == Op::BEFORE_ASYNC_WITH;
    const std::size_t exit = p.shape.size() - 1, mgr = exit + 1;
    auto special = [&](const char* attr) { return ast::attribute(ast::call(ast::name("type"), {ast::name(slot(mgr))}), attr); };
    p.out.push_back(store_slot(mgr, ast::name(slot(exit))));
    p.out.push_back(store_slot(
        exit, ast::call(ast::attribute(special(async ? "__aexit__" : "__exit__"), "__get__"), {ast::name(slot(mgr))})));
    p.out.push_back(store_slot(mgr, ast::call(special(async ? "__aenter__" : "__enter__"), {ast::name(slot(mgr))})));
    if (at.op() == Op::SETUP_WITH) record_setup(at, p.shape);  // (__exit__ stays under the handler)
    set_shape(p, p.shape + 'v');
    return Step::GoOn;
  }

  // __exit__(type, value, traceback) of the exception on top, pushed for
  // the test that follows.
  Step call_exit(Point& p) {
    const std::string& shape = p.shape;
    const std::size_t below = std::size_t(row_.with_exit_below);
    if (below == 0) refuse("this version's WITH_EXCEPT_START");
    if (shape.size() < below || shape[shape.size() - below] != 'v' || shape.back() != 'v')
      refuse("WITH_EXCEPT_START without __exit__ and an exception");
    ast::ExprList args;
    if (row_.exc_info_triple) {  // [.., tb, value, type]
      for (std::size_t j = 1; j <= 3; ++j) args.push_back(ast::name(slot(shape.size() - j)));
    } else {
      ast::ExprPtr exc = ast::name(slot(shape.size() - 1));
      args = {ast::call(ast::name("type"), {exc}), exc, ast::attribute(exc, "__traceback__")};
    }
    p.stack.push_back(Item::value(ast::call(ast::name(slot(shape.size() - below)), std::move(args))));
    return Step::GoOn;
  }

  // A comprehension's container, in its slot, takes the value(s) on top.
  Step add_to_container(Point& p) {
    const Instruction& at = p.ins_at();
    const std::string& shape = p.shape;
    const bool map = at.op() == Op::MAP_ADD;
    const std::size_t popped = map ? 2 : 1;
    if (shape.size() < popped + at.arg || shape.substr(shape.size() - popped) != std::string(popped, 'v') ||
        shape[shape.size() - popped - at.arg] != 'v')
      refuse("a comprehension's container is not on the stack");
    const std::size_t top = shape.size() - 1;
    ast::ExprPtr container = ast::name(slot(shape.size() - popped - at.arg));
    if (map)
      p.out.push_back(ast::assign(ast::subscript(container, ast::name(slot(top - 1)), ast::ExprContext::Store),
                                  ast::name(slot(top))));
    else
      p.out.push_back(ast::expr_stmt(
          ast::call(ast::attribute(container, at.op() == Op::LIST_APPEND ? "append" : "add"), {ast::name(slot(top))})));
    set_shape(p, shape.substr(0, shape.size() - popped));
    return Step::GoOn;
  }

  // LOAD_FAST_AND_CLEAR: save a local the comprehension reuses (unbound_ if
  // it is unbound) in a slot marked 's'.
  Step save_local(Point& p) {
    const std::string local(resolve_argument(code_, p.ins_at()).text);
    const CodeObject& c = *code_.code;
    for (const auto* list : {&c.cellvars, &c.freevars})
      if (std::find(list->begin(), list->end(), local) != list->end()) refuse("a comprehension that saves a cell");
    const std::size_t k = p.shape.size();
    ast::ExceptHandler unbound;
    unbound.type = ast::name("NameError");
    unbound.body = {store_slot(k, ast::name(unbound_))};
    p.out.push_back(ast::try_({store_slot(k, ast::name(local))}, {std::move(unbound)}));
    set_shape(p, p.shape + 's');
    return Step::GoOn;
  }

  // 3.8: the end of a finally body, as it was entered: BEGIN_FINALLY's NULL
  // goes on, an exception is raised again, a return address goes back.
  Step end_finally(Point& p) {
    std::string shape = p.shape;
    if (!shape.empty() && shape.back() == 'f') {
      shape.pop_back();
      set_shape(p, shape);
      return Step::GoOn;
    }
    if (ends_in_caught_triple(shape)) {
      p.out.push_back(ast::raise_(ast::name(slot(shape.size() - 2))));
      return Step::Ended;
    }
    if (!shape.empty() && is_return(shape.back())) {
      const BlockId site = return_sites_[std::size_t(shape.back() - char(kReturnLetter))];
      shape.pop_back();
      return jump_to(p, state_of(site, 0, shape, p.st.level));
    }
    refuse("END_FINALLY with an unknown stack");
  }

  // 3.8: WITH_CLEANUP_START, WITH_CLEANUP_FINISH and END_FINALLY, a with's
  // end. (A return or break out of the with ends in POP_FINALLY 0 instead,
  // on the normal path only; async with awaits __aexit__'s result:
  // GET_AWAITABLE, LOAD_CONST None, YIELD_FROM before the finish.)
  Step with_cleanup(Point& p) {
    auto is = [&](std::size_t i, std::string_view name) {
      return i < p.ins.size() && p.ins[i].info && p.ins[i].name() == name;
    };
    const std::size_t at = p.at;
    const bool awaits = is(at + 1, "GET_AWAITABLE") && is(at + 2, "LOAD_CONST") && is(at + 3, "YIELD_FROM");
    const std::size_t finish = at + (awaits ? 4 : 1);
    if (!is(finish, "WITH_CLEANUP_FINISH") ||
        !(is(finish + 1, "END_FINALLY") || (is(finish + 1, "POP_FINALLY") && p.ins[finish + 1].arg == 0)))
      refuse("a with's cleanup that is not WITH_CLEANUP_START, WITH_CLEANUP_FINISH, END_FINALLY");
    const bool end_finally = is(finish + 1, "END_FINALLY");
    p.next = finish + 2;
    auto awaited = [&](ast::ExprPtr call) { return awaits ? ast::await_(std::move(call)) : call; };
    const std::string& shape = p.shape;
    if (shape.size() >= 2 && shape.back() == 'f' && shape[shape.size() - 2] == 'v') {  // the normal path
      p.out.push_back(ast::expr_stmt(
          awaited(ast::call(ast::name(slot(shape.size() - 2)), {ast::none(), ast::none(), ast::none()}))));
      set_shape(p, shape.substr(0, shape.size() - 2));
      return Step::GoOn;
    }
    if (end_finally && shape.size() >= 7 && shape[shape.size() - 7] == 'v' && ends_in_caught_triple(shape) &&
        p.st.level > 0) {
      // An exception: __exit__ that returns true swallows it (and ends the
      // clause), else it is raised again.
      const std::size_t top = shape.size() - 1;
      ast::ExprPtr exit = awaited(ast::call(ast::name(slot(shape.size() - 7)),
                                            {ast::name(slot(top)), ast::name(slot(top - 1)), ast::name(slot(top - 2))}));
      const std::size_t after = state_of(p.st.block, p.next, shape.substr(0, shape.size() - 7), p.st.level - 1);
      p.out.push_back(ast::if_(exit, {set_state(after), ast::break_()}));
      p.out.push_back(ast::raise_(ast::name(slot(top - 1))));
      return Step::Ended;
    }
    refuse("a with's cleanup with an unknown stack (" + printable(shape) + ")");
  }

  // 3.8: run the finally body, which comes back by END_FINALLY.
  Step call_finally(Point& p) {
    const BlockId b = p.st.block;
    if (p.next < p.ins.size()) refuse("CALL_FINALLY that does not end its block");
    const BlockId body = successor(b, EdgeFilter().with(EdgeKind::Call));
    if (body == kNoBlock || fall(b) == kNoBlock) refuse("CALL_FINALLY without its body or return");
    return jump_to(p, state_of(body, 0, p.shape + return_letter(fall(b)), p.st.level));
  }

  // 3.8: drop what the finally body was entered with, keeping the top if asked.
  Step pop_finally(Point& p) {
    const bool keep = p.ins_at().arg != 0;
    const std::string& shape = p.shape;
    if (keep && (shape.empty() || shape.back() != 'v')) refuse("POP_FINALLY without the value to keep");
    const std::size_t top = shape.size() - 1;
    std::string base = keep ? shape.substr(0, top) : shape;
    int level = p.st.level;
    if (!base.empty() && (base.back() == 'f' || is_return(base.back()))) {
      base.pop_back();
    } else if (ends_in_caught_triple(base) && p.st.level > 0) {
      base.resize(base.size() - 6);
      --level;  // the exception's clause ends
    } else {
      refuse("POP_FINALLY with an unknown stack");
    }
    if (keep) {
      p.out.push_back(store_slot(base.size(), ast::name(slot(top))));
      base += 'v';
    }
    set_shape(p, base);
    if (level != p.st.level) return leave_clause(p, state_of(p.st.block, p.next, p.shape, level));
    return Step::GoOn;
  }

  // A local put back from where LOAD_FAST_AND_CLEAR saved it (the lifter
  // wrote `x = <saved read>`, alone or in a tuple assignment): bound again
  // to its value, or unbound again.
  ast::StmtList restore_saved_locals(ast::StmtList stmts) const {
    ast::StmtList out;
    for (ast::StmtPtr& s : stmts) {
      auto* a = s->as<ast::Assign>();
      if (!a || a->targets.size() != 1) {
        out.push_back(std::move(s));
        continue;
      }
      std::vector<std::pair<ast::ExprPtr, ast::ExprPtr>> pairs;  // target, value
      auto* tt = a->targets[0]->as<ast::Tuple>();
      auto* vt = a->value->as<ast::Tuple>();
      if (tt && vt && tt->elts.size() == vt->elts.size()) {
        for (std::size_t k = 0; k < tt->elts.size(); ++k) pairs.emplace_back(tt->elts[k], vt->elts[k]);
      } else {
        pairs.emplace_back(a->targets[0], a->value);
      }
      bool restores = false;
      for (const auto& [t, v] : pairs) restores = restores || saved_reads_.count(v.get());
      if (!restores) {
        out.push_back(std::move(s));
        continue;
      }
      // (Each value is a slot variable and each target a local: one at a time is the same.)
      for (const auto& [t, v] : pairs) {
        auto* n = t->as<ast::Name>();
        if (!saved_reads_.count(v.get())) {
          if (!v->is<ast::Name>()) refuse("a saved local put back with other values");
          out.push_back(ast::assign(t, v));
          continue;
        }
        if (!n) refuse("a saved local put back into something else");
        out.push_back(ast::if_(ast::compare(v, ast::CmpOperator::Is, ast::name(unbound_)),
                               {ast::assign(ast::name(n->id, ast::ExprContext::Store), ast::none()),
                                ast::delete_({ast::name(n->id, ast::ExprContext::Del)})},
                               {ast::assign(ast::name(n->id, ast::ExprContext::Store), v)}));
      }
    }
    return out;
  }

  // The end of state `st`'s block: where control goes next.
  void finish(const State& st, lift::BlockEffect eff, ast::StmtList& out) {
    const BlockId b = st.block;
    switch (eff.term.kind) {
      case TK::Exit:
        if (eff.reraise) {  // RERAISE: the exception on top (≤3.10: the value of the triple), raised again
          const std::size_t at = row_.exc_info_triple ? 2 : 1;
          if (eff.stack.size() < at || eff.stack[eff.stack.size() - at].kind != Item::Kind::Value)
            refuse("RERAISE without an exception");
          out.push_back(ast::raise_(lifter_.expression_of(eff.stack[eff.stack.size() - at])));
        }
        return;
      case TK::Fall: {
        spill(eff.stack, nullptr, out);
        std::size_t to = state_of(next(b), 0, shape_of(eff.stack), st.level);
        for (auto& s : go_to(to)) out.push_back(std::move(s));
        return;
      }
      case TK::Branch:
      case TK::KeepBranch: {
        if (!eff.term.cond) refuse("a branch without a condition");
        const bool keep = eff.term.kind == TK::KeepBranch;
        ast::ExprPtr cond = eff.term.cond;
        if (eff.term.exc_match) {
          // CHECK_EXC_MATCH: does the exception under the tested type match
          // it? (≤3.10: the exception's type is on top.)
          if (keep || eff.stack.empty() || eff.stack.back().kind != Item::Kind::Value)
            refuse("exception matching");
          cond = ast::call(ast::name(row_.exc_info_triple ? "issubclass" : "isinstance"),
                           {lifter_.expression_of(eff.stack.back()), cond});
        }
        // KeepBranch leaves the tested value on the stack for the jump only.
        if (keep && (eff.stack.empty() || eff.stack.back().kind == Item::Kind::Null))
          refuse("a kept branch value that is not on the stack");
        ast::ExprPtr test = spill(eff.stack, keep ? nullptr : cond, out);
        if (keep) test = ast::name(slot(eff.stack.size() - 1));
        const std::string shape = shape_of(eff.stack);
        std::size_t taken = state_of(jump(b), 0, shape, st.level);
        std::size_t not_taken = state_of(fall(b), 0, keep ? shape.substr(0, shape.size() - 1) : shape, st.level);
        if (!eff.term.jump_if) std::swap(taken, not_taken);
        out.push_back(ast::if_(test, go_to(taken)));
        for (auto& s : go_to(not_taken)) out.push_back(std::move(s));
        return;
      }
      case TK::ForIter: {
        if (eff.stack.empty()) refuse("FOR_ITER without an iterator");
        spill(eff.stack, nullptr, out);
        const std::size_t depth = eff.stack.size();
        const std::string shape = shape_of(eff.stack);
        if (shape.back() != 'v') refuse("FOR_ITER without an iterator");
        const std::size_t body = state_of(fall(b), 0, shape + "v", st.level);
        const std::size_t done =
            exhausted_state(jump(b), row_.for_iter_exit_pops ? shape.substr(0, depth - 1) : shape, st.level);
        ast::StmtList get{store_slot(depth, ast::call(ast::name("next"), {ast::name(slot(depth - 1))}))};
        ast::ExceptHandler stop;
        stop.type = ast::name("StopIteration");
        stop.body = go_to(done);
        out.push_back(ast::try_(std::move(get), {std::move(stop)}));
        for (auto& s : go_to(body)) out.push_back(std::move(s));
        return;
      }
      case TK::Send: {
        // [receiver, value] -> result: the lifter's receiver is the await
        // (or yield from) itself, and the loop of yields around SEND is that
        // expression's evaluation (a throw() into it goes to the awaited object).
        if (eff.stack.size() < 2 || eff.stack[eff.stack.size() - 2].kind != Item::Kind::Value)
          refuse("SEND without an await or yield from");
        eff.stack.pop_back();
        spill(eff.stack, nullptr, out);
        for (auto& s : go_to(state_of(jump(b), 0, shape_of(eff.stack), st.level))) out.push_back(std::move(s));
        return;
      }
    }
    refuse("an unknown block end");
  }

  // A state whose body only goes on to another (`_state = j; continue`: a
  // block of jumps and no-ops) is dropped, and what went to it goes on to
  // where it goes. (A cycle of them, an empty endless loop, stays.)
  void thread_forwarding_states() {
    const std::size_t n = states_.size();
    forward_.resize(n);
    std::vector<std::optional<std::size_t>> next(n);
    for (std::size_t k = 0; k < n; ++k) {
      forward_[k] = k;
      const ast::StmtList& body = bodies_[k];
      if (body.size() != 2 || !body[1]->is<ast::Continue>() || states_[k].handler) continue;
      if (auto j = assigned_state(body[0])) next[k] = *j;
    }
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t at = k;
      for (std::size_t steps = 0; next[at] && steps <= n; ++steps) at = *next[at];
      if (!next[at]) forward_[k] = at;  // (else a cycle: k stays)
    }
    for (ast::StmtList& body : bodies_)
      body = ast::map_statements(body, [&](const ast::StmtPtr& st) -> ast::StmtPtr {
        auto j = assigned_state(st);
        if (!j || forward_[*j] == *j) return nullptr;
        return set_state(forward_[*j]);
      });
  }
  // The state `st` sets, when it is `_state = <k>`.
  std::optional<std::size_t> assigned_state(const ast::StmtPtr& st) const {
    auto* a = st->as<ast::Assign>();
    if (!a || a->targets.size() != 1) return std::nullopt;
    auto* n = a->targets[0]->as<ast::Name>();
    auto* c = a->value->as<ast::Constant>();
    auto* i = c ? c->value->as<IntValue>() : nullptr;
    if (!n || n->id != state_ || !i || !i->is_small() || i->small < 0 || std::size_t(i->small) >= states_.size())
      return std::nullopt;
    return std::size_t(i->small);
  }

  // The machine's loop for the states of `level`:
  //
  //   while True:
  //       if _state == 0: ...            # states no handler covers
  //       try:
  //           if _state == 3: ...        # states a handler covers
  //       except BaseException as _e0:
  //           if _state in (3, 4):       # per handler: the caught exception
  //               _s1 = _e0              # in its slot, the handler's state
  //               _state = 7
  //           else:
  //               raise
  //           while True: ...            # level + 1: handlers that are except
  //                                      # clauses run inside this one
  //
  // A state at level + 1 that ends its clause (POP_EXCEPT) breaks out of the
  // inner loop; a handler that is no except clause (a cleanup that
  // re-raises) goes on in this loop, outside the clause.
  ast::StmtPtr level_loop(int level) {
    ast::StmtList body, covered;
    // Catch -> the states it serves, in state order.
    std::map<decltype(Catch{}.key()), std::pair<Catch, std::vector<std::size_t>>> by_catch;
    for (std::size_t k = 0; k < states_.size(); ++k) {
      if (states_[k].level != level || forward_[k] != k) continue;
      auto arm = ast::if_(ast::compare(ast::name(state_), ast::CmpOperator::Eq, ast::integer(std::int64_t(k))),
                          std::move(bodies_[k]));
      if (const auto& c = states_[k].handler) {
        covered.push_back(std::move(arm));
        by_catch.try_emplace(c->key(), *c, std::vector<std::size_t>{}).first->second.second.push_back(k);
      } else {
        body.push_back(std::move(arm));
      }
    }
    if (covered.empty()) return ast::while_(ast::boolean(true), std::move(body));
    const std::string caught = caught_prefix_ + std::to_string(level);
    ast::StmtList chain{ast::raise_()};  // built from the last arm up
    bool enters_clause = false;
    for (auto g = by_catch.rbegin(); g != by_catch.rend(); ++g) {
      const Catch& c = g->second.first;
      ast::ExprList ids;
      for (std::size_t k : g->second.second) ids.push_back(ast::integer(std::int64_t(k)));
      ast::ExprPtr test = ids.size() == 1 ? ast::compare(ast::name(state_), ast::CmpOperator::Eq, ids[0])
                                          : ast::compare(ast::name(state_), ast::CmpOperator::In, ast::tuple(ids));
      ast::StmtList arm;
      ast::ExprPtr exc = ast::name(caught);
      if (c.escape) {
        arm.push_back(store(pending_, exc));
        arm.push_back(store(pending_context_, ast::attribute(exc, "__context__")));
        arm.push_back(store(pending_traceback_, ast::attribute(exc, "__traceback__")));
      } else {
        if (c.restore) {
          arm.push_back(ast::assign(ast::attribute(exc, "__context__", ast::ExprContext::Store), ast::name(pending_context_)));
          arm.push_back(ast::assign(ast::attribute(exc, "__traceback__", ast::ExprContext::Store), ast::name(pending_traceback_)));
        }
        if (c.triple) {
          arm.push_back(store_slot(c.slot, ast::attribute(exc, "__traceback__")));
          arm.push_back(store_slot(c.slot + 1, exc));
          arm.push_back(store_slot(c.slot + 2, ast::call(ast::name("type"), {exc})));
        } else {
          arm.push_back(store_slot(c.slot, exc));
        }
      }
      arm.push_back(set_state(forward_[c.to]));
      if (c.escape) arm.push_back(ast::break_());
      else if (states_[c.to].level == level) arm.push_back(ast::continue_());
      else enters_clause = true;
      chain = {ast::if_(std::move(test), std::move(arm), std::move(chain))};
    }
    if (enters_clause) chain.push_back(level_loop(level + 1));
    body.push_back(ast::try_(std::move(covered), {ast::except_handler(ast::name("BaseException"), caught, std::move(chain))}));
    return ast::while_(ast::boolean(true), std::move(body));
  }

  // `x += v` whose `x` was loaded before a branch (v is `a if c else b`)
  // reaches the lifter as `x = _s0 + _s1`, which would not call __iadd__:
  // such stores become `_s0 += _s1; x = _s0`. An in-place result that no
  // store explains (spilled to the next block) is refused.
  ast::StmtList keep_in_place_operators(BlockId b, std::size_t first, std::size_t end, ast::StmtList stmts) const {
    auto ins = graph_.instructions(b);
    std::size_t inplace = 0;
    for (std::size_t k = first; k < end; ++k) {
      if (!ins[k].info) continue;
      std::optional<lift::BinaryOperator> op;
      if (ins[k].op() == Op::BINARY_OP)
        op = lift::binary_by_symbol(resolve_argument(code_, ins[k]).text);
      else if (ins[k].name().starts_with("INPLACE_"))
        op = lift::binary_by_opname(ins[k].name());
      if (op && op->inplace) ++inplace;
    }
    if (inplace == 0) return stmts;
    std::size_t written = 0;
    std::vector<std::size_t> spilled;
    for (std::size_t k = 0; k < stmts.size(); ++k) {
      if (stmts[k]->is<ast::AugAssign>()) ++written;
      auto* a = stmts[k]->as<ast::Assign>();
      auto* bin = a && a->targets.size() == 1 ? a->value->as<ast::BinOp>() : nullptr;
      auto* left = bin ? bin->left->as<ast::Name>() : nullptr;
      if (left && is_slot(left->id)) spilled.push_back(k);
    }
    if (written == inplace) return stmts;
    if (written + spilled.size() != inplace) refuse("an in-place operator whose operand or result crosses blocks");
    ast::StmtList out;
    std::size_t next = 0;
    for (std::size_t k = 0; k < stmts.size(); ++k) {
      if (next < spilled.size() && spilled[next] == k) {
        ++next;
        auto* a = stmts[k]->as<ast::Assign>();
        auto* bin = a->value->as<ast::BinOp>();
        const ast::NameText& slot_name = bin->left->as<ast::Name>()->id;
        out.push_back(ast::aug_assign(ast::name(slot_name, ast::ExprContext::Store), bin->op, bin->right));
        out.push_back(ast::assign(a->targets[0], ast::name(slot_name)));
      } else {
        out.push_back(std::move(stmts[k]));
      }
    }
    return out;
  }

  // Markers the structurer would have rebuilt (comprehension appends) have no source form.
  static void check_markers(const ast::StmtList& body) {
    for (const ast::StmtPtr& s : body)
      ast::visit_stmt(
          s,
          [](const ast::ExprPtr& e) {
            if (auto* n = e->as<ast::Name>(); n && !n->id.empty() && (n->id[0] == '<' || n->id[0] == '.'))
              refuse("a value with no source form (" + n->id + ")");
          },
          true);
  }
};

}  // namespace

ast::StmtList dispatch_body(const DecodedCode& code, lift::Lifter& lifter, std::string_view reason) {
  Dispatcher d(code, lifter);
  return d.run(reason);
}

}  // namespace unveil::structure

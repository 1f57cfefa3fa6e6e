#include "structure/dispatch.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ast/build.h"
#include "ast/rewrite.h"
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
    for (const char* b : {"next", "iter", "StopIteration"})
      for (const auto* list : {&c.varnames, &c.cellvars, &c.freevars})
        if (std::find(list->begin(), list->end(), b) != list->end())
          refuse(std::string("the code has a variable named ") + b);
    auto free = [&](std::string n) {
      while (taken.count(n)) n += "_";
      return n;
    };
    state_ = free("_state");
    // Slot names are prefix + index: no name may start so and go on with a digit.
    slot_prefix_ = "_s";
    for (bool clash = true; clash;) {
      clash = false;
      for (const std::string& n : taken)
        if (n.size() > slot_prefix_.size() && n.starts_with(slot_prefix_) &&
            std::isdigit(static_cast<unsigned char>(n[slot_prefix_.size()])))
          clash = true;
      if (clash) slot_prefix_ += "_";
    }
    cond_ = free(slot_prefix_ + "c");
  }

  ast::StmtList run(std::string_view reason) {
    for (const cfg::Block& b : graph_.blocks())
      if (b.reachable && b.is_handler && !implicit_stop_iteration_handler(graph_, b.id))
        refuse("exception regions (try/with)");
    state_of(graph_.entry(), 0, "");
    std::vector<ast::StmtPtr> arms;
    for (std::size_t k = 0; k < states_.size(); ++k) {
      ast::StmtList body = lower(states_[k]);
      arms.push_back(ast::if_(ast::compare(ast::name(state_), ast::CmpOperator::Eq, ast::integer(std::int64_t(k))),
                              std::move(body)));
    }
    std::string why(reason);
    for (char& c : why)
      if (c == '\n' || c == '\r') c = ' ';
    ast::StmtList out;
    out.push_back(ast::comment("unveil: control flow rebuilt as a state machine (" + why + ")"));
    out.push_back(ast::assign(ast::name(state_, ast::ExprContext::Store), ast::integer(0)));
    out.push_back(ast::while_(ast::boolean(true), std::move(arms)));
    check_markers(out);
    return out;
  }

 private:
  struct State {
    BlockId block;
    std::size_t first;  // instruction to start at (past a for loop's END_FOR)
    // The stack on entry, a letter a slot: 'v' a value in its spill
    // variable, 'n' the NULL of a call (3.11+ and a method call's marker),
    // which holds nothing and is pushed again as it is.
    std::string shape;
  };

  const DecodedCode& code_;
  cfg::Graph graph_;
  lift::Lifter& lifter_;
  const lift::VersionRow& row_;
  std::string state_, slot_prefix_, cond_;
  std::vector<State> states_;
  std::map<std::pair<BlockId, std::size_t>, std::size_t> index_;

  static std::string shape_of(const lift::Stack& stack) {
    std::string out;
    for (const Item& i : stack) out += i.kind == Item::Kind::Null ? 'n' : 'v';
    return out;
  }
  std::string slot(std::size_t k) const { return slot_prefix_ + std::to_string(k); }
  bool is_slot(const std::string& n) const {
    return n.size() > slot_prefix_.size() && n.starts_with(slot_prefix_) &&
           std::all_of(n.begin() + std::ptrdiff_t(slot_prefix_.size()), n.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  }

  // The state that starts block `b` at instruction `first` with a stack of `shape`.
  std::size_t state_of(BlockId b, std::size_t first, const std::string& shape) {
    if (b == kNoBlock) refuse("control flows past the end");
    auto [it, added] = index_.try_emplace({b, first}, states_.size());
    if (added) {
      states_.push_back({b, first, shape});
      if (states_.size() > 100'000) refuse("too many states");
    } else if (states_[it->second].shape != shape) {
      refuse("a block entered with different stacks");
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
  std::size_t exhausted_state(BlockId exit, const std::string& shape) {
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
      return state_of(fall(exit), 0, shape);
    }
    return state_of(exit, skip, shape);
  }

  ast::StmtList go_to(std::size_t state) const {
    return {ast::assign(ast::name(state_, ast::ExprContext::Store), ast::integer(std::int64_t(state))),
            ast::continue_()};
  }

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
      if (item.kind == Item::Kind::Null) continue;
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
        out.push_back(ast::assign(ast::name(slot(spills[k].slot), ast::ExprContext::Store), values[k]));
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

  ast::StmtList lower(State st) {
    lift::Stack entry;
    for (std::size_t k = 0; k < st.shape.size(); ++k)
      entry.push_back(st.shape[k] == 'n' ? Item::of(Item::Kind::Null) : Item::value(ast::name(slot(k))));
    if (const auto& h = graph_.block(st.block).handler; h && !implicit_stop_iteration_handler(graph_, h->block))
      refuse("exception regions (try/with)");
    const std::size_t size = graph_.instructions(st.block).size();
    lift::BlockEffect eff = st.first == 0 ? lifter_.run(graph_, st.block, std::move(entry))
                                          : lifter_.run(graph_, st.block, std::move(entry), st.first, size);
    if (eff.pop_except || eff.reraise || eff.end_finally) refuse("exception handling code");
    // A popped slot variable is left as `_s0` by the lifter: reading it does nothing.
    ast::StmtList out;
    for (ast::StmtPtr& s : eff.stmts) {
      auto* e = s->as<ast::ExprStmt>();
      auto* n = e ? e->value->as<ast::Name>() : nullptr;
      if (!(n && is_slot(n->id))) out.push_back(std::move(s));
    }
    out = keep_in_place_operators(st, std::move(out));
    const BlockId b = st.block;
    switch (eff.term.kind) {
      case TK::Exit:
        return out;
      case TK::Fall: {
        spill(eff.stack, nullptr, out);
        std::size_t to = state_of(next(b), 0, shape_of(eff.stack));
        for (auto& s : go_to(to)) out.push_back(std::move(s));
        return out;
      }
      case TK::Branch:
      case TK::KeepBranch: {
        if (eff.term.exc_match || !eff.term.cond) refuse("exception matching");
        const bool keep = eff.term.kind == TK::KeepBranch;
        // KeepBranch leaves the tested value on the stack for the jump only.
        if (keep && (eff.stack.empty() || eff.stack.back().kind == Item::Kind::Null))
          refuse("a kept branch value that is not on the stack");
        ast::ExprPtr test = spill(eff.stack, keep ? nullptr : eff.term.cond, out);
        if (keep) test = ast::name(slot(eff.stack.size() - 1));
        const std::string shape = shape_of(eff.stack);
        std::size_t taken = state_of(jump(b), 0, shape);
        std::size_t not_taken = state_of(fall(b), 0, keep ? shape.substr(0, shape.size() - 1) : shape);
        if (!eff.term.jump_if) std::swap(taken, not_taken);
        out.push_back(ast::if_(test, go_to(taken)));
        for (auto& s : go_to(not_taken)) out.push_back(std::move(s));
        return out;
      }
      case TK::ForIter: {
        if (eff.stack.empty()) refuse("FOR_ITER without an iterator");
        spill(eff.stack, nullptr, out);
        const std::size_t depth = eff.stack.size();
        const std::string shape = shape_of(eff.stack);
        if (shape.back() != 'v') refuse("FOR_ITER without an iterator");
        const std::size_t body = state_of(fall(b), 0, shape + "v");
        const std::size_t done =
            exhausted_state(jump(b), row_.for_iter_exit_pops ? shape.substr(0, depth - 1) : shape);
        ast::StmtList get{ast::assign(ast::name(slot(depth), ast::ExprContext::Store),
                                      ast::call(ast::name("next"), {ast::name(slot(depth - 1))}))};
        ast::ExceptHandler stop;
        stop.type = ast::name("StopIteration");
        stop.body = go_to(done);
        out.push_back(ast::try_(std::move(get), {std::move(stop)}));
        for (auto& s : go_to(body)) out.push_back(std::move(s));
        return out;
      }
      case TK::Send:
        refuse("await or yield from");
    }
    refuse("an unknown block end");
  }

  // `x += v` whose `x` was loaded before a branch (v is `a if c else b`)
  // reaches the lifter as `x = _s0 + _s1`, which would not call __iadd__:
  // such stores become `_s0 += _s1; x = _s0`. An in-place result that no
  // store explains (spilled to the next block) is refused.
  ast::StmtList keep_in_place_operators(const State& st, ast::StmtList stmts) const {
    auto ins = graph_.instructions(st.block);
    std::size_t inplace = 0;
    for (std::size_t k = st.first; k < ins.size(); ++k) {
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
        const std::string& slot_name = bin->left->as<ast::Name>()->id;
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

#include "structure/simplify.h"

#include "ast/build.h"
#include "ast/prefetch.h"
#include "ast/rewrite.h"
#include "emit/unparse.h"
#include "lift/lifter.h"

namespace unveil::structure {

using ast::ExprPtr;
using ast::StmtList;
using ast::StmtPtr;

namespace {
bool has_negated_leaf(const ExprPtr& e) {
  if (auto* c = e->as<ast::Compare>()) return c->negated;
  if (auto* u = e->as<ast::UnaryOp>()) return u->op == ast::UnaryOperator::Not;
  if (auto* b = e->as<ast::BoolOp>())
    for (const ExprPtr& v : b->values)
      if (has_negated_leaf(v)) return true;
  return false;
}
}  // namespace

ExprPtr negate(const ExprPtr& e) {
  if (auto* u = e->as<ast::UnaryOp>(); u && u->op == ast::UnaryOperator::Not) return u->operand;
  if (auto* c = e->as<ast::Compare>(); c && c->ops.size() == 1) {
    using C = ast::CmpOperator;
    C op = c->ops[0];
    std::optional<C> inv;
    if (op == C::Is) inv = C::IsNot;
    else if (op == C::IsNot) inv = C::Is;
    else if (op == C::In) inv = C::NotIn;
    else if (op == C::NotIn) inv = C::In;
    if (inv) {
      ast::Compare flipped{c->left, {*inv}, c->comparators, !c->negated};
      return ast::make_expr(std::move(flipped));
    }
  }
  // `not (a and b)` and `not a or not b` jump alike; De Morgan when that puts
  // an `in`/`is` leaf back to the operator the bytecode has, or drops a `not`.
  if (auto* b = e->as<ast::BoolOp>(); b && has_negated_leaf(e)) {
    ast::ExprList values;
    for (const ExprPtr& v : b->values) values.push_back(negate(v));
    return ast::boolop(b->op == ast::BoolOperator::And ? ast::BoolOperator::Or : ast::BoolOperator::And,
                       std::move(values));
  }
  return ast::unaryop(ast::UnaryOperator::Not, e);
}

ExprPtr flatten_boolop(ast::BoolOperator op, const ExprPtr& a, const ExprPtr& b) {
  auto count = [&](const ExprPtr& x) {
    auto* bo = x->as<ast::BoolOp>();
    return bo && bo->op == op ? bo->values.size() : 1;
  };
  ast::ExprList values;
  values.reserve(count(a) + count(b));  // (sized once: it grew an operand at a time)
  for (const ExprPtr& x : {a, b}) {
    if (auto* bo = x->as<ast::BoolOp>(); bo && bo->op == op)
      values.insert(values.end(), bo->values.begin(), bo->values.end());
    else values.push_back(x);
  }
  return ast::boolop(op, std::move(values));
}

StmtList strip_trailing_continue(StmtList body) {
  if (body.empty()) return body;
  const StmtPtr& last = body.back();
  // A lone `continue` stays: `if c: continue` is not `if c: pass` in bytecode.
  if (last->is<ast::Continue>()) {
    if (body.size() == 1) return body;
    body.pop_back();  // what is now last runs last in the loop body too
    return body.back()->is<ast::Continue>() ? body : strip_trailing_continue(std::move(body));
  }
  if (auto* i = last->as<ast::If>()) {
    ast::If copy = *i;
    copy.body = strip_trailing_continue(std::move(copy.body));
    copy.orelse = strip_trailing_continue(std::move(copy.orelse));
    if (copy.orelse.size() == 1 && copy.orelse[0]->is<ast::Continue>()) copy.orelse.clear();
    body.back() = ast::make_stmt(std::move(copy), last->line);
  }
  if (auto* m = last->as<ast::Match>()) {
    ast::Match copy = *m;
    for (ast::MatchCase& c : copy.cases) c.body = strip_trailing_continue(std::move(c.body));
    body.back() = ast::make_stmt(std::move(copy), last->line);
  }
  return body;
}

namespace {

std::string text(const ExprPtr& e) { return unparse_expr(*e); }

bool is_true(const ExprPtr& e) {
  auto* c = e->as<ast::Constant>();
  return c && c->value && c->value->is<BoolValue>() && c->value->as<BoolValue>()->value;
}

// `not` pushed down to the leaves (De Morgan), so that two spellings of one
// test compare equal: `not (a is None or b)` and `a is not None and not b`.
ExprPtr normal_form(const ExprPtr& e, bool negated = false) {
  if (auto* u = e->as<ast::UnaryOp>(); u && u->op == ast::UnaryOperator::Not)
    return normal_form(u->operand, !negated);
  if (auto* b = e->as<ast::BoolOp>()) {
    ast::ExprList values;
    for (const ExprPtr& v : b->values) values.push_back(normal_form(v, negated));
    bool is_and = (b->op == ast::BoolOperator::And) != negated;
    return ast::boolop(is_and ? ast::BoolOperator::And : ast::BoolOperator::Or, std::move(values));
  }
  return negated ? negate(e) : e;
}

bool same_test(const ExprPtr& a, const ExprPtr& b) {
  return text(a) == text(b) || text(normal_form(a)) == text(normal_form(b));
}

// The operands of `a and b and ...` (`not (a or b)` read as `not a and not b`).
std::vector<ExprPtr> conjuncts(const ExprPtr& e) {
  if (auto* b = e->as<ast::BoolOp>(); b && b->op == ast::BoolOperator::And) {
    std::vector<ExprPtr> out;
    for (const ExprPtr& v : b->values) {
      auto inner = conjuncts(v);
      out.insert(out.end(), inner.begin(), inner.end());
    }
    return out;
  }
  if (auto* u = e->as<ast::UnaryOp>(); u && u->op == ast::UnaryOperator::Not)
    if (auto* b = u->operand->as<ast::BoolOp>(); b && b->op == ast::BoolOperator::Or) {
      std::vector<ExprPtr> out;
      for (const ExprPtr& v : b->values) {
        auto inner = conjuncts(negate(v));
        out.insert(out.end(), inner.begin(), inner.end());
      }
      return out;
    }
  return {e};
}

// `while True: body...; if not c: break` with the same c as the enclosing if
// (or `if not c: return x` when `return x` follows the if: the exit was copied).
std::optional<StmtPtr> bottom_tested_while(const ast::If& i, const StmtPtr& next = nullptr) {
  // `if a: if b: while True:` is `if a and b:` (the test before the loop of
  // `while a and b:`, whose links each got an if).
  if (i.body.size() == 1 && i.orelse.empty())
    if (auto* inner = i.body[0]->as<ast::If>();
        inner && inner->orelse.empty() && inner->body.size() == 1 && inner->body[0]->is<ast::While>())
      return bottom_tested_while(ast::If{flatten_boolop(ast::BoolOperator::And, i.test, inner->test), inner->body, {}},
                                 next);
  if (i.body.size() != 1) return std::nullopt;
  auto* w = i.body[0]->as<ast::While>();
  if (!w || !is_true(w->test) || !w->orelse.empty() || w->body.empty()) return std::nullopt;
  // An else that is the statement after the if (3.10+ copies a function's
  // final return into the test before the loop) is no else. (Compared as
  // text, so only once the if holds such a loop: most ifs do not.)
  if (!i.orelse.empty() && !(i.orelse.size() == 1 && next && unparse(i.orelse) == unparse(StmtList{next})))
    return std::nullopt;
  auto* tail = w->body.back()->as<ast::If>();
  if (!tail || tail->body.size() != 1) return std::nullopt;
  StmtList body(w->body.begin(), w->body.end() - 1);
  // `if c: break` written last in the body, then the bottom test, read as
  // its elif: `if c: break elif not t: break`.
  if (tail->orelse.size() == 1 && tail->body[0]->is<ast::Break>())
    if (auto* inner = tail->orelse[0]->as<ast::If>();
        inner && inner->body.size() == 1 && inner->body[0]->is<ast::Break>() && inner->orelse.empty()) {
      body.push_back(ast::if_(tail->test, tail->body));
      tail = inner;
    }
  // `while a and b:`'s bottom test read as `if a: (if not b: break) else: break`.
  ast::If joined_tail;
  if (tail->orelse.size() == 1 && tail->orelse[0]->is<ast::Break>())
    if (auto* inner = tail->body[0]->as<ast::If>();
        inner && inner->body.size() == 1 && inner->body[0]->is<ast::Break>() && inner->orelse.empty()) {
      joined_tail = ast::If{flatten_boolop(ast::BoolOperator::Or, negate(tail->test), inner->test), inner->body, {}};
      tail = &joined_tail;
    }
  if (!tail->orelse.empty()) return std::nullopt;
  bool exit_copy = next && tail->body[0]->is<ast::Return>() && next->is<ast::Return>() &&
                   unparse(StmtList{tail->body[0]}) == unparse(StmtList{next});
  if (!tail->body[0]->is<ast::Break>() && !exit_copy) return std::nullopt;
  ExprPtr loop_test = negate(tail->test);
  if (same_test(loop_test, i.test)) return ast::while_(i.test, std::move(body));
  // The copy of the test before the loop was read as one condition with the
  // test of an enclosing `if` (`if c: while t:` as `if c and t:`): split it.
  std::vector<ExprPtr> all = conjuncts(i.test), tail_part = conjuncts(loop_test);
  if (all.size() <= tail_part.size()) return std::nullopt;
  std::size_t head = all.size() - tail_part.size();
  for (std::size_t k = 0; k < tail_part.size(); ++k)
    if (!same_test(all[head + k], tail_part[k])) return std::nullopt;
  ast::ExprList outer(all.begin(), all.begin() + std::ptrdiff_t(head));
  ExprPtr outer_test = outer.size() == 1 ? outer[0] : ast::boolop(ast::BoolOperator::And, outer);
  return ast::if_(outer_test, {ast::while_(loop_test, std::move(body))});
}

// `if c: continue else: break` at the end of a loop body → `if not c: break`
// (nullopt: the body has no such end).
std::optional<StmtList> bottom_test(const StmtList& body) {
  if (body.empty()) return std::nullopt;
  auto* i = body.back()->as<ast::If>();
  if (!(i && i->body.size() == 1 && i->body[0]->is<ast::Continue>() && i->orelse.size() == 1 &&
        i->orelse[0]->is<ast::Break>()))
    return std::nullopt;
  StmtList out = body;
  out.back() = ast::if_(negate(i->test), {ast::break_()});
  return out;
}

std::optional<StmtPtr> as_assert(const ast::If& i, int version_minor) {
  if (i.body.size() != 1 || !i.orelse.empty()) return std::nullopt;
  // (The raise already read as `assert False, msg`: its test is this if's.)
  if (auto* a = i.body[0]->as<ast::Assert>()) {
    auto* c = a->test->as<ast::Constant>();
    if (c && c->value && c->value->is<BoolValue>() && !c->value->as<BoolValue>()->value)
      return ast::assert_(negate(i.test), a->msg);
    return std::nullopt;
  }
  auto* r = i.body[0]->as<ast::Raise>();
  if (!r || !r->exc || r->cause) return std::nullopt;
  auto is_ae = [&](const ExprPtr& e) {
    if (e == lift::Lifter::assertion_error()) return true;
    auto* n = e->as<ast::Name>();
    return version_minor == 8 && n && n->id == "AssertionError";
  };
  ExprPtr msg;
  if (auto* c = r->exc->as<ast::Call>()) {
    // (`AssertionError(*args)` has no assert form.)
    if (!is_ae(c->func) || c->args.size() != 1 || c->args[0]->is<ast::Starred>() || !c->keywords.empty())
      return std::nullopt;
    msg = c->args[0];
  } else if (!is_ae(r->exc)) {
    return std::nullopt;
  }
  return ast::assert_(negate(i.test), msg);
}

// Only a raise is hoisted out of if/else: after a return the compiler may
// have copied the function's implicit `return None` into both arms (PEP 626),
// and `if c: A else: B` must stay as written there.
bool closes(const StmtList& body, bool returns_too) {
  if (body.empty()) return false;
  const StmtPtr& last = body.back();
  return last->is<ast::Raise>() || last->is<ast::Break>() || last->is<ast::Continue>() ||
         (returns_too && last->is<ast::Return>());
}

// How one body is simplified: the Python version, and whether `if c: raise
// else: rest` may lose its else (not in a 3.8/3.9 except clause, which
// compiles the two forms differently), and also after a `return` (3.8/3.9
// outside try statements; from 3.10 that return may be a PEP 626 copy).
struct Simplifier {
  int minor;
  bool hoist;
  bool hoist_returns;

  Simplifier in_try() const { return minor < 10 ? Simplifier{minor, hoist, false} : *this; }
  Simplifier in_handler() const { return minor < 10 ? Simplifier{minor, false, false} : *this; }

  StmtPtr stmt(const StmtPtr& s) const {
    // A statement whose bodies come back the same is kept, not copied: most
    // are, and a copy of each was garbage (and a count touched per child).
    if (auto* i = s->as<ast::If>()) {
      std::optional<StmtList> b = changed_body(i->body), orelse = changed_body(i->orelse);
      if (!b && !orelse) {
        if (auto w = bottom_tested_while(*i)) return *w;
        if (auto a = as_assert(*i, minor)) return *a;
        return s;
      }
      ast::If copy{i->test, b ? std::move(*b) : i->body, orelse ? std::move(*orelse) : i->orelse, i->keep_else};
      if (auto w = bottom_tested_while(copy)) return *w;
      if (auto a = as_assert(copy, minor)) return *a;
      return ast::make_stmt(std::move(copy), s->line);
    }
    if (auto* w = s->as<ast::While>()) {
      std::optional<StmtList> tested = bottom_test(w->body);
      const StmtList& loop_body = tested ? *tested : w->body;
      std::optional<StmtList> b = changed_body(loop_body), orelse = changed_body(w->orelse);
      if (!tested && !b && !orelse) return s;
      ast::While copy{w->test, b ? std::move(*b) : loop_body, orelse ? std::move(*orelse) : w->orelse};
      if (copy.body == w->body && copy.orelse == w->orelse) return s;
      return ast::make_stmt(std::move(copy), s->line);
    }
    if (auto* f = s->as<ast::For>()) {
      std::optional<StmtList> b = changed_body(f->body), orelse = changed_body(f->orelse);
      if (!b && !orelse) return s;
      ast::For copy{f->target, f->iter, b ? std::move(*b) : f->body, orelse ? std::move(*orelse) : f->orelse};
      return ast::make_stmt(std::move(copy), s->line);
    }
    if (auto* f = s->as<ast::AsyncFor>()) {
      ast::AsyncFor copy{{f->target, f->iter, body(f->body), body(f->orelse)}};
      return ast::make_stmt(std::move(copy), s->line);
    }
    if (auto* t = s->as<ast::Try>()) {
      ast::Try copy = *t;
      // Each list of the copy replaced only when it changes (it is a copy already).
      auto simplify = [](const Simplifier& with, StmtList& list) {
        if (std::optional<StmtList> changed = with.changed_body(list)) list = std::move(*changed);
      };
      const Simplifier inner = in_try();
      simplify(inner, copy.body);
      simplify(inner, copy.orelse);
      simplify(inner, copy.finalbody);
      for (auto& h : copy.handlers) simplify(in_handler(), h.body);
      return ast::make_stmt(std::move(copy), s->line);
    }
    if (s->is<ast::With>() || s->is<ast::AsyncWith>())
      return ast::map_bodies(s, [&](const StmtList& b) { return body(b); });
    // LOAD_ASSERTION_ERROR raised with no test before it: `assert False, msg`
    // (a constant false test jumps nowhere). Not 3.8's plain AssertionError
    // name, which `raise AssertionError(msg)` loads as well.
    if (auto* r = s->as<ast::Raise>(); r && r->exc && !r->cause) {
      const ExprPtr& ae = lift::Lifter::assertion_error();
      if (r->exc == ae) return ast::assert_(ast::boolean(false), nullptr);
      if (auto* c = r->exc->as<ast::Call>();
          c && c->func == ae && c->args.size() == 1 && !c->args[0]->is<ast::Starred>() && c->keywords.empty())
        return ast::assert_(ast::boolean(false), c->args[0]);
    }
    return s;
  }

  StmtList body(const StmtList& stmts, bool ends_function = false) const {
    std::optional<StmtList> changed = changed_body(stmts, ends_function);
    return changed ? std::move(*changed) : stmts;
  }

  // The simplified `stmts`, or nullopt when it is `stmts` itself (the same
  // statements): most lists are, and copying each one touched every
  // statement of a big function's tree once more.
  // With `owned` (`stmts` itself, given up by the caller), once a statement
  // has changed each one is let go as soon as it is simplified: the old
  // version of what changed is freed while its nodes are still in the cache,
  // not in a second walk of a big function's whole old tree. (The statements
  // before the first change are moved into the new list, not copied.)
  std::optional<StmtList> changed_body(const StmtList& stmts, bool ends_function = false,
                                       StmtList* owned = nullptr) const {
    const StmtPtr& implicit_return = ast::kept_node<[] { return ast::return_(ast::none()); }>();
    // `out` is made at the first statement that changes; until then it is
    // stmts[0, k) for the k statements seen.
    std::optional<StmtList> out;
    auto differ = [&](std::size_t k) {
      if (out) return;
      if (owned)
        out.emplace(std::make_move_iterator(owned->begin()), std::make_move_iterator(owned->begin() + std::ptrdiff_t(k)));
      else
        out.emplace(stmts.begin(), stmts.begin() + std::ptrdiff_t(k));
    };
    for (std::size_t k = 0; k < stmts.size(); ++k) {
      struct LetGo {  // (when the statement is done with, by any path)
        StmtList* owned;
        const std::optional<StmtList>& out;
        std::size_t k;
        ~LetGo() {
          if (owned && out) (*owned)[k].reset();
        }
      } let_go{owned, out, k};
      ast::prefetch_next(stmts, k);  // (a big function's tree is walked from memory: ast/prefetch.h)
      const StmtPtr& s = stmts[k];
      // `if c: return` + `else: rest` is `if c: return` then `rest` (same bytecode).
      // (An assert has no else: the rest goes after it even when it is an if.)
      if (auto* i = s->as<ast::If>(); hoist && i && !i->keep_else && !i->orelse.empty() && closes(i->body, hoist_returns) &&
                                     (!(i->orelse.size() == 1 && i->orelse[0]->is<ast::If>()) ||
                                      as_assert(ast::If{i->test, i->body, {}}, minor))) {
        differ(k);
        out->push_back(stmt(ast::if_(i->test, i->body)));
        StmtList rest = body(i->orelse);
        out->insert(out->end(), rest.begin(), rest.end());
        continue;
      }
      StmtPtr one = stmt(s);
      if (auto* i = one->as<ast::If>()) {
        StmtPtr next = k + 1 < stmts.size() ? stmts[k + 1] : ends_function ? implicit_return : nullptr;
        if (auto w = bottom_tested_while(*i, next)) one = *w;
      }
      if (out) out->push_back(std::move(one));
      else if (one != s) {
        differ(k);
        out->push_back(std::move(one));
      }
    }
    if (!owned && out && *out == stmts) return std::nullopt;  // changed and changed back
    // (`owned` lost statements to `out` once it changed: the same again or not, `out` is the list.)
    return out;
  }
};

}  // namespace

StmtList simplify(StmtList body, int version_minor, bool ends_function) {
  std::optional<StmtList> changed =
      Simplifier{version_minor, true, version_minor < 10}.changed_body(body, ends_function, &body);
  return changed ? std::move(*changed) : std::move(body);
}

}  // namespace unveil::structure

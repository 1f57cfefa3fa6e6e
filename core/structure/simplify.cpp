#include "structure/simplify.h"

#include "ast/build.h"
#include "emit/unparse.h"
#include "lift/lifter.h"

namespace unveil::structure {

using ast::ExprPtr;
using ast::StmtList;
using ast::StmtPtr;

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
    if (inv) return ast::compare(c->left, *inv, c->comparators[0]);
  }
  return ast::unaryop(ast::UnaryOperator::Not, e);
}

ExprPtr flatten_boolop(ast::BoolOperator op, const ExprPtr& a, const ExprPtr& b) {
  ast::ExprList values;
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
    if (body.size() > 1) body.pop_back();
    return body;
  }
  if (auto* i = last->as<ast::If>()) {
    ast::If copy = *i;
    copy.body = strip_trailing_continue(copy.body);
    copy.orelse = strip_trailing_continue(copy.orelse);
    if (copy.orelse.size() == 1 && copy.orelse[0]->is<ast::Continue>()) copy.orelse.clear();
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

// `while True: body...; if not c: break` with the same c as the enclosing if
// (or `if not c: return x` when `return x` follows the if: the exit was copied).
std::optional<StmtPtr> bottom_tested_while(const ast::If& i, const StmtPtr& next = nullptr) {
  if (i.body.size() != 1 || !i.orelse.empty()) return std::nullopt;
  auto* w = i.body[0]->as<ast::While>();
  if (!w || !is_true(w->test) || !w->orelse.empty() || w->body.empty()) return std::nullopt;
  auto* tail = w->body.back()->as<ast::If>();
  if (!tail || tail->body.size() != 1 || !tail->orelse.empty()) return std::nullopt;
  bool exit_copy = next && tail->body[0]->is<ast::Return>() && next->is<ast::Return>() &&
                   unparse(StmtList{tail->body[0]}) == unparse(StmtList{next});
  if (!tail->body[0]->is<ast::Break>() && !exit_copy) return std::nullopt;
  if (text(negate(tail->test)) != text(i.test)) return std::nullopt;
  StmtList body(w->body.begin(), w->body.end() - 1);
  return ast::while_(i.test, std::move(body));
}

// `if c: continue else: break` at the end of a loop body → `if not c: break`.
StmtList bottom_test(StmtList body) {
  if (body.empty()) return body;
  auto* i = body.back()->as<ast::If>();
  if (i && i->body.size() == 1 && i->body[0]->is<ast::Continue>() && i->orelse.size() == 1 &&
      i->orelse[0]->is<ast::Break>())
    body.back() = ast::if_(negate(i->test), {ast::break_()});
  return body;
}

std::optional<StmtPtr> as_assert(const ast::If& i, int version_minor) {
  if (i.body.size() != 1 || !i.orelse.empty()) return std::nullopt;
  auto* r = i.body[0]->as<ast::Raise>();
  if (!r || !r->exc || r->cause) return std::nullopt;
  auto is_ae = [&](const ExprPtr& e) {
    if (e == lift::Lifter::assertion_error()) return true;
    auto* n = e->as<ast::Name>();
    return version_minor == 8 && n && n->id == "AssertionError";
  };
  ExprPtr msg;
  if (auto* c = r->exc->as<ast::Call>()) {
    if (!is_ae(c->func) || c->args.size() != 1 || !c->keywords.empty()) return std::nullopt;
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

StmtPtr simplify_stmt(const StmtPtr& s, int version_minor) {
  if (auto* i = s->as<ast::If>()) {
    ast::If copy{i->test, simplify(i->body, version_minor), simplify(i->orelse, version_minor)};
    if (auto w = bottom_tested_while(copy)) return *w;
    if (auto a = as_assert(copy, version_minor)) return *a;
    return ast::make_stmt(std::move(copy), s->line);
  }
  if (auto* w = s->as<ast::While>()) {
    ast::While copy{w->test, simplify(bottom_test(w->body), version_minor), simplify(w->orelse, version_minor)};
    return ast::make_stmt(std::move(copy), s->line);
  }
  if (auto* f = s->as<ast::For>()) {
    ast::For copy{f->target, f->iter, simplify(f->body, version_minor), simplify(f->orelse, version_minor)};
    return ast::make_stmt(std::move(copy), s->line);
  }
  return s;
}

}  // namespace

StmtList simplify(const StmtList& body, int version_minor, bool ends_function) {
  StmtList out;
  static const StmtPtr implicit_return = ast::return_(ast::none());
  for (const StmtPtr& s : body) {
    // `if c: return` + `else: rest` is `if c: return` then `rest` (same bytecode).
    if (auto* i = s->as<ast::If>(); i && !i->orelse.empty() && closes(i->body, version_minor < 10) &&
                                   !(i->orelse.size() == 1 && i->orelse[0]->is<ast::If>())) {
      out.push_back(simplify_stmt(ast::if_(i->test, i->body), version_minor));
      StmtList rest = simplify(i->orelse, version_minor);
      out.insert(out.end(), rest.begin(), rest.end());
      continue;
    }
    StmtPtr one = simplify_stmt(s, version_minor);
    if (auto* i = one->as<ast::If>()) {
      StmtPtr next = &s != &body.back() ? *(&s + 1) : ends_function ? implicit_return : nullptr;
      if (auto w = bottom_tested_while(*i, next)) one = *w;
    }
    out.push_back(one);
  }
  return out;
}

}  // namespace unveil::structure

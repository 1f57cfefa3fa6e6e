// Bookkeeping statements the compiler adds to module, class and function
// bodies, removed (or turned back into what the source said).
#include "ast/build.h"
#include "decompile/driver.h"
#include "decompile/signature.h"

namespace unveil::decompile {

using ast::ExprPtr;
using ast::StmtList;
using ast::StmtPtr;

namespace {

const std::string* assigned_name(const StmtPtr& s) {
  auto* a = s->as<ast::Assign>();
  if (!a || a->targets.size() != 1) return nullptr;
  auto* n = a->targets[0]->as<ast::Name>();
  return n ? &n->id : nullptr;
}

bool is_str_constant(const ExprPtr& e) {
  auto* c = e->as<ast::Constant>();
  return c && c->value && c->value->is<StrValue>();
}

// `__doc__ = 'text'` first: the docstring.
StmtList docstring_from_assign(StmtList body) {
  if (!body.empty())
    if (const std::string* n = assigned_name(body[0]); n && *n == "__doc__") {
      ExprPtr v = body[0]->as<ast::Assign>()->value;
      if (is_str_constant(v)) body[0] = ast::expr_stmt(v);
    }
  return body;
}

}  // namespace

// 3.10+ copies the implicit `return None` into every arm that reaches the end,
// so it is dropped from tail positions (a lone one only where `keep_lone` is off).
StmtList drop_tail_returns(StmtList body, bool keep_lone) {
  if (body.empty()) return body;
  const StmtPtr& last = body.back();
  if (auto* r = last->as<ast::Return>(); r && (!r->value || ast::is_none(r->value))) {
    if (r->written || (keep_lone && body.size() == 1)) return body;
    body.pop_back();
    return drop_tail_returns(std::move(body), keep_lone);
  }
  if (auto* i = last->as<ast::If>()) {
    ast::If copy{i->test, drop_tail_returns(i->body, keep_lone), drop_tail_returns(i->orelse, keep_lone), i->keep_else};
    body.back() = ast::make_stmt(std::move(copy), last->line);
  }
  if (auto* t = last->as<ast::Try>(); t && t->finalbody.empty()) {
    ast::Try copy = *t;
    if (copy.orelse.empty()) copy.body = drop_tail_returns(copy.body, keep_lone);
    else copy.orelse = drop_tail_returns(copy.orelse, keep_lone);
    for (auto& h : copy.handlers) h.body = drop_tail_returns(h.body, keep_lone);
    body.back() = ast::make_stmt(std::move(copy), last->line);
  }
  if (auto* w = last->as<ast::With>()) {
    ast::With copy = *w;
    copy.body = drop_tail_returns(copy.body, keep_lone);
    body.back() = ast::make_stmt(std::move(copy), last->line);
  }
  return body;
}

// 3.10+: `else: return None` on a function's last if, whose other arm runs
// off the end, is the jump to the implicit final return (each jump gets a
// copy of it): no else. The same inside that arm's own last if.
StmtList drop_else_return_none(StmtList body) {
  if (body.empty()) return body;
  auto* i = body.back()->as<ast::If>();
  if (!i) return body;
  auto ends = [](const StmtList& b) { return !b.empty() && (b.back()->is<ast::Return>() || b.back()->is<ast::Raise>()); };
  auto* r = i->orelse.size() == 1 ? i->orelse[0]->as<ast::Return>() : nullptr;
  ast::If copy = *i;
  copy.body = drop_else_return_none(i->body);
  if (r && (!r->value || ast::is_none(r->value)) && !ends(copy.body)) copy.orelse.clear();
  else copy.orelse = drop_else_return_none(i->orelse);
  body.back() = ast::make_stmt(std::move(copy), body.back()->line);
  return body;
}

// `try: A except E: <return None>` followed by the rest of the body: the
// return is the body's implicit end copied into the handler (PEP 626), so the
// rest is the try's else clause.
StmtList fold_try_else(StmtList body) {
  for (std::size_t k = 0; k + 1 < body.size(); ++k) {
    auto* t = body[k]->as<ast::Try>();
    if (!t || !t->orelse.empty() || !t->finalbody.empty() || t->handlers.empty()) continue;
    bool all_return = true;
    for (const auto& h : t->handlers) {
      auto* r = h.body.empty() ? nullptr : h.body.back()->as<ast::Return>();
      all_return = all_return && r && (!r->value || ast::is_none(r->value));
    }
    if (!all_return) continue;
    ast::Try copy = *t;
    for (auto& h : copy.handlers) {
      h.body.pop_back();
      if (h.body.empty()) h.body.push_back(ast::pass());
    }
    copy.orelse.assign(body.begin() + std::ptrdiff_t(k + 1), body.end());
    body.resize(k);
    body.push_back(ast::make_stmt(std::move(copy)));
    break;
  }
  // The same inside a last `if` or `try`: their arms also run to the end of the body.
  if (!body.empty()) {
    if (auto* i = body.back()->as<ast::If>()) {
      ast::If copy{i->test, fold_try_else(i->body), fold_try_else(i->orelse), i->keep_else};
      body.back() = ast::make_stmt(std::move(copy), body.back()->line);
    } else if (auto* t = body.back()->as<ast::Try>(); t && t->finalbody.empty()) {
      ast::Try copy = *t;
      for (auto& h : copy.handlers) h.body = fold_try_else(h.body);
      if (copy.orelse.empty()) copy.body = fold_try_else(copy.body);
      else copy.orelse = fold_try_else(copy.orelse);
      body.back() = ast::make_stmt(std::move(copy), body.back()->line);
    }
  }
  return body;
}

StmtList drop_trailing_return_none(StmtList body) { return drop_tail_returns(std::move(body), true); }

StmtList annotations_to_ann_assign(StmtList body, std::uint32_t flags) {
  StmtList out;
  for (const StmtPtr& s : body) {
    auto* a = s->as<ast::Assign>();
    const ast::Subscript* sub = a && a->targets.size() == 1 ? a->targets[0]->as<ast::Subscript>() : nullptr;
    const ast::Name* holder = sub ? sub->value->as<ast::Name>() : nullptr;
    if (holder && holder->id == "__annotations__" && is_str_constant(sub->slice)) {
      std::string target = sub->slice->as<ast::Constant>()->value->as<StrValue>()->utf8;
      ExprPtr value;
      if (!out.empty())
        if (const std::string* n = assigned_name(out.back()); n && *n == target) {
          value = out.back()->as<ast::Assign>()->value;
          out.pop_back();
        }
      out.push_back(ast::ann_assign(ast::name(target, ast::ExprContext::Store), annotation_as_written(a->value, flags), value));
      continue;
    }
    out.push_back(s);
  }
  return out;
}

StmtList tidy_module_body(StmtList body, std::uint32_t flags) {
  return annotations_to_ann_assign(
      drop_tail_returns(fold_try_else(docstring_from_assign(std::move(body))), false), flags);
}

namespace {
// The class body's epilogue the compiler adds (`__static_attributes__ = ...`
// 3.13+, `__classcell__ = __class__; return __classcell__` or `return None`)
// at its end, and in the arms of an if there (3.12+ copies a small exit into
// each arm that jumps to it).
StmtList drop_class_cell_return(StmtList body) {
  auto epilogue = [](const StmtPtr& s) {
    if (auto* r = s->as<ast::Return>()) {
      auto* n = r->value ? r->value->as<ast::Name>() : nullptr;
      return !r->value || ast::is_none(r->value) || (n && (n->id == "__class__" || n->id == "__classcell__"));
    }
    const std::string* a = assigned_name(s);
    return a && (*a == "__classcell__" || *a == "__static_attributes__");
  };
  if (body.empty()) return body;
  if (auto* i = body.back()->as<ast::If>(); i && !i->orelse.empty()) {
    StmtList then = drop_class_cell_return(i->body), orelse = drop_class_cell_return(i->orelse);
    if (then.empty()) then.push_back(ast::pass());
    body.back() = ast::if_(i->test, std::move(then), std::move(orelse));  // (an else left empty goes)
    return body;
  }
  if (!body.back()->is<ast::Return>()) return body;  // (only a copied exit ends in one)
  while (!body.empty() && epilogue(body.back())) body.pop_back();
  return body;
}
}  // namespace

StmtList tidy_class_body(StmtList body, std::uint32_t flags) {
  StmtList out;
  for (const StmtPtr& s : body) {
    if (const std::string* n = assigned_name(s)) {
      if (*n == "__module__" || *n == "__qualname__" || *n == "__firstlineno__" ||
          *n == "__static_attributes__" || *n == "__classcell__" || *n == "__classdictcell__")
        continue;
    }
    // 3.12+ a generic class: `__type_params__ = .type_params` (the wrapper's tuple).
    if (const std::string* n = assigned_name(s); n && *n == "__type_params__")
      if (auto* v = s->as<ast::Assign>()->value->as<ast::Name>(); v && v->id == ".type_params") continue;
    if (auto* a = s->as<ast::Assign>(); a && !a->targets.empty()) {
      // `__classcell__ = __class__` chained with another target: keep nothing of it.
      bool cell = false;
      for (const ExprPtr& t : a->targets)
        if (auto* tn = t->as<ast::Name>(); tn && tn->id == "__classcell__") cell = true;
      if (cell) continue;
    }
    out.push_back(s);
  }
  out = drop_class_cell_return(std::move(out));
  out = drop_tail_returns(std::move(out), false);
  return annotations_to_ann_assign(docstring_from_assign(std::move(out)), flags);
}

}  // namespace unveil::decompile

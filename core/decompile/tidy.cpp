// Bookkeeping statements the compiler adds to module, class and function
// bodies, removed (or turned back into what the source said).
#include <optional>

#include "ast/build.h"
#include "decompile/driver.h"
#include "decompile/signature.h"

namespace unveil::decompile {

using ast::ExprPtr;
using ast::StmtList;
using ast::StmtPtr;

namespace {

const ast::NameText* assigned_name(const StmtPtr& s) {
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
    if (const ast::NameText* n = assigned_name(body[0]); n && *n == "__doc__") {
      ExprPtr v = body[0]->as<ast::Assign>()->value;
      if (is_str_constant(v)) body[0] = ast::expr_stmt(v);
    }
  return body;
}

}  // namespace

namespace {

bool is_none_return(const StmtPtr& st) {
  auto* r = st->as<ast::Return>();
  return r && (!r->value || ast::is_none(r->value));
}

std::optional<StmtList> tail_returns_dropped(const StmtList& body, bool keep_lone);

// The compound statement `last` with the tail returns of its arms dropped;
// nullptr when none has any. (The passes rebuild only what changes: a copy
// of every nested body was a few allocations per function.)
StmtPtr tail_returns_dropped_inside(const StmtPtr& last, bool keep_lone) {
  if (auto* i = last->as<ast::If>()) {
    std::optional<StmtList> body = tail_returns_dropped(i->body, keep_lone);
    std::optional<StmtList> orelse = tail_returns_dropped(i->orelse, keep_lone);
    if (!body && !orelse) return nullptr;
    ast::If copy{i->test, body ? std::move(*body) : i->body, orelse ? std::move(*orelse) : i->orelse, i->keep_else};
    return ast::make_stmt(std::move(copy), last->line);
  }
  if (auto* t = last->as<ast::Try>(); t && t->finalbody.empty()) {
    std::optional<StmtList> arm = tail_returns_dropped(t->orelse.empty() ? t->body : t->orelse, keep_lone);
    std::vector<std::optional<StmtList>> handlers;
    bool changed = arm.has_value();
    for (const auto& h : t->handlers) {
      handlers.push_back(tail_returns_dropped(h.body, keep_lone));
      changed = changed || handlers.back().has_value();
    }
    if (!changed) return nullptr;
    ast::Try copy = *t;
    if (arm) (copy.orelse.empty() ? copy.body : copy.orelse) = std::move(*arm);
    for (std::size_t k = 0; k < handlers.size(); ++k)
      if (handlers[k]) copy.handlers[k].body = std::move(*handlers[k]);
    return ast::make_stmt(std::move(copy), last->line);
  }
  if (auto* w = last->as<ast::With>()) {
    std::optional<StmtList> body = tail_returns_dropped(w->body, keep_lone);
    if (!body) return nullptr;
    ast::With copy = *w;
    copy.body = std::move(*body);
    return ast::make_stmt(std::move(copy), last->line);
  }
  return nullptr;
}

// drop_tail_returns of a body it leaves alone; nothing when that would not change it.
std::optional<StmtList> tail_returns_dropped(const StmtList& body, bool keep_lone) {
  std::size_t end = body.size();
  while (end > 0 && is_none_return(body[end - 1])) {
    if (body[end - 1]->as<ast::Return>()->written || (keep_lone && end == 1)) break;
    --end;
  }
  StmtPtr inner = end > 0 ? tail_returns_dropped_inside(body[end - 1], keep_lone) : nullptr;
  if (end == body.size() && !inner) return std::nullopt;
  StmtList out(body.begin(), body.begin() + std::ptrdiff_t(end));
  if (inner) out.back() = std::move(inner);
  return out;
}

}  // namespace

// 3.10+ copies the implicit `return None` into every arm that reaches the end,
// so it is dropped from tail positions (a lone one only where `keep_lone` is off).
StmtList drop_tail_returns(StmtList body, bool keep_lone) {
  while (!body.empty() && is_none_return(body.back())) {
    if (body.back()->as<ast::Return>()->written || (keep_lone && body.size() == 1)) return body;
    body.pop_back();
  }
  if (!body.empty())
    if (StmtPtr inner = tail_returns_dropped_inside(body.back(), keep_lone)) body.back() = std::move(inner);
  return body;
}

namespace {

std::optional<StmtList> else_return_none_dropped(const StmtList& body);

// 3.10+: `else: return None` on a function's last if, whose other arm runs
// off the end, is the jump to the implicit final return (each jump gets a
// copy of it): no else. The same inside that arm's own last if. The if
// `last` without it, or nullptr when there is none.
StmtPtr if_without_else_return(const StmtPtr& last) {
  auto* i = last->as<ast::If>();
  if (!i) return nullptr;
  auto ends = [](const StmtList& b) { return !b.empty() && (b.back()->is<ast::Return>() || b.back()->is<ast::Raise>()); };
  std::optional<StmtList> body = else_return_none_dropped(i->body);
  const StmtList& new_body = body ? *body : i->body;
  const bool clear = i->orelse.size() == 1 && is_none_return(i->orelse[0]) && !ends(new_body);
  std::optional<StmtList> orelse = clear ? std::optional<StmtList>(StmtList{}) : else_return_none_dropped(i->orelse);
  if (!body && !orelse) return nullptr;
  ast::If copy{i->test, body ? std::move(*body) : i->body, orelse ? std::move(*orelse) : i->orelse, i->keep_else};
  return ast::make_stmt(std::move(copy), last->line);
}

std::optional<StmtList> else_return_none_dropped(const StmtList& body) {
  if (body.empty()) return std::nullopt;
  StmtPtr last = if_without_else_return(body.back());
  if (!last) return std::nullopt;
  StmtList out = body;
  out.back() = std::move(last);
  return out;
}

}  // namespace

StmtList drop_else_return_none(StmtList body) {
  if (!body.empty())
    if (StmtPtr last = if_without_else_return(body.back())) body.back() = std::move(last);
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
        if (const ast::NameText* n = assigned_name(out.back()); n && *n == target) {
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
    const ast::NameText* a = assigned_name(s);
    return a && (*a == "__classcell__" || *a == "__static_attributes__");
  };
  if (body.empty()) return body;
  if (auto* i = body.back()->as<ast::If>(); i && !i->orelse.empty()) {
    StmtList then = drop_class_cell_return(i->body), orelse = drop_class_cell_return(i->orelse);
    if (then.empty()) then.push_back(ast::pass());
    // (An else left empty goes.)
    body.back() = ast::make_stmt(ast::If{i->test, std::move(then), std::move(orelse), i->keep_else}, body.back()->line);
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
    if (const ast::NameText* n = assigned_name(s)) {
      if (*n == "__module__" || *n == "__qualname__" || *n == "__firstlineno__" ||
          *n == "__static_attributes__" || *n == "__classcell__" || *n == "__classdictcell__")
        continue;
    }
    // 3.12+ a generic class: `__type_params__ = .type_params` (the wrapper's tuple).
    if (const ast::NameText* n = assigned_name(s); n && *n == "__type_params__")
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

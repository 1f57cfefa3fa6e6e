#include "decompile/private_names.h"

#include <algorithm>
#include <functional>

#include "ast/build.h"
#include "ast/rewrite.h"

namespace unveil::decompile {

namespace {

bool is_private(std::string_view name) {
  return name.size() > 2 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) != "__" &&
         name.find('.') == std::string_view::npos;
}

// `_C__x` → `__x` when that is what `__x` mangles to; anything else unchanged.
// (A view of `stored`: every name of a class body is asked, most unchanged.)
std::string_view source_spelling(std::string_view stored, std::string_view prefix) {
  if (prefix.empty() || stored.size() <= prefix.size() || !stored.starts_with(prefix)) return stored;
  std::string_view plain = stored.substr(prefix.size());
  return is_private(plain) ? plain : stored;
}

// Calls `f` on each statement list nested in `s` (the arms map_statements
// rewrites: not def/class bodies).
template <class F>
void for_each_body(const ast::Stmt& s, F&& f) {
  auto loop = [&](const auto& n) {
    f(n.body);
    f(n.orelse);
  };
  if (auto* n = s.as<ast::For>()) loop(*n);
  else if (auto* n = s.as<ast::AsyncFor>()) loop(*n);
  else if (auto* n = s.as<ast::While>()) loop(*n);
  else if (auto* n = s.as<ast::If>()) loop(*n);
  else if (auto* n = s.as<ast::With>()) f(n->body);
  else if (auto* n = s.as<ast::AsyncWith>()) f(n->body);
  else if (auto* n = s.as<ast::Match>()) for (const auto& c : n->cases) f(c.body);
  else if (const ast::Try* t = s.is<ast::TryStar>() ? s.as<ast::TryStar>() : s.as<ast::Try>()) {
    f(t->body);
    for (const auto& h : t->handlers) f(h.body);
    f(t->orelse);
    f(t->finalbody);
  }
}

// Whether some name of `body` that unmangle_private_names respells is spelled
// otherwise (a superset of what it changes). Most class and method bodies
// have none: reading the tree costs less than rebuilding it.
bool has_respelling(const ast::StmtList& body, std::string_view prefix) {
  auto changes = [&](std::string_view s) { return source_spelling(s, prefix) != s; };
  auto any_changes = [&](const auto& names) {
    return std::any_of(names.begin(), names.end(), changes);
  };
  bool found = false;
  const std::function<void(const ast::ExprPtr&)> in_expr = [&](const ast::ExprPtr& e) {
    if (auto* n = e->as<ast::Name>()) found = found || changes(n->id);
    else if (auto* a = e->as<ast::Attribute>()) found = found || changes(a->attr);
  };
  auto own_names = [&](const ast::Stmt& s) {
    if (auto* f = s.as<ast::FunctionDef>()) return changes(f->name);
    if (auto* f = s.as<ast::AsyncFunctionDef>()) return changes(f->name);
    if (auto* k = s.as<ast::ClassDef>()) return changes(k->name);
    if (auto* g = s.as<ast::Global>()) return any_changes(g->names);
    if (auto* g = s.as<ast::Nonlocal>()) return any_changes(g->names);
    if (const ast::Try* t = s.is<ast::TryStar>() ? s.as<ast::TryStar>() : s.as<ast::Try>())
      return std::any_of(t->handlers.begin(), t->handlers.end(), [&](const auto& h) { return h.name && changes(*h.name); });
    if (auto* i = s.as<ast::ImportFrom>())
      return std::any_of(i->names.begin(), i->names.end(), [&](const auto& a) { return a.asname && changes(*a.asname); });
    return false;
  };
  std::function<void(const ast::StmtList&)> in_body = [&](const ast::StmtList& list) {
    for (const ast::StmtPtr& s : list) {
      if (found) return;
      found = own_names(*s);
      ast::visit_stmt(s, in_expr, /*into_bodies=*/false);
      for_each_body(*s, in_body);
    }
  };
  in_body(body);
  return found;
}

}  // namespace

std::string private_prefix(std::string_view class_name) {
  std::size_t k = class_name.find_first_not_of('_');
  if (k == std::string_view::npos) return {};
  std::string prefix = "_";  // (appended: GCC 12 warns, wrongly, about "_" + std::string)
  prefix += class_name.substr(k);
  return prefix;
}

std::string mangled(std::string_view name, std::string_view prefix) {
  if (prefix.empty() || !is_private(name)) return std::string(name);
  return std::string(prefix) + std::string(name);
}

ast::StmtList unmangle_private_names(const ast::StmtList& body, std::string_view prefix) {
  if (prefix.empty() || !has_respelling(body, prefix)) return body;
  auto spell = [&](std::string_view s) { return source_spelling(s, prefix); };
  ast::ExprMapper expr = [&](const ast::ExprPtr& e) -> ast::ExprPtr {
    if (auto* n = e->as<ast::Name>()) {
      std::string_view id = spell(n->id);
      return id == n->id ? nullptr : ast::name(std::string(id), n->ctx);
    }
    if (auto* a = e->as<ast::Attribute>()) {
      std::string_view attr = spell(a->attr);
      ast::ExprPtr value = ast::map_expr(a->value, expr);
      if (attr == a->attr && value == a->value) return e;
      return ast::attribute(value, std::string(attr), a->ctx);
    }
    return nullptr;
  };
  ast::StmtList out = ast::map_stmts(body, expr);
  return ast::map_statements(out, [&](const ast::StmtPtr& s) -> ast::StmtPtr {
    auto renamed = [&](auto node) { return ast::make_stmt(std::move(node), s->line); };
    if (auto* f = s->as<ast::FunctionDef>(); f && spell(f->name) != f->name) {
      ast::FunctionDef c = *f;
      c.name = spell(f->name);
      return renamed(std::move(c));
    }
    if (auto* f = s->as<ast::AsyncFunctionDef>(); f && spell(f->name) != f->name) {
      ast::AsyncFunctionDef c = *f;
      c.name = spell(f->name);
      return renamed(std::move(c));
    }
    if (auto* k = s->as<ast::ClassDef>(); k && spell(k->name) != k->name) {
      ast::ClassDef c = *k;
      c.name = spell(k->name);
      return renamed(std::move(c));
    }
    auto names = [&](std::vector<std::string> v) {
      for (auto& n : v) n = std::string(spell(n));
      return v;
    };
    if (auto* g = s->as<ast::Global>(); g && names(g->names) != g->names) return renamed(ast::Global{names(g->names)});
    if (auto* g = s->as<ast::Nonlocal>(); g && names(g->names) != g->names)
      return renamed(ast::Nonlocal{names(g->names)});
    // (A try or import copied only when a name in it changes.)
    auto respelled = [&](const std::optional<std::string>& n) { return n && spell(*n) != *n; };
    if (auto* t = s->as<ast::Try>();
        t && std::any_of(t->handlers.begin(), t->handlers.end(), [&](const auto& h) { return respelled(h.name); })) {
      ast::Try c = *t;
      for (auto& h : c.handlers)
        if (respelled(h.name)) h.name = std::string(spell(*h.name));
      return renamed(std::move(c));
    }
    if (auto* i = s->as<ast::ImportFrom>();
        i && std::any_of(i->names.begin(), i->names.end(), [&](const auto& a) { return respelled(a.asname); })) {
      ast::ImportFrom c = *i;
      for (auto& a : c.names)
        if (respelled(a.asname)) {
          a.asname = std::string(spell(*a.asname));
          if (*a.asname == a.name) a.asname.reset();
        }
      return renamed(std::move(c));
    }
    return nullptr;
  });
}

}  // namespace unveil::decompile

#include "decompile/private_names.h"

#include <algorithm>

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

}  // namespace

std::string private_prefix(std::string_view class_name) {
  std::size_t k = class_name.find_first_not_of('_');
  if (k == std::string_view::npos) return {};
  return "_" + std::string(class_name.substr(k));
}

std::string mangled(std::string_view name, std::string_view prefix) {
  if (prefix.empty() || !is_private(name)) return std::string(name);
  return std::string(prefix) + std::string(name);
}

ast::StmtList unmangle_private_names(const ast::StmtList& body, std::string_view prefix) {
  if (prefix.empty()) return body;
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

#include "decompile/private_names.h"

#include "ast/build.h"
#include "ast/rewrite.h"

namespace unveil::decompile {

namespace {

bool is_private(std::string_view name) {
  return name.size() > 2 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) != "__" &&
         name.find('.') == std::string_view::npos;
}

// `_C__x` → `__x` when that is what `__x` mangles to; anything else unchanged.
std::string source_spelling(const std::string& stored, std::string_view prefix) {
  if (prefix.empty() || stored.size() <= prefix.size() || stored.compare(0, prefix.size(), prefix) != 0)
    return stored;
  std::string plain = stored.substr(prefix.size());
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
  auto spell = [&](const std::string& s) { return source_spelling(s, prefix); };
  ast::ExprMapper expr = [&](const ast::ExprPtr& e) -> ast::ExprPtr {
    if (auto* n = e->as<ast::Name>()) {
      std::string id = spell(n->id);
      return id == n->id ? nullptr : ast::name(id, n->ctx);
    }
    if (auto* a = e->as<ast::Attribute>()) {
      std::string attr = spell(a->attr);
      ast::ExprPtr value = ast::map_expr(a->value, expr);
      if (attr == a->attr && value == a->value) return e;
      return ast::attribute(value, attr, a->ctx);
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
      for (auto& n : v) n = spell(n);
      return v;
    };
    if (auto* g = s->as<ast::Global>(); g && names(g->names) != g->names) return renamed(ast::Global{names(g->names)});
    if (auto* g = s->as<ast::Nonlocal>(); g && names(g->names) != g->names)
      return renamed(ast::Nonlocal{names(g->names)});
    if (auto* t = s->as<ast::Try>()) {
      ast::Try c = *t;
      bool changed = false;
      for (auto& h : c.handlers)
        if (h.name && spell(*h.name) != *h.name) h.name = spell(*h.name), changed = true;
      return changed ? renamed(std::move(c)) : nullptr;
    }
    if (auto* i = s->as<ast::ImportFrom>()) {
      ast::ImportFrom c = *i;
      bool changed = false;
      for (auto& a : c.names)
        if (a.asname && spell(*a.asname) != *a.asname) {
          a.asname = spell(*a.asname);
          if (*a.asname == a.name) a.asname.reset();
          changed = true;
        }
      return changed ? renamed(std::move(c)) : nullptr;
    }
    return nullptr;
  });
}

}  // namespace unveil::decompile

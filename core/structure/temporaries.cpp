#include "structure/temporaries.h"

#include <map>

#include "ast/build.h"
#include "ast/rewrite.h"

namespace unveil::structure {

namespace {

using ast::ExprPtr;
using ast::StmtList;
using ast::StmtPtr;

// `_tN = value` for a temporary: its name, else nullptr.
const ast::NameText* temporary_assigned(const StmtPtr& s, const ast::NameSet& temps) {
  auto* a = s->as<ast::Assign>();
  if (!a || a->targets.size() != 1) return nullptr;
  auto* n = a->targets[0]->as<ast::Name>();
  return n && temps.count(n->id) ? &n->id : nullptr;
}

bool binds_names(const ExprPtr& e) {
  bool found = false;
  ast::visit_expr(e, [&](const ExprPtr& x) { found = found || x->is<ast::NamedExpr>(); });
  return found;
}

class Inliner {
 public:
  explicit Inliner(const ast::NameSet& temps) : temps_(temps) {}

  void count(const StmtList& body) {
    for (const StmtPtr& s : body)
      ast::visit_stmt(s, [&](const ExprPtr& e) {
        if (auto* n = e->as<ast::Name>(); n && n->ctx == ast::ExprContext::Load && temps_.count(n->id))
          ++uses_[n->id.str()];
      }, true);
  }

  StmtList run(const StmtList& body) {
    StmtList out;
    out.reserve(body.size());
    for (const StmtPtr& s : body) out.push_back(into_bodies(s));
    // Backwards, so that a chain `_t1 = a(); _t2 = _t1.b; f(_t2)` folds completely.
    for (std::size_t k = out.size(); k-- > 1;) {
      const ast::NameText* t = temporary_assigned(out[k - 1], temps_);
      if (!t || uses_of(*t) != 1) continue;
      ExprPtr value = out[k - 1]->as<ast::Assign>()->value;
      if (binds_names(value)) continue;
      const ast::Expr* use = nullptr;
      ast::visit_stmt(out[k], [&](const ExprPtr& e) {
        if (auto* n = e->as<ast::Name>(); n && n->id == *t && n->ctx == ast::ExprContext::Load) use = e.get();
      }, false);
      if (!use || !ast::evaluated_first_in(out[k], use)) continue;
      out[k] = ast::map_stmt(out[k], [&](const ExprPtr& e) { return e.get() == use ? value : nullptr; }, false);
      out.erase(out.begin() + std::ptrdiff_t(k - 1));
    }
    return out;
  }

 private:
  // Nested statement lists of the same scope (not def/class bodies).
  StmtPtr into_bodies(const StmtPtr& s) {
    auto fold = [&](auto node) {
      return ast::make_stmt(std::move(node), s->line);
    };
    if (auto* i = s->as<ast::If>()) return fold(ast::If{i->test, run(i->body), run(i->orelse), i->keep_else});
    if (auto* w = s->as<ast::While>()) return fold(ast::While{w->test, run(w->body), run(w->orelse)});
    if (auto* f = s->as<ast::For>()) {
      ast::For c = *f;
      c.body = run(c.body);
      c.orelse = run(c.orelse);
      return fold(std::move(c));
    }
    if (auto* f = s->as<ast::AsyncFor>()) {
      ast::AsyncFor c = *f;
      c.body = run(c.body);
      c.orelse = run(c.orelse);
      return fold(std::move(c));
    }
    if (auto* w = s->as<ast::With>()) {
      ast::With c = *w;
      c.body = run(c.body);
      return fold(std::move(c));
    }
    if (auto* w = s->as<ast::AsyncWith>()) {
      ast::AsyncWith c = *w;
      c.body = run(c.body);
      return fold(std::move(c));
    }
    if (auto* t = s->as<ast::Try>()) return fold(try_parts(*t));
    if (auto* t = s->as<ast::TryStar>()) {
      ast::TryStar c;
      static_cast<ast::Try&>(c) = try_parts(*t);
      return fold(std::move(c));
    }
    return s;
  }
  ast::Try try_parts(const ast::Try& t) {
    ast::Try c = t;
    c.body = run(c.body);
    for (auto& h : c.handlers) h.body = run(h.body);
    c.orelse = run(c.orelse);
    c.finalbody = run(c.finalbody);
    return c;
  }

  const ast::NameSet& temps_;
  std::map<std::string, int, std::less<>> uses_;
  int uses_of(std::string_view name) const {
    auto it = uses_.find(name);
    return it == uses_.end() ? 0 : it->second;
  }
};

}  // namespace

StmtList inline_temporaries(const StmtList& body, const ast::NameSet& temps) {
  if (temps.empty()) return body;
  Inliner inliner(temps);
  inliner.count(body);
  return inliner.run(body);
}

}  // namespace unveil::structure

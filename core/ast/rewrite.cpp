// Generic tree walks. Each node kind lists its children once, in evaluation
// order, in `children_of`; mapping, visiting and the evaluation-order queries
// are all written over that one list.
#include "ast/rewrite.h"

#include <type_traits>

#include "ast/build.h"

namespace unveil::ast {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// Applies `f` to each child slot of `node` (a mutable copy), in evaluation order.
// Slots may hold nullptr (absent optional children); `f` sees them too.
template <class Fn>
void for_each_child(Expr& node, Fn&& f) {
  auto list = [&](ExprList& l) {
    for (ExprPtr& x : l) f(x);
  };
  auto comps = [&](std::vector<Comprehension>& gens) {
    for (Comprehension& g : gens) {
      f(g.iter);
      f(g.target);
      list(g.ifs);
    }
  };
  std::visit(Overloaded{
                 [&](BoolOp& n) { list(n.values); },
                 [&](NamedExpr& n) {
                   f(n.value);
                   f(n.target);
                 },
                 [&](BinOp& n) {
                   f(n.left);
                   f(n.right);
                 },
                 [&](UnaryOp& n) { f(n.operand); },
                 [&](Lambda& n) {  // the body is another scope: only the defaults run here
                   list(n.args->defaults);
                   list(n.args->kw_defaults);
                 },
                 [&](IfExp& n) {
                   f(n.test);
                   f(n.body);
                   f(n.orelse);
                 },
                 [&](Dict& n) {
                   for (std::size_t k = 0; k < n.values.size(); ++k) {
                     if (k < n.keys.size()) f(n.keys[k]);
                     f(n.values[k]);
                   }
                 },
                 [&](Set& n) { list(n.elts); },
                 [&](ListComp& n) {
                   comps(n.generators);
                   f(n.elt);
                 },
                 [&](SetComp& n) {
                   comps(n.generators);
                   f(n.elt);
                 },
                 [&](DictComp& n) {
                   comps(n.generators);
                   f(n.key);
                   f(n.value);
                 },
                 [&](GeneratorExp& n) {
                   comps(n.generators);
                   f(n.elt);
                 },
                 [&](Await& n) { f(n.value); },
                 [&](Yield& n) { f(n.value); },
                 [&](YieldFrom& n) { f(n.value); },
                 [&](Compare& n) {
                   f(n.left);
                   list(n.comparators);
                 },
                 [&](Call& n) {
                   f(n.func);
                   list(n.args);
                   for (Keyword& k : n.keywords) f(k.value);
                 },
                 [&](FormattedValue& n) {
                   f(n.value);
                   f(n.format_spec);
                 },
                 [&](JoinedStr& n) { list(n.values); },
                 [&](Interpolation& n) {
                   f(n.value);
                   f(n.format_spec);
                 },
                 [&](TemplateStr& n) { list(n.values); },
                 [&](Constant&) {},
                 [&](Attribute& n) { f(n.value); },
                 [&](Subscript& n) {
                   f(n.value);
                   f(n.slice);
                 },
                 [&](Starred& n) { f(n.value); },
                 [&](Name&) {},
                 [&](List& n) { list(n.elts); },
                 [&](Tuple& n) { list(n.elts); },
                 [&](Slice& n) {
                   f(n.lower);
                   f(n.upper);
                   f(n.step);
                 },
             },
             node.node);
}

// The same for a statement's own expressions (`bodies` gets nested statement lists).
template <class Fn, class BodyFn>
void for_each_part(Stmt& s, Fn&& f, BodyFn&& bodies) {
  auto list = [&](ExprList& l) {
    for (ExprPtr& x : l) f(x);
  };
  auto signature = [&](Arguments& a) {
    list(a.defaults);
    list(a.kw_defaults);
    for (auto* group : {&a.posonlyargs, &a.args, &a.kwonlyargs})
      for (Arg& x : *group) f(x.annotation);
    if (a.vararg) f(a.vararg->annotation);
    if (a.kwarg) f(a.kwarg->annotation);
  };
  auto function = [&](FunctionDef& n) {
    list(n.decorator_list);
    signature(*n.args);
    f(n.returns);
  };
  std::visit(Overloaded{
                 [&](FunctionDef& n) { function(n); },
                 [&](AsyncFunctionDef& n) { function(n); },
                 [&](ClassDef& n) {
                   list(n.decorator_list);
                   list(n.bases);
                   for (Keyword& k : n.keywords) f(k.value);
                 },
                 [&](Return& n) { f(n.value); },
                 [&](Delete& n) { list(n.targets); },
                 [&](Assign& n) {
                   f(n.value);
                   list(n.targets);
                 },
                 [&](TypeAlias&) {},  // evaluated lazily, in its own scope
                 [&](AugAssign& n) {
                   f(n.target);
                   f(n.value);
                 },
                 [&](AnnAssign& n) {
                   f(n.value);
                   f(n.target);
                   f(n.annotation);
                 },
                 [&](For& n) {
                   f(n.iter);
                   f(n.target);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](AsyncFor& n) {
                   f(n.iter);
                   f(n.target);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](While& n) {
                   f(n.test);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](If& n) {
                   f(n.test);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](With& n) {
                   for (WithItem& w : n.items) {
                     f(w.context_expr);
                     f(w.optional_vars);
                   }
                   bodies(n.body);
                 },
                 [&](AsyncWith& n) {
                   for (WithItem& w : n.items) {
                     f(w.context_expr);
                     f(w.optional_vars);
                   }
                   bodies(n.body);
                 },
                 [&](Match& n) {
                   f(n.subject);
                   for (MatchCase& c : n.cases) {
                     f(c.guard);
                     bodies(c.body);
                   }
                 },
                 [&](Raise& n) {
                   f(n.exc);
                   f(n.cause);
                 },
                 [&](Try& n) {
                   bodies(n.body);
                   for (ExceptHandler& h : n.handlers) {
                     f(h.type);
                     bodies(h.body);
                   }
                   bodies(n.orelse);
                   bodies(n.finalbody);
                 },
                 [&](TryStar& n) {
                   bodies(n.body);
                   for (ExceptHandler& h : n.handlers) {
                     f(h.type);
                     bodies(h.body);
                   }
                   bodies(n.orelse);
                   bodies(n.finalbody);
                 },
                 [&](Assert& n) {
                   f(n.test);
                   f(n.msg);
                 },
                 [&](ExprStmt& n) { f(n.value); },
                 [](auto&) {},
             },
             s.node);
}

// Walks in evaluation order until `stop` says where to stop.
enum class Walk { Continue, Found, Blocked };

bool is_atom(const Expr& e) { return e.is<Name>() || e.is<Constant>(); }

// Only displays build their value without running user code once their
// elements are evaluated.
bool builds_only(const Expr& e) {
  return e.is<Tuple>() || e.is<List>() || e.is<Set>() || e.is<Dict>() || e.is<Slice>();
}

// Parts that run unconditionally before any of the node's own work:
// for and/or and the conditional expression, only the first operand.
bool conditional_rest(const Expr& e) {
  return e.is<BoolOp>() || e.is<IfExp>() || e.is<ListComp>() || e.is<SetComp>() ||
         e.is<DictComp>() || e.is<GeneratorExp>() || e.is<Lambda>();
}

Walk walk_until(const ExprPtr& e, const Expr* target) {
  if (!e) return Walk::Continue;
  if (e.get() == target) return Walk::Found;
  if (is_atom(*e)) return Walk::Continue;
  Expr copy = *e;
  Walk result = Walk::Continue;
  bool first = true;
  for_each_child(copy, [&](ExprPtr& c) {
    if (result != Walk::Continue || !c) return;
    if (!first && conditional_rest(*e)) {
      result = Walk::Blocked;
      return;
    }
    first = false;
    result = walk_until(c, target);
  });
  if (result != Walk::Continue) return result;
  return builds_only(*e) ? Walk::Continue : Walk::Blocked;
}

}  // namespace

ExprPtr map_expr(const ExprPtr& e, const ExprMapper& f) {
  if (!e) return e;
  if (ExprPtr r = f(e)) return r;
  Expr copy = *e;
  bool changed = false;
  for_each_child(copy, [&](ExprPtr& c) {
    ExprPtr m = map_expr(c, f);
    if (m != c) {
      c = std::move(m);
      changed = true;
    }
  });
  return changed ? make_node<Expr>(std::move(copy)) : e;
}

ExprPtr map_expr(const ExprPtr& e, const ExprMapper& f, std::unordered_map<const Expr*, ExprPtr>& memo) {
  if (!e) return e;
  if (auto it = memo.find(e.get()); it != memo.end()) return it->second;
  ExprPtr out = f(e);
  if (!out) {
    Expr copy = *e;
    bool changed = false;
    for_each_child(copy, [&](ExprPtr& c) {
      ExprPtr m = map_expr(c, f, memo);
      if (m != c) {
        c = std::move(m);
        changed = true;
      }
    });
    out = changed ? make_node<Expr>(std::move(copy)) : e;
  }
  memo.emplace(e.get(), out);
  return out;
}

StmtPtr map_stmt(const StmtPtr& s, const ExprMapper& f, bool into_bodies) {
  Stmt copy = *s;
  bool changed = false;
  for_each_part(
      copy,
      [&](ExprPtr& x) {
        ExprPtr m = map_expr(x, f);
        if (m != x) {
          x = std::move(m);
          changed = true;
        }
      },
      [&](StmtList& body) {
        if (!into_bodies) return;
        StmtList m = map_stmts(body, f);
        for (std::size_t k = 0; k < m.size(); ++k)
          if (m[k] != body[k]) changed = true;
        body = std::move(m);
      });
  return changed ? make_node<Stmt>(std::move(copy)) : s;
}

StmtList map_stmts(const StmtList& body, const ExprMapper& f) {
  StmtList out;
  out.reserve(body.size());
  for (const StmtPtr& s : body) out.push_back(map_stmt(s, f, true));
  return out;
}

StmtPtr map_bodies(const StmtPtr& s, const std::function<StmtList(const StmtList&)>& f) {
  Stmt copy = *s;
  bool changed = false;
  for_each_part(
      copy, [](ExprPtr&) {},
      [&](StmtList& inner) {
        StmtList m = f(inner);
        changed = changed || m.size() != inner.size();
        for (std::size_t k = 0; k < m.size() && k < inner.size(); ++k) changed = changed || m[k] != inner[k];
        inner = std::move(m);
      });
  return changed ? make_node<Stmt>(std::move(copy)) : s;
}

StmtList map_statements(const StmtList& body, const StmtMapper& f) {
  StmtList out;
  out.reserve(body.size());
  for (const StmtPtr& s : body) {
    StmtPtr rebuilt = map_bodies(s, [&](const StmtList& inner) { return map_statements(inner, f); });
    StmtPtr replaced = f(rebuilt);
    out.push_back(replaced ? replaced : rebuilt);
  }
  return out;
}

void visit_expr(const ExprPtr& e, const std::function<void(const ExprPtr&)>& f) {
  if (!e) return;
  f(e);
  Expr copy = *e;
  for_each_child(copy, [&](ExprPtr& c) { visit_expr(c, f); });
}

void visit_stmt(const StmtPtr& s, const std::function<void(const ExprPtr&)>& f, bool into_bodies) {
  Stmt copy = *s;
  for_each_part(
      copy, [&](ExprPtr& x) { visit_expr(x, f); },
      [&](StmtList& body) {
        if (into_bodies)
          for (const StmtPtr& b : body) visit_stmt(b, f, true);
      });
}

std::set<std::string> bound_names(const Stmt& s) {
  std::set<std::string> out;
  std::function<void(const ExprPtr&)> target = [&](const ExprPtr& t) {
    if (!t) return;
    if (auto* n = t->as<Name>()) out.insert(n->id);
    else if (auto* tu = t->as<Tuple>())
      for (const ExprPtr& x : tu->elts) target(x);
    else if (auto* l = t->as<List>())
      for (const ExprPtr& x : l->elts) target(x);
    else if (auto* st = t->as<Starred>()) target(st->value);
  };
  std::visit(Overloaded{
                 [&](const FunctionDef& n) { out.insert(n.name); },
                 [&](const AsyncFunctionDef& n) { out.insert(n.name); },
                 [&](const ClassDef& n) { out.insert(n.name); },
                 [&](const Delete& n) {
                   for (const ExprPtr& t : n.targets) target(t);
                 },
                 [&](const Assign& n) {
                   for (const ExprPtr& t : n.targets) target(t);
                 },
                 [&](const AugAssign& n) { target(n.target); },
                 [&](const AnnAssign& n) { target(n.target); },
                 [&](const For& n) { target(n.target); },
                 [&](const Import& n) {
                   for (const Alias& a : n.names)
                     out.insert(a.asname ? *a.asname : a.name.substr(0, a.name.find('.')));
                 },
                 [&](const ImportFrom& n) {
                   for (const Alias& a : n.names) out.insert(a.asname ? *a.asname : a.name);
                 },
                 [](const auto&) {},
             },
             s.node);
  // Walrus targets anywhere in the statement's own expressions.
  Stmt copy = s;
  for_each_part(
      copy,
      [&](ExprPtr& x) {
        visit_expr(x, [&](const ExprPtr& e) {
          if (auto* ne = e->as<NamedExpr>()) target(ne->target);
        });
      },
      [](StmtList&) {});
  return out;
}

bool evaluated_first_in(const StmtPtr& s, const Expr* target) {
  Stmt copy = *s;
  Walk result = Walk::Continue;
  bool stop = false;
  for_each_part(
      copy,
      [&](ExprPtr& x) {
        if (stop || !x) return;
        result = walk_until(x, target);
        if (result != Walk::Continue) stop = true;
      },
      [&](StmtList&) { stop = true; });
  return result == Walk::Found;
}

}  // namespace unveil::ast

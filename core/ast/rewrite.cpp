// Generic tree walks. Each node kind lists its children once, in evaluation
// order, in `children_of`; mapping, visiting and the evaluation-order queries
// are all written over that one list.
#include "ast/rewrite.h"

#include <algorithm>
#include <optional>
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

// `T`, const when `Node` is: the walks below read const nodes and fill copies.
template <class Node, class T>
using Like = std::conditional_t<std::is_const_v<Node>, const T, T>;

// Applies `f` to each child slot of `node`, in evaluation order: slots of a
// const node to read, of a mutable copy to replace. Slots may hold nullptr
// (absent optional children); `f` sees them too.
template <class Node, class Fn>
void for_each_child(Node& node, Fn&& f) {
  static_assert(std::is_same_v<std::remove_const_t<Node>, Expr>);
  auto list = [&](Like<Node, ExprList>& l) {
    for (auto& x : l) f(x);
  };
  auto comps = [&](Like<Node, std::vector<Comprehension>>& gens) {
    for (auto& g : gens) {
      f(g.iter);
      f(g.target);
      list(g.ifs);
    }
  };
  std::visit(Overloaded{
                 [&](Like<Node, BoolOp>& n) { list(n.values); },
                 [&](Like<Node, NamedExpr>& n) {
                   f(n.value);
                   f(n.target);
                 },
                 [&](Like<Node, BinOp>& n) {
                   f(n.left);
                   f(n.right);
                 },
                 [&](Like<Node, UnaryOp>& n) { f(n.operand); },
                 [&](Like<Node, Lambda>& n) {  // the body is another scope: only the defaults run here
                   list(n.args->defaults);
                   list(n.args->kw_defaults);
                 },
                 [&](Like<Node, IfExp>& n) {
                   f(n.test);
                   f(n.body);
                   f(n.orelse);
                 },
                 [&](Like<Node, Dict>& n) {
                   for (std::size_t k = 0; k < n.values.size(); ++k) {
                     if (k < n.keys.size()) f(n.keys[k]);
                     f(n.values[k]);
                   }
                 },
                 [&](Like<Node, Set>& n) { list(n.elts); },
                 [&](Like<Node, ListComp>& n) {
                   comps(n.generators);
                   f(n.elt);
                 },
                 [&](Like<Node, SetComp>& n) {
                   comps(n.generators);
                   f(n.elt);
                 },
                 [&](Like<Node, DictComp>& n) {
                   comps(n.generators);
                   f(n.key);
                   f(n.value);
                 },
                 [&](Like<Node, GeneratorExp>& n) {
                   comps(n.generators);
                   f(n.elt);
                 },
                 [&](Like<Node, Await>& n) { f(n.value); },
                 [&](Like<Node, Yield>& n) { f(n.value); },
                 [&](Like<Node, YieldFrom>& n) { f(n.value); },
                 [&](Like<Node, Compare>& n) {
                   f(n.left);
                   list(n.comparators);
                 },
                 [&](Like<Node, Call>& n) {
                   f(n.func);
                   list(n.args);
                   for (auto& k : n.keywords) f(k.value);
                 },
                 [&](Like<Node, FormattedValue>& n) {
                   f(n.value);
                   f(n.format_spec);
                 },
                 [&](Like<Node, JoinedStr>& n) { list(n.values); },
                 [&](Like<Node, Interpolation>& n) {
                   f(n.value);
                   f(n.format_spec);
                 },
                 [&](Like<Node, TemplateStr>& n) { list(n.values); },
                 [&](Like<Node, Constant>&) {},
                 [&](Like<Node, Attribute>& n) { f(n.value); },
                 [&](Like<Node, Subscript>& n) {
                   f(n.value);
                   f(n.slice);
                 },
                 [&](Like<Node, Starred>& n) { f(n.value); },
                 [&](Like<Node, Name>&) {},
                 [&](Like<Node, List>& n) { list(n.elts); },
                 [&](Like<Node, Tuple>& n) { list(n.elts); },
                 [&](Like<Node, Slice>& n) {
                   f(n.lower);
                   f(n.upper);
                   f(n.step);
                 },
             },
             node.node);
}

// The same for a statement's own expressions (`bodies` gets nested statement lists).
template <class Node, class Fn, class BodyFn>
void for_each_part(Node& s, Fn&& f, BodyFn&& bodies) {
  static_assert(std::is_same_v<std::remove_const_t<Node>, Stmt>);
  auto list = [&](Like<Node, ExprList>& l) {
    for (auto& x : l) f(x);
  };
  auto signature = [&](Like<Node, Arguments>& a) {
    list(a.defaults);
    list(a.kw_defaults);
    for (auto* group : {&a.posonlyargs, &a.args, &a.kwonlyargs})
      for (auto& x : *group) f(x.annotation);
    if (a.vararg) f(a.vararg->annotation);
    if (a.kwarg) f(a.kwarg->annotation);
  };
  auto function = [&](Like<Node, FunctionDef>& n) {
    list(n.decorator_list);
    signature(*n.args);
    f(n.returns);
  };
  s.visit(Overloaded{
                 [&](Like<Node, FunctionDef>& n) { function(n); },
                 [&](Like<Node, AsyncFunctionDef>& n) { function(n); },
                 [&](Like<Node, ClassDef>& n) {
                   list(n.decorator_list);
                   list(n.bases);
                   for (auto& k : n.keywords) f(k.value);
                 },
                 [&](Like<Node, Return>& n) { f(n.value); },
                 [&](Like<Node, Delete>& n) { list(n.targets); },
                 [&](Like<Node, Assign>& n) {
                   f(n.value);
                   list(n.targets);
                 },
                 [&](Like<Node, TypeAlias>&) {},  // evaluated lazily, in its own scope
                 [&](Like<Node, AugAssign>& n) {
                   f(n.target);
                   f(n.value);
                 },
                 [&](Like<Node, AnnAssign>& n) {
                   f(n.value);
                   f(n.target);
                   f(n.annotation);
                 },
                 [&](Like<Node, For>& n) {
                   f(n.iter);
                   f(n.target);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](Like<Node, AsyncFor>& n) {
                   f(n.iter);
                   f(n.target);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](Like<Node, While>& n) {
                   f(n.test);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](Like<Node, If>& n) {
                   f(n.test);
                   bodies(n.body);
                   bodies(n.orelse);
                 },
                 [&](Like<Node, With>& n) {
                   for (auto& w : n.items) {
                     f(w.context_expr);
                     f(w.optional_vars);
                   }
                   bodies(n.body);
                 },
                 [&](Like<Node, AsyncWith>& n) {
                   for (auto& w : n.items) {
                     f(w.context_expr);
                     f(w.optional_vars);
                   }
                   bodies(n.body);
                 },
                 [&](Like<Node, Match>& n) {
                   f(n.subject);
                   for (auto& c : n.cases) {
                     f(c.guard);
                     bodies(c.body);
                   }
                 },
                 [&](Like<Node, Raise>& n) {
                   f(n.exc);
                   f(n.cause);
                 },
                 [&](Like<Node, Try>& n) {
                   bodies(n.body);
                   for (auto& h : n.handlers) {
                     f(h.type);
                     bodies(h.body);
                   }
                   bodies(n.orelse);
                   bodies(n.finalbody);
                 },
                 [&](Like<Node, TryStar>& n) {
                   bodies(n.body);
                   for (auto& h : n.handlers) {
                     f(h.type);
                     bodies(h.body);
                   }
                   bodies(n.orelse);
                   bodies(n.finalbody);
                 },
                 [&](Like<Node, Assert>& n) {
                   f(n.test);
                   f(n.msg);
                 },
                 [&](Like<Node, ExprStmt>& n) { f(n.value); },
                 [](auto&) {},
             });
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
  Walk result = Walk::Continue;
  bool first = true;
  for_each_child(*e, [&](const ExprPtr& c) {
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

// The walks below read a node's children in place and copy the node only at
// its first changed child (a copy of a statement copies its bodies, and most
// nodes a pass visits stay as they are). Each child is mapped once, in order.

// `node` with each expression slot replaced by `map(slot)`, or nullopt when
// every slot maps to itself. `for_each` is for_each_child or for_each_part;
// statement-list slots (when `for_each` has them) go through `map_body`.
template <class Node, class ForEach, class Map, class MapBody>
std::optional<Node> remapped(const Node& node, ForEach&& for_each, Map&& map, MapBody&& map_body) {
  constexpr std::size_t kNone = std::size_t(-1);
  std::size_t slot = 0, first_change = kNone;
  ExprPtr changed_expr;  // the first changed slot's new value
  StmtList changed_body;
  for_each(
      node,
      [&](const ExprPtr& x) {
        if (first_change != kNone) return;
        if (ExprPtr m = map(x); m != x) first_change = slot, changed_expr = std::move(m);
        ++slot;
      },
      [&](const StmtList& body) {
        if (first_change != kNone) return;
        if (std::optional<StmtList> m = map_body(body)) first_change = slot, changed_body = std::move(*m);
        ++slot;
      });
  if (first_change == kNone) return std::nullopt;
  std::optional<Node> copy(std::in_place, node);
  slot = 0;
  for_each(
      *copy,
      [&](ExprPtr& x) {
        if (slot == first_change) x = std::move(changed_expr);
        else if (slot > first_change) x = map(x);
        ++slot;
      },
      [&](StmtList& body) {
        if (slot == first_change) body = std::move(changed_body);
        else if (slot > first_change)
          if (std::optional<StmtList> m = map_body(body)) body = std::move(*m);
        ++slot;
      });
  return copy;
}

template <class Map>
std::optional<Expr> remapped_children(const Expr& node, Map&& map) {
  auto for_each = [](auto& n, auto&& f, auto&&) { for_each_child(n, f); };
  return remapped(node, for_each, map, [](const StmtList&) { return std::optional<StmtList>(); });
}

}  // namespace

ExprPtr map_expr(const ExprPtr& e, const ExprMapper& f) {
  if (!e) return e;
  if (ExprPtr r = f(e)) return r;
  std::optional<Expr> copy = remapped_children(*e, [&](const ExprPtr& c) { return map_expr(c, f); });
  return copy ? make_node<Expr>(std::move(*copy)) : e;
}

ExprPtr map_expr(const ExprPtr& e, const ExprMapper& f, std::unordered_map<const Expr*, ExprPtr>& memo) {
  if (!e) return e;
  if (auto it = memo.find(e.get()); it != memo.end()) return it->second;
  ExprPtr out = f(e);
  if (!out) {
    std::optional<Expr> copy = remapped_children(*e, [&](const ExprPtr& c) { return map_expr(c, f, memo); });
    out = copy ? make_node<Expr>(std::move(*copy)) : e;
  }
  memo.emplace(e.get(), out);
  return out;
}

namespace {
auto for_each_part_of = [](auto& s, auto&& f, auto&& bodies) { for_each_part(s, f, bodies); };

// `body` mapped by `f` (list to list), or nullopt when it keeps every statement.
template <class F>
std::optional<StmtList> changed_list(const StmtList& body, F&& f) {
  StmtList m = f(body);
  if (m.size() == body.size() && std::equal(m.begin(), m.end(), body.begin())) return std::nullopt;
  return m;
}
}  // namespace

StmtPtr map_stmt(const StmtPtr& s, const ExprMapper& f, bool into_bodies) {
  std::optional<Stmt> copy = remapped(
      *s, for_each_part_of, [&](const ExprPtr& x) { return map_expr(x, f); },
      [&](const StmtList& body) -> std::optional<StmtList> {
        if (!into_bodies) return std::nullopt;
        return changed_list(body, [&](const StmtList& b) { return map_stmts(b, f); });
      });
  return copy ? make_node<Stmt>(std::move(*copy)) : s;
}

StmtList map_stmts(const StmtList& body, const ExprMapper& f) {
  StmtList out;
  out.reserve(body.size());
  for (const StmtPtr& s : body) out.push_back(map_stmt(s, f, true));
  return out;
}

StmtPtr map_bodies(const StmtPtr& s, const std::function<StmtList(const StmtList&)>& f) {
  std::optional<Stmt> copy = remapped(
      *s, for_each_part_of, [](const ExprPtr& x) { return x; },
      [&](const StmtList& body) { return changed_list(body, f); });
  return copy ? make_node<Stmt>(std::move(*copy)) : s;
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
  for_each_child(*e, [&](const ExprPtr& c) { visit_expr(c, f); });
}

void visit_stmt(const StmtPtr& s, const std::function<void(const ExprPtr&)>& f, bool into_bodies) {
  for_each_part(
      *s, [&](const ExprPtr& x) { visit_expr(x, f); },
      [&](const StmtList& body) {
        if (into_bodies)
          for (const StmtPtr& b : body) visit_stmt(b, f, true);
      });
}

NameSet bound_names(const Stmt& s) {
  NameSet out;
  std::function<void(const ExprPtr&)> target = [&](const ExprPtr& t) {
    if (!t) return;
    if (auto* n = t->as<Name>()) out.emplace(n->id.view());
    else if (auto* tu = t->as<Tuple>())
      for (const ExprPtr& x : tu->elts) target(x);
    else if (auto* l = t->as<List>())
      for (const ExprPtr& x : l->elts) target(x);
    else if (auto* st = t->as<Starred>()) target(st->value);
  };
  s.visit(Overloaded{
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
             });
  // Walrus targets anywhere in the statement's own expressions.
  for_each_part(
      s,
      [&](const ExprPtr& x) {
        visit_expr(x, [&](const ExprPtr& e) {
          if (auto* ne = e->as<NamedExpr>()) target(ne->target);
        });
      },
      [](const StmtList&) {});
  return out;
}

bool evaluated_first_in(const StmtPtr& s, const Expr* target) {
  Walk result = Walk::Continue;
  bool stop = false;
  for_each_part(
      *s,
      [&](const ExprPtr& x) {
        if (stop || !x) return;
        result = walk_until(x, target);
        if (result != Walk::Continue) stop = true;
      },
      [&](const StmtList&) { stop = true; });
  return result == Walk::Found;
}

}  // namespace unveil::ast

#include "ast/dump.h"

#include <type_traits>

#include "emit/literal.h"

namespace unveil::ast {

namespace {

std::string dump_expr(const ExprPtr& e) { return e ? dump(*e) : "None"; }
std::string dump_stmt(const StmtPtr& s) { return s ? dump(*s) : "None"; }
std::string dump_pattern(const PatternPtr& p) { return p ? dump(*p) : "None"; }

// One node: `Name(field=value, ...)`, leaving out absent and empty fields as
// ast.dump does by default.
class Node {
 public:
  explicit Node(std::string_view name) : text_(name) { text_ += "("; }

  Node& raw(std::string_view key, std::string_view value) {
    if (!first_) text_ += ", ";
    first_ = false;
    text_ += key;
    text_ += "=";
    text_ += value;
    return *this;
  }
  Node& expr(std::string_view key, const ExprPtr& e) { return e ? raw(key, dump(*e)) : *this; }
  Node& pattern(std::string_view key, const PatternPtr& p) {
    return p ? raw(key, dump(*p)) : *this;
  }
  Node& str(std::string_view key, std::string_view s) { return raw(key, str_repr(s)); }
  Node& opt_str(std::string_view key, const std::optional<std::string>& s) {
    return s ? str(key, *s) : *this;
  }
  Node& num(std::string_view key, long long n) { return raw(key, std::to_string(n)); }
  template <class T, class F>
  Node& list(std::string_view key, const std::vector<T>& items, F&& each) {
    if (items.empty()) return *this;
    std::string joined = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) joined += ", ";
      joined += each(items[i]);
    }
    return raw(key, joined + "]");
  }
  Node& exprs(std::string_view key, const ExprList& items) { return list(key, items, dump_expr); }
  Node& stmts(std::string_view key, const StmtList& items) { return list(key, items, dump_stmt); }
  Node& patterns(std::string_view key, const PatternList& items) {
    return list(key, items, dump_pattern);
  }
  Node& strs(std::string_view key, const std::vector<std::string>& items) {
    return list(key, items, [](const std::string& s) { return str_repr(s); });
  }

  std::string done() { return text_ + ")"; }

 private:
  std::string text_;
  bool first_ = true;
};

template <class E>
std::string op(E value) {
  return std::string(ast_name(value)) + "()";
}

std::string dump_arg(const Arg& a) {
  return Node("arg").str("arg", a.arg).expr("annotation", a.annotation).done();
}

std::string dump_arguments(const Arguments& a) {
  Node n("arguments");
  n.list("posonlyargs", a.posonlyargs, dump_arg).list("args", a.args, dump_arg);
  if (a.vararg) n.raw("vararg", dump_arg(*a.vararg));
  n.list("kwonlyargs", a.kwonlyargs, dump_arg).exprs("kw_defaults", a.kw_defaults);
  if (a.kwarg) n.raw("kwarg", dump_arg(*a.kwarg));
  return n.exprs("defaults", a.defaults).done();
}

std::string dump_keyword(const Keyword& k) {
  return Node("keyword").opt_str("arg", k.arg).expr("value", k.value).done();
}

std::string dump_comprehension(const Comprehension& c) {
  return Node("comprehension")
      .expr("target", c.target)
      .expr("iter", c.iter)
      .exprs("ifs", c.ifs)
      .num("is_async", c.is_async ? 1 : 0)
      .done();
}

std::string dump_type_param(const TypeParam& tp) {
  return std::visit(
      [](const auto& t) -> std::string {
        using T = std::decay_t<decltype(t)>;
        if constexpr (std::is_same_v<T, TypeVar>)
          return Node("TypeVar")
              .str("name", t.name)
              .expr("bound", t.bound)
              .expr("default_value", t.default_value)
              .done();
        else if constexpr (std::is_same_v<T, ParamSpec>)
          return Node("ParamSpec")
              .str("name", t.name)
              .expr("default_value", t.default_value)
              .done();
        else
          return Node("TypeVarTuple")
              .str("name", t.name)
              .expr("default_value", t.default_value)
              .done();
      },
      tp.node);
}

std::string dump_alias(const Alias& a) {
  return Node("alias").str("name", a.name).opt_str("asname", a.asname).done();
}

std::string dump_withitem(const WithItem& w) {
  return Node("withitem")
      .expr("context_expr", w.context_expr)
      .expr("optional_vars", w.optional_vars)
      .done();
}

std::string dump_handler(const ExceptHandler& h) {
  return Node("ExceptHandler")
      .expr("type", h.type)
      .opt_str("name", h.name)
      .stmts("body", h.body)
      .done();
}

std::string dump_case(const MatchCase& c) {
  return Node("match_case")
      .pattern("pattern", c.pattern)
      .expr("guard", c.guard)
      .stmts("body", c.body)
      .done();
}

std::string constant_value(const ObjectRef& value) {
  if (!value) return "None";
  if (value->is<EllipsisValue>()) return "Ellipsis";
  return literal_repr(*value);
}

std::string dump_function(std::string_view kind, const FunctionDef& f) {
  return Node(kind)
      .str("name", f.name)
      .raw("args", dump_arguments(*f.args))
      .stmts("body", f.body)
      .exprs("decorator_list", f.decorator_list)
      .expr("returns", f.returns)
      .list("type_params", f.type_params, dump_type_param)
      .done();
}

std::string dump_for(std::string_view kind, const For& f) {
  return Node(kind)
      .expr("target", f.target)
      .expr("iter", f.iter)
      .stmts("body", f.body)
      .stmts("orelse", f.orelse)
      .done();
}

std::string dump_try(std::string_view kind, const Try& t) {
  return Node(kind)
      .stmts("body", t.body)
      .list("handlers", t.handlers, dump_handler)
      .stmts("orelse", t.orelse)
      .stmts("finalbody", t.finalbody)
      .done();
}

}  // namespace

std::string dump(const Module& module) { return Node("Module").stmts("body", module.body).done(); }

std::string dump(const Expr& expr) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, BoolOp>)
          return Node("BoolOp").raw("op", op(e.op)).exprs("values", e.values).done();
        else if constexpr (std::is_same_v<T, NamedExpr>)
          return Node("NamedExpr").expr("target", e.target).expr("value", e.value).done();
        else if constexpr (std::is_same_v<T, BinOp>)
          return Node("BinOp")
              .expr("left", e.left)
              .raw("op", op(e.op))
              .expr("right", e.right)
              .done();
        else if constexpr (std::is_same_v<T, UnaryOp>)
          return Node("UnaryOp").raw("op", op(e.op)).expr("operand", e.operand).done();
        else if constexpr (std::is_same_v<T, Lambda>)
          return Node("Lambda").raw("args", dump_arguments(*e.args)).expr("body", e.body).done();
        else if constexpr (std::is_same_v<T, IfExp>)
          return Node("IfExp")
              .expr("test", e.test)
              .expr("body", e.body)
              .expr("orelse", e.orelse)
              .done();
        else if constexpr (std::is_same_v<T, Dict>)
          return Node("Dict").exprs("keys", e.keys).exprs("values", e.values).done();
        else if constexpr (std::is_same_v<T, Set>)
          return Node("Set").exprs("elts", e.elts).done();
        else if constexpr (std::is_same_v<T, ListComp> || std::is_same_v<T, SetComp> ||
                           std::is_same_v<T, GeneratorExp>) {
          const char* kind = std::is_same_v<T, ListComp>  ? "ListComp"
                             : std::is_same_v<T, SetComp> ? "SetComp"
                                                          : "GeneratorExp";
          return Node(kind)
              .expr("elt", e.elt)
              .list("generators", e.generators, dump_comprehension)
              .done();
        } else if constexpr (std::is_same_v<T, DictComp>)
          return Node("DictComp")
              .expr("key", e.key)
              .expr("value", e.value)
              .list("generators", e.generators, dump_comprehension)
              .done();
        else if constexpr (std::is_same_v<T, Await>)
          return Node("Await").expr("value", e.value).done();
        else if constexpr (std::is_same_v<T, Yield>)
          return Node("Yield").expr("value", e.value).done();
        else if constexpr (std::is_same_v<T, YieldFrom>)
          return Node("YieldFrom").expr("value", e.value).done();
        else if constexpr (std::is_same_v<T, Compare>)
          return Node("Compare")
              .expr("left", e.left)
              .list("ops", e.ops, [](CmpOperator o) { return op(o); })
              .exprs("comparators", e.comparators)
              .done();
        else if constexpr (std::is_same_v<T, Call>)
          return Node("Call")
              .expr("func", e.func)
              .exprs("args", e.args)
              .list("keywords", e.keywords, dump_keyword)
              .done();
        else if constexpr (std::is_same_v<T, FormattedValue>)
          return Node("FormattedValue")
              .expr("value", e.value)
              .num("conversion", e.conversion)
              .expr("format_spec", e.format_spec)
              .done();
        else if constexpr (std::is_same_v<T, JoinedStr>)
          return Node("JoinedStr").exprs("values", e.values).done();
        else if constexpr (std::is_same_v<T, Interpolation>)
          return Node("Interpolation")
              .expr("value", e.value)
              .str("str", e.str)
              .num("conversion", e.conversion)
              .expr("format_spec", e.format_spec)
              .done();
        else if constexpr (std::is_same_v<T, TemplateStr>)
          return Node("TemplateStr").exprs("values", e.values).done();
        else if constexpr (std::is_same_v<T, Constant>)
          return Node("Constant").raw("value", constant_value(e.value)).done();
        else if constexpr (std::is_same_v<T, Attribute>)
          return Node("Attribute")
              .expr("value", e.value)
              .str("attr", e.attr)
              .raw("ctx", op(e.ctx))
              .done();
        else if constexpr (std::is_same_v<T, Subscript>)
          return Node("Subscript")
              .expr("value", e.value)
              .expr("slice", e.slice)
              .raw("ctx", op(e.ctx))
              .done();
        else if constexpr (std::is_same_v<T, Starred>)
          return Node("Starred").expr("value", e.value).raw("ctx", op(e.ctx)).done();
        else if constexpr (std::is_same_v<T, Name>)
          return Node("Name").str("id", e.id).raw("ctx", op(e.ctx)).done();
        else if constexpr (std::is_same_v<T, List>)
          return Node("List").exprs("elts", e.elts).raw("ctx", op(e.ctx)).done();
        else if constexpr (std::is_same_v<T, Tuple>)
          return Node("Tuple").exprs("elts", e.elts).raw("ctx", op(e.ctx)).done();
        else if constexpr (std::is_same_v<T, Slice>)
          return Node("Slice")
              .expr("lower", e.lower)
              .expr("upper", e.upper)
              .expr("step", e.step)
              .done();
        else
          static_assert(!sizeof(T), "every expression needs a case");
      },
      expr.node);
}

std::string dump(const Pattern& pattern) {
  return std::visit(
      [](const auto& p) -> std::string {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, MatchValue>)
          return Node("MatchValue").expr("value", p.value).done();
        else if constexpr (std::is_same_v<T, MatchSingleton>)
          return Node("MatchSingleton").raw("value", constant_value(p.value)).done();
        else if constexpr (std::is_same_v<T, MatchSequence>)
          return Node("MatchSequence").patterns("patterns", p.patterns).done();
        else if constexpr (std::is_same_v<T, MatchMapping>)
          return Node("MatchMapping")
              .exprs("keys", p.keys)
              .patterns("patterns", p.patterns)
              .opt_str("rest", p.rest)
              .done();
        else if constexpr (std::is_same_v<T, MatchClass>)
          return Node("MatchClass")
              .expr("cls", p.cls)
              .patterns("patterns", p.patterns)
              .strs("kwd_attrs", p.kwd_attrs)
              .patterns("kwd_patterns", p.kwd_patterns)
              .done();
        else if constexpr (std::is_same_v<T, MatchStar>)
          return Node("MatchStar").opt_str("name", p.name).done();
        else if constexpr (std::is_same_v<T, MatchAs>)
          return Node("MatchAs").pattern("pattern", p.pattern).opt_str("name", p.name).done();
        else if constexpr (std::is_same_v<T, MatchOr>)
          return Node("MatchOr").patterns("patterns", p.patterns).done();
        else
          static_assert(!sizeof(T), "every pattern needs a case");
      },
      pattern.node);
}

std::string dump(const Stmt& stmt) {
  return stmt.visit(
      [](const auto& s) -> std::string {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, AsyncFunctionDef>)
          return dump_function("AsyncFunctionDef", s);
        else if constexpr (std::is_same_v<T, FunctionDef>)
          return dump_function("FunctionDef", s);
        else if constexpr (std::is_same_v<T, ClassDef>)
          return Node("ClassDef")
              .str("name", s.name)
              .exprs("bases", s.bases)
              .list("keywords", s.keywords, dump_keyword)
              .stmts("body", s.body)
              .exprs("decorator_list", s.decorator_list)
              .list("type_params", s.type_params, dump_type_param)
              .done();
        else if constexpr (std::is_same_v<T, Return>)
          return Node("Return").expr("value", s.value).done();
        else if constexpr (std::is_same_v<T, Delete>)
          return Node("Delete").exprs("targets", s.targets).done();
        else if constexpr (std::is_same_v<T, Assign>)
          return Node("Assign").exprs("targets", s.targets).expr("value", s.value).done();
        else if constexpr (std::is_same_v<T, TypeAlias>)
          return Node("TypeAlias")
              .expr("name", s.name)
              .list("type_params", s.type_params, dump_type_param)
              .expr("value", s.value)
              .done();
        else if constexpr (std::is_same_v<T, AugAssign>)
          return Node("AugAssign")
              .expr("target", s.target)
              .raw("op", op(s.op))
              .expr("value", s.value)
              .done();
        else if constexpr (std::is_same_v<T, AnnAssign>)
          return Node("AnnAssign")
              .expr("target", s.target)
              .expr("annotation", s.annotation)
              .expr("value", s.value)
              .num("simple", s.simple ? 1 : 0)
              .done();
        else if constexpr (std::is_same_v<T, AsyncFor>)
          return dump_for("AsyncFor", s);
        else if constexpr (std::is_same_v<T, For>)
          return dump_for("For", s);
        else if constexpr (std::is_same_v<T, While>)
          return Node("While")
              .expr("test", s.test)
              .stmts("body", s.body)
              .stmts("orelse", s.orelse)
              .done();
        else if constexpr (std::is_same_v<T, If>)
          return Node("If")
              .expr("test", s.test)
              .stmts("body", s.body)
              .stmts("orelse", s.orelse)
              .done();
        else if constexpr (std::is_same_v<T, With> || std::is_same_v<T, AsyncWith>)
          return Node(std::is_same_v<T, With> ? "With" : "AsyncWith")
              .list("items", s.items, dump_withitem)
              .stmts("body", s.body)
              .done();
        else if constexpr (std::is_same_v<T, Match>)
          return Node("Match").expr("subject", s.subject).list("cases", s.cases, dump_case).done();
        else if constexpr (std::is_same_v<T, Raise>)
          return Node("Raise").expr("exc", s.exc).expr("cause", s.cause).done();
        else if constexpr (std::is_same_v<T, TryStar>)
          return dump_try("TryStar", s);
        else if constexpr (std::is_same_v<T, Try>)
          return dump_try("Try", s);
        else if constexpr (std::is_same_v<T, Assert>)
          return Node("Assert").expr("test", s.test).expr("msg", s.msg).done();
        else if constexpr (std::is_same_v<T, Import>)
          return Node("Import").list("names", s.names, dump_alias).done();
        else if constexpr (std::is_same_v<T, ImportFrom>) {
          Node n("ImportFrom");
          if (!s.module.empty()) n.str("module", s.module);
          return n.list("names", s.names, dump_alias).num("level", s.level).done();
        } else if constexpr (std::is_same_v<T, Global>)
          return Node("Global").strs("names", s.names).done();
        else if constexpr (std::is_same_v<T, Nonlocal>)
          return Node("Nonlocal").strs("names", s.names).done();
        else if constexpr (std::is_same_v<T, ExprStmt>)
          return Node("Expr").expr("value", s.value).done();
        else if constexpr (std::is_same_v<T, Pass>)
          return "Pass()";
        else if constexpr (std::is_same_v<T, Break>)
          return "Break()";
        else if constexpr (std::is_same_v<T, Continue>)
          return "Continue()";
        else if constexpr (std::is_same_v<T, Comment>)
          return Node("Comment").str("text", s.text).done();
        else
          static_assert(!sizeof(T), "every statement needs a case");
      });
}

}  // namespace unveil::ast

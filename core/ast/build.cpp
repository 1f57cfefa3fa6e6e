#include "ast/build.h"

namespace unveil::ast {

ExprPtr constant(ObjectRef value) { return make_expr(Constant{std::move(value)}); }
ExprPtr none() {
  // One None object for every such constant, as the readers share theirs (a
  // new one per node was an allocation).
  static const ObjectRef value = make_object(NoneValue{});
  return constant(value);
}
ExprPtr boolean(bool value) { return constant(make_object(BoolValue{value})); }
ExprPtr integer(std::int64_t value) {
  return constant(make_object(IntValue{value, {}, value < 0}));
}

bool is_none(const ExprPtr& e) {
  auto* c = e ? e->as<Constant>() : nullptr;
  return c && c->value && c->value->is<NoneValue>();
}
ExprPtr floating(double value) { return constant(make_object(FloatValue{value})); }
ExprPtr complex_number(double real, double imag) {
  return constant(make_object(ComplexValue{real, imag}));
}
ExprPtr string(std::string utf8) { return constant(make_object(StrValue{std::move(utf8)})); }
ExprPtr bytes(std::string data) { return constant(make_object(BytesValue{std::move(data)})); }
ExprPtr ellipsis() { return constant(make_object(EllipsisValue{})); }
ExprPtr placeholder(std::string name, std::size_t index) {
  return constant(make_object(PlaceholderValue{std::move(name), index}));
}

ExprPtr name(std::string id, ExprContext ctx) { return make_expr(Name{std::move(id), ctx}); }
ExprPtr attribute(ExprPtr value, std::string attr, ExprContext ctx) {
  return make_expr(Attribute{std::move(value), std::move(attr), ctx});
}
ExprPtr subscript(ExprPtr value, ExprPtr slice, ExprContext ctx) {
  return make_expr(Subscript{std::move(value), std::move(slice), ctx});
}
ExprPtr slice(ExprPtr lower, ExprPtr upper, ExprPtr step) {
  return make_expr(Slice{std::move(lower), std::move(upper), std::move(step)});
}
ExprPtr call(ExprPtr func, ExprList args, std::vector<Keyword> keywords) {
  return make_expr(Call{std::move(func), std::move(args), std::move(keywords)});
}
Keyword keyword(std::string arg, ExprPtr value) {
  return Keyword{std::move(arg), std::move(value)};
}
Keyword double_star(ExprPtr value) { return Keyword{std::nullopt, std::move(value)}; }
ExprPtr binop(ExprPtr left, Operator op, ExprPtr right) {
  return make_expr(BinOp{std::move(left), op, std::move(right)});
}
ExprPtr unaryop(UnaryOperator op, ExprPtr operand) {
  return make_expr(UnaryOp{op, std::move(operand)});
}
ExprPtr boolop(BoolOperator op, ExprList values) {
  return make_expr(BoolOp{op, std::move(values)});
}
ExprPtr compare(ExprPtr left, std::vector<CmpOperator> ops, ExprList comparators) {
  return make_expr(Compare{std::move(left), std::move(ops), std::move(comparators)});
}
ExprPtr compare(ExprPtr left, CmpOperator op, ExprPtr right) {
  return compare(std::move(left), std::vector<CmpOperator>{op}, ExprList{std::move(right)});
}
ExprPtr if_exp(ExprPtr test, ExprPtr body, ExprPtr orelse) {
  return make_expr(IfExp{std::move(test), std::move(body), std::move(orelse)});
}
ExprPtr lambda(Boxed<Arguments> args, ExprPtr body) {
  return make_expr(Lambda{std::move(args), std::move(body)});
}
ExprPtr tuple(ExprList elts, ExprContext ctx) { return make_expr(Tuple{std::move(elts), ctx}); }
ExprPtr list(ExprList elts, ExprContext ctx) { return make_expr(List{std::move(elts), ctx}); }
ExprPtr set(ExprList elts) { return make_expr(Set{std::move(elts)}); }
ExprPtr dict(ExprList keys, ExprList values) {
  return make_expr(Dict{std::move(keys), std::move(values)});
}
ExprPtr starred(ExprPtr value, ExprContext ctx) {
  return make_expr(Starred{std::move(value), ctx});
}
ExprPtr joined_str(ExprList values) { return make_expr(JoinedStr{std::move(values)}); }
ExprPtr formatted_value(ExprPtr value, int conversion, ExprPtr format_spec) {
  return make_expr(FormattedValue{std::move(value), conversion, std::move(format_spec)});
}
ExprPtr template_str(ExprList values) { return make_expr(TemplateStr{std::move(values)}); }
ExprPtr interpolation(ExprPtr value, std::string str, int conversion, ExprPtr format_spec) {
  return make_expr(
      Interpolation{std::move(value), std::move(str), conversion, std::move(format_spec)});
}
Comprehension comprehension(ExprPtr target, ExprPtr iter, ExprList ifs, bool is_async) {
  return Comprehension{std::move(target), std::move(iter), std::move(ifs), is_async};
}
ExprPtr list_comp(ExprPtr elt, std::vector<Comprehension> generators) {
  return make_expr(ListComp{std::move(elt), std::move(generators)});
}
ExprPtr set_comp(ExprPtr elt, std::vector<Comprehension> generators) {
  return make_expr(SetComp{std::move(elt), std::move(generators)});
}
ExprPtr dict_comp(ExprPtr key, ExprPtr value, std::vector<Comprehension> generators) {
  return make_expr(DictComp{std::move(key), std::move(value), std::move(generators)});
}
ExprPtr generator_exp(ExprPtr elt, std::vector<Comprehension> generators) {
  return make_expr(GeneratorExp{std::move(elt), std::move(generators)});
}
ExprPtr await_(ExprPtr value) { return make_expr(Await{std::move(value)}); }
ExprPtr yield_(ExprPtr value) { return make_expr(Yield{std::move(value)}); }
ExprPtr yield_from(ExprPtr value) { return make_expr(YieldFrom{std::move(value)}); }
ExprPtr named_expr(ExprPtr target, ExprPtr value) {
  return make_expr(NamedExpr{std::move(target), std::move(value)});
}
Arg arg(NameText name, ExprPtr annotation) {
  return Arg{std::move(name), std::move(annotation)};
}

PatternPtr match_value(ExprPtr value) { return make_pattern(MatchValue{std::move(value)}); }
PatternPtr match_singleton(ObjectRef value) {
  return make_pattern(MatchSingleton{std::move(value)});
}
PatternPtr match_sequence(PatternList patterns) {
  return make_pattern(MatchSequence{std::move(patterns)});
}
PatternPtr match_mapping(ExprList keys, PatternList patterns, std::optional<std::string> rest) {
  return make_pattern(MatchMapping{std::move(keys), std::move(patterns), std::move(rest)});
}
PatternPtr match_class(ExprPtr cls, PatternList patterns, std::vector<std::string> kwd_attrs,
                       PatternList kwd_patterns) {
  return make_pattern(MatchClass{std::move(cls), std::move(patterns), std::move(kwd_attrs),
                                 std::move(kwd_patterns)});
}
PatternPtr match_star(std::optional<std::string> name) {
  return make_pattern(MatchStar{std::move(name)});
}
PatternPtr match_as(PatternPtr pattern, std::optional<std::string> name) {
  return make_pattern(MatchAs{std::move(pattern), std::move(name)});
}
PatternPtr match_or(PatternList patterns) { return make_pattern(MatchOr{std::move(patterns)}); }
PatternPtr capture(std::string name) { return match_as(nullptr, std::move(name)); }
PatternPtr wildcard() { return match_as(nullptr, std::nullopt); }

TypeParam type_var(std::string name, ExprPtr bound, ExprPtr default_value) {
  return TypeParam{TypeVar{std::move(name), std::move(bound), std::move(default_value)}};
}
TypeParam param_spec(std::string name, ExprPtr default_value) {
  return TypeParam{ParamSpec{std::move(name), std::move(default_value)}};
}
TypeParam type_var_tuple(std::string name, ExprPtr default_value) {
  return TypeParam{TypeVarTuple{std::move(name), std::move(default_value)}};
}

StmtPtr expr_stmt(ExprPtr value) { return make_stmt(ExprStmt{std::move(value)}); }
StmtPtr assign(ExprPtr target, ExprPtr value) {
  return make_stmt(Assign{ExprList{std::move(target)}, std::move(value)});
}
StmtPtr assign_multi(ExprList targets, ExprPtr value) {
  return make_stmt(Assign{std::move(targets), std::move(value)});
}
StmtPtr aug_assign(ExprPtr target, Operator op, ExprPtr value) {
  return make_stmt(AugAssign{std::move(target), op, std::move(value)});
}
StmtPtr ann_assign(ExprPtr target, ExprPtr annotation, ExprPtr value, bool simple) {
  return make_stmt(AnnAssign{std::move(target), std::move(annotation), std::move(value), simple});
}
StmtPtr return_(ExprPtr value) { return make_stmt(Return{std::move(value)}); }
StmtPtr delete_(ExprList targets) { return make_stmt(Delete{std::move(targets)}); }
StmtPtr pass() { return make_stmt(Pass{}); }
StmtPtr break_() { return make_stmt(Break{}); }
StmtPtr continue_() { return make_stmt(Continue{}); }
StmtPtr raise_(ExprPtr exc, ExprPtr cause) {
  return make_stmt(Raise{std::move(exc), std::move(cause)});
}
StmtPtr assert_(ExprPtr test, ExprPtr msg) {
  return make_stmt(Assert{std::move(test), std::move(msg)});
}
StmtPtr global(std::vector<std::string> names) { return make_stmt(Global{std::move(names)}); }
StmtPtr nonlocal(std::vector<std::string> names) { return make_stmt(Nonlocal{std::move(names)}); }
Alias alias(std::string name, std::optional<std::string> asname) {
  return Alias{std::move(name), std::move(asname)};
}
StmtPtr import_(std::vector<Alias> names) { return make_stmt(Import{std::move(names)}); }
StmtPtr import_from(std::string module, std::vector<Alias> names, int level) {
  return make_stmt(ImportFrom{std::move(module), std::move(names), level});
}
StmtPtr if_(ExprPtr test, StmtList body, StmtList orelse) {
  return make_stmt(If{std::move(test), std::move(body), std::move(orelse)});
}
StmtPtr while_(ExprPtr test, StmtList body, StmtList orelse) {
  return make_stmt(While{std::move(test), std::move(body), std::move(orelse)});
}
StmtPtr for_(ExprPtr target, ExprPtr iter, StmtList body, StmtList orelse) {
  return make_stmt(For{std::move(target), std::move(iter), std::move(body), std::move(orelse)});
}
StmtPtr async_for(ExprPtr target, ExprPtr iter, StmtList body, StmtList orelse) {
  return make_stmt(
      AsyncFor{{std::move(target), std::move(iter), std::move(body), std::move(orelse)}});
}
WithItem with_item(ExprPtr context_expr, ExprPtr optional_vars) {
  return WithItem{std::move(context_expr), std::move(optional_vars)};
}
StmtPtr with_(std::vector<WithItem> items, StmtList body) {
  return make_stmt(With{std::move(items), std::move(body)});
}
StmtPtr async_with(std::vector<WithItem> items, StmtList body) {
  return make_stmt(AsyncWith{{std::move(items), std::move(body)}});
}
ExceptHandler except_handler(ExprPtr type, std::optional<std::string> name, StmtList body) {
  return ExceptHandler{std::move(type), std::move(name), std::move(body)};
}
StmtPtr try_(StmtList body, std::vector<ExceptHandler> handlers, StmtList orelse,
             StmtList finalbody) {
  return make_stmt(
      Try{std::move(body), std::move(handlers), std::move(orelse), std::move(finalbody)});
}
StmtPtr try_star(StmtList body, std::vector<ExceptHandler> handlers, StmtList orelse,
                 StmtList finalbody) {
  return make_stmt(
      TryStar{{std::move(body), std::move(handlers), std::move(orelse), std::move(finalbody)}});
}
MatchCase match_case(PatternPtr pattern, StmtList body, ExprPtr guard) {
  return MatchCase{std::move(pattern), std::move(guard), std::move(body)};
}
StmtPtr match(ExprPtr subject, std::vector<MatchCase> cases) {
  return make_stmt(Match{std::move(subject), std::move(cases)});
}
StmtPtr function_def(std::string name, Boxed<Arguments> args, StmtList body, ExprList decorator_list,
                     ExprPtr returns, TypeParamList type_params) {
  return make_stmt(FunctionDef{std::move(name), std::move(args), std::move(body),
                               std::move(decorator_list), std::move(returns),
                               std::move(type_params)});
}
StmtPtr async_function_def(std::string name, Boxed<Arguments> args, StmtList body, ExprList decorator_list,
                           ExprPtr returns, TypeParamList type_params) {
  return make_stmt(
      AsyncFunctionDef{{std::move(name), std::move(args), std::move(body),
                        std::move(decorator_list), std::move(returns), std::move(type_params)}});
}
StmtPtr class_def(std::string name, ExprList bases, std::vector<Keyword> keywords, StmtList body,
                  ExprList decorator_list, TypeParamList type_params) {
  return make_stmt(ClassDef{std::move(name), std::move(bases), std::move(keywords), std::move(body),
                            std::move(decorator_list), std::move(type_params)});
}
StmtPtr type_alias(ExprPtr name, TypeParamList type_params, ExprPtr value) {
  return make_stmt(TypeAlias{std::move(name), std::move(type_params), std::move(value)});
}
StmtPtr comment(std::string text) { return make_stmt(Comment{std::move(text)}); }

StmtPtr at_line(const StmtPtr& stmt, int line) {
  if (!stmt) return stmt;
  Stmt copy = *stmt;
  copy.line = line;
  return make_node<Stmt>(std::move(copy));
}

}  // namespace unveil::ast

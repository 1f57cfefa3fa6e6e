// Factory helpers that build syntax trees tersely, for later stages and tests:
//
//   using namespace unveil::ast;
//   auto tree = call(attribute(name("np"), "sum"), {name("x")}, {keyword("axis", integer(0))});
//
// Names end in `_` where the plain word is a C++ keyword (`if_`, `return_`, ...).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ast/arena.h"
#include "ast/expr.h"
#include "ast/pattern.h"
#include "ast/stmt.h"
#include "ast/type_param.h"

namespace unveil::ast {

// (Forwarded: the node is moved once, straight into its place.)
template <class T>
ExprPtr make_expr(T&& node) {
  return make_node<Expr>(std::forward<T>(node));
}
template <class T>
StmtPtr make_stmt(T&& node, int line = 0) {
  return make_node<Stmt>(std::forward<T>(node), line);
}
template <class T>
PatternPtr make_pattern(T node) {
  return make_node<Pattern>(Pattern{std::move(node)});
}

// --- constants ---------------------------------------------------------------
ExprPtr constant(ObjectRef value);
ExprPtr none();
// A `None` constant (nullptr is not one).
bool is_none(const ExprPtr& e);
ExprPtr boolean(bool value);
ExprPtr integer(std::int64_t value);
ExprPtr floating(double value);
ExprPtr complex_number(double real, double imag);
ExprPtr string(std::string utf8);
ExprPtr bytes(std::string data);
ExprPtr ellipsis();
ExprPtr placeholder(std::string name, std::size_t index = 0);

// --- expressions -------------------------------------------------------------
ExprPtr name(std::string id, ExprContext ctx = ExprContext::Load);
ExprPtr attribute(ExprPtr value, std::string attr, ExprContext ctx = ExprContext::Load);
// The same from a view (an instruction's resolved name) or a literal.
inline ExprPtr name(std::string_view id, ExprContext ctx = ExprContext::Load) { return name(std::string(id), ctx); }
inline ExprPtr name(const char* id, ExprContext ctx = ExprContext::Load) { return name(std::string(id), ctx); }
// The same name again (a view stays a view; see NameText).
inline ExprPtr name(const NameText& id, ExprContext ctx = ExprContext::Load) { return make_expr(Name{id, ctx}); }
// A name whose text outlives the tree (the code object's name tables, an
// instruction's resolved argument): kept as a view, not copied.
inline ExprPtr borrowed_name(std::string_view id, ExprContext ctx = ExprContext::Load) {
  return make_expr(Name{NameText::borrowed(id), ctx});
}
inline ExprPtr attribute(ExprPtr value, std::string_view attr, ExprContext ctx = ExprContext::Load) {
  return attribute(std::move(value), std::string(attr), ctx);
}
inline ExprPtr attribute(ExprPtr value, const NameText& attr, ExprContext ctx = ExprContext::Load) {
  return make_expr(Attribute{std::move(value), attr, ctx});
}
// An attribute whose name outlives the tree (see borrowed_name).
inline ExprPtr borrowed_attribute(ExprPtr value, std::string_view attr, ExprContext ctx = ExprContext::Load) {
  return make_expr(Attribute{std::move(value), NameText::borrowed(attr), ctx});
}
inline ExprPtr attribute(ExprPtr value, const char* attr, ExprContext ctx = ExprContext::Load) {
  return attribute(std::move(value), std::string(attr), ctx);
}
ExprPtr subscript(ExprPtr value, ExprPtr slice, ExprContext ctx = ExprContext::Load);
ExprPtr slice(ExprPtr lower = nullptr, ExprPtr upper = nullptr, ExprPtr step = nullptr);
ExprPtr call(ExprPtr func, ExprList args = {}, std::vector<Keyword> keywords = {});
Keyword keyword(std::string arg, ExprPtr value);
Keyword double_star(ExprPtr value);  // `**value` in a call or class header
ExprPtr binop(ExprPtr left, Operator op, ExprPtr right);
ExprPtr unaryop(UnaryOperator op, ExprPtr operand);
ExprPtr boolop(BoolOperator op, ExprList values);
ExprPtr compare(ExprPtr left, std::vector<CmpOperator> ops, ExprList comparators);
ExprPtr compare(ExprPtr left, CmpOperator op, ExprPtr right);
ExprPtr if_exp(ExprPtr test, ExprPtr body, ExprPtr orelse);
ExprPtr lambda(Boxed<Arguments> args, ExprPtr body);
ExprPtr tuple(ExprList elts, ExprContext ctx = ExprContext::Load);
ExprPtr list(ExprList elts, ExprContext ctx = ExprContext::Load);
ExprPtr set(ExprList elts);
ExprPtr dict(ExprList keys, ExprList values);  // nullptr key = `**value`
ExprPtr starred(ExprPtr value, ExprContext ctx = ExprContext::Load);
ExprPtr joined_str(ExprList values);
ExprPtr formatted_value(ExprPtr value, int conversion = -1, ExprPtr format_spec = nullptr);
ExprPtr template_str(ExprList values);
ExprPtr interpolation(ExprPtr value, std::string str, int conversion = -1,
                      ExprPtr format_spec = nullptr);
Comprehension comprehension(ExprPtr target, ExprPtr iter, ExprList ifs = {}, bool is_async = false);
ExprPtr list_comp(ExprPtr elt, std::vector<Comprehension> generators);
ExprPtr set_comp(ExprPtr elt, std::vector<Comprehension> generators);
ExprPtr dict_comp(ExprPtr key, ExprPtr value, std::vector<Comprehension> generators);
ExprPtr generator_exp(ExprPtr elt, std::vector<Comprehension> generators);
ExprPtr await_(ExprPtr value);
ExprPtr yield_(ExprPtr value = nullptr);
ExprPtr yield_from(ExprPtr value);
ExprPtr named_expr(ExprPtr target, ExprPtr value);
Arg arg(NameText name, ExprPtr annotation = nullptr);

// --- patterns ----------------------------------------------------------------
PatternPtr match_value(ExprPtr value);
PatternPtr match_singleton(ObjectRef value);
PatternPtr match_sequence(PatternList patterns);
PatternPtr match_mapping(ExprList keys, PatternList patterns,
                         std::optional<std::string> rest = std::nullopt);
PatternPtr match_class(ExprPtr cls, PatternList patterns, std::vector<std::string> kwd_attrs = {},
                       PatternList kwd_patterns = {});
PatternPtr match_star(std::optional<std::string> name = std::nullopt);
PatternPtr match_as(PatternPtr pattern, std::optional<std::string> name);
PatternPtr match_or(PatternList patterns);
PatternPtr capture(std::string name);  // MatchAs without a pattern
PatternPtr wildcard();                 // `_`

// --- type parameters -----------------------------------------------------------
TypeParam type_var(std::string name, ExprPtr bound = nullptr, ExprPtr default_value = nullptr);
TypeParam param_spec(std::string name, ExprPtr default_value = nullptr);
TypeParam type_var_tuple(std::string name, ExprPtr default_value = nullptr);

// --- statements --------------------------------------------------------------
StmtPtr expr_stmt(ExprPtr value);
StmtPtr assign(ExprPtr target, ExprPtr value);
StmtPtr assign_multi(ExprList targets, ExprPtr value);  // t1 = t2 = value
StmtPtr aug_assign(ExprPtr target, Operator op, ExprPtr value);
StmtPtr ann_assign(ExprPtr target, ExprPtr annotation, ExprPtr value = nullptr, bool simple = true);
StmtPtr return_(ExprPtr value = nullptr);
StmtPtr delete_(ExprList targets);
StmtPtr pass();
StmtPtr break_();
StmtPtr continue_();
StmtPtr raise_(ExprPtr exc = nullptr, ExprPtr cause = nullptr);
StmtPtr assert_(ExprPtr test, ExprPtr msg = nullptr);
StmtPtr global(std::vector<std::string> names);
StmtPtr nonlocal(std::vector<std::string> names);
Alias alias(std::string name, std::optional<std::string> asname = std::nullopt);
StmtPtr import_(std::vector<Alias> names);
StmtPtr import_from(std::string module, std::vector<Alias> names, int level = 0);
StmtPtr if_(ExprPtr test, StmtList body, StmtList orelse = {});
StmtPtr while_(ExprPtr test, StmtList body, StmtList orelse = {});
StmtPtr for_(ExprPtr target, ExprPtr iter, StmtList body, StmtList orelse = {});
StmtPtr async_for(ExprPtr target, ExprPtr iter, StmtList body, StmtList orelse = {});
WithItem with_item(ExprPtr context_expr, ExprPtr optional_vars = nullptr);
StmtPtr with_(std::vector<WithItem> items, StmtList body);
StmtPtr async_with(std::vector<WithItem> items, StmtList body);
ExceptHandler except_handler(ExprPtr type, std::optional<std::string> name, StmtList body);
StmtPtr try_(StmtList body, std::vector<ExceptHandler> handlers, StmtList orelse = {},
             StmtList finalbody = {});
StmtPtr try_star(StmtList body, std::vector<ExceptHandler> handlers, StmtList orelse = {},
                 StmtList finalbody = {});
MatchCase match_case(PatternPtr pattern, StmtList body, ExprPtr guard = nullptr);
StmtPtr match(ExprPtr subject, std::vector<MatchCase> cases);
StmtPtr function_def(std::string name, Boxed<Arguments> args, StmtList body, ExprList decorator_list = {},
                     ExprPtr returns = nullptr, TypeParamList type_params = {});
StmtPtr async_function_def(std::string name, Boxed<Arguments> args, StmtList body,
                           ExprList decorator_list = {}, ExprPtr returns = nullptr,
                           TypeParamList type_params = {});
StmtPtr class_def(std::string name, ExprList bases, std::vector<Keyword> keywords, StmtList body,
                  ExprList decorator_list = {}, TypeParamList type_params = {});
StmtPtr type_alias(ExprPtr name, TypeParamList type_params, ExprPtr value);
StmtPtr comment(std::string text);

// A copy of `stmt` carrying source line `line`.
StmtPtr at_line(const StmtPtr& stmt, int line);

}  // namespace unveil::ast

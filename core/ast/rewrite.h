// Generic walks over the (immutable) syntax tree: rebuild a tree with some
// subexpressions replaced, visit every subexpression, and say what a
// statement binds and what an expression evaluates first. Later stages use
// these instead of writing one recursion per node kind each.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <unordered_map>

#include "ast/expr.h"
#include "ast/stmt.h"

namespace unveil::ast {

// Called on every expression before its children (pre-order). A non-null
// result replaces the node (its children are not visited); nullptr descends.
using ExprMapper = std::function<ExprPtr(const ExprPtr&)>;

// `e` with replacements; shares every unchanged subtree (returns `e` itself
// when nothing changed).
ExprPtr map_expr(const ExprPtr& e, const ExprMapper& f);
// The same, remembering each node's result in `memo` across calls, so that a
// subtree shared by several trees stays shared after the rewrite.
ExprPtr map_expr(const ExprPtr& e, const ExprMapper& f, std::unordered_map<const Expr*, ExprPtr>& memo);
// The statement's own expressions mapped; nested bodies (if/for/while/with/try
// arms, but not def/class bodies) too when `into_bodies`.
StmtPtr map_stmt(const StmtPtr& s, const ExprMapper& f, bool into_bodies);
StmtList map_stmts(const StmtList& body, const ExprMapper& f);

// Called on every statement after its nested bodies (not def/class bodies)
// were rewritten. A non-null result replaces it.
using StmtMapper = std::function<StmtPtr(const StmtPtr&)>;
StmtList map_statements(const StmtList& body, const StmtMapper& f);
// `s` with each nested body (if/for/while/with/try/match arms, not def/class
// bodies) replaced by `f(body)`; `s` itself when none changed.
StmtPtr map_bodies(const StmtPtr& s, const std::function<StmtList(const StmtList&)>& f);

// Calls `f` on every expression of `e` (pre-order).
void visit_expr(const ExprPtr& e, const std::function<void(const ExprPtr&)>& f);
// Every expression of the statement (and of nested bodies when `into_bodies`).
void visit_stmt(const StmtPtr& s, const std::function<void(const ExprPtr&)>& f, bool into_bodies);

// Names the statement binds or deletes directly (targets, def/class/import names).
NameSet bound_names(const Stmt& s);

// True when running `s` evaluates the node `target` before anything that could
// have an effect: only names, constants and displays are evaluated earlier.
bool evaluated_first_in(const StmtPtr& s, const Expr* target);
}  // namespace unveil::ast

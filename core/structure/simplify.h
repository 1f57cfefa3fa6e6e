// Rewrites of structured statements into the forms the compiler started from.
#pragma once

#include "ast/stmt.h"

namespace unveil::structure {

// `not e`, folding `not not e` and `not (a is b)` → `a is not b`.
ast::ExprPtr negate(const ast::ExprPtr& e);
// Drops a `continue` that ends a loop body (also at the end of a final if's arms).
ast::StmtList strip_trailing_continue(ast::StmtList body);
// `if c: while True: body; if not c: break` → `while c: body` (3.10–3.13 put
// the test at the bottom), `if not t: raise AssertionError(m)` → `assert t, m`,
// applied recursively to a whole body.
// `ends_function`: the body is a whole function or module (falling off it returns None).
// `version_minor`: 3.8 asserts load AssertionError by name; before 3.10 an
// if-arm that returns is hoisted out of its else (no PEP 626 exit copies).
ast::StmtList simplify(ast::StmtList body, int version_minor, bool ends_function = false);
// `a and (b and c)` → `a and b and c`.
ast::ExprPtr flatten_boolop(ast::BoolOperator op, const ast::ExprPtr& a, const ast::ExprPtr& b);

}  // namespace unveil::structure

// Comprehensions back from their loops: `for t in it: if c: <append>(e)` is
// `[e for t in it if c]` (markers left by lifting LIST_APPEND/SET_ADD/MAP_ADD,
// or `yield e` for a generator expression).
#pragma once

#include "ast/stmt.h"

namespace unveil::structure {

enum class ComprehensionKind { List, Set, Dict, Generator };

// The loop of a `for` or an `async for` statement (nullptr for any other).
const ast::For* loop_of(const ast::Stmt& s, bool* is_async = nullptr);
// `loop` is a `for` or `async for` statement; nullptr when it has another
// shape. `iter` replaces the loop's iterable when set (the `.0` argument of a
// ≤3.11 comprehension function).
ast::ExprPtr rebuild_comprehension(ComprehensionKind kind, const ast::Stmt& loop, const ast::ExprPtr& iter);
// Whether a loop body holds an append/map-add marker (an inlined comprehension).
bool has_comprehension_marker(const ast::StmtList& body);

}  // namespace unveil::structure

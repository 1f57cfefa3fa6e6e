// Comprehensions back from their loops: `for t in it: if c: <append>(e)` is
// `[e for t in it if c]` (markers left by lifting LIST_APPEND/SET_ADD/MAP_ADD,
// or `yield e` for a generator expression).
#pragma once

#include "ast/stmt.h"
#include "decode/instruction.h"

namespace unveil::structure {

enum class ComprehensionKind { List, Set, Dict, Generator };

// The loop of a `for` or an `async for` statement (nullptr for any other).
const ast::For* loop_of(const ast::Stmt& s, bool* is_async = nullptr);
// `loop` is a `for` or `async for` statement; nullptr when it has another
// shape. `iter` replaces the loop's iterable when set (the `.0` argument of a
// ≤3.11 comprehension function).
// `ifs_on_own_line` marks the filters to be printed on lines of their own.
ast::ExprPtr rebuild_comprehension(ComprehensionKind kind, const ast::Stmt& loop, const ast::ExprPtr& iter,
                                   bool ifs_on_own_line = false);
// 3.12 sends a filter's failing test straight back to the loop head when the
// test is on the element's line, else to a jump back of its own: whether the
// instructions at offsets [begin, end) have a conditional jump on another line
// than the element's (LIST_APPEND/SET_ADD/MAP_ADD/YIELD_VALUE).
bool filter_on_own_line(const DecodedCode& code, std::uint32_t begin, std::uint32_t end);
// Whether a loop body holds an append/map-add marker (an inlined comprehension).
bool has_comprehension_marker(const ast::StmtList& body);

}  // namespace unveil::structure

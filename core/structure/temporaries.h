// Folds the temporaries lifting introduced back into expressions where that
// changes nothing: `_t1 = f(); return _t1` → `return f()`.
#pragma once

#include <set>
#include <string>

#include "ast/stmt.h"

namespace unveil::structure {

// `temps` are the names the lifter created (each assigned exactly once). A
// temporary used once, by the very next statement, as the first thing that
// statement evaluates (only names and constants before it), is replaced by its
// value. Everything else stays, so evaluation order and counts never change.
ast::StmtList inline_temporaries(const ast::StmtList& body, const ast::NameSet& temps);

}  // namespace unveil::structure

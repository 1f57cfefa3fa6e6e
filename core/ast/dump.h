// A one-line dump of a tree in the format of Python 3.13's `ast.dump(node)`
// (field names shown; None fields and empty lists left out), so a tree built
// by lifting can be compared with `ast.dump(ast.parse(source))` directly.
// Python's statement Expr prints as "Expr"; Comment, which Python lacks, as
// Comment(text='...').
#pragma once

#include <string>

#include "ast/expr.h"
#include "ast/pattern.h"
#include "ast/stmt.h"

namespace unveil::ast {

std::string dump(const Module& module);
std::string dump(const Stmt& stmt);
std::string dump(const Expr& expr);
std::string dump(const Pattern& pattern);

}  // namespace unveil::ast

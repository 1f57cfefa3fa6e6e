// Short spellings of syntax-tree factories, for tests that build trees by hand.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "ast/build.h"

namespace unveil::testing {

inline ast::ExprPtr n(std::string id) { return ast::name(std::move(id)); }
inline ast::ExprPtr st(std::string id) { return ast::name(std::move(id), ast::ExprContext::Store); }
inline ast::ExprPtr num(std::int64_t v) { return ast::integer(v); }
inline ast::ExprPtr txt(std::string v) { return ast::string(std::move(v)); }
template <class... S>
ast::StmtList body(S... stmts) {
  return ast::StmtList{std::move(stmts)...};
}
template <class... E>
ast::ExprList exprs(E... e) {
  return ast::ExprList{std::move(e)...};
}

}  // namespace unveil::testing

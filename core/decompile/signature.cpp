#include "decompile/signature.h"

#include "ast/build.h"

namespace unveil::decompile {

namespace {
ast::ExprPtr lookup(const std::vector<std::pair<std::string, ast::ExprPtr>>& items,
                    const std::string& name) {
  for (const auto& [k, v] : items)
    if (k == name) return v;
  return nullptr;
}
}  // namespace

ast::Arguments signature(const lift::FunctionValue& f) {
  const CodeObject& c = *f.code;
  ast::Arguments a;
  const auto& names = c.varnames;
  auto name_at = [&](std::size_t i) { return i < names.size() ? names[i] : "_arg" + std::to_string(i); };
  auto make = [&](std::size_t i) {
    std::string n = name_at(i);
    return ast::arg(n, lookup(f.annotations, n));
  };
  std::size_t npos = std::size_t(std::max(0, c.argcount));
  std::size_t nposonly = std::size_t(std::max(0, c.posonlyargcount));
  std::size_t nkw = std::size_t(std::max(0, c.kwonlyargcount));
  for (std::size_t i = 0; i < npos; ++i) (i < nposonly ? a.posonlyargs : a.args).push_back(make(i));
  std::size_t next = npos;
  for (std::size_t i = 0; i < nkw; ++i) {
    ast::Arg k = make(next + i);
    a.kw_defaults.push_back(lookup(f.kwdefaults, k.arg));
    a.kwonlyargs.push_back(std::move(k));
  }
  next += nkw;
  if (c.flags & kCoVarargs) a.vararg = make(next++);
  if (c.flags & kCoVarkeywords) a.kwarg = make(next++);
  a.defaults = f.defaults;
  return a;
}

ast::ExprPtr return_annotation(const lift::FunctionValue& f) { return lookup(f.annotations, "return"); }

}  // namespace unveil::decompile

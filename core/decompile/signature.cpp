#include "decompile/signature.h"

#include <string_view>

#include "ast/build.h"

namespace unveil::decompile {

namespace {
// Whether `text` can be written in place of an annotation and still be that
// one expression: on one line, brackets and quotes balanced, and nothing at
// its top level that would end it (a comma, `=`, `;`, a comment). Text that
// bytecode from elsewhere put there may be anything.
bool is_one_expression(std::string_view text) {
  if (text.empty()) return false;
  int depth = 0;
  char quote = 0;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const char ch = text[k];
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return false;  // newlines, tabs, controls
    if (quote) {
      if (ch == '\\') ++k;
      else if (ch == quote) quote = 0;
      continue;
    }
    switch (ch) {
      case '\'': case '"': quote = ch; break;
      case '(': case '[': case '{': ++depth; break;
      case ')': case ']': case '}': if (--depth < 0) return false; break;
      case '#': case ';': case '\\': return false;
      case ',':
        if (depth == 0) return false;
        break;
      case '=': {
        // Only as part of ==, <=, >=, != at the top level.
        const bool compare = (k > 0 && std::string_view("=<>!").find(text[k - 1]) != std::string_view::npos) ||
                             (k + 1 < text.size() && text[k + 1] == '=');
        if (depth == 0 && !compare) return false;
        break;
      }
      default: break;
    }
  }
  return depth == 0 && quote == 0;
}

ast::ExprPtr lookup(const lift::FunctionValue& f, std::string_view name) {
  for (const auto& [k, v] : f.annotations)
    if (k == name) return annotation_as_written(v, f.code->flags);
  return nullptr;
}
}  // namespace

ast::ExprPtr annotation_as_written(ast::ExprPtr annotation, std::uint32_t flags) {
  if (!(flags & kCoFutureAnnotations) || !annotation) return annotation;
  auto* c = annotation->as<ast::Constant>();
  const auto* text = c && c->value ? c->value->as<StrValue>() : nullptr;
  if (!text || !is_one_expression(text->utf8)) return annotation;
  return ast::make_expr(ast::Name{text->utf8, ast::ExprContext::Load, true});
}

// Boxed as the def or lambda node holds it: built in its box, not moved into one.
ast::Boxed<ast::Arguments> signature(const lift::FunctionValue& f) {
  const CodeObject& c = *f.code;
  ast::Boxed<ast::Arguments> boxed;
  ast::Arguments& a = *boxed;
  const auto& names = c.varnames;
  // Filled in place: an Arg built elsewhere was moved three times on its way
  // here. The code object outlives the tree: its names are borrowed, not
  // copied. (Dynamo's functions take dozens of parameters and annotate none.)
  auto fill = [&](ast::Arg& arg, std::size_t i) -> ast::Arg& {
    if (i < names.size()) arg.arg.borrow(names[i]);
    else arg.arg = ast::NameText("_arg" + std::to_string(i));
    if (!f.annotations.empty()) arg.annotation = lookup(f, arg.arg);
    return arg;
  };
  std::size_t npos = std::size_t(std::max(0, c.argcount));
  std::size_t nposonly = std::size_t(std::max(0, c.posonlyargcount));
  std::size_t nkw = std::size_t(std::max(0, c.kwonlyargcount));
  // (Sized once: each list grew an argument at a time.)
  a.posonlyargs.reserve(std::min(nposonly, npos));
  a.args.reserve(npos - std::min(nposonly, npos));
  a.kwonlyargs.reserve(nkw);
  a.kw_defaults.reserve(nkw);
  for (std::size_t i = 0; i < npos; ++i) fill((i < nposonly ? a.posonlyargs : a.args).emplace_back(), i);
  std::size_t next = npos;
  for (std::size_t i = 0; i < nkw; ++i) {
    const ast::Arg& k = fill(a.kwonlyargs.emplace_back(), next + i);
    a.kw_defaults.push_back(nullptr);
    for (const auto& [name, value] : f.kwdefaults)
      if (name == k.arg) a.kw_defaults.back() = value;
  }
  next += nkw;
  if (c.flags & kCoVarargs) fill(a.vararg.emplace(), next++);
  if (c.flags & kCoVarkeywords) fill(a.kwarg.emplace(), next++);
  a.defaults = f.defaults;
  return boxed;
}

ast::ExprPtr return_annotation(const lift::FunctionValue& f) { return lookup(f, "return"); }

}  // namespace unveil::decompile

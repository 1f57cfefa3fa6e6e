// The syntax tree back to Python source (⇄ Lib/ast.py's unparse and
// Python/ast_unparse.c): the last stage of the decompiler.
//
// The text matches what `ast.unparse` of Python 3.13 prints for the same tree
// (options.blank_lines == BlankLines::AstUnparse), with these deliberate
// differences, each so that the output is valid and readable on every Python
// 3.8–3.14 that has the construct:
//   - f-strings never reuse their own quote inside a replacement field and
//     never put a backslash there (both need 3.12); when no choice of quotes
//     works, the f-string becomes `'lit' + format(value, spec) + ...`
//     (format()/repr()/str()/ascii() calls, which means the same thing).
//   - a generator that is a call's only argument prints as `f(x for x in y)`.
//   - an attribute of an int literal prints as `(1).real`, not `1 .real`.
//   - negative constants (which lifting, unlike parsing, does produce) get the
//     parentheses of a unary minus: `(-1) ** 2`, `(-1).real`.
//   - `x[*a, b]` (3.11+) prints as `x[(*a, b)]`, the same tree everywhere.
//   - an empty body prints `pass`; a complex constant with an infinite or NaN
//     part prints as `complex(re, im)`.
// A missing required child (nullptr) prints as `__missing__`; a tree nested
// deeper than 1500 levels throws unveil::Error (ErrorKind::Limit) rather
// than risk the stack. The output has no trailing newline, like ast.unparse.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ast/expr.h"
#include "ast/stmt.h"

namespace unveil {

// Where an identifier appears, so that a NameMapper can treat kinds apart.
enum class NameRole {
  Variable,    // Name, global/nonlocal, except/with/for/import bindings, captures, type params
  Argument,    // a parameter of a def or lambda
  Function,    // a def's name
  Class,       // a class's name
  Attribute,   // `x.attr`, a match-class keyword pattern
  Keyword,     // `f(name=...)`, `class C(name=...)`
  Module,      // one component of a dotted module path in an import
  Placeholder  // a PlaceholderValue constant's name (a stand-in for an unmarshallable object)
};

// Maps each identifier of the tree to the text printed for it; it must return
// valid source for its role (a dotted name is fine for Placeholder).
//
// The default (an empty NameMapper) keeps valid identifiers, makes invalid ones
// valid with ast::sanitize_identifier ("<lambda>" -> "_lambda_", ".0" -> "_0",
// a keyword gets a `_` suffix) and adds `_1`, `_2`, ... where the result would
// collide with another name of the same unparse call; a Placeholder that is a
// dotted name ("torch.float32") prints as is. Later stages supply the real
// mapping (e.g. placeholders to the names their objects are bound to).
using NameMapper = std::function<std::string(std::string_view name, NameRole role)>;

enum class BlankLines {
  Pep8,       // two blank lines around top-level defs and classes, one around nested ones
  AstUnparse  // exactly as ast.unparse: one blank line before every def and class
};

struct UnparseOptions {
  NameMapper name_mapper;  // empty: the default mapping described above
  BlankLines blank_lines = BlankLines::Pep8;
  // Append "  # line N" to the first line of each statement whose `line` is set.
  bool line_comments = false;
  // The oldest Python 3.x minor version the f-strings must parse on. From 12 on
  // (PEP 701) a replacement field may reuse the quote and hold backslashes, so
  // the format() fallback is never needed.
  int min_python_minor = 8;
};

std::string unparse(const ast::Module& module, const UnparseOptions& options = {});
std::string unparse(const ast::StmtList& body, const UnparseOptions& options = {});
// unparse(module) by the tree's last reader, which holds it alone: each
// top-level statement of the module (of its lone def, for a decompiled
// function) is dropped as soon as it is printed, while its nodes are still
// in the cache. Dropping a big function's tree afterwards was a walk over
// nodes long gone from it. nullopt when a name turned out to need renaming
// after statements were dropped (renaming reads the whole tree again): the
// caller then prints a fresh tree with unparse().
std::optional<std::string> unparse_dropping(ast::Module& module, const UnparseOptions& options = {});
std::string unparse_expr(const ast::Expr& expr, const UnparseOptions& options = {});
std::string unparse_pattern(const ast::Pattern& pattern, const UnparseOptions& options = {});

}  // namespace unveil

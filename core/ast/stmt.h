// Statement nodes of the Python syntax tree (⇄ the `stmt` sum of
// Parser/Python.asdl of 3.14), plus `Comment`, which Python's ast lacks.
//
// Two spellings differ from Python's ast because C++ has one namespace:
// Python's statement `Expr` is `ExprStmt` here (ast::Expr is the expression
// holder), and lowercase helper products are capitalised (`Alias`, `WithItem`,
// `ExceptHandler`, `MatchCase`). The async forms derive from their sync
// counterparts and add no field, as in the ASDL.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "ast/expr.h"
#include "ast/pattern.h"
#include "ast/type_param.h"

namespace unveil::ast {

struct Stmt;
using StmtPtr = NodePtr<const Stmt>;
using StmtList = std::vector<StmtPtr>;

// --- helper products ---------------------------------------------------------

// `name as asname` in an import; name may be dotted (`a.b.c`) or `*`.
struct Alias {
  std::string name{};
  std::optional<std::string> asname{};
};
// `context_expr as optional_vars` in a with statement.
struct WithItem {
  ExprPtr context_expr{};
  ExprPtr optional_vars{};
};
// `except type as name:` (type nullptr is a bare `except:`).
struct ExceptHandler {
  ExprPtr type{};
  std::optional<std::string> name{};
  StmtList body{};
  int line = 0;
};
// `case pattern if guard:`.
struct MatchCase {
  PatternPtr pattern{};
  ExprPtr guard{};
  StmtList body{};
};

// --- statement nodes ---------------------------------------------------------

struct FunctionDef {
  std::string name{};
  Boxed<Arguments> args{};  // boxed, as a Lambda holds it: signature() builds it in its box
  StmtList body{};
  ExprList decorator_list{};
  ExprPtr returns{};
  TypeParamList type_params{};
};
struct AsyncFunctionDef : FunctionDef {};
struct ClassDef {
  std::string name{};
  ExprList bases{};
  std::vector<Keyword> keywords{};
  StmtList body{};
  ExprList decorator_list{};
  TypeParamList type_params{};
};
struct Return {
  ExprPtr value;  // may be nullptr
  // A final `return None` the source wrote (not the implicit one the
  // compiler adds): kept where trailing returns are dropped.
  bool written = false;
};
struct Delete {
  ExprList targets{};
};
// `t1 = t2 = value`.
struct Assign {
  ExprList targets{};
  ExprPtr value{};
};
// `type name[type_params] = value` (3.12+); name is a Name.
struct TypeAlias {
  ExprPtr name{};
  TypeParamList type_params{};
  ExprPtr value{};
};
struct AugAssign {
  ExprPtr target{};
  Operator op{};
  ExprPtr value{};
};
// `target: annotation = value`; simple == false puts a Name target in
// parentheses, which makes it not count as a variable annotation.
struct AnnAssign {
  ExprPtr target{};
  ExprPtr annotation{};
  ExprPtr value;  // may be nullptr
  bool simple = true;
};
struct For {
  ExprPtr target{};
  ExprPtr iter{};
  StmtList body{};
  StmtList orelse{};
};
struct AsyncFor : For {};
struct While {
  ExprPtr test{};
  StmtList body{};
  StmtList orelse{};
};
// An `elif` is an If that is the only statement of orelse.
struct If {
  ExprPtr test{};
  StmtList body{};
  StmtList orelse{};
  // The bytecode shows the `else` was written (≤3.9 dead code): not to be
  // moved after an arm that ends in return/raise.
  bool keep_else = false;
};
struct With {
  std::vector<WithItem> items{};
  StmtList body{};
};
struct AsyncWith : With {};
struct Match {
  ExprPtr subject{};
  std::vector<MatchCase> cases{};
};
// `raise`, `raise exc`, `raise exc from cause`.
struct Raise {
  ExprPtr exc{};
  ExprPtr cause{};
};
struct Try {
  StmtList body{};
  std::vector<ExceptHandler> handlers{};
  StmtList orelse{};
  StmtList finalbody{};
};
// `try: ... except* E: ...` (3.11+).
struct TryStar : Try {};
struct Assert {
  ExprPtr test{};
  ExprPtr msg;  // may be nullptr
};
struct Import {
  std::vector<Alias> names{};
};
// `from .module import names`; module may be empty (`from . import x`).
struct ImportFrom {
  std::string module{};
  std::vector<Alias> names{};
  int level = 0;
};
struct Global {
  std::vector<std::string> names{};
};
struct Nonlocal {
  std::vector<std::string> names{};
};
// An expression evaluated for its effect (Python's ast.Expr statement).
struct ExprStmt {
  ExprPtr value{};
};
struct Pass {};
struct Break {};
struct Continue {};
// Not in Python's ast: prints as `# text` (one `#` line per line of text), so
// later stages can annotate the output. A body of only comments also gets `pass`.
struct Comment {
  std::string text{};
};

// Kinds held boxed in a Stmt: rare, and each bigger than any other kind
// (ClassDef 152 bytes, FunctionDef 128, Try 96). Inline, they sized every
// statement at 168 bytes; boxed, the biggest inline kind (For, 80) does: 88.
template <class T>
inline constexpr bool kBoxedStmt = std::is_same_v<T, FunctionDef> || std::is_same_v<T, AsyncFunctionDef> ||
                                   std::is_same_v<T, ClassDef> || std::is_same_v<T, Try> ||
                                   std::is_same_v<T, TryStar>;
template <class T>
using StmtSlot = std::conditional_t<kBoxedStmt<T>, Boxed<T>, T>;

template <class... Kinds>
struct StmtKinds {
  template <class T>
  static constexpr bool has = (std::is_same_v<T, Kinds> || ...);
  using Node = std::variant<StmtSlot<Kinds>...>;
};
using AnyStmt = StmtKinds<FunctionDef, AsyncFunctionDef, ClassDef, Return, Delete, Assign, TypeAlias,
                          AugAssign, AnnAssign, For, AsyncFor, While, If, With, AsyncWith, Match, Raise,
                          Try, TryStar, Assert, Import, ImportFrom, Global, Nonlocal, ExprStmt, Pass,
                          Break, Continue, Comment>;

// A statement of any kind. Boxed kinds read as the others do: `as<ClassDef>()`
// and `visit` see the ClassDef, not its box (the variant is private so that
// no walk meets a box unawares).
struct Stmt {
 private:
  // (No unique address: `line` goes in the variant's tail padding, after its
  // one-byte index, instead of 8 bytes more.)
  [[no_unique_address]] AnyStmt::Node node_;

 public:
  Stmt() = default;
  // From one node, built in place (see Expr).
  template <class T>
    requires(AnyStmt::has<std::remove_cvref_t<T>>)
  Stmt(T&& n, int at_line = 0)  // NOLINT: converts
      : node_(std::in_place_type<StmtSlot<std::remove_cvref_t<T>>>, std::forward<T>(n)), line(at_line) {}

  template <class T>
  const T* as() const noexcept {
    if constexpr (kBoxedStmt<T>) {
      const auto* box = std::get_if<Boxed<T>>(&node_);
      return box ? &**box : nullptr;
    } else {
      return std::get_if<T>(&node_);
    }
  }
  template <class T>
  bool is() const noexcept {
    return std::holds_alternative<StmtSlot<T>>(node_);
  }
  // std::visit over the node, unboxed.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit([&](const auto& n) -> decltype(auto) { return f(unboxed(n)); }, node_);
  }
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit([&](auto& n) -> decltype(auto) { return f(unboxed(n)); }, node_);
  }

  // Source line this statement came from (0 = unknown), for annotations.
  int line = 0;
};

// A whole source file.
struct Module {
  StmtList body{};
};

}  // namespace unveil::ast

// Expression nodes of the Python syntax tree (⇄ the `expr` sum and its helper
// products in Parser/Python.asdl of 3.14, a superset of 3.8–3.13).
//
// Field names follow Python's `ast` module so that `ast.Call(func, args,
// keywords)` reads as `ast::Call{func, args, keywords}`. Children are shared
// pointers (ExprPtr, ast/node_ptr.h): lifting shares subtrees freely, and a node never
// changes once built. An absent optional child (`expr?` in the ASDL) is nullptr;
// an absent optional identifier is std::nullopt.
#pragma once

#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "ast/arena.h"
#include "ast/name_text.h"
#include "ast/node_ptr.h"
#include "ast/operators.h"
#include "read/object.h"

namespace unveil::ast {

struct Expr;
using ExprPtr = NodePtr<const Expr>;
using ExprList = std::vector<ExprPtr>;

// --- helper products ---------------------------------------------------------

// `keyword`: `arg=value` in a call or class header; arg == nullopt is `**value`.
struct Keyword {
  std::optional<std::string> arg{};
  ExprPtr value{};
};

// `arg`: one parameter name with its optional annotation.
struct Arg {
  NameText arg{};
  ExprPtr annotation{};
};

// `arguments`: a full signature. `defaults` belong to the last entries of
// posonlyargs + args; `kw_defaults` is parallel to `kwonlyargs` (nullptr = none).
struct Arguments {
  std::vector<Arg> posonlyargs{};
  std::vector<Arg> args{};
  std::optional<Arg> vararg{};
  std::vector<Arg> kwonlyargs{};
  ExprList kw_defaults{};
  std::optional<Arg> kwarg{};
  ExprList defaults{};

  bool empty() const noexcept {
    return posonlyargs.empty() && args.empty() && !vararg && kwonlyargs.empty() && !kwarg;
  }
};

// `comprehension`: one `[async] for target in iter if ...` clause.
struct Comprehension {
  ExprPtr target{};
  ExprPtr iter{};
  ExprList ifs{};
  bool is_async = false;
  bool ifs_on_own_line = false;  // print each `if` on a new line (3.12 lays out the filter by line)
};

// A T in a block of its own that copies with its owner (value semantics), for
// fields and node kinds too big to hold inline: a lambda's signature inline
// sized every Expr (every Name) at 256 bytes. The block comes from the node
// arena, as the node holding it does, and remembers it (the box may outlive
// the arena's scope, as a node may). An empty box reads as an empty T: a
// default or moved-from box has no block until it is written through.
template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(T&& v) : p_(make(std::move(v))) {}    // NOLINT: converts like the T it holds
  Boxed(const T& v) : p_(make(v)) {}          // NOLINT
  Boxed(const Boxed& o) : p_(o.p_ ? make(o.p_->value) : nullptr) {}
  Boxed(Boxed&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Boxed& operator=(const Boxed& o) {
    if (this != &o) Boxed(o).swap(*this);
    return *this;
  }
  Boxed& operator=(Boxed&& o) noexcept {
    Boxed(std::move(o)).swap(*this);
    return *this;
  }
  ~Boxed() { drop(p_); }
  void swap(Boxed& o) noexcept { std::swap(p_, o.p_); }

  const T& operator*() const { return p_ ? p_->value : empty(); }
  T& operator*() {
    if (!p_) p_ = make();
    return p_->value;
  }
  const T* operator->() const { return &**this; }
  T* operator->() { return &**this; }

 private:
  struct Block {
    template <class... A>
    explicit Block(NodeArena* a, A&&... args) : arena(a), value(std::forward<A>(args)...) {}
    NodeArena* arena;
    T value;
  };
  template <class... A>
  static Block* make(A&&... args) {
    NodeArena* arena = NodeArena::current();
    void* p = arena ? arena->allocate(sizeof(Block), alignof(Block)) : std::allocator<Block>().allocate(1);
    try {
      return ::new (p) Block(arena, std::forward<A>(args)...);
    } catch (...) {
      release(arena, p);
      throw;
    }
  }
  static void release(NodeArena* arena, void* p) noexcept {
    if (arena) arena->deallocate(p, sizeof(Block));
    else std::allocator<Block>().deallocate(static_cast<Block*>(p), 1);
  }
  static void drop(Block* b) noexcept {
    if (!b) return;
    NodeArena* arena = b->arena;
    b->~Block();
    release(arena, b);
  }
  static const T& empty() {
    static const T e{};
    return e;
  }
  Block* p_ = nullptr;
};

// The node a variant slot holds, whether inline or boxed.
template <class T>
const T& unboxed(const T& n) noexcept {
  return n;
}
template <class T>
T& unboxed(T& n) noexcept {
  return n;
}
template <class T>
const T& unboxed(const Boxed<T>& b) {
  return *b;
}
template <class T>
T& unboxed(Boxed<T>& b) {
  return *b;
}

// --- expression nodes --------------------------------------------------------

struct BoolOp {
  BoolOperator op{};
  ExprList values{};
};
struct NamedExpr {
  ExprPtr target{};
  ExprPtr value{};
};
struct BinOp {
  ExprPtr left{};
  Operator op{};
  ExprPtr right{};
};
struct UnaryOp {
  UnaryOperator op{};
  ExprPtr operand{};
};
struct Lambda {
  Boxed<Arguments> args{};
  ExprPtr body{};
};
struct IfExp {
  ExprPtr test{};
  ExprPtr body{};
  ExprPtr orelse{};
};
// keys[i] == nullptr marks a `**values[i]` entry.
struct Dict {
  ExprList keys{};
  ExprList values{};
};
struct Set {
  ExprList elts{};
};
struct ListComp {
  ExprPtr elt{};
  std::vector<Comprehension> generators{};
};
struct SetComp {
  ExprPtr elt{};
  std::vector<Comprehension> generators{};
};
struct DictComp {
  ExprPtr key{};
  ExprPtr value{};
  std::vector<Comprehension> generators{};
};
struct GeneratorExp {
  ExprPtr elt{};
  std::vector<Comprehension> generators{};
};
struct Await {
  ExprPtr value{};
};
struct Yield {
  ExprPtr value;  // may be nullptr
};
struct YieldFrom {
  ExprPtr value{};
};
// `left ops[0] comparators[0] ops[1] comparators[1] ...` (a chain).
struct Compare {
  ExprPtr left{};
  std::vector<CmpOperator> ops{};
  ExprList comparators{};
  // Its in/is operator is the negation of the one the bytecode has (the
  // structurer negated a test; Python folds `not (a in b)` the same way).
  bool negated = false;
};
struct Call {
  ExprPtr func{};
  ExprList args{};
  std::vector<Keyword> keywords{};
};
// One `{value!conversion:format_spec}` field of an f-string. conversion is -1
// (none) or the character code of 's', 'r' or 'a', as in Python's ast;
// format_spec is nullptr or a JoinedStr.
struct FormattedValue {
  ExprPtr value{};
  int conversion = -1;
  ExprPtr format_spec{};
};
// An f-string: values are Constant strings and FormattedValues.
struct JoinedStr {
  ExprList values{};
};
// 3.14 t-strings: like FormattedValue, plus `str`, the field's source text.
struct Interpolation {
  ExprPtr value{};
  std::string str{};
  int conversion = -1;
  ExprPtr format_spec{};
};
struct TemplateStr {
  ExprList values;  // Constant strings and Interpolations
};
// Any constant a code object can hold, including PlaceholderValue.
struct Constant {
  ObjectRef value{};
};
struct Attribute {
  ExprPtr value{};
  NameText attr{};
  ExprContext ctx = ExprContext::Load;
};
struct Subscript {
  ExprPtr value{};
  ExprPtr slice;  // a Slice, a Tuple of slices/expressions, or any expression
  ExprContext ctx = ExprContext::Load;
};
struct Starred {
  ExprPtr value{};
  ExprContext ctx = ExprContext::Load;
};
struct Name {
  NameText id{};
  ExprContext ctx = ExprContext::Load;
  // id is an expression's source, written as it is: an annotation the
  // compiler kept as text (`from __future__ import annotations`).
  bool source_text = false;
};
struct List {
  ExprList elts{};
  ExprContext ctx = ExprContext::Load;
};
struct Tuple {
  ExprList elts{};
  ExprContext ctx = ExprContext::Load;
};
// `lower:upper:step`, each part optional; only valid inside a Subscript.
struct Slice {
  ExprPtr lower{};
  ExprPtr upper{};
  ExprPtr step{};
};

struct Expr {
  using Node = std::variant<BoolOp, NamedExpr, BinOp, UnaryOp, Lambda, IfExp, Dict, Set, ListComp,
                            SetComp, DictComp, GeneratorExp, Await, Yield, YieldFrom, Compare, Call,
                            FormattedValue, JoinedStr, Interpolation, TemplateStr, Constant,
                            Attribute, Subscript, Starred, Name, List, Tuple, Slice>;
  Node node;

  Expr() = default;
  // From one node, built in place: make_expr moves a node once, not into a
  // temporary Expr first (clang 14 cannot build an aggregate with parentheses).
  template <class T>
    requires(!std::is_same_v<std::remove_cvref_t<T>, Expr> && std::is_constructible_v<Node, T &&>)
  Expr(T&& n) : node(std::forward<T>(n)) {}  // NOLINT: converts like the node it holds

  template <class T>
  const T* as() const noexcept {
    return std::get_if<T>(&node);
  }
  template <class T>
  bool is() const noexcept {
    return std::holds_alternative<T>(node);
  }
};

}  // namespace unveil::ast

// Operator kinds of the syntax tree (⇄ Parser/Python.asdl: operator, unaryop,
// boolop, cmpop, expr_context) and the source text each one prints as.
#pragma once

#include <string_view>

namespace unveil::ast {

// Python's `expr_context`: whether a Name/Attribute/Subscript/Starred/List/Tuple
// is read, assigned or deleted. The unparser ignores it; later stages may not.
enum class ExprContext { Load, Store, Del };

enum class Operator {
  Add,
  Sub,
  Mult,
  MatMult,
  Div,
  Mod,
  Pow,
  LShift,
  RShift,
  BitOr,
  BitXor,
  BitAnd,
  FloorDiv
};
enum class UnaryOperator { Invert, Not, UAdd, USub };
enum class BoolOperator { And, Or };
enum class CmpOperator { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

// Source spelling: "+", "not", "and", "is not", ...
std::string_view symbol(Operator op) noexcept;
std::string_view symbol(UnaryOperator op) noexcept;
std::string_view symbol(BoolOperator op) noexcept;
std::string_view symbol(CmpOperator op) noexcept;

// The class name Python's `ast` module uses ("Add", "USub", "And", "NotIn", ...).
std::string_view ast_name(Operator op) noexcept;
std::string_view ast_name(UnaryOperator op) noexcept;
std::string_view ast_name(BoolOperator op) noexcept;
std::string_view ast_name(CmpOperator op) noexcept;
std::string_view ast_name(ExprContext ctx) noexcept;

}  // namespace unveil::ast

#include "lift/operators.h"

#include <array>
#include <utility>

namespace unveil::lift {

using ast::Operator;

namespace {

// Suffix of BINARY_*/INPLACE_* and the symbol of BINARY_OP, per operator.
struct Row {
  std::string_view suffix, symbol;
  Operator op;
};
constexpr std::array<Row, 13> kBinary{{
    {"ADD", "+", Operator::Add},
    {"SUBTRACT", "-", Operator::Sub},
    {"MULTIPLY", "*", Operator::Mult},
    {"MATRIX_MULTIPLY", "@", Operator::MatMult},
    {"TRUE_DIVIDE", "/", Operator::Div},
    {"MODULO", "%", Operator::Mod},
    {"POWER", "**", Operator::Pow},
    {"LSHIFT", "<<", Operator::LShift},
    {"RSHIFT", ">>", Operator::RShift},
    {"OR", "|", Operator::BitOr},
    {"XOR", "^", Operator::BitXor},
    {"AND", "&", Operator::BitAnd},
    {"FLOOR_DIVIDE", "//", Operator::FloorDiv},
}};

}  // namespace

std::optional<BinaryOperator> binary_by_opname(std::string_view opname) noexcept {
  bool inplace = false;
  if (opname.starts_with("BINARY_")) opname.remove_prefix(7);
  else if (opname.starts_with("INPLACE_")) opname.remove_prefix(8), inplace = true;
  else return std::nullopt;
  for (const Row& row : kBinary)
    if (row.suffix == opname) return BinaryOperator{row.op, inplace};
  return std::nullopt;
}

std::optional<BinaryOperator> binary_by_symbol(std::string_view symbol) noexcept {
  bool inplace = symbol.size() > 1 && symbol.back() == '=';
  if (inplace) symbol.remove_suffix(1);
  for (const Row& row : kBinary)
    if (row.symbol == symbol) return BinaryOperator{row.op, inplace};
  return std::nullopt;
}

std::optional<ast::UnaryOperator> unary_by_opname(std::string_view opname) noexcept {
  using U = ast::UnaryOperator;
  constexpr std::array<std::pair<std::string_view, U>, 4> kUnary{{
      {"UNARY_POSITIVE", U::UAdd},
      {"UNARY_NEGATIVE", U::USub},
      {"UNARY_NOT", U::Not},
      {"UNARY_INVERT", U::Invert},
  }};
  for (const auto& [name, op] : kUnary)
    if (name == opname) return op;
  return std::nullopt;
}

std::optional<ast::CmpOperator> compare_by_text(std::string_view text) noexcept {
  using C = ast::CmpOperator;
  constexpr std::array<std::pair<std::string_view, C>, 10> kCompare{{
      {"==", C::Eq},
      {"!=", C::NotEq},
      {"<", C::Lt},
      {"<=", C::LtE},
      {">", C::Gt},
      {">=", C::GtE},
      {"is", C::Is},
      {"is not", C::IsNot},
      {"in", C::In},
      {"not in", C::NotIn},
  }};
  for (const auto& [name, op] : kCompare)
    if (name == text) return op;
  return std::nullopt;
}

}  // namespace unveil::lift

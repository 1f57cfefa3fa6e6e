#include "ast/operators.h"

namespace unveil::ast {

namespace {

struct Spelling {
  std::string_view symbol;
  std::string_view name;
};

// Indexed by the enum's value; the order must follow the enum declarations.
constexpr Spelling kOperators[] = {
    {"+", "Add"},    {"-", "Sub"},    {"*", "Mult"},      {"@", "MatMult"}, {"/", "Div"},
    {"%", "Mod"},    {"**", "Pow"},   {"<<", "LShift"},   {">>", "RShift"}, {"|", "BitOr"},
    {"^", "BitXor"}, {"&", "BitAnd"}, {"//", "FloorDiv"},
};
constexpr Spelling kUnary[] = {{"~", "Invert"}, {"not", "Not"}, {"+", "UAdd"}, {"-", "USub"}};
constexpr Spelling kBool[] = {{"and", "And"}, {"or", "Or"}};
constexpr Spelling kCompare[] = {
    {"==", "Eq"},  {"!=", "NotEq"}, {"<", "Lt"},         {"<=", "LtE"}, {">", "Gt"},
    {">=", "GtE"}, {"is", "Is"},    {"is not", "IsNot"}, {"in", "In"},  {"not in", "NotIn"},
};
constexpr std::string_view kContexts[] = {"Load", "Store", "Del"};

// An out-of-range value (a cast from bad data) prints as "?" instead of reading past the table.
template <class Enum, std::size_t N>
const Spelling& lookup(const Spelling (&table)[N], Enum value) noexcept {
  static constexpr Spelling kUnknown{"?", "?"};
  auto index = static_cast<std::size_t>(value);
  return index < N ? table[index] : kUnknown;
}

}  // namespace

std::string_view symbol(Operator op) noexcept { return lookup(kOperators, op).symbol; }
std::string_view symbol(UnaryOperator op) noexcept { return lookup(kUnary, op).symbol; }
std::string_view symbol(BoolOperator op) noexcept { return lookup(kBool, op).symbol; }
std::string_view symbol(CmpOperator op) noexcept { return lookup(kCompare, op).symbol; }

std::string_view ast_name(Operator op) noexcept { return lookup(kOperators, op).name; }
std::string_view ast_name(UnaryOperator op) noexcept { return lookup(kUnary, op).name; }
std::string_view ast_name(BoolOperator op) noexcept { return lookup(kBool, op).name; }
std::string_view ast_name(CmpOperator op) noexcept { return lookup(kCompare, op).name; }
std::string_view ast_name(ExprContext ctx) noexcept {
  auto index = static_cast<std::size_t>(ctx);
  return index < 3 ? kContexts[index] : std::string_view("?");
}

}  // namespace unveil::ast

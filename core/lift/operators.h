// Opname- and symbol-keyed tables of the operators lifting rebuilds.
#pragma once

#include <optional>
#include <string_view>

#include "ast/operators.h"

namespace unveil::lift {

struct BinaryOperator {
  ast::Operator op;
  bool inplace;  // INPLACE_* / `+=`: an augmented assignment
};

// ≤3.10 BINARY_ADD, INPLACE_ADD, ...
std::optional<BinaryOperator> binary_by_opname(std::string_view opname) noexcept;
// 3.11+ BINARY_OP: "+", "+=", ... (nb_ops entries)
std::optional<BinaryOperator> binary_by_symbol(std::string_view symbol) noexcept;
// UNARY_NEGATIVE, ...
std::optional<ast::UnaryOperator> unary_by_opname(std::string_view opname) noexcept;
// COMPARE_OP text: "<", "in", "is not", ...
std::optional<ast::CmpOperator> compare_by_text(std::string_view text) noexcept;

}  // namespace unveil::lift

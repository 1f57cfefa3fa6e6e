// PEP 695 type parameters (3.12+) with PEP 696 defaults (3.13+)
// (⇄ the `type_param` sum of Parser/Python.asdl).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "ast/expr.h"

namespace unveil::ast {

// `T`, `T: bound`, `T = default`.
struct TypeVar {
  std::string name{};
  ExprPtr bound{};
  ExprPtr default_value{};
};
// `**P`.
struct ParamSpec {
  std::string name{};
  ExprPtr default_value{};
};
// `*Ts`.
struct TypeVarTuple {
  std::string name{};
  ExprPtr default_value{};
};

struct TypeParam {
  std::variant<TypeVar, ParamSpec, TypeVarTuple> node{};
};
using TypeParamList = std::vector<TypeParam>;

}  // namespace unveil::ast

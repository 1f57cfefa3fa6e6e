// Match-statement patterns (⇄ the `pattern` sum of Parser/Python.asdl, 3.10+).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ast/expr.h"

namespace unveil::ast {

struct Pattern;
using PatternPtr = NodePtr<const Pattern>;
using PatternList = std::vector<PatternPtr>;

// A literal or dotted-name value: `case 1:`, `case Color.RED:`.
struct MatchValue {
  ExprPtr value{};
};
// `case None:`, `case True:`, `case False:` (value is a None or bool constant).
struct MatchSingleton {
  ObjectRef value{};
};
// `case [a, *rest]:`
struct MatchSequence {
  PatternList patterns{};
};
// `case {"k": p, **rest}:`; keys are value expressions parallel to patterns.
struct MatchMapping {
  ExprList keys{};
  PatternList patterns{};
  std::optional<std::string> rest{};
};
// `case Point(p0, x=p1):`; kwd_attrs parallel to kwd_patterns.
struct MatchClass {
  ExprPtr cls{};
  PatternList patterns{};
  std::vector<std::string> kwd_attrs{};
  PatternList kwd_patterns{};
};
// `*name` inside a sequence pattern; nullopt name is `*_`.
struct MatchStar {
  std::optional<std::string> name{};
};
// `pattern as name`; a bare capture when pattern is nullptr; `_` when both are absent.
struct MatchAs {
  PatternPtr pattern{};
  std::optional<std::string> name{};
};
struct MatchOr {
  PatternList patterns{};
};

struct Pattern {
  std::variant<MatchValue, MatchSingleton, MatchSequence, MatchMapping, MatchClass, MatchStar,
               MatchAs, MatchOr>
      node;

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

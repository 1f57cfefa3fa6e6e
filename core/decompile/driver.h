// Internal: the driver's Definer, which decompiles each nested code object.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ast/arena.h"
#include "ast/stmt.h"
#include "decompile/decompile.h"
#include "lift/lifter.h"

namespace unveil::decompile {

enum class BodyKind { Module, Function, Lambda, Class, Comprehension };

class Driver : public lift::Definer {
 public:
  explicit Driver(const VersionTraits& version, const DecompileOptions& options = {})
      : version_(version), options_(options) {}

  // The statements of one code object, post-processed for its kind. Throws
  // Error when it cannot be decompiled.
  ast::StmtList body(const std::shared_ptr<const CodeObject>& code, BodyKind kind);
  // Like body(), but a failure becomes a body that says so and raises.
  ast::StmtList body_or_fallback(const std::shared_ptr<const CodeObject>& code, BodyKind kind);
  // The body of a code object that could not be decompiled: the reason, its
  // disassembly and a raise.
  ast::StmtList fallback_body(const std::shared_ptr<const CodeObject>& code, const std::string& reason) const;

  ast::StmtPtr define_function(const lift::FunctionValue& f, const std::string& name) override;
  ast::StmtPtr define_class(const lift::ClassValue& c, const std::string& name) override;
  ast::ExprPtr function_expr(const lift::FunctionValue& f, ast::ExprPtr iter_arg) override;
  ast::ExprPtr lazy_value(const lift::FunctionValue& f) override;
  std::string stored_name(const std::string& name) const override;
  std::optional<lift::Item> generic(const lift::FunctionValue& wrapper, const ast::ExprList& args) override;
  ast::ExprPtr argument(const CodeObject& code, const std::string& name) const override;
  // The trees made are printed and being dropped (see NodeArenaScope::dropping).
  void dropping_trees() noexcept { arena_.dropping(); }

 private:
  std::vector<std::string> stored_self_attributes(const std::shared_ptr<const CodeObject>& code) const;
  ast::StmtList body_uncached(const std::shared_ptr<const CodeObject>& code, BodyKind kind);
  bool bound_in_enclosing_function(std::string_view name) const;
  // Whether pred(scope) holds for a function around the one being decompiled
  // (scopes_.back() is that function; class bodies around it bind nothing it sees).
  template <class Pred>
  bool any_enclosing_function(Pred&& pred) const {
    for (std::size_t k = 0; k + 1 < scopes_.size(); ++k)
      if ((scopes_[k]->flags & kCoOptimized) && pred(*scopes_[k])) return true;
    return false;
  }
  ast::StmtList tidy_structured(ast::StmtList stmts, BodyKind kind) const;
  lift::Item generic_definition(const lift::FunctionValue& wrapper, const ast::ExprList& args);
  lift::Item generic_fallback(const lift::FunctionValue& wrapper, const std::string& reason);

  // Nodes made while this driver decompiles come from one arena (first, so
  // that the cached bodies below let go of their nodes before it closes).
  ast::NodeArenaScope arena_;
  const VersionTraits& version_;
  DecompileOptions options_;
  int depth_ = 0;
  // The code objects being decompiled, outermost first (the scopes around a nested one).
  std::vector<const CodeObject*> scopes_;
  std::string private_prefix_;  // of the innermost class around the code being decompiled
  // Bodies already decompiled. The structurer lifts some blocks more than
  // once (to test whether they are a condition), and a block that defines a
  // function or class would decompile its whole nested code again each time.
  // A body depends only on its code object, its kind, the class around it
  // and the nesting depth (which decides the depth error).
  using BodyKey = std::tuple<const CodeObject*, BodyKind, int, std::string>;
  struct Cached {
    std::shared_ptr<const CodeObject> code;  // keeps the key's address taken
    ast::StmtList body;
  };
  std::map<BodyKey, Cached> bodies_;
  // The arguments of the generic wrappers being lifted (their `.defaults`).
  std::vector<std::pair<const CodeObject*, std::map<std::string, ast::ExprPtr>>> arguments_;
};

// Class-body, module and function bookkeeping the compiler added.
// `flags`: the code's flags (annotations under `from __future__ import annotations`).
ast::StmtList tidy_class_body(ast::StmtList body, std::uint32_t flags);
ast::StmtList tidy_module_body(ast::StmtList body, std::uint32_t flags);
ast::StmtList annotations_to_ann_assign(ast::StmtList body, std::uint32_t flags);
ast::StmtList drop_trailing_return_none(ast::StmtList body);
// Drops `return None` from tail positions (keeping a lone one when keep_lone).
ast::StmtList drop_tail_returns(ast::StmtList body, bool keep_lone);
ast::StmtList drop_else_return_none(ast::StmtList body);

}  // namespace unveil::decompile

// Sinks: where the stores of unpacked values, imported names and loop
// targets go, so that several stores become one statement.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ast/build.h"
#include "lift/stack.h"

namespace unveil::lift {

// Sink::put is declared in stack.h; the out-parameter form lives here.
struct StmtSink : Sink {
  void put(std::size_t, ast::ExprPtr) override {}
  virtual void put(std::size_t index, ast::ExprPtr target, ast::StmtList& out) = 0;
};

// `a, *b, c = value` (or a nested target of an outer unpacking).
class UnpackSink : public StmtSink {
 public:
  UnpackSink(std::size_t count, std::optional<std::size_t> star, ast::ExprPtr value,
             std::shared_ptr<Sink> parent, std::size_t parent_index)
      : targets_(count), star_(star), value_(std::move(value)), parent_(std::move(parent)),
        parent_index_(parent_index) {}
  using StmtSink::put;
  void put(std::size_t index, ast::ExprPtr target, ast::StmtList& out) override;
  // Slots no store has reached yet; whether this unpacking is part of a bigger one.
  std::vector<std::size_t> unfilled() const {
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < targets_.size(); ++k)
      if (!targets_[k]) out.push_back(k);
    return out;
  }
  bool nested() const { return parent_ != nullptr; }
  // `*args: *Ts` (3.11+) unpacks its annotation into one value: `[v] = [*Ts]`.
  bool single_unstarred() const { return targets_.size() == 1 && !star_ && !parent_ && filled_ == 0; }
  const ast::ExprPtr& value() const { return value_; }

 private:
  std::vector<ast::ExprPtr> targets_;
  std::size_t filled_ = 0;
  std::optional<std::size_t> star_;
  ast::ExprPtr value_;
  std::shared_ptr<Sink> parent_;
  std::size_t parent_index_;
};

// `from module import a, b as c`: names come from IMPORT_FROM, targets from stores.
class ImportFromSink : public StmtSink {
 public:
  ImportFromSink(std::string module, int level) : module_(std::move(module)), level_(level) {}
  std::size_t add_name(std::string name) {
    names_.push_back(std::move(name));
    aliases_.emplace_back();
    return names_.size() - 1;
  }
  using StmtSink::put;
  void put(std::size_t index, ast::ExprPtr target, ast::StmtList& out) override;
  ast::StmtPtr statement() const;

 private:
  std::string module_;
  int level_;
  std::vector<std::string> names_;
  std::vector<std::optional<ast::Alias>> aliases_;
};

// The target of a for loop or comprehension clause, read by the structurer.
class TargetSink : public StmtSink {
 public:
  using StmtSink::put;
  void put(std::size_t, ast::ExprPtr target, ast::StmtList&) override { target_ = std::move(target); }
  const ast::ExprPtr& target() const { return target_; }

 private:
  ast::ExprPtr target_;
};

// `type name[params] = value` (3.12+): INTRINSIC_TYPEALIAS's result, stored under its name.
class TypeAliasSink : public StmtSink {
 public:
  TypeAliasSink(std::string name, ast::TypeParamList params, ast::ExprPtr value)
      : name_(std::move(name)), params_(std::move(params)), value_(std::move(value)) {}
  using StmtSink::put;
  void put(std::size_t, ast::ExprPtr target, ast::StmtList& out) override { out.push_back(statement(std::move(target))); }
  ast::StmtPtr statement(ast::ExprPtr target) const { return ast::type_alias(std::move(target), params_, value_); }
  const std::string& name() const { return name_; }  // the alias's own name (its __name__)

 private:
  std::string name_;
  ast::TypeParamList params_;
  ast::ExprPtr value_;
};

// Delivers a store into any sink.
void put_target(Sink& sink, std::size_t index, ast::ExprPtr target, ast::StmtList& out);

}  // namespace unveil::lift

#include "lift/sinks.h"

#include "support/error.h"

namespace unveil::lift {

void put_target(Sink& sink, std::size_t index, ast::ExprPtr target, ast::StmtList& out) {
  if (auto* s = dynamic_cast<StmtSink*>(&sink)) s->put(index, std::move(target), out);
  else sink.put(index, std::move(target));
}

void UnpackSink::put(std::size_t index, ast::ExprPtr target, ast::StmtList& out) {
  if (index >= targets_.size() || targets_[index])
    throw Error(ErrorKind::Decode, "lift: unpacking target stored twice");
  if (star_ && *star_ == index) target = ast::starred(target, ast::ExprContext::Store);
  targets_[index] = std::move(target);
  if (++filled_ < targets_.size()) return;
  ast::ExprPtr tuple = ast::tuple(targets_, ast::ExprContext::Store);
  if (parent_) put_target(*parent_, parent_index_, tuple, out);
  else out.push_back(ast::assign(tuple, value_));
}

void ImportFromSink::put(std::size_t index, ast::ExprPtr target, ast::StmtList&) {
  if (index >= names_.size()) throw Error(ErrorKind::Decode, "lift: import target out of range");
  auto* n = target->as<ast::Name>();
  std::string as = n ? n->id.str() : names_[index];
  aliases_[index] = as == names_[index] ? ast::alias(names_[index]) : ast::alias(names_[index], as);
}

ast::StmtPtr ImportFromSink::statement() const {
  std::vector<ast::Alias> names;
  for (const auto& a : aliases_)
    if (a) names.push_back(*a);
  return ast::import_from(module_, std::move(names), level_);
}

}  // namespace unveil::lift

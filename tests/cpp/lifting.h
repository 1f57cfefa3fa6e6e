// Module code of a compiled snippet and a Definer refusing nested code, for tests of lifting and structuring.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lift/lifter.h"
#include "python_snippets.h"
#include "read/code_object.h"
#include "read/marshal.h"

namespace unveil::testing {

// The module code of `source` compiled by pyenv's Python `version`; null
// where that interpreter is missing or the snippet does not compile there.
inline std::shared_ptr<const CodeObject> compile_module(const std::string& version, const std::string& source) {
  std::vector<std::uint8_t> data = marshal_snippet(version, source);
  if (data.empty()) return nullptr;
  int minor = std::stoi(version.substr(2));
  return read_marshal(data, *find_version(minor))->as<CodeValue>()->code;
}

// A Definer that refuses nested code: these tests lift plain expressions only.
struct NoDefiner : lift::Definer {
  ast::StmtPtr define_function(const lift::FunctionValue&, const std::string&) override { return nullptr; }
  ast::StmtPtr define_class(const lift::ClassValue&, const std::string&) override { return nullptr; }
  ast::ExprPtr function_expr(const lift::FunctionValue&, ast::ExprPtr) override { return nullptr; }
};

}  // namespace unveil::testing

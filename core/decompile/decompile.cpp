#include "decompile/decompile.h"

#include "decompile/driver.h"
#include "emit/unparse.h"
#include "read/marshal.h"
#include "read/pyc.h"
#include "support/error.h"

namespace unveil {

ast::Module decompile_module(std::shared_ptr<const CodeObject> code, const VersionTraits& version) {
  decompile::Driver driver(version);
  return ast::Module{driver.body_or_fallback(code, decompile::BodyKind::Module)};
}

std::string decompile_to_source(std::shared_ptr<const CodeObject> code, const VersionTraits& version) {
  std::string text = unparse(decompile_module(std::move(code), version));
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

namespace {
std::shared_ptr<const CodeObject> code_of(const ObjectRef& o) {
  const CodeValue* c = o ? o->as<CodeValue>() : nullptr;
  if (!c) throw Error(ErrorKind::CodeObject, "the module object is not a code object");
  return c->code;
}
}  // namespace

std::string decompile_pyc(std::span<const std::uint8_t> file) {
  PycFile pyc = read_pyc(file);
  return decompile_to_source(code_of(pyc.module), *pyc.header.version);
}

std::string decompile_marshal(std::span<const std::uint8_t> data, int minor,
                              const std::string& placeholder_prefix,
                              const std::vector<std::string>& placeholder_names) {
  const VersionTraits* v = find_version(minor);
  if (!v) throw Error(ErrorKind::Unsupported, "Python 3." + std::to_string(minor) + " is not supported");
  MarshalOptions options;
  options.placeholder_prefix = placeholder_prefix;
  options.placeholder_names = placeholder_names;
  return decompile_to_source(code_of(read_marshal(data, *v, options)), *v);
}

}  // namespace unveil

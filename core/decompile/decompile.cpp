#include "decompile/decompile.h"

#include <optional>

#include "ast/build.h"
#include "ast/identifier.h"
#include "decompile/driver.h"
#include "emit/unparse.h"
#include "read/marshal.h"
#include "read/pyc.h"
#include "support/error.h"

namespace unveil {

namespace {
// Whether the tree of `code` is to be dropped as it is printed
// (unparse_dropping): when it is big, since a small tree is still in the cache
// when it is freed after printing; and when the code's own names print as they
// are, since a name to rename (the `.0` of a comprehension's code) means
// passes that read the whole tree again, and so building it twice.
bool drop_as_printed(const CodeObject& code) {
  constexpr std::size_t kBigCodeUnits = 2048;  // (a tree of some 200 KB and more)
  if (code.code.size() / 2 < kBigCodeUnits) return false;
  // (localsplusnames holds varnames, cellvars and freevars, on every version: read/code_layout.cpp.)
  for (const NameList* table : {&code.names, &code.localsplusnames})
    for (std::string_view name : *table)
      if (!ast::is_identifier(name)) return false;
  return true;
}

// The source of the module `make(driver)` builds. With `drop`, its statements
// are dropped as they are printed; should a name then need renaming after all,
// the tree is built again and printed whole.
template <class Make>
std::string print_module(const VersionTraits& version, const DecompileOptions& options, bool drop, Make&& make) {
  // Each tree is printed and dropped while the driver, and so its node arena,
  // lives: nodes that outlive the arena's scope are freed one atomic count at
  // a time and keep the arena from going back to the thread's pool.
  std::optional<std::string> text;
  if (drop) {
    decompile::Driver driver(version, options);
    ast::Module tree{make(driver)};
    // (Nothing more is built: the nodes freed while printing go on no free
    // list, and no node printed later takes the address of one printed before.)
    driver.dropping_trees();
    text = unparse_dropping(tree);
  }
  if (!text) {
    decompile::Driver driver(version, options);
    const ast::Module tree{make(driver)};
    text = unparse(tree);
    driver.dropping_trees();
  }
  if (!text->empty() && text->back() != '\n') *text += '\n';
  return std::move(*text);
}
}  // namespace

std::string decompile_to_source(std::shared_ptr<const CodeObject> code, const VersionTraits& version,
                                const DecompileOptions& options) {
  return print_module(version, options, drop_as_printed(*code), [&](decompile::Driver& driver) {
    return driver.body_or_fallback(code, decompile::BodyKind::Module);
  });
}

namespace {
std::shared_ptr<const CodeObject> code_of(const ObjectRef& o) {
  const CodeValue* c = o ? o->as<CodeValue>() : nullptr;
  if (!c) throw Error(ErrorKind::CodeObject, "the module object is not a code object");
  return c->code;
}
}  // namespace

std::string decompile_pyc(std::span<const std::uint8_t> file, const DecompileOptions& options) {
  PycFile pyc = read_pyc(file);
  return decompile_to_source(code_of(pyc.module), *pyc.header.version, options);
}

namespace {
const VersionTraits& version_of(int minor) {
  const VersionTraits* v = find_version(minor);
  if (!v) throw Error(ErrorKind::Unsupported, "Python 3." + std::to_string(minor) + " is not supported");
  return *v;
}
ObjectRef read_with_placeholders(std::span<const std::uint8_t> data, const VersionTraits& v,
                                 const std::string& prefix, const std::vector<std::string>& names) {
  MarshalOptions options;
  options.placeholder_prefix = prefix;
  options.placeholder_names = names;
  return read_marshal(data, v, options);
}
// `name: value` pairs of a dict with str keys (others are skipped).
std::vector<std::pair<std::string, ast::ExprPtr>> named_values(const ObjectRef& o) {
  std::vector<std::pair<std::string, ast::ExprPtr>> out;
  if (auto* d = o ? o->as<DictValue>() : nullptr)
    for (const auto& [k, v] : d->items)
      if (auto* s = k ? k->as<StrValue>() : nullptr; s && v) out.emplace_back(s->utf8, ast::constant(v));
  return out;
}
}  // namespace

std::string decompile_marshal(std::span<const std::uint8_t> data, int minor,
                              const std::string& placeholder_prefix,
                              const std::vector<std::string>& placeholder_names) {
  const VersionTraits& v = version_of(minor);
  return decompile_to_source(code_of(read_with_placeholders(data, v, placeholder_prefix, placeholder_names)), v);
}

std::string decompile_function_marshal(std::span<const std::uint8_t> data, int minor,
                                       const std::string& placeholder_prefix,
                                       const std::vector<std::string>& placeholder_names) {
  const VersionTraits& v = version_of(minor);
  ObjectRef o = read_with_placeholders(data, v, placeholder_prefix, placeholder_names);
  auto* parts = o ? o->as<TupleValue>() : nullptr;
  if (!parts || parts->items.size() != 4)
    throw Error(ErrorKind::CodeObject, "a function is marshalled as (code, defaults, kwdefaults, annotations)");
  return decompile_function(code_of(parts->items[0]), parts->items[1], parts->items[2],
                            parts->items[3], v);
}

std::string decompile_function(std::shared_ptr<const CodeObject> code, const ObjectRef& defaults,
                               const ObjectRef& kwdefaults, const ObjectRef& annotations,
                               const VersionTraits& v) {
  lift::FunctionValue f;
  f.code = std::move(code);
  if (!ast::is_identifier(f.code->name)) return decompile_to_source(f.code, v);
  if (auto* d = defaults ? defaults->as<TupleValue>() : nullptr)
    for (const ObjectRef& x : d->items) f.defaults.push_back(ast::constant(x));
  f.kwdefaults = named_values(kwdefaults);
  f.annotations = named_values(annotations);
  return print_module(v, {}, drop_as_printed(*f.code), [&](decompile::Driver& driver) {
    return ast::StmtList{driver.define_function(f, f.code->name)};
  });
}

}  // namespace unveil

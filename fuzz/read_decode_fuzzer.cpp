// libFuzzer target: .pyc / marshal bytes → objects → decode → resolve → disassemble.
//
// Input layout: byte 0 picks the mode.
//   bit 0 clear: bytes 1.. are a whole .pyc (read_pyc; the header picks the version).
//   bit 0 set:   byte 1 picks the version (all_versions()[byte % count], oldest first:
//                0 = 3.8 ... 6 = 3.14), bytes 2.. are raw marshal data;
//                bit 1 also turns on constant placeholders (MarshalOptions).
// Every code object reachable from the result (consts, nested code, containers)
// is decoded, every instruction's argument resolved, and each is disassembled.
// unveil::Error is the expected outcome for bad input; anything else (another
// exception, a sanitizer report, a hang) is a bug.
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_set>

#include "decode/argument.h"
#include "decode/decode.h"
#include "disasm/disassemble.h"
#include "read/marshal.h"
#include "read/pyc.h"
#include "support/error.h"

namespace {

using namespace unveil;

class Walker {
 public:
  explicit Walker(const VersionTraits& version) : version_(version) {}

  // Visits each object once: marshal references make the stream a DAG whose
  // naive traversal can be exponential.
  void visit(const ObjectRef& object) {
    if (!object || !seen_.insert(object.get()).second) return;
    if (const auto* code = object->as<CodeValue>()) {
      if (code->code) visit_code(code->code);
    } else if (const auto* tuple = object->as<TupleValue>()) {
      visit_all(tuple->items);
    } else if (const auto* list = object->as<ListValue>()) {
      visit_all(list->items);
    } else if (const auto* set = object->as<SetValue>()) {
      visit_all(set->items);
    } else if (const auto* frozen = object->as<FrozenSetValue>()) {
      visit_all(frozen->items);
    } else if (const auto* dict = object->as<DictValue>()) {
      for (const auto& [key, value] : dict->items) {
        visit(key);
        visit(value);
      }
    } else if (const auto* slice = object->as<SliceValue>()) {
      visit(slice->start);
      visit(slice->stop);
      visit(slice->step);
    }
  }

 private:
  template <class Items>
  void visit_all(const Items& items) {
    for (const auto& item : items) visit(item);
  }

  void visit_code(const std::shared_ptr<const CodeObject>& code) {
    // Each stage may reject what the one before accepted; keep going with
    // the nested code objects either way.
    try {
      const DecodedCode decoded = decode(code, version_);
      for (const auto& instruction : decoded.instructions) {
        try {
          (void)resolve_argument(decoded, instruction);
        } catch (const Error&) {
        }
      }
      (void)disassemble(decoded, DisasmOptions{.recursive = false, .show_caches = true});
    } catch (const Error&) {
    }
    visit_all(code->consts);
  }

  const VersionTraits& version_;
  std::unordered_set<const Object*> seen_;
};

void run_pyc(std::span<const std::uint8_t> data) {
  const PycFile pyc = read_pyc(data);
  if (!pyc.header.version) return;
  Walker(*pyc.header.version).visit(pyc.module);
}

void run_marshal(std::span<const std::uint8_t> data, bool placeholders) {
  if (data.empty()) return;
  const auto versions = all_versions();
  if (versions.empty()) return;
  const VersionTraits& version = *versions[data[0] % versions.size()];
  MarshalOptions options;
  if (placeholders) {
    options.placeholder_prefix = "__unveil_placeholder_";
    options.placeholder_names = {"torch.float32", "SomeClass"};
  }
  const ObjectRef object = read_marshal(data.subspan(1), version, options, 2);
  Walker(version).visit(object);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  const std::span<const std::uint8_t> rest(data + 1, size - 1);
  try {
    if (mode & 1)
      run_marshal(rest, (mode & 2) != 0);
    else
      run_pyc(rest);
  } catch (const unveil::Error&) {
    // Expected: bad input is reported, not crashed on.
  }
  return 0;
}

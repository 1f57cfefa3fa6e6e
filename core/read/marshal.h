// marshal: CPython's object serialisation, versions 4 (3.8–3.13) and 5 (3.14).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "opcodes/version.h"
#include "read/object.h"

namespace unveil {

struct MarshalOptions {
  // Live code objects may hold constants marshal cannot write (classes,
  // dtypes). The Python layer swaps each for the string
  // `placeholder_prefix + decimal index` before marshalling; the reader turns
  // such strings back into PlaceholderValue{placeholder_names[index], index}.
  // Empty prefix: no substitution.
  std::string placeholder_prefix;
  std::vector<std::string> placeholder_names;
  // Nesting limit for containers and code objects (defends the stack).
  int max_depth = 256;
};

// Reads one object. Code objects use `version`'s field layout. Throws
// Error(Marshal) on a bad type code, truncation, or a reference out of range,
// and Error(CodeObject) on code fields of the wrong type. `base_offset` is
// added to offsets in error messages (16 for the body of a .pyc).
ObjectRef read_marshal(std::span<const std::uint8_t> data, const VersionTraits& version,
                       const MarshalOptions& options = {}, std::size_t base_offset = 0);

}  // namespace unveil

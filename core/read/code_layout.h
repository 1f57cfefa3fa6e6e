// Turning the raw fields of a code object into a checked CodeObject with both
// locals views filled: for the marshal reader, and for the bindings, which
// fill the fields from a live code object so that it gets the same checks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "opcodes/version.h"
#include "read/code_object.h"
#include "read/object.h"

namespace unveil::detail {

// A field as it came out of the stream, with the offset of its first byte so
// that a type error can point at it.
struct RawObjectField {
  ObjectRef value;
  std::size_t offset = 0;
};
struct RawIntField {
  std::int32_t value = 0;
  std::size_t offset = 0;
};

// The counts and flags of a code object: all the bindings pass for a live
// one (its other fields are already plain values, see complete_code_object).
struct RawCounts {
  RawIntField argcount, posonlyargcount, kwonlyargcount, nlocals, stacksize, flags, firstlineno;
};

// Every field any supported layout stores; the reader fills those of its
// version and leaves the others empty.
struct RawCode : RawCounts {
  std::size_t offset = 0;  // the 'c' type byte
  RawObjectField code, consts, names;
  RawObjectField varnames, freevars, cellvars;       // Split layout (≤3.10)
  RawObjectField localsplusnames, localspluskinds;   // LocalsPlus layout (3.11+)
  RawObjectField filename, name, qualname;           // qualname: 3.11+
  RawObjectField linetable;                          // co_lnotab (3.8–3.9) / co_linetable
  RawObjectField exceptiontable;                     // 3.11+
};

// Checks field types and counts and derives the view the version does not
// store. Throws Error(ErrorKind::CodeObject, ..., offset of the bad field).
//
// `placeholder_prefix` lets str fields that the reader turned into
// placeholders read back as their original text.
CodeObject build_code_object(const RawCode& raw, const VersionTraits& version,
                             const std::string& placeholder_prefix);

// The same from fields already read as plain values (the bindings take them
// from a live code object, whose fields have their types): `co` holds the
// fields this version stores, `counts` the counts. The same checks and derived
// views, without an object for every name on the way (and no stream, so a
// failed check names offset 0). Completes `co` where it is (it is big: moving
// it in and out cost more than the checks).
void complete_code_object(CodeObject& co, const RawCounts& counts, const VersionTraits& version);

}  // namespace unveil::detail

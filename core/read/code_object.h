// A code object in one layout for every version 3.8–3.14.
//
// Versions store locals differently: ≤3.10 has co_varnames/co_cellvars/
// co_freevars, 3.11+ has co_localsplusnames/co_localspluskinds. The reader
// fills both views so later stages can use whichever the version's opcodes
// index (see opcodes/version.h, LocalsLayout).
//
// The name tables are views: a code object has dozens of names (Dynamo's,
// up to a hundred locals) and a function uses a few, so copying each was a
// cost of its own. The marshal reader's views point into its str objects,
// which `name_text` holds; the bindings' into the live code object's strs,
// which the caller holds for the whole call (they outlive every use, as the
// syntax trees' borrowed names do, see ast/name_text.h). A hand-built code
// object may view static text.
//
// The bindings recycle the code objects they read from live ones (CodePool in
// bindings/core_module.cpp): every field is written over on each read, so a
// new field needs its write there too, and the derived views in
// read/code_layout.cpp overwrite what they find.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "read/object.h"

namespace unveil {

// co_localspluskinds bits (3.11+).
enum LocalKind : std::uint8_t {
  kLocalArgPos = 0x02,  // 3.14
  kLocalArgKw = 0x04,   // 3.14
  kLocalArgVar = 0x08,  // 3.14
  kLocalHidden = 0x10,  // 3.12+
  kLocalPlain = 0x20,
  kLocalCell = 0x40,
  kLocalFree = 0x80,
};

// co_flags bits.
enum CodeFlag : std::uint32_t {
  kCoOptimized = 0x1,
  kCoNewLocals = 0x2,
  kCoVarargs = 0x4,
  kCoVarkeywords = 0x8,
  kCoNested = 0x10,
  kCoGenerator = 0x20,
  kCoNoFree = 0x40,
  kCoCoroutine = 0x80,
  kCoIterableCoroutine = 0x100,
  kCoAsyncGenerator = 0x200,
  kCoFutureAnnotations = 0x1000000,  // `from __future__ import annotations`
  kCoHasDocstring = 0x4000000,  // 3.14
  kCoMethod = 0x8000000,        // 3.14
};

// A table of names: views of text that outlives the code object's uses (see above).
using NameList = std::vector<std::string_view>;

struct CodeObject {
  int version_minor = 0;  // 3.<minor> layout this object was read with

  std::int32_t argcount = 0;
  std::int32_t posonlyargcount = 0;
  std::int32_t kwonlyargcount = 0;
  std::int32_t nlocals = 0;  // stored ≤3.10; derived for 3.11+ (count of plain locals)
  std::int32_t stacksize = 0;
  std::uint32_t flags = 0;
  std::int32_t firstlineno = 0;

  std::string code;  // co_code bytes
  std::vector<ObjectRef> consts;
  NameList names;

  // ≤3.10 fields; derived from localsplus for 3.11+.
  NameList varnames;
  NameList cellvars;
  NameList freevars;
  // 3.11+ fields; derived from the three lists above for ≤3.10.
  NameList localsplusnames;
  std::vector<std::uint8_t> localspluskinds;
  // The objects whose text the names view, when this object owns them (the
  // marshal reader's tuples of str, and the strs it made for placeholders).
  std::vector<ObjectRef> name_text;

  std::string filename;
  std::string name;
  std::string qualname;  // 3.11+; equals `name` before

  // co_lnotab (3.8–3.9), co_linetable (3.10, 3.11+ location table).
  std::string linetable;
  std::string exceptiontable;  // 3.11+
};

}  // namespace unveil

// The decompiler driver: a module code object (from a .pyc or marshal data)
// to Python source. Nested code objects become defs, lambdas, classes and
// comprehensions; a function that cannot be structured becomes a state
// machine (structure/dispatch.h), and a code object that cannot be
// decompiled even so becomes a function whose body says so (comment +
// disassembly + raise), so the rest of the module still decompiles and compiles.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ast/stmt.h"
#include "opcodes/version.h"
#include "read/code_object.h"

namespace unveil {

// What the body of a code object that cannot be decompiled raises, followed
// by its name: `raise RuntimeError('unveil could not decompile f')`. Tools
// look for it in the output (unveil.FALLBACK_MARK).
inline constexpr std::string_view kFallbackMark = "unveil could not decompile";

struct DecompileOptions {
  // Every function the state machine can express becomes one, even where the
  // structurer would succeed: this tests the general fallback on all code.
  bool state_machine = false;
};

// Source text of a module code object.
std::string decompile_to_source(std::shared_ptr<const CodeObject> code, const VersionTraits& version,
                                const DecompileOptions& options = {});

// A whole .pyc file. Throws Error for a bad header or marshal body.
std::string decompile_pyc(std::span<const std::uint8_t> file, const DecompileOptions& options = {});

// Marshalled code (as unveil._live writes it) of Python 3.<minor>.
std::string decompile_marshal(std::span<const std::uint8_t> data, int minor,
                              const std::string& placeholder_prefix,
                              const std::vector<std::string>& placeholder_names);

// A function: marshalled `(code, defaults, kwdefaults, annotations)` (each of
// the last three None or a tuple/dict; non-literal values as placeholders).
// Prints `def name(signature):` with its body; a code object whose name is
// not an identifier (`<lambda>`, `<genexpr>`) prints as its body alone.
std::string decompile_function_marshal(std::span<const std::uint8_t> data, int minor,
                                       const std::string& placeholder_prefix,
                                       const std::vector<std::string>& placeholder_names);

// The same from a code object already read (the bindings build it from a
// live one) and the three values, each null or None when absent.
std::string decompile_function(std::shared_ptr<const CodeObject> code, const ObjectRef& defaults,
                               const ObjectRef& kwdefaults, const ObjectRef& annotations,
                               const VersionTraits& version);

}  // namespace unveil

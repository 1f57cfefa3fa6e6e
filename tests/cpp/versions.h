// Version traits and opcode numbers by name, for tests that hand-build bytecode.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "opcodes/version.h"

namespace unveil::testing {

// The traits of 3.<minor>; throws where the version is not supported.
inline const VersionTraits& version(int minor) {
  const VersionTraits* traits = find_version(minor);
  if (!traits) throw std::runtime_error("no traits for 3." + std::to_string(minor));
  return *traits;
}

// The opcode named `name` in `traits`, or nullopt where there is none.
inline std::optional<std::uint8_t> find_opcode(const VersionTraits& traits, std::string_view name) {
  for (int op = 0; op < 256; ++op) {
    if (traits.opcodes[op].name == name) return static_cast<std::uint8_t>(op);
  }
  return std::nullopt;
}

// The opcode named `name` in `traits`; throws where there is none.
inline std::uint8_t opcode_of(const VersionTraits& traits, std::string_view name) {
  if (auto op = find_opcode(traits, name)) return *op;
  throw std::runtime_error("3." + std::to_string(traits.minor) + " has no " + std::string(name));
}

}  // namespace unveil::testing

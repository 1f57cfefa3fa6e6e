// The registry of supported versions. The per-version data lives in the
// generated tables (tools/gen_opcode_tables.py); this file only collects them.
#include "opcodes/version.h"

#include <algorithm>
#include <array>

namespace unveil {
namespace {

#include "opcodes/tables/python_38.inc"
#include "opcodes/tables/python_39.inc"
#include "opcodes/tables/python_310.inc"
#include "opcodes/tables/python_311.inc"
#include "opcodes/tables/python_312.inc"
#include "opcodes/tables/python_313.inc"
#include "opcodes/tables/python_314.inc"

constexpr std::array<const VersionTraits*, 7> kVersions = {
    &python_38::kTraits,  &python_39::kTraits,  &python_310::kTraits, &python_311::kTraits,
    &python_312::kTraits, &python_313::kTraits, &python_314::kTraits,
};

// Invariants the decoder relies on; a bad regeneration fails to compile.
// (OpcodeInfo's helpers are not constexpr, hence the plain field tests.)
constexpr bool well_formed(const VersionTraits& t) {
  const OpcodeInfo& extended = t.opcodes[t.extended_arg];
  if (extended.name != "EXTENDED_ARG" || extended.arg == ArgKind::None) return false;
  if (t.magic_first > t.magic_last || (t.jump_unit != 1 && t.jump_unit != 2)) return false;
  if (t.compare_shift < 0 || t.compare_shift > 8) return false;
  for (const OpcodeInfo& info : t.opcodes) {
    if ((info.arg == ArgKind::Jump) != (info.jump != JumpKind::None)) return false;
    if (info.name.empty() && (info.arg != ArgKind::None || info.caches != 0)) return false;
    if (op_name(info.op) != info.name || op_named(info.name) != info.op) return false;
  }
  // Caches exist only with the 3.11+ layout, where opcode `cache` is CACHE.
  bool any_caches = std::any_of(t.opcodes.begin(), t.opcodes.end(),
                                [](const OpcodeInfo& info) { return info.caches != 0; });
  if (any_caches && t.opcodes[t.cache].name != "CACHE") return false;
  return true;
}

constexpr bool ordered_and_disjoint() {
  for (std::size_t i = 0; i < kVersions.size(); ++i) {
    if (!well_formed(*kVersions[i])) return false;
    if (i > 0 && (kVersions[i]->minor <= kVersions[i - 1]->minor ||
                  kVersions[i]->magic_first <= kVersions[i - 1]->magic_last)) {
      return false;
    }
  }
  return true;
}
static_assert(ordered_and_disjoint(), "generated opcode tables are inconsistent");

}  // namespace

std::span<const VersionTraits* const> all_versions() { return kVersions; }

const VersionTraits* find_version(int minor) {
  for (const VersionTraits* traits : kVersions) {
    if (traits->minor == minor) return traits;
  }
  return nullptr;
}

const VersionTraits* find_version_by_magic(std::uint16_t magic) {
  for (const VersionTraits* traits : kVersions) {
    if (traits->magic_first <= magic && magic <= traits->magic_last) return traits;
  }
  return nullptr;
}

}  // namespace unveil

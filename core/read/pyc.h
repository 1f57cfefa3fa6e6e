// .pyc files: the PEP 552 header, then a marshalled module code object.
#pragma once

#include <cstdint>
#include <span>

#include "opcodes/version.h"
#include "read/marshal.h"

namespace unveil {

struct PycHeader {
  std::uint16_t magic = 0;
  std::uint32_t flags = 0;  // bit 0: hash-based; bit 1: check_source
  std::uint32_t mtime = 0;        // timestamp-based only
  std::uint32_t source_size = 0;  // timestamp-based only
  std::uint64_t source_hash = 0;  // hash-based only (SipHash of the source)
  const VersionTraits* version = nullptr;

  bool hash_based() const noexcept { return flags & 1; }
  bool check_source() const noexcept { return flags & 2; }
};

inline constexpr std::size_t kPycHeaderSize = 16;

struct PycFile {
  PycHeader header;
  ObjectRef module;  // the module's code object
};

// Throws Error(Pyc) for a short or unknown header, Error(Marshal/CodeObject)
// for a bad body. Offsets in errors are offsets into the whole file.
PycHeader read_pyc_header(std::span<const std::uint8_t> file);
PycFile read_pyc(std::span<const std::uint8_t> file);

}  // namespace unveil

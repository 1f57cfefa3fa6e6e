#include "read/pyc.h"

#include <cstdio>
#include <string>

#include "support/byte_reader.h"
#include "support/error.h"

namespace unveil {

namespace {
std::string hex(std::uint32_t value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", value);
  return buf;
}
}  // namespace

PycHeader read_pyc_header(std::span<const std::uint8_t> file) {
  if (file.size() < kPycHeaderSize)
    throw Error(ErrorKind::Pyc,
                "truncated .pyc header: " + std::to_string(file.size()) + " byte(s), need " +
                    std::to_string(kPycHeaderSize),
                file.size());

  ByteReader in(file, ErrorKind::Pyc);
  PycHeader header;
  header.magic = in.u16();
  header.version = find_version_by_magic(header.magic);
  if (!header.version)
    throw Error(ErrorKind::Pyc,
                "unknown magic number " + std::to_string(header.magic) +
                    " (not CPython 3.8\u20133.14)",
                0);
  if (in.u8() != '\r' || in.u8() != '\n')
    throw Error(ErrorKind::Pyc, "magic number is not followed by \\r\\n", 2);

  header.flags = in.u32();
  if (header.flags & ~std::uint32_t(3))
    throw Error(ErrorKind::Pyc,
                "unknown flags " + hex(header.flags) + " (only bits 0-1 are defined)",
                4);
  if (header.hash_based()) {
    header.source_hash = in.u64();
  } else {
    header.mtime = in.u32();
    header.source_size = in.u32();
  }
  return header;
}

PycFile read_pyc(std::span<const std::uint8_t> file) {
  PycFile pyc;
  pyc.header = read_pyc_header(file);
  pyc.module = read_marshal(file.subspan(kPycHeaderSize), *pyc.header.version, {},
                            kPycHeaderSize);
  if (!pyc.module->is<CodeValue>())
    throw Error(ErrorKind::Pyc,
                std::string("the .pyc body is a ") + pyc.module->type_name() +
                    ", expected a code object",
                kPycHeaderSize);
  return pyc;
}

}  // namespace unveil

// Tests for core/read/pyc.cpp.
//
// The .pyc images were made once with the real interpreters:
//   py_compile.compile("tiny.py", cfile=..., invalidation_mode=MODE)  # tiny.py = "x = 1\n"
// and dumped with open(cfile, "rb").read().hex().
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "opcodes/version.h"
#include "read/code_object.h"
#include "read/pyc.h"
#include "hex.h"
#include "support/error.h"

namespace unveil {
namespace {

using testing::Bytes;
using testing::unhex_bytes;

// Python 3.8: py_compile of "x = 1\n" (TIMESTAMP); magic 550d0d0a
constexpr std::string_view kTiny38 =
    "550d0d0a000000000aa90c6b06000000e300000000000000000000000000000000010000004000000073080000006400"
    "5a00640153002902e9010000004e2901da0178a90072030000007203000000fa132f746d702f7265616465722f74696e"
    "792e7079da083c6d6f64756c653e01000000f300000000"
;
// Python 3.11: py_compile of "x = 1\n" (CHECKED_HASH); magic a70d0d0a
constexpr std::string_view kTiny311 =
    "a70d0d0a030000004c0372aa93f75252e30000000000000000000000000100000000000000f30a000000970064005a00"
    "640153002902e9010000004e2901da0178a900f300000000fa132f746d702f7265616465722f74696e792e7079fa083c"
    "6d6f64756c653e720700000001000000730e000000f003010101d804058001800180017205000000"
;
// Python 3.13: py_compile of "x = 1\n" (UNCHECKED_HASH); magic f30d0d0a
constexpr std::string_view kTiny313 =
    "f30d0d0a01000000e786e2893651120ee30000000000000000000000000100000000000000f308000000950053007200"
    "67012902e9010000004e2901da0178a900f300000000da132f746d702f7265616465722f74696e792e7079da083c6d6f"
    "64756c653e720700000001000000730a000000f003010101d8040581017205000000"
;

Error header_error(const Bytes& file) {
  try {
    read_pyc(file);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error thrown";
  return Error(ErrorKind::Unsupported, "none");
}

// A header for `magic` with the given flags, followed by `body`.
Bytes make_pyc(std::uint16_t magic, std::uint32_t flags, const Bytes& body) {
  Bytes out{std::uint8_t(magic), std::uint8_t(magic >> 8), '\r', '\n'};
  for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(flags >> (8 * i)));
  out.resize(16, 0);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

const CodeObject& module_code(const PycFile& pyc) {
  return *pyc.module->as<CodeValue>()->code;
}

TEST(PycHeader, Timestamp38) {
  Bytes file = unhex_bytes(kTiny38);
  PycHeader h = read_pyc_header(file);
  EXPECT_EQ(h.magic, 3413);
  ASSERT_NE(h.version, nullptr);
  EXPECT_EQ(h.version->minor, 8);
  EXPECT_EQ(h.flags, 0u);
  EXPECT_FALSE(h.hash_based());
  EXPECT_EQ(h.mtime, 0x6b0ca90au);
  EXPECT_EQ(h.source_size, 6u);
  EXPECT_EQ(h.source_hash, 0u);
}

TEST(PycHeader, CheckedHash311) {
  PycHeader h = read_pyc_header(unhex_bytes(kTiny311));
  EXPECT_EQ(h.magic, 3495);
  EXPECT_EQ(h.version->minor, 11);
  EXPECT_TRUE(h.hash_based());
  EXPECT_TRUE(h.check_source());
  EXPECT_EQ(h.source_hash, 0x5252f793aa72034cull);
  EXPECT_EQ(h.mtime, 0u);
}

TEST(PycHeader, UncheckedHash313) {
  PycHeader h = read_pyc_header(unhex_bytes(kTiny313));
  EXPECT_EQ(h.magic, 3571);
  EXPECT_EQ(h.version->minor, 13);
  EXPECT_TRUE(h.hash_based());
  EXPECT_FALSE(h.check_source());
  EXPECT_EQ(h.source_hash, 0x0e12513689e286e7ull);
}

TEST(PycHeader, EveryVersionMagic) {
  for (const VersionTraits* v : all_versions()) {
    for (std::uint16_t magic : {v->magic_first, v->magic_last}) {
      PycHeader h = read_pyc_header(make_pyc(magic, 0, {}));
      EXPECT_EQ(h.version, v) << magic;
    }
  }
}

TEST(PycHeader, UnknownMagic) {
  auto e = header_error(make_pyc(1234, 0, {'N'}));
  EXPECT_EQ(e.kind(), ErrorKind::Pyc);
  EXPECT_EQ(e.detail(), "unknown magic number 1234 (not CPython 3.8\u20133.14)");
  EXPECT_EQ(e.offset(), 0u);
  // 3.7's last magic and one past 3.14's range.
  EXPECT_EQ(header_error(make_pyc(3394, 0, {})).kind(), ErrorKind::Pyc);
  const VersionTraits* last = all_versions().back();
  EXPECT_EQ(header_error(make_pyc(std::uint16_t(last->magic_last + 1), 0, {})).offset(), 0u);
}

TEST(PycHeader, MissingCrLf) {
  Bytes file = unhex_bytes(kTiny38);
  file[2] = '\n';
  file[3] = '\r';
  auto e = header_error(file);
  EXPECT_EQ(e.kind(), ErrorKind::Pyc);
  EXPECT_EQ(e.offset(), 2u);
}

TEST(PycHeader, UnknownFlags) {
  Bytes file = unhex_bytes(kTiny311);
  file[4] = 0x07;
  auto e = header_error(file);
  EXPECT_EQ(e.kind(), ErrorKind::Pyc);
  EXPECT_EQ(e.offset(), 4u);
  file[4] = 0x01;
  file[7] = 0x80;
  EXPECT_EQ(header_error(file).offset(), 4u);
}

TEST(PycHeader, Truncated) {
  Bytes file = unhex_bytes(kTiny313);
  for (std::size_t n = 0; n < kPycHeaderSize; ++n) {
    Bytes prefix(file.begin(), file.begin() + std::ptrdiff_t(n));
    try {
      read_pyc_header(prefix);
      ADD_FAILURE() << n << " bytes accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Pyc) << n;
    }
  }
}

TEST(PycFile, ReadsModules) {
  for (std::string_view hex : {kTiny38, kTiny311, kTiny313}) {
    PycFile pyc = read_pyc(unhex_bytes(hex));
    const CodeObject& code = module_code(pyc);
    EXPECT_EQ(code.version_minor, pyc.header.version->minor);
    EXPECT_EQ(code.name, "<module>");
    EXPECT_EQ(code.filename, "/tmp/reader/tiny.py");
    EXPECT_EQ(code.names, std::vector<std::string_view>{"x"});
    ASSERT_EQ(code.consts.size(), 2u);
    EXPECT_EQ(code.consts[0]->as<IntValue>()->small, 1);
    EXPECT_TRUE(code.consts[1]->is<NoneValue>());
  }
}

TEST(PycFile, BodyMustBeCode) {
  auto e = header_error(make_pyc(3495, 0, {'N'}));
  EXPECT_EQ(e.kind(), ErrorKind::Pyc);
  EXPECT_EQ(e.offset(), 16u);
}

TEST(PycFile, BodyErrorsUseFileOffsets) {
  auto e = header_error(make_pyc(3495, 0, {')', 2, 'N', '?'}));
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 19u);
  e = header_error(make_pyc(3495, 0, {}));
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 16u);
}

TEST(PycFile, TruncationAtEveryPrefix) {
  for (std::string_view hex : {kTiny38, kTiny311, kTiny313}) {
    Bytes file = unhex_bytes(hex);
    for (std::size_t n = 0; n < file.size(); ++n) {
      Bytes prefix(file.begin(), file.begin() + std::ptrdiff_t(n));
      EXPECT_THROW(read_pyc(prefix), Error) << n;
    }
  }
}

}  // namespace
}  // namespace unveil

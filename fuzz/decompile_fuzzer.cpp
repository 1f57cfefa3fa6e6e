// libFuzzer target: the whole pipeline, as the CLI and the Python module run it:
// .pyc / marshal bytes → objects → decode → cfg → lift → structure → emit
// (decompile_pyc / decompile_marshal, the driver's entry points).
//
// Input layout: the same as read_decode_fuzzer.cpp, so both share seeds.
//   byte 0 bit 0 clear: bytes 1.. are a whole .pyc (the header picks the version).
//   byte 0 bit 0 set:   byte 1 picks the version (all_versions()[byte % count]:
//                       0 = 3.8 ... 6 = 3.14), bytes 2.. are raw marshal data;
//                       bit 1 also turns on constant placeholders.
// The driver turns a code object it cannot structure into a fallback body, so
// most bad input still gives source; unveil::Error is the expected answer to
// what cannot be read at all. Anything else (another exception, a sanitizer
// report, a crash, a hang under -timeout) is a bug.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "decompile/decompile.h"
#include "opcodes/version.h"
#include "support/error.h"

namespace {

void run(std::span<const std::uint8_t> data) {
  if (data.empty()) return;
  const std::uint8_t mode = data[0];
  const auto rest = data.subspan(1);
  if ((mode & 1) == 0) {
    (void)unveil::decompile_pyc(rest);
    return;
  }
  const auto versions = unveil::all_versions();
  if (rest.empty() || versions.empty()) return;
  const int minor = versions[rest[0] % versions.size()]->minor;
  static const std::vector<std::string> kNames = {"torch.float32", "SomeClass"};
  const bool placeholders = (mode & 2) != 0;
  (void)unveil::decompile_marshal(rest.subspan(1), minor,
                                  placeholders ? "__unveil_placeholder_" : "",
                                  placeholders ? kNames : std::vector<std::string>{});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    run(std::span<const std::uint8_t>(data, size));
  } catch (const unveil::Error&) {
    // Expected: bad input is reported, not crashed on.
  }
  return 0;
}

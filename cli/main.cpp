// unveil-decompile: the command line for .pyc files.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "decode/decode.h"
#include "decompile/decompile.h"
#include "disasm/disassemble.h"
#include "read/pyc.h"
#include "support/error.h"

namespace {

constexpr const char* kUsage =
    "usage: unveil-decompile [--state-machine] FILE.pyc   (print the decompiled source)\n"
    "       unveil-decompile --disasm [--no-recursive] [--show-caches] FILE.pyc\n"
    "       unveil-decompile --header FILE.pyc\n"
    "\n"
    "Reads a CPython 3.8-3.14 .pyc file, whichever Python wrote it.\n"
    "  --disasm        list the bytecode as `dis` of that version would\n"
    "  --header        print the .pyc header (magic, version, flags)\n"
    "  --no-recursive  do not list nested code objects\n"
    "  --show-caches   list the inline CACHE entries (3.11+)\n"
    "  --state-machine write every function that fits as the general fallback\n"
    "                  (a loop over a state variable): tests that fallback\n"
    "\n"
    "";

enum class Mode { None, Disasm, Header, Decompile };

struct Options {
  Mode mode = Mode::None;
  unveil::DisasmOptions disasm;
  unveil::DecompileOptions decompile;
  std::string path;
};

bool parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--disasm") options.mode = Mode::Disasm;
    else if (arg == "--header") options.mode = Mode::Header;
    else if (arg == "--no-recursive") options.disasm.recursive = false;
    else if (arg == "--show-caches") options.disasm.show_caches = true;
    else if (arg == "--state-machine") options.decompile.state_machine = true;
    else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "unveil-decompile: unknown option %s\n", argv[i]);
      return false;
    } else if (options.path.empty()) options.path = arg;
    else {
      std::fprintf(stderr, "unveil-decompile: one file at a time (got %s after %s)\n", argv[i],
                   options.path.c_str());
      return false;
    }
  }
  if (options.mode == Mode::None) options.mode = Mode::Decompile;
  if (options.path.empty()) return false;
  return true;
}

bool read_file(const std::string& path, std::vector<std::uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

void print_header(const unveil::PycHeader& h) {
  std::printf("magic: %u (Python 3.%d)\n", h.magic, h.version->minor);
  if (h.hash_based()) {
    std::printf("flags: %u (hash-based, %s)\n", h.flags,
                h.check_source() ? "checked" : "unchecked");
    std::printf("source hash: %016llx\n", static_cast<unsigned long long>(h.source_hash));
  } else {
    std::printf("flags: %u (timestamp-based)\n", h.flags);
    std::printf("mtime: %u\nsource size: %u\n", h.mtime, h.source_size);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, options)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::vector<std::uint8_t> data;
  if (!read_file(options.path, data)) {
    std::fprintf(stderr, "unveil-decompile: cannot read %s: %s\n", options.path.c_str(),
                 std::strerror(errno));
    return 1;
  }
  try {
    if (options.mode == Mode::Header) {
      print_header(unveil::read_pyc_header(data));
      return 0;
    }
    if (options.mode == Mode::Decompile) {
      std::fputs(unveil::decompile_pyc(data, options.decompile).c_str(), stdout);
      return 0;
    }
    unveil::PycFile file = unveil::read_pyc(data);
    auto decoded = unveil::decode(file.module->as<unveil::CodeValue>()->code, *file.header.version);
    std::fputs(unveil::disassemble(decoded, options.disasm).c_str(), stdout);
    return 0;
  } catch (const unveil::Error& e) {
    std::fprintf(stderr, "unveil-decompile: %s: %s\n", options.path.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    // A bug of ours, not of the input: say so plainly.
    std::fprintf(stderr, "unveil-decompile: internal error on %s: %s\n", options.path.c_str(),
                 e.what());
    return 3;
  }
}

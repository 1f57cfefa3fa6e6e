// Compiling small snippets with the pyenv Pythons, for tests of later stages.
//
// ctest runs tests in parallel processes, so every call writes its own
// temporary files (process id + counter), never a shared name.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace unveil::testing {

// The pyenv interpreters the snippet tests compile with (those missing are skipped).
inline constexpr const char* kSnippetPythons[] = {"3.8.18", "3.9.18", "3.10.13", "3.11.7", "3.12.1", "3.13.0"};

inline std::string pyenv_python(const std::string& version) {
  const char* root = std::getenv("PYENV_ROOT");
  const char* home = std::getenv("HOME");
  std::string base = root ? root : std::string(home ? home : "/root") + "/.pyenv";
  return base + "/versions/" + version + "/bin/python";
}

// marshal.dumps(compile(source, "t", "exec")) by that interpreter; empty when
// the interpreter is missing or the snippet does not compile there.
inline std::vector<std::uint8_t> marshal_snippet(const std::string& version, const std::string& source) {
  std::string py = pyenv_python(version);
  if (!std::filesystem::exists(py)) return {};
  static std::atomic<unsigned> counter{0};
  std::string stem = "unveil_snippet_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  auto dir = std::filesystem::temp_directory_path();
  std::string src = (dir / (stem + ".py")).string();
  std::string out = (dir / (stem + ".bin")).string();
  std::ofstream(src) << source;
  std::string cmd = py + " -c \"import marshal,sys; sys.stdout.buffer.write(marshal.dumps(compile(open('" +
                    src + "').read(), 't', 'exec')))\" > " + out;
  std::vector<std::uint8_t> data;
  if (std::system(cmd.c_str()) == 0) {
    std::ifstream in(out, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::remove(src);
  std::filesystem::remove(out);
  return data;
}

}  // namespace unveil::testing

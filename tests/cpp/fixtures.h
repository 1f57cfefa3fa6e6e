// Reading files of the tests' fixtures (tests/fixtures) whole, as bytes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace unveil::testing {

// The bytes of the file at `path`; a test failure (saying `hint`) where it cannot be opened.
inline std::vector<std::uint8_t> read_fixture(const std::string& path, const std::string& hint = "") {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path << hint;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace unveil::testing

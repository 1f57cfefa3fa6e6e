// Hex digits, as the tests' fixtures spell bytes, turned back into the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace unveil::testing {

using Bytes = std::vector<std::uint8_t>;

// "0a1b" -> "\x0a\x1b"; a trailing odd digit is ignored.
inline std::string unhex(std::string_view digits) {
  std::string out;
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(digits.substr(i, 2)), nullptr, 16)));
  return out;
}

// The same, as a byte vector (what read_marshal and read_pyc take).
inline Bytes unhex_bytes(std::string_view digits) {
  const std::string bytes = unhex(digits);
  return Bytes(bytes.begin(), bytes.end());
}

}  // namespace unveil::testing

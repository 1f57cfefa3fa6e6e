// Errors raised by every stage of the core.
//
// Each error names the stage that failed, what is wrong, and the byte
// offset where it went wrong, so that bad input gives a message a user can act
// on ("marshal: reference 7 out of range (3 objects read) at offset 0x1c").
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace unveil {

enum class ErrorKind {
  Pyc,        // .pyc header: truncated, unknown magic
  Marshal,    // object stream: bad type code, truncated, bad reference
  CodeObject, // code object fields of the wrong type or inconsistent
  Decode,      // instruction stream: unknown opcode, jump outside code, bad tables
  Unsupported, // a Python version the tables do not describe
  Limit        // valid input past one of unveil's own limits (nesting depth, an
               // instruction its stack-effect tables lack)
};

const char* error_kind_name(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message, std::optional<std::size_t> offset = std::nullopt);

  ErrorKind kind() const noexcept { return kind_; }
  // Byte offset into the input (file, marshal stream or co_code) that the message refers to.
  std::optional<std::size_t> offset() const noexcept { return offset_; }
  // The message without the "<kind>: " prefix and the offset suffix.
  const std::string& detail() const noexcept { return detail_; }

 private:
  ErrorKind kind_;
  std::string detail_;
  std::optional<std::size_t> offset_;
};

}  // namespace unveil

#include "support/error.h"

#include <cstdio>

namespace unveil {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Pyc: return "pyc";
    case ErrorKind::Marshal: return "marshal";
    case ErrorKind::CodeObject: return "code object";
    case ErrorKind::Decode: return "decode";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::Limit: return "limit";
  }
  return "error";
}

namespace {
std::string format_message(ErrorKind kind, const std::string& detail,
                           std::optional<std::size_t> offset) {
  std::string text = std::string(error_kind_name(kind)) + ": " + detail;
  if (offset) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " at offset %zu (0x%zx)", *offset, *offset);
    text += buf;
  }
  return text;
}
}  // namespace

Error::Error(ErrorKind kind, std::string message, std::optional<std::size_t> offset)
    : std::runtime_error(format_message(kind, message, offset)),
      kind_(kind),
      detail_(std::move(message)),
      offset_(offset) {}

}  // namespace unveil

// Bounds-checked little-endian reading over a byte span.
//
// Every read that would pass the end throws Error(kind, ...) with the offset,
// so the readers built on it cannot read out of bounds.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "support/error.h"

namespace unveil {

class ByteReader {
 public:
  ByteReader(std::span<const std::uint8_t> data, ErrorKind kind, std::size_t base_offset = 0)
      : data_(data), kind_(kind), base_(base_offset) {}

  std::size_t position() const noexcept { return pos_; }
  // Offset in the caller's coordinates (e.g. into the whole .pyc file).
  std::size_t offset() const noexcept { return base_ + pos_; }
  std::size_t remaining() const noexcept { return data_.size() - pos_; }
  bool at_end() const noexcept { return pos_ >= data_.size(); }

  std::uint8_t u8() {
    need(1, "byte");
    return data_[pos_++];
  }
  std::uint16_t u16() {
    need(2, "16-bit integer");
    std::uint16_t v = std::uint16_t(data_[pos_] | (data_[pos_ + 1] << 8));
    pos_ += 2;
    return v;
  }
  std::uint32_t u32() {
    need(4, "32-bit integer");
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | data_[pos_ + i];
    pos_ += 4;
    return v;
  }
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  std::uint64_t u64() {
    need(8, "64-bit integer");
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | data_[pos_ + i];
    pos_ += 8;
    return v;
  }
  std::span<const std::uint8_t> bytes(std::size_t n, const char* what = "bytes") {
    need(n, what);
    auto out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  std::string string(std::size_t n, const char* what = "string") {
    auto b = bytes(n, what);
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }

  [[noreturn]] void fail(const std::string& message) const { throw Error(kind_, message, offset()); }

 private:
  void need(std::size_t n, const char* what) const {
    if (n > remaining())
      throw Error(kind_,
                  "truncated input: need " + std::to_string(n) + " byte(s) for " + what + ", " +
                      std::to_string(remaining()) + " left",
                  offset());
  }

  std::span<const std::uint8_t> data_;
  ErrorKind kind_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

}  // namespace unveil

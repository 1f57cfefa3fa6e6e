// An optional kept in its value's own bytes: one value that never occurs
// stands for "none". For fields of the structs there is one of per
// instruction or per block: std::optional's flag, with its padding, made an
// Instruction 40 bytes instead of 32, and a big function's passes over them
// spill out of the cache sooner. It reads like std::optional where we use it.
#pragma once

#include <limits>
#include <optional>
#include <type_traits>

namespace unveil {

// "None" for an unsigned integer: its largest value (a byte offset or a
// stack depth never reaches it). Other types give their own traits.
template <class T>
struct NoneIsMax {
  static_assert(std::is_unsigned_v<T>);
  static constexpr T none() noexcept { return std::numeric_limits<T>::max(); }
  static constexpr bool is_none(const T& v) noexcept { return v == none(); }
};

template <class T, class None = NoneIsMax<T>>
class SentinelOptional {
 public:
  constexpr SentinelOptional() noexcept = default;
  constexpr SentinelOptional(std::nullopt_t) noexcept {}
  // `v` must not be the sentinel (it would read back as none).
  constexpr SentinelOptional(const T& v) noexcept : v_(v) {}
  constexpr SentinelOptional& operator=(std::nullopt_t) noexcept {
    v_ = None::none();
    return *this;
  }

  constexpr bool has_value() const noexcept { return !None::is_none(v_); }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  constexpr const T& operator*() const noexcept { return v_; }
  constexpr T& operator*() noexcept { return v_; }
  constexpr const T* operator->() const noexcept { return &v_; }
  constexpr T* operator->() noexcept { return &v_; }
  const T& value() const {
    if (!has_value()) throw std::bad_optional_access();
    return v_;
  }
  constexpr T value_or(const T& fallback) const noexcept { return has_value() ? v_ : fallback; }
  constexpr void reset() noexcept { v_ = None::none(); }

  friend constexpr bool operator==(const SentinelOptional& a, const SentinelOptional& b) noexcept {
    return a.has_value() == b.has_value() && (!a.has_value() || a.v_ == b.v_);
  }
  friend constexpr bool operator==(const SentinelOptional& a, const T& b) noexcept {
    return a.has_value() && a.v_ == b;
  }

 private:
  T v_ = None::none();
};

}  // namespace unveil

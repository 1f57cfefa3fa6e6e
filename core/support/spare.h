// Per-thread spare vectors: the storage of the decoded code, the graph and
// the dominator trees a decompile makes for every code object, given back
// when they die and handed to the next one instead of a malloc and a free
// each (a pair costs 100-500 instructions here, more than a small graph's
// whole build).
#pragma once

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "support/tls.h"

namespace unveil {

// At most kKeep vectors of T are kept per thread, none of more than kMaxBytes
// (a big function's storage goes back to malloc). A vector may be given back
// on any thread, or after its thread's list has gone: then it is simply freed.
template <class T>
class SpareVectors {
 public:
  SpareVectors() = default;
  SpareVectors(const SpareVectors&) = delete;
  SpareVectors& operator=(const SpareVectors&) = delete;
  ~SpareVectors() { gone_ = true; }

  // An empty vector, with the capacity of one given back earlier if any.
  static std::vector<T> take() noexcept {
    if (!gone_) {
      SpareVectors& s = per_thread<SpareVectors>();
      if (s.count_ > 0) return std::move(s.kept_[--s.count_]);
    }
    return {};
  }

  // Keeps `v`'s storage for a later take() (leaving `v` empty), or leaves it be.
  static void give(std::vector<T>& v) noexcept {
    const std::size_t capacity = v.capacity();
    if (capacity == 0 || capacity > kMaxBytes / sizeof(T) || gone_) return;
    SpareVectors& s = per_thread<SpareVectors>();
    if (s.count_ == kKeep) return;
    v.clear();
    s.kept_[s.count_++] = std::move(v);
  }

 private:
  static constexpr std::size_t kKeep = 8;  // live at once: one per nested code object
  static constexpr std::size_t kMaxBytes = std::size_t{64} << 10;
  // Read after the list itself is destroyed (storage freed late in thread exit).
  static inline thread_local bool gone_ UNVEIL_FAST_TLS = false;
  std::array<std::vector<T>, kKeep> kept_;
  std::size_t count_ = 0;
};

// A std::vector whose storage goes to the thread's spare vectors when it dies,
// so that a member of this type needs no destructor (nor the copy and move
// declarations one would then need) in the class that holds it. Fill it from
// SpareVectors<T>::take() to reuse storage given back earlier.
template <class T>
class RecycledVector : public std::vector<T> {
 public:
  RecycledVector() = default;
  RecycledVector(std::vector<T>&& v) noexcept : std::vector<T>(std::move(v)) {}  // NOLINT: a vector is one
  RecycledVector(const RecycledVector&) = default;
  RecycledVector(RecycledVector&&) noexcept = default;
  RecycledVector& operator=(const RecycledVector&) = default;
  RecycledVector& operator=(RecycledVector&&) noexcept = default;
  using std::vector<T>::operator=;
  ~RecycledVector() { SpareVectors<T>::give(*this); }
};

}  // namespace unveil

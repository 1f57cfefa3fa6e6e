// Thread-locals read on hot paths.
//
// Code in a shared library (the Python module) reaches a thread_local through
// a call to __tls_get_addr by default: one call per syntax tree node made.
// The initial-exec model makes it one load from the thread pointer, at the
// price of a few bytes of the static TLS that the C library keeps spare for
// libraries loaded later; keep what carries it small (pointers and flags).
#pragma once

#include <memory>

#if defined(__GNUC__) || defined(__clang__)
#define UNVEIL_FAST_TLS __attribute__((tls_model("initial-exec")))
#else
#define UNVEIL_FAST_TLS
#endif

namespace unveil {

namespace detail {
template <class T>
struct PerThreadOwner {
  std::unique_ptr<T> value;
  T*& fast;
  ~PerThreadOwner() { fast = nullptr; }
};
}  // namespace detail

// This thread's T (made on first use, destroyed at thread exit), reached
// through one initial-exec pointer. A thread_local with a destructor is
// reached through __tls_get_addr in a shared library, and the compiler
// recomputes that address instead of keeping it: a call per use. T itself
// lives on the heap: a library with initial-exec TLS has all its
// thread_locals in the static TLS block, which is small and shared with
// everything loaded before (importing torch first leaves little of it).
template <class T>
T& per_thread() {
  static thread_local T* fast UNVEIL_FAST_TLS = nullptr;
  if (fast) [[likely]]
    return *fast;
  static thread_local detail::PerThreadOwner<T> owner{std::make_unique<T>(), fast};
  fast = owner.value.get();
  return *fast;
}

}  // namespace unveil

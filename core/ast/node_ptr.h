// The pointer a syntax tree holds its nodes by: shared ownership, counted
// without atomics where the standard library allows it.
//
// A tree is made, walked and dropped by one thread, inside one decompile call
// (decompile/README.md); the few nodes kept for good across calls are per
// thread. So no count is ever changed by two threads at once, and an atomic
// count only costs: on x86 each change is a locked instruction, a full fence,
// and a big function's passes and teardown change one per node they reach,
// each a cache miss that can then overlap no other.
#pragma once

#include <memory>
#include <utility>

namespace unveil::ast {

#if defined(__GLIBCXX__)
// libstdc++'s shared_ptr with its single-threaded count policy (the same
// class as std::shared_ptr, whose policy is chosen for the whole program).
template <class T>
using NodePtr = std::__shared_ptr<T, __gnu_cxx::_S_single>;

template <class T, class Alloc, class... Args>
NodePtr<T> allocate_node(const Alloc& alloc, Args&&... args) {
  return std::__allocate_shared<T, __gnu_cxx::_S_single>(alloc, std::forward<Args>(args)...);
}
#else
template <class T>
using NodePtr = std::shared_ptr<T>;

template <class T, class Alloc, class... Args>
NodePtr<T> allocate_node(const Alloc& alloc, Args&&... args) {
  return std::allocate_shared<T>(alloc, std::forward<Args>(args)...);
}
#endif

}  // namespace unveil::ast

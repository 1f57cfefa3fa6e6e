// Memory for the syntax tree nodes of one decompile call.
//
// A call makes tens of thousands of small nodes (count control block and
// node in one piece) and drops them all at its end. Taking them from a few
// chunks instead of one malloc each saves the allocator's time, and keeps a
// big function's tree together in memory: walking a tree of 100k-instruction
// code spread over the heap cost more per node than walking a small one.
//
// Nodes are still shared pointers (ast/node_ptr.h; the allocator travels in
// the control block), so they may outlive the call: the arena counts its live nodes and
// goes away with the last one, or when its scope ends if none is left. A node
// freed while its arena's scope lives (the call's own garbage:
// conditions tried and dropped, rewritten statements) goes on a free list
// for the next node of its size; later frees only count.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ast/node_ptr.h"
#include "support/tls.h"

namespace unveil::ast {

class NodeArena {
 public:
  // The arena nodes of this thread come from (nullptr: the heap).
  static NodeArena* current() noexcept { return current_; }

  // Inline: a call per node cost more than the bump itself.
  void* allocate(std::size_t bytes, std::size_t align) {
    // A size has one list, and lists take their sizes in order: the search
    // stops at its size's list or at the first list no size has taken.
    for (FreeList& list : free_) {
      if (list.bytes == bytes) {
        if (FreeBlock* block = list.head) {
          list.head = block->next;
          ++open_nodes_;  // (the free lists are used only while the scope lives)
          return block;  // sizes match, and so do the alignments of the types that have them
        }
        break;
      }
      if (list.bytes == 0) break;
    }
    std::byte* p = next_ ? aligned(next_, align) : nullptr;
    if (!p || p + bytes > end_) [[unlikely]]
      p = grow(bytes, align);
    next_ = p + bytes;
    if (open_)  // (nodes are made while the scope makes them current: always so)
      ++open_nodes_;
    else
      refs_.fetch_add(1, std::memory_order_relaxed);
    return p;
  }
  void deallocate(void* p, std::size_t bytes) noexcept {
    // While its scope lives, only the scope's thread holds the arena's nodes
    // (a call's tree is handed over when the call ends): the free lists are
    // used then only, and nodes are counted without atomics then (a locked
    // add for every node made and freed). (A flag, not a thread_local: that
    // costs a call in a shared library.)
    if (open_) {
      if (recycling_) recycle(p, bytes);
      --open_nodes_;
      return;
    }
    release();
  }
  void release() noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) std::unique_ptr<NodeArena>{this};
  }
  ~NodeArena();

 private:
  friend class NodeArenaScope;
  struct FreeBlock {
    FreeBlock* next;
  };
  // Nodes come in a few sizes (one per node type, and one per boxed kind): a
  // list for each.
  struct FreeList {
    std::size_t bytes = 0;
    FreeBlock* head = nullptr;
  };
  static constexpr std::size_t kFreeLists = 8;
  void recycle(void* p, std::size_t bytes) noexcept;
  // Back to the state of a new arena (its chunks returned), for reuse.
  void reset() noexcept;
  // (Alignments are powers of two: a mask, not a division per node.)
  static std::byte* aligned(std::byte* p, std::size_t align) noexcept {
    auto a = reinterpret_cast<std::uintptr_t>(p);
    return p + ((align - (a & (align - 1))) & (align - 1));
  }
  // A new chunk, out of line: inlined, it made every node save and restore
  // the registers it needs.
  [[gnu::noinline]] std::byte* grow(std::size_t bytes, std::size_t align);

  static thread_local NodeArena* current_ UNVEIL_FAST_TLS;
  bool open_ = true;  // its scope still lives
  bool recycling_ = true;  // freed nodes go on the free lists (see NodeArenaScope::dropping)
  FreeList free_[kFreeLists];
  // Live nodes, plus one while a scope uses it; the nodes made and freed
  // while the scope lived are counted in open_nodes_ and added when it ends.
  std::atomic<std::size_t> refs_{1};
  std::size_t open_nodes_ = 0;
  struct Chunk {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t size;
  };
  std::vector<Chunk> chunks_;
  std::byte* next_ = nullptr;
  std::byte* end_ = nullptr;
  std::size_t chunk_size_ = 2048;  // the next chunk's (kFirstChunk)
};

// Makes nodes of this thread come from a new arena for as long as it lives
// (with `use_arena` false: from the heap, for nodes kept in statics).
class NodeArenaScope {
 public:
  explicit NodeArenaScope(bool use_arena = true);
  ~NodeArenaScope();
  NodeArenaScope(const NodeArenaScope&) = delete;
  NodeArenaScope& operator=(const NodeArenaScope&) = delete;

  // The call's trees are being dropped: nothing more will be made, so the
  // nodes freed from here on are not put on free lists (the whole arena is
  // reset when the scope ends). Until the next scope takes the arena.
  void dropping() noexcept {
    if (arena_) arena_->recycling_ = false;
  }

 private:
  NodeArena* arena_ = nullptr;
  NodeArena* previous_;
};

template <class T>
struct NodeAllocator {
  using value_type = T;
  explicit NodeAllocator(NodeArena* a) noexcept : arena(a) {}
  template <class U>
  NodeAllocator(const NodeAllocator<U>& other) noexcept : arena(other.arena) {}  // NOLINT: rebinding
  T* allocate(std::size_t n) { return static_cast<T*>(arena->allocate(n * sizeof(T), alignof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { arena->deallocate(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const NodeAllocator<U>& other) const noexcept {
    return arena == other.arena;
  }
  NodeArena* arena;
};

// A new node, from the current arena when there is one.
template <class T, class... Args>
NodePtr<const T> make_node(Args&&... args) {
  if (NodeArena* arena = NodeArena::current())
    return allocate_node<T>(NodeAllocator<T>(arena), std::forward<Args>(args)...);
  return allocate_node<T>(std::allocator<T>(), std::forward<Args>(args)...);
}

// A node kept for good across calls, made once per thread by `Make` outside
// any call's arena: one per thread because node counts are not atomic
// (ast/node_ptr.h). `Make` is a captureless lambda, one per kept node.
template <auto Make>
const auto& kept_node() {
  struct Kept {
    decltype(Make()) node = [] {
      NodeArenaScope heap(false);
      return Make();
    }();
  };
  return per_thread<Kept>().node;
}

}  // namespace unveil::ast

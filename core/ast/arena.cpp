#include "ast/arena.h"

#include <algorithm>
#include <cstdint>
#include <new>

namespace unveil::ast {

thread_local NodeArena* NodeArena::current_ = nullptr;

void* NodeArena::allocate(std::size_t bytes, std::size_t align) {
  for (FreeList& list : free_)
    if (list.bytes == bytes && list.head) {
      FreeBlock* block = list.head;
      list.head = block->next;
      refs_.fetch_add(1, std::memory_order_relaxed);
      return block;  // sizes match, and so do the alignments of the types that have them
    }
  auto aligned = [&](std::byte* p) {
    auto a = reinterpret_cast<std::uintptr_t>(p);
    return p + ((align - a % align) % align);
  };
  std::byte* p = next_ ? aligned(next_) : nullptr;
  if (!p || p + bytes > end_) {
    // Chunks double up to 64 KiB: a small call takes one, a big one few
    // (and none so big that malloc maps and unmaps it on every call).
    const std::size_t size = std::max(chunk_size_, bytes + align);
    chunk_size_ = std::min<std::size_t>(chunk_size_ * 2, 64 * 1024);
    chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
    next_ = chunks_.back().get();
    end_ = next_ + size;
    p = aligned(next_);
  }
  next_ = p + bytes;
  refs_.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void NodeArena::recycle(void* p, std::size_t bytes) noexcept {
  if (bytes < sizeof(FreeBlock)) return;
  for (FreeList& list : free_)
    if (list.bytes == bytes || list.bytes == 0) {
      list.bytes = bytes;
      list.head = ::new (p) FreeBlock{list.head};
      return;
    }
  // More sizes than lists: the block stays unused until the arena goes.
}

NodeArenaScope::NodeArenaScope(bool use_arena) : previous_(NodeArena::current_) {
  if (use_arena) arena_ = std::make_unique<NodeArena>().release();  // owned by its count from here
  NodeArena::current_ = arena_;
}

NodeArenaScope::~NodeArenaScope() {
  NodeArena::current_ = previous_;
  if (arena_) {
    arena_->open_ = false;
    arena_->release();
  }
}

}  // namespace unveil::ast

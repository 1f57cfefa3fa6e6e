#include "ast/arena.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <new>

namespace unveil::ast {

thread_local NodeArena* NodeArena::current_ UNVEIL_FAST_TLS = nullptr;

namespace {

constexpr std::size_t kFirstChunk = 2048;
constexpr std::size_t kLastChunk = 64 * 1024;

// The chunks of arenas that have gone, kept for the next arenas of this
// thread. Every call makes an arena, and a chunk from malloc costs more than
// its size suggests: a block this big makes glibc sort all its small free
// blocks first. Only the sizes an arena grows through are kept, a few of
// each (the biggest ones serve big calls, which take many).
class ChunkPool {
 public:
  ~ChunkPool() { gone_ = true; }

  static std::unique_ptr<std::byte[]> take(std::size_t size) {
    if (gone_) return nullptr;
    auto* list = pool().list(size);
    if (!list || list->empty()) return nullptr;
    std::unique_ptr<std::byte[]> chunk = std::move(list->back());
    list->pop_back();
    return chunk;
  }
  // An arena left by an earlier scope of this thread, emptied, or nullptr.
  static NodeArena* take_arena() noexcept {
    if (gone_) return nullptr;
    return pool().spare_.release();
  }
  // Keeps the emptied `arena` for the next scope; false when one is kept already.
  static bool keep_arena(NodeArena* arena) noexcept {
    if (gone_) return false;
    auto& spare = pool().spare_;
    if (spare) return false;
    spare.reset(arena);
    return true;
  }
  // Keeps `chunk` when there is room for it (else it is freed by the caller).
  static void give(std::unique_ptr<std::byte[]>& chunk, std::size_t size) noexcept {
    if (gone_) return;  // this thread is exiting
    try {
      auto* list = pool().list(size);
      if (list && list->size() < (size == kLastChunk ? 8u : 2u)) list->push_back(std::move(chunk));
    } catch (const std::bad_alloc&) {  // no room to keep it: freed as before
    }
  }

 private:
  static ChunkPool& pool() {
    // (On the heap: see support/tls.h on the static TLS block.)
    static thread_local std::unique_ptr<ChunkPool> p = std::make_unique<ChunkPool>();
    return *p;
  }
  std::vector<std::unique_ptr<std::byte[]>>* list(std::size_t size) {
    if (size < kFirstChunk || size > kLastChunk || !std::has_single_bit(size)) return nullptr;
    return &lists_[std::size_t(std::countr_zero(size / kFirstChunk))];
  }

  // Read after the pool itself is destroyed (an arena freed late in thread exit).
  static thread_local bool gone_ UNVEIL_FAST_TLS;
  std::array<std::vector<std::unique_ptr<std::byte[]>>, std::countr_zero(kLastChunk / kFirstChunk) + 1> lists_;
  // (Every call makes an arena: reusing one saves its malloc and its chunk list's.)
  std::unique_ptr<NodeArena> spare_;
};

thread_local bool ChunkPool::gone_ UNVEIL_FAST_TLS = false;

}  // namespace

NodeArena::~NodeArena() {
  for (Chunk& c : chunks_) ChunkPool::give(c.bytes, c.size);
}

void NodeArena::reset() noexcept {
  // The first chunk stays (every call takes one), the others go back to the
  // pool; the arena then grows as a new one that has made its first chunk.
  for (std::size_t k = 1; k < chunks_.size(); ++k) ChunkPool::give(chunks_[k].bytes, chunks_[k].size);
  chunks_.resize(std::min<std::size_t>(chunks_.size(), 1));  // (frees what the pool did not keep)
  if (chunks_.empty()) {
    next_ = end_ = nullptr;
    chunk_size_ = kFirstChunk;
  } else {
    next_ = chunks_[0].bytes.get();
    end_ = next_ + chunks_[0].size;
    chunk_size_ = std::min(kFirstChunk * 2, kLastChunk);
  }
  for (FreeList& list : free_) {  // (lists are taken in order: the rest are unused)
    if (list.bytes == 0) break;
    list = FreeList{};
  }
  open_ = true;
  recycling_ = true;
  open_nodes_ = 0;
  refs_.store(1, std::memory_order_relaxed);
}

std::byte* NodeArena::grow(std::size_t bytes, std::size_t align) {
  // Chunks double up to 64 KiB: a small call takes one, a big one few
  // (and none so big that malloc maps and unmaps it on every call).
  const std::size_t size = std::max(chunk_size_, bytes + align);
  chunk_size_ = std::min(chunk_size_ * 2, kLastChunk);
  std::unique_ptr<std::byte[]> chunk = ChunkPool::take(size);
  if (!chunk) chunk = std::make_unique_for_overwrite<std::byte[]>(size);
  chunks_.push_back(Chunk{std::move(chunk), size});
  next_ = chunks_.back().bytes.get();
  end_ = next_ + size;
  return aligned(next_, align);
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
  if (use_arena) {
    arena_ = ChunkPool::take_arena();
    if (!arena_) arena_ = std::make_unique<NodeArena>().release();  // owned by its count from here
  }
  NodeArena::current_ = arena_;
}

NodeArenaScope::~NodeArenaScope() {
  NodeArena::current_ = previous_;
  if (arena_) {
    // No node outlives the scope (the usual end of a call): nothing else can
    // reach the arena, so the next scope of this thread may have it.
    if (arena_->open_nodes_ == 0) {
      arena_->reset();
      if (ChunkPool::keep_arena(arena_)) return;
    }
    arena_->open_ = false;
    arena_->refs_.fetch_add(arena_->open_nodes_, std::memory_order_relaxed);  // the nodes that outlive it
    arena_->release();
  }
}

}  // namespace unveil::ast

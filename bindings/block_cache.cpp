// The module's operator new and delete: malloc and free behind a per-thread
// cache of small freed blocks.
//
// A decompile call frees a few hundred small vectors and strings at its end
// (the syntax tree's lists, the lifter's stacks) and the next call makes as
// many again. glibc's own per-thread cache keeps 7 blocks of each size; the
// rest of such a burst goes through its bins (_int_free, and consolidation
// when a larger block is asked for), which cost about 7% of a call's
// instructions on the stdlib sample. This cache keeps up to kPerBin blocks
// of each size and kMaxBytes in all, per thread. Its sizes go up to 4 KiB:
// a call's one-off kilobyte blocks (a function's docstring, the text it
// returns) otherwise take glibc's slow path (above its own cache's 1 KiB)
// at every call (some 1,600 instructions of a small Dynamo function's 57,000).
//
// Every block is a malloc block: one made by libstdc++'s own operator new
// may be freed here, and one made here freed there. A block is filed under
// the bin of its usable size (malloc_usable_size) and served for requests no
// larger than that bin's size, so a block is never handed out too small,
// whoever's malloc made it. Only this module's calls come here: it binds
// them to its own definitions (-Bsymbolic-functions) and exports nothing but
// its init function (exports.map), so the process's other libraries keep theirs.
#include <malloc.h>

#include <cstddef>
#include <cstdlib>
#include <new>

#include "support/tls.h"

namespace {

constexpr std::size_t kGranule = 16;
// Bin b holds blocks of at least 16b + 8 usable bytes (glibc's sizes: 24, 40, 56, ...).
constexpr std::size_t bin_size(std::size_t b) { return kGranule * b + 8; }
constexpr std::size_t kBins = 256;  // the largest cached block holds bin_size(255) = 4088 bytes
constexpr unsigned kPerBin = 128;
constexpr std::size_t kMaxBytes = std::size_t{2} << 20;

// The smallest bin whose blocks hold n bytes (n <= bin_size(kBins - 1)).
constexpr std::size_t bin_for_request(std::size_t n) { return n <= bin_size(1) ? 1 : (n - 8 + kGranule - 1) / kGranule; }
// The largest bin whose size a block of u usable bytes holds (u >= bin_size(1)).
constexpr std::size_t bin_of_block(std::size_t u) { return (u - 8) / kGranule; }
static_assert(bin_size(bin_for_request(25)) >= 25 && bin_size(bin_of_block(40)) <= 40);

struct FreeBlock {
  FreeBlock* next;
};

struct BlockCache {
  FreeBlock* head[kBins] = {};
  unsigned count[kBins] = {};
  std::size_t bytes = 0;
  ~BlockCache();
};

// (Reached through an initial-exec pointer: see support/tls.h. The cache
// itself, most of a kilobyte, is on the heap: the module's thread-locals all
// live in the static TLS block, which torch leaves little of.)
thread_local BlockCache* cache_ UNVEIL_FAST_TLS = nullptr;
thread_local bool gone_ UNVEIL_FAST_TLS = false;  // this thread's cache has been destroyed

BlockCache::~BlockCache() {
  gone_ = true;
  cache_ = nullptr;  // frees later in this thread's exit go straight to free()
  for (FreeBlock*& list : head)
    while (FreeBlock* f = list) {
      list = f->next;
      std::free(f);
    }
}

// Destroys this thread's cache at its exit. (malloc, not new: new comes here.)
struct CacheOwner {
  BlockCache* cache = nullptr;
  ~CacheOwner() {
    if (!cache) return;
    cache->~BlockCache();
    std::free(cache);
  }
};

[[gnu::noinline]] BlockCache* make_cache() noexcept {
  if (gone_) return nullptr;
  static thread_local CacheOwner owner;
  void* memory = std::malloc(sizeof(BlockCache));
  if (!memory) return nullptr;
  owner.cache = ::new (memory) BlockCache();
  cache_ = owner.cache;
  return cache_;
}

inline BlockCache* cache() noexcept {
  if (BlockCache* c = cache_) [[likely]]
    return c;
  return make_cache();
}

// Whether malloc's block for n bytes holds bin_size(bin_for_request(n)) for
// every n a bin serves: then a block freed with its size (a sized delete,
// as nearly every one is) is filed under the bin of that size without asking
// malloc_usable_size (some 20 of a delete's 50 instructions). glibc rounds a
// request up to 16b + 8 bytes as the bins do; any malloc is asked once per
// bin, at the smallest request the bin serves (a larger request never gets
// a smaller block). Until this is set (a new or delete during the module's
// static initialization), deletes ask for the usable size.
bool requests_fill_their_bins() {
  for (std::size_t b = 1; b < kBins; ++b) {
    void* p = std::malloc(b == 1 ? 1 : bin_size(b - 1) + 1);
    if (!p) return false;
    const bool fills = malloc_usable_size(p) >= bin_size(b);
    std::free(p);
    if (!fills) return false;
  }
  return true;
}
const bool sized_bins = requests_fill_their_bins();

// Files p, whose block holds bin_size(b) bytes, under bin b, or frees it.
inline void release(void* p, std::size_t b) noexcept {
  if (BlockCache* c = cache()) {
    if (c->count[b] < kPerBin && c->bytes + bin_size(b) <= kMaxBytes) {
      c->head[b] = ::new (p) FreeBlock{c->head[b]};
      ++c->count[b];
      c->bytes += bin_size(b);
      return;
    }
  }
  std::free(p);
}

[[gnu::noinline]] void* allocate(std::size_t n) {
  for (;;) {
    if (void* p = std::malloc(n ? n : 1)) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t n) {
  if (n <= bin_size(kBins - 1)) {
    if (BlockCache* c = cache()) {
      const std::size_t b = bin_for_request(n);
      if (FreeBlock* f = c->head[b]) {
        c->head[b] = f->next;
        --c->count[b];
        c->bytes -= bin_size(b);
        return f;
      }
    }
  }
  return allocate(n);
}

void operator delete(void* p) noexcept {
  if (!p) return;
  const std::size_t u = malloc_usable_size(p);
  if (u >= bin_size(1) && u < bin_size(kBins)) release(p, bin_of_block(u));
  else std::free(p);
}

void operator delete(void* p, std::size_t n) noexcept {
  if (!p) return;
  if (sized_bins && n <= bin_size(kBins - 1)) release(p, bin_for_request(n));
  else operator delete(p);
}

#include "attn/memory.hpp"

#include <atomic>
#include <cstdint>

#include <xsimd/xsimd.hpp>

namespace attn {

namespace {
std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ATTN_ASAN 1
#endif

#if !defined(ATTN_ASAN)
// Small blocks (at most 256 bytes: the page's matrices at T = 3, d = 4, six of them per traced
// attention() call) are kept after their release, on every build: each size class of 64 bytes
// has a stack of at most kSmallSlots freed blocks, handed back to the next request of that
// class. An allocation of the C library (aligned, posix_memalign) and its release were about
// 45% of the instructions of a traced attention() at T = 3, d = 4 (docs/benchmarks.md, issue
// 25, fourth pass). A small block is always allocated with its class's full size, so any
// block of the class serves any request of it; at most 4 x 16 x 256 B = 16 KiB are held per
// thread. Not counted by memory_stats() (which counts what the core uses); in WebAssembly they
// stay in the module's malloc'd bytes, a fixed amount once a call has run.
struct SmallCache {
    static constexpr std::size_t kClass = 64, kClasses = 4, kSmallSlots = 16, kMaxBytes = kClass * kClasses;
    void* blocks[kClasses][kSmallSlots];
    std::size_t n[kClasses];

    static bool small(std::size_t bytes) { return bytes != 0 && bytes <= kMaxBytes; }
    static std::size_t class_of(std::size_t bytes) { return (bytes - 1) / kClass; }
    void* take(std::size_t bytes, std::size_t alignment) {
        const std::size_t c = class_of(bytes);
        if (n[c] != 0 && reinterpret_cast<std::uintptr_t>(blocks[c][n[c] - 1]) % alignment == 0)
            return blocks[c][--n[c]];
        return xsimd::aligned_malloc((c + 1) * kClass, alignment < kClass ? kClass : alignment);
    }
    bool keep(void* p, std::size_t bytes) {
        const std::size_t c = class_of(bytes);
        if (n[c] == kSmallSlots) return false;
        blocks[c][n[c]++] = p;
        return true;
    }
    void close() noexcept {
        for (std::size_t c = 0; c < kClasses; ++c) {
            for (std::size_t i = 0; i < n[c]; ++i) xsimd::aligned_free(blocks[c][i]);
            n[c] = 0;
        }
    }
};
#endif

#if !defined(__EMSCRIPTEN__) && !defined(ATTN_ASAN)
// Natively, the last few freed blocks of 64 KiB to 8 MiB are kept per thread and handed to
// the next request of the same size: a call repeated on the same shapes (the tiled
// kernel's packed K and V, its tile of scores, the output) then reuses its memory instead
// of getting it back from the C library, which above 128 KiB maps fresh pages from the
// system and returns them on free: ~100 page faults per head at n = 1024 cost 6-7% of
// flash_attention's time (docs/benchmarks.md, issue 16). At most kSlots blocks (64 MiB)
// per thread; not counted by memory_stats(), which counts what the core uses. Off in
// WebAssembly (its memory never goes back to a system) and under AddressSanitizer (reuse
// would hide a use after free).
// The cache is a trivially destructible thread_local (it outlives every other object of
// its thread), emptied by a second thread_local whose destructor runs at thread exit;
// blocks freed after that (static destructors at process exit) go straight back.
struct ReuseCache {
    static constexpr std::size_t kSlots = 8, kMinBytes = std::size_t(64) << 10, kMaxBytes = std::size_t(8) << 20;
    struct Block {
        void* p;
        std::size_t bytes;
    };
    Block blocks[kSlots];
    std::size_t n;
    bool closed;

    void* take(std::size_t bytes, std::size_t alignment) {
        if (bytes < kMinBytes || bytes > kMaxBytes) return nullptr;
        for (std::size_t i = n; i-- > 0;)
            if (blocks[i].bytes == bytes && reinterpret_cast<std::uintptr_t>(blocks[i].p) % alignment == 0) {
                void* p = blocks[i].p;
                for (std::size_t j = i; j + 1 < n; ++j) blocks[j] = blocks[j + 1];
                --n;
                return p;
            }
        return nullptr;
    }
    bool keep(void* p, std::size_t bytes) {
        if (closed || bytes < kMinBytes || bytes > kMaxBytes) return false;
        if (n == kSlots) {  // the oldest goes
            xsimd::aligned_free(blocks[0].p);
            for (std::size_t j = 0; j + 1 < n; ++j) blocks[j] = blocks[j + 1];
            --n;
        }
        blocks[n++] = {p, bytes};
        return true;
    }
    void close() noexcept {
        for (std::size_t i = 0; i < n; ++i) xsimd::aligned_free(blocks[i].p);
        n = 0;
        closed = true;
    }
};
thread_local ReuseCache t_reuse{};  // zero-initialised: empty, open
thread_local SmallCache t_small{};  // zero-initialised: empty
struct ReuseCacheCloser {
    ~ReuseCacheCloser() {
        t_reuse.close();
        t_small.close();
    }
};
thread_local ReuseCacheCloser t_reuse_closer;

void* obtain(std::size_t bytes, std::size_t alignment) {
    if (SmallCache::small(bytes)) return t_small.take(bytes, alignment);
    if (void* p = t_reuse.take(bytes, alignment)) return p;
    return xsimd::aligned_malloc(bytes, alignment);
}
void release(void* p, std::size_t bytes) noexcept {
    if (!t_reuse.closed) (void)&t_reuse_closer;  // constructs it in this thread: its destructor empties the caches
    if (SmallCache::small(bytes) ? !t_reuse.closed && t_small.keep(p, bytes) : t_reuse.keep(p, bytes)) return;
    xsimd::aligned_free(p);
}
#elif !defined(ATTN_ASAN)
// WebAssembly: one thread per module, nothing to empty at exit (the small blocks stay in the
// module's memory, like everything it malloc'd).
SmallCache g_small{};
void* obtain(std::size_t bytes, std::size_t alignment) {
    if (SmallCache::small(bytes)) return g_small.take(bytes, alignment);
    return xsimd::aligned_malloc(bytes, alignment);
}
void release(void* p, std::size_t bytes) noexcept {
    if (!SmallCache::small(bytes) || !g_small.keep(p, bytes)) xsimd::aligned_free(p);
}
#else
void* obtain(std::size_t bytes, std::size_t alignment) { return xsimd::aligned_malloc(bytes, alignment); }
void release(void* p, std::size_t) noexcept { xsimd::aligned_free(p); }
#endif
}  // namespace

namespace detail {
void* tracked_malloc(std::size_t bytes, std::size_t alignment) {
    void* p = obtain(bytes, alignment);
    if (!p) throw std::bad_alloc();
    const std::size_t now = g_current.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::size_t peak = g_peak.load(std::memory_order_relaxed);
    while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
    return p;
}
void tracked_free(void* p, std::size_t bytes) noexcept {
    if (!p) return;
    release(p, bytes);
    g_current.fetch_sub(bytes, std::memory_order_relaxed);
}
}  // namespace detail

MemoryStats memory_stats() {
    return {g_current.load(std::memory_order_relaxed), g_peak.load(std::memory_order_relaxed)};
}

void reset_peak_memory() { g_peak.store(g_current.load(std::memory_order_relaxed), std::memory_order_relaxed); }

}  // namespace attn

#include "attn/memory.hpp"

#include <atomic>

#include <xsimd/xsimd.hpp>

namespace attn {

namespace {
std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};
}  // namespace

namespace detail {
void* tracked_malloc(std::size_t bytes, std::size_t alignment) {
    void* p = xsimd::aligned_malloc(bytes, alignment);
    if (!p) throw std::bad_alloc();
    const std::size_t now = g_current.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::size_t peak = g_peak.load(std::memory_order_relaxed);
    while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
    return p;
}
void tracked_free(void* p, std::size_t bytes) noexcept {
    if (!p) return;
    xsimd::aligned_free(p);
    g_current.fetch_sub(bytes, std::memory_order_relaxed);
}
}  // namespace detail

MemoryStats memory_stats() {
    return {g_current.load(std::memory_order_relaxed), g_peak.load(std::memory_order_relaxed)};
}

void reset_peak_memory() { g_peak.store(g_current.load(std::memory_order_relaxed), std::memory_order_relaxed); }

}  // namespace attn

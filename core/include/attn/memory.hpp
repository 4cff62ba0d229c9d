// Memory accounting: how many bytes the core holds right now and at most since the
// last reset. Every attn::Matrix and every scratch buffer of the kernels (packing
// panels, tiles) allocates through attn::tracked_allocator, so these counters are a
// measurement of the core's own memory, not an estimate. (Temporary std::vectors of
// the WebAssembly bindings and the JS copies of results are not counted.)
//
//   memory_stats()       -> {current_bytes, peak_bytes}
//   reset_peak_memory()  peak := current, so the next peak belongs to what runs next
//
// Used by the cost chapter's live run and the benchmark to show that the plain path
// holds a T_q x T_k matrix (O(n²)) while the tiled kernel stays at O(n·d).
// The counters are process-wide atomics (relaxed): exact in single-threaded use.
// Natively a few freed blocks of 64 KiB to 8 MiB are kept per thread for the next request
// of the same size (memory.cpp: repeated calls then skip the system's fresh pages), and on
// every build up to 16 freed blocks of each 64-byte class up to 256 bytes (at most
// 16 KiB); they are not counted, since the core no longer uses them.
#pragma once

#include <cstddef>
#include <new>
#include <utility>

namespace attn {

struct MemoryStats {
    std::size_t current_bytes = 0;
    std::size_t peak_bytes = 0;
};

// Bytes the core holds now and at most since the last reset.
MemoryStats memory_stats();
// peak := current.
void reset_peak_memory();

namespace detail {
// Aligned allocation and release, counted. (Out of line: GCC 12's -Wuse-after-free
// misreads std::vector's size arithmetic after an inlined free.)
void* tracked_malloc(std::size_t bytes, std::size_t alignment);
void tracked_free(void* p, std::size_t bytes) noexcept;
}  // namespace detail

// An aligned allocator (like xsimd::aligned_allocator) that reports every allocation
// and release to the counters above.
template <class T, std::size_t Align>
class tracked_allocator {
public:
    using value_type = T;
    template <class U>
    struct rebind {
        using other = tracked_allocator<U, Align>;
    };

    tracked_allocator() noexcept = default;
    template <class U>
    tracked_allocator(const tracked_allocator<U, Align>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > std::size_t(-1) / sizeof(T)) throw std::bad_alloc();
        return static_cast<T*>(detail::tracked_malloc(n * sizeof(T), Align));
    }
    void deallocate(T* p, std::size_t n) noexcept { detail::tracked_free(p, n * sizeof(T)); }

    template <class U>
    bool operator==(const tracked_allocator<U, Align>&) const noexcept { return true; }
    template <class U>
    bool operator!=(const tracked_allocator<U, Align>&) const noexcept { return false; }
};

// tracked_allocator whose value-construction leaves trivial types uninitialised, so
// std::vector<float, scratch_allocator<...>>(n) does not spend a pass writing zeros
// into a buffer that is about to be overwritten (the kernels' packing panels and tiles).
template <class T, std::size_t Align>
class scratch_allocator : public tracked_allocator<T, Align> {
public:
    template <class U>
    struct rebind {
        using other = scratch_allocator<U, Align>;
    };
    scratch_allocator() noexcept = default;
    template <class U>
    scratch_allocator(const scratch_allocator<U, Align>&) noexcept {}

    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;  // default-initialised: no write for float
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

}  // namespace attn

// A scalar stand-in for the part of xsimd 8.1's API the kernels use, for builds without
// any SIMD instruction set (the WebAssembly fallback for browsers without SIMD128:
// ATTN_SCALAR). xsimd 8.1 has no scalar architecture of its own, so the scalar core is
// compiled with this folder first on the include path instead of the real xsimd:
// `batch<T>` holds one value, and every operation is the plain C++ one. The kernels
// (written once on xsimd::batch as a vector loop plus a scalar tail) compile unchanged;
// their vector loop simply runs with one lane.
//
// Only what the core needs is here; add a function when a kernel needs it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

#define ATTN_XSIMD_SCALAR_SHIM 1

namespace xsimd {

struct scalar {
    static constexpr const char* name() { return "scalar"; }
    static constexpr std::size_t alignment() { return alignof(double); }
};
using default_arch = scalar;
using best_arch = scalar;

struct aligned_mode {};
struct unaligned_mode {};

template <class T, class A = default_arch>
class batch_bool {
public:
    static constexpr std::size_t size = 1;
    batch_bool() = default;
    batch_bool(bool b) : v_(b) {}
    bool get(std::size_t = 0) const { return v_; }
    batch_bool operator&(batch_bool o) const { return v_ && o.v_; }
    batch_bool operator|(batch_bool o) const { return v_ || o.v_; }
    batch_bool operator^(batch_bool o) const { return v_ != o.v_; }
    batch_bool operator~() const { return !v_; }
    batch_bool operator!() const { return !v_; }
    batch_bool operator&&(batch_bool o) const { return v_ && o.v_; }
    batch_bool operator||(batch_bool o) const { return v_ || o.v_; }
    explicit operator bool() const { return v_; }

private:
    bool v_ = false;
};

template <class T, class A = default_arch>
class batch {
public:
    using value_type = T;
    using arch_type = A;
    using batch_bool_type = batch_bool<T, A>;
    static constexpr std::size_t size = 1;

    batch() = default;
    batch(T v) : v_(v) {}
    static batch broadcast(T v) { return batch(v); }
    template <class U> static batch load_aligned(const U* p) { return batch(T(*p)); }
    template <class U> static batch load_unaligned(const U* p) { return batch(T(*p)); }
    template <class U> static batch load(const U* p, aligned_mode) { return batch(T(*p)); }
    template <class U> static batch load(const U* p, unaligned_mode) { return batch(T(*p)); }
    template <class U> void store_aligned(U* p) const { *p = U(v_); }
    template <class U> void store_unaligned(U* p) const { *p = U(v_); }
    template <class U> void store(U* p, aligned_mode) const { *p = U(v_); }
    template <class U> void store(U* p, unaligned_mode) const { *p = U(v_); }
    T get(std::size_t = 0) const { return v_; }

    batch operator-() const { return -v_; }
    batch operator+() const { return v_; }
    batch& operator+=(batch o) { v_ += o.v_; return *this; }
    batch& operator-=(batch o) { v_ -= o.v_; return *this; }
    batch& operator*=(batch o) { v_ *= o.v_; return *this; }
    batch& operator/=(batch o) { v_ /= o.v_; return *this; }
    friend batch operator+(batch a, batch b) { return a.v_ + b.v_; }
    friend batch operator-(batch a, batch b) { return a.v_ - b.v_; }
    friend batch operator*(batch a, batch b) { return a.v_ * b.v_; }
    friend batch operator/(batch a, batch b) { return a.v_ / b.v_; }
    friend batch_bool_type operator<(batch a, batch b) { return a.v_ < b.v_; }
    friend batch_bool_type operator<=(batch a, batch b) { return a.v_ <= b.v_; }
    friend batch_bool_type operator>(batch a, batch b) { return a.v_ > b.v_; }
    friend batch_bool_type operator>=(batch a, batch b) { return a.v_ >= b.v_; }
    friend batch_bool_type operator==(batch a, batch b) { return a.v_ == b.v_; }
    friend batch_bool_type operator!=(batch a, batch b) { return a.v_ != b.v_; }

private:
    T v_{};
};

template <class T, class A> batch<T, A> fma(batch<T, A> x, batch<T, A> y, batch<T, A> z) { return std::fma(x.get(), y.get(), z.get()); }
template <class T, class A> batch<T, A> fms(batch<T, A> x, batch<T, A> y, batch<T, A> z) { return std::fma(x.get(), y.get(), -z.get()); }
template <class T, class A> batch<T, A> fnma(batch<T, A> x, batch<T, A> y, batch<T, A> z) { return std::fma(-x.get(), y.get(), z.get()); }
template <class T, class A> batch<T, A> fnms(batch<T, A> x, batch<T, A> y, batch<T, A> z) { return std::fma(-x.get(), y.get(), -z.get()); }
template <class T, class A> T hadd(batch<T, A> x) { return x.get(); }
template <class T, class A> T reduce_add(batch<T, A> x) { return x.get(); }
template <class T, class A> T reduce_max(batch<T, A> x) { return x.get(); }
template <class T, class A> T reduce_min(batch<T, A> x) { return x.get(); }
// Like SSE's maxps: the second operand when the comparison is false (NaN involved).
template <class T, class A> batch<T, A> max(batch<T, A> x, batch<T, A> y) { return x.get() > y.get() ? x : y; }
template <class T, class A> batch<T, A> min(batch<T, A> x, batch<T, A> y) { return x.get() < y.get() ? x : y; }
template <class T, class A> batch<T, A> fmax(batch<T, A> x, batch<T, A> y) { return std::fmax(x.get(), y.get()); }
template <class T, class A> batch<T, A> fmin(batch<T, A> x, batch<T, A> y) { return std::fmin(x.get(), y.get()); }
template <class T, class A> batch<T, A> abs(batch<T, A> x) { return std::abs(x.get()); }
template <class T, class A> batch<T, A> fabs(batch<T, A> x) { return std::fabs(x.get()); }
template <class T, class A> batch<T, A> neg(batch<T, A> x) { return -x.get(); }
template <class T, class A> batch<T, A> sqrt(batch<T, A> x) { return std::sqrt(x.get()); }
template <class T, class A> batch<T, A> rsqrt(batch<T, A> x) { return T(1) / std::sqrt(x.get()); }
template <class T, class A> batch<T, A> exp(batch<T, A> x) { return std::exp(x.get()); }
template <class T, class A> batch<T, A> log(batch<T, A> x) { return std::log(x.get()); }
template <class T, class A> batch<T, A> select(batch_bool<T, A> c, batch<T, A> a, batch<T, A> b) { return c.get() ? a : b; }
template <class T, class A> batch_bool<T, A> isnan(batch<T, A> x) { return std::isnan(x.get()); }
template <class T, class A> batch_bool<T, A> isinf(batch<T, A> x) { return std::isinf(x.get()); }
template <class T, class A> batch_bool<T, A> isfinite(batch<T, A> x) { return std::isfinite(x.get()); }
template <class T, class A> bool all(batch_bool<T, A> b) { return b.get(); }
template <class T, class A> bool any(batch_bool<T, A> b) { return b.get(); }
template <class T, class A> bool none(batch_bool<T, A> b) { return !b.get(); }
template <class T> batch<T> broadcast(T v) { return batch<T>(v); }
template <class T> batch<T> load_aligned(const T* p) { return batch<T>::load_aligned(p); }
template <class T> batch<T> load_unaligned(const T* p) { return batch<T>::load_unaligned(p); }
template <class T> batch<T> load(const T* p, aligned_mode = {}) { return batch<T>::load_aligned(p); }
template <class T> batch<T> load(const T* p, unaligned_mode) { return batch<T>::load_unaligned(p); }
template <class T, class A> void store_aligned(T* p, batch<T, A> x) { x.store_aligned(p); }
template <class T, class A> void store_unaligned(T* p, batch<T, A> x) { x.store_unaligned(p); }

// xsimd::aligned_malloc / aligned_free (xsimd/memory/xsimd_aligned_allocator.hpp).
inline void* aligned_malloc(std::size_t size, std::size_t alignment) {
    const std::size_t bytes = (size + alignment - 1) / alignment * alignment;
    return std::aligned_alloc(alignment, bytes == 0 ? alignment : bytes);
}
inline void aligned_free(void* ptr) { std::free(ptr); }

template <class T, std::size_t Align = alignof(std::max_align_t)>
class aligned_allocator {
public:
    using value_type = T;
    using pointer = T*;
    using size_type = std::size_t;
    template <class U> struct rebind { using other = aligned_allocator<U, Align>; };
    aligned_allocator() noexcept = default;
    template <class U> aligned_allocator(const aligned_allocator<U, Align>&) noexcept {}
    T* allocate(std::size_t n) {
        if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_alloc();
        const std::size_t bytes = (n * sizeof(T) + Align - 1) / Align * Align;
        void* p = std::aligned_alloc(Align, bytes == 0 ? Align : bytes);
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) noexcept { std::free(p); }
    template <class U> bool operator==(const aligned_allocator<U, Align>&) const noexcept { return true; }
    template <class U> bool operator!=(const aligned_allocator<U, Align>&) const noexcept { return false; }
};

}  // namespace xsimd

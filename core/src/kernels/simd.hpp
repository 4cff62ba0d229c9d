// Internal xsimd kernels: each is a vector loop over xsimd::batch<float> plus a
// scalar tail, so any length (1, lanes - 1, lanes + 1, ...) and any start address
// work (loads and stores are unaligned).
//
// Preconditions: pointers valid for n floats; x and y may alias only where stated.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include <xsimd/xsimd.hpp>

namespace attn::kernels {

using batch = xsimd::batch<float>;
inline constexpr std::size_t kLanes = batch::size;

// Σ a[i]·b[i]
inline float dot(const float* a, const float* b, std::size_t n) {
    std::size_t i = 0;
    batch acc0(0.0f), acc1(0.0f);
    for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
        acc0 = xsimd::fma(batch::load_unaligned(a + i), batch::load_unaligned(b + i), acc0);
        acc1 = xsimd::fma(batch::load_unaligned(a + i + kLanes),
                          batch::load_unaligned(b + i + kLanes), acc1);
    }
    for (; i + kLanes <= n; i += kLanes)
        acc0 = xsimd::fma(batch::load_unaligned(a + i), batch::load_unaligned(b + i), acc0);
    float s = xsimd::hadd(acc0 + acc1);
    for (; i < n; ++i) s += a[i] * b[i];
    return s;
}

// y[i] += alpha · x[i]
inline void axpy(float alpha, const float* x, float* y, std::size_t n) {
    const batch va(alpha);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        xsimd::fma(va, batch::load_unaligned(x + i), batch::load_unaligned(y + i))
            .store_unaligned(y + i);
    for (; i < n; ++i) y[i] += alpha * x[i];
}

// y[i] = alpha · x[i]  (x and y may be the same array)
inline void scale(const float* x, float alpha, float* y, std::size_t n) {
    const batch va(alpha);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) (batch::load_unaligned(x + i) * va).store_unaligned(y + i);
    for (; i < n; ++i) y[i] = x[i] * alpha;
}

// y[i] = x[i] + m[i]  (any may alias)
inline void add(const float* x, const float* m, float* y, std::size_t n) {
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        (batch::load_unaligned(x + i) + batch::load_unaligned(m + i)).store_unaligned(y + i);
    for (; i < n; ++i) y[i] = x[i] + m[i];
}

// max over x[0..n); −∞ for n = 0. NaN entries are ignored by the comparison (the NaN
// still reaches the output through exp below).
inline float max(const float* x, std::size_t n) {
    float m = -std::numeric_limits<float>::infinity();
    std::size_t i = 0;
    if (n >= kLanes) {
        batch vm(m);
        for (; i + kLanes <= n; i += kLanes) vm = xsimd::max(vm, batch::load_unaligned(x + i));
        alignas(64) float lanes[kLanes];
        vm.store_unaligned(lanes);
        for (float v : lanes) m = v > m ? v : m;
    }
    for (; i < n; ++i) m = x[i] > m ? x[i] : m;
    return m;
}

// y[i] = exp(x[i] − m); returns Σ y[i]. exp(−∞) is exactly 0. (x and y may alias.)
inline float exp_shift_sum(const float* x, float m, float* y, std::size_t n) {
    const batch vm(m);
    batch acc(0.0f);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        batch e = xsimd::exp(batch::load_unaligned(x + i) - vm);
        e.store_unaligned(y + i);
        acc += e;
    }
    float s = xsimd::hadd(acc);
    for (; i < n; ++i) {
        y[i] = std::exp(x[i] - m);
        s += y[i];
    }
    return s;
}

}  // namespace attn::kernels

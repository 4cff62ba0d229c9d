// Internal xsimd kernels: each is a vector loop over xsimd::batch<float> plus a
// scalar tail, so any length (1, lanes - 1, lanes + 1, ...) and any start address
// work (loads and stores are unaligned). Each has a double overload, a plain loop with
// the same contract, so the rules written once as templates over the element type
// (kernels/softmax.hpp, kernels/mask.hpp) run on the float path and the double path alike.
//
// Preconditions: pointers valid for n elements; x and y may alias only where stated.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <xsimd/xsimd.hpp>
#if !defined(__wasm__) && !defined(ATTN_SCALAR)
#include <immintrin.h>
#endif

namespace attn::kernels {

using batch = xsimd::batch<float>;
inline constexpr std::size_t kLanes = batch::size;

// a·b + c, lane by lane: the multiply-add of the matrix products' inner loops (the
// micro-kernels of kernels/gemm.hpp, so the plain kernel's products and both products of
// the tiled kernel; dot and axpy below; the softmax's exp_nonpositive).
//
// The rounding is fixed by this code, not by what the compiler fuses (docs/reliability.md,
// "Bit-exact contracts"): the core is compiled with -ffp-contract=off, and madd is
//   - one rounding (fused) where the instruction set has FMA: AVX-512 (_mm512_fmadd_ps),
//     AVX2 + FMA (_mm256_fmadd_ps), SSE4.2 + FMA (_mm_fmadd_ps). xsimd 8.1 has no AVX-512
//     fma of its own (it spells it a*b + c), so the intrinsics are named here;
//   - two roundings (a multiply, then an add) without FMA: SSE4.2 alone, WebAssembly
//     SIMD128, the scalar shim (ATTN_SCALAR);
//   - f32x4.relaxed_madd in the relaxed-SIMD build (ATTN_RELAXED_SIMD, wasm/CMakeLists.txt:
//     attn-core-relaxed): fused or not as the engine's CPU does it (relaxed SIMD proposal,
//     WebAssembly CG 2023), so results may differ from the SIMD128 build in the last bits.
//     Clang 14's builtin emits the proposal's pre-standard opcode, rewritten to the
//     standard one after linking (tools/wasm-relaxed-madd.mjs).
// The scalar madd below (the kernels' tails) rounds exactly as one lane of this one, so a
// value computed in a vector lane or in a tail has the same bits (the zero-skipping
// weighted sum against the packed GEMM; a row against its neighbours).
#if defined(ATTN_RELAXED_SIMD) || defined(ATTN_SCALAR) || defined(__wasm__)
#define ATTN_MADD_FUSED 0
#elif defined(__AVX512F__) || defined(__FMA__)
#define ATTN_MADD_FUSED 1
#else
#define ATTN_MADD_FUSED 0
#endif

inline batch madd(const batch& a, const batch& b, const batch& c) {
#if defined(ATTN_RELAXED_SIMD)
    static_assert(kLanes == 4, "the relaxed-SIMD build is WebAssembly SIMD128 (4 lanes)");
    return batch(__builtin_wasm_fma_f32x4(a, b, c));
#elif ATTN_MADD_FUSED && defined(__AVX512F__)
    static_assert(kLanes == 16, "xsimd's default arch is AVX-512 here");
    return batch(_mm512_fmadd_ps(a, b, c));
#elif ATTN_MADD_FUSED && defined(__AVX__)
    static_assert(kLanes == 8, "xsimd's default arch is AVX2 (or AVX) + FMA here");
    return batch(_mm256_fmadd_ps(a, b, c));
#elif ATTN_MADD_FUSED
    static_assert(kLanes == 4, "xsimd's default arch is SSE4.2 + FMA here");
    return batch(_mm_fmadd_ps(a, b, c));
#else
    return a * b + c;  // two roundings: -ffp-contract=off keeps them apart
#endif
}
// The same for one float (the kernels' scalar tails), rounded as a lane of madd is. In the
// relaxed-SIMD build that takes the same instruction: whether f32x4.relaxed_madd fuses is the
// engine's choice, so a tail computed any other way could round differently from the lanes
// (the zero-skipping weighted sum's last dv mod 4 columns against the packed GEMM's).
inline float madd(float a, float b, float c) {
#if defined(ATTN_RELAXED_SIMD)
    using f32x4 = float __attribute__((__vector_size__(16)));
    const f32x4 r = __builtin_wasm_fma_f32x4(f32x4{a, a, a, a}, f32x4{b, b, b, b}, f32x4{c, c, c, c});
    return r[0];
#elif ATTN_MADD_FUSED
    return __builtin_fmaf(a, b, c);
#else
    return a * b + c;
#endif
}

// Σ a[i]·b[i]
inline float dot(const float* a, const float* b, std::size_t n) {
    std::size_t i = 0;
    batch acc0(0.0f), acc1(0.0f);
    for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
        acc0 = madd(batch::load_unaligned(a + i), batch::load_unaligned(b + i), acc0);
        acc1 = madd(batch::load_unaligned(a + i + kLanes), batch::load_unaligned(b + i + kLanes), acc1);
    }
    for (; i + kLanes <= n; i += kLanes)
        acc0 = madd(batch::load_unaligned(a + i), batch::load_unaligned(b + i), acc0);
    float s = xsimd::hadd(acc0 + acc1);
    for (; i < n; ++i) s = madd(a[i], b[i], s);
    return s;
}

// y[i] += alpha · x[i]
inline void axpy(float alpha, const float* x, float* y, std::size_t n) {
    const batch va(alpha);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        madd(va, batch::load_unaligned(x + i), batch::load_unaligned(y + i))
            .store_unaligned(y + i);
    for (; i < n; ++i) y[i] = madd(alpha, x[i], y[i]);
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
// Four running maxima over consecutive batches: one chain would wait for each max's
// latency (a 128-key row of a tile took ~3x as long in WebAssembly).
inline float max(const float* x, std::size_t n) {
    float m = -std::numeric_limits<float>::infinity();
    std::size_t i = 0;
    if (n >= kLanes) {
        batch vm(m), v1(m), v2(m), v3(m);
        for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
            vm = xsimd::max(vm, batch::load_unaligned(x + i));
            v1 = xsimd::max(v1, batch::load_unaligned(x + i + kLanes));
            v2 = xsimd::max(v2, batch::load_unaligned(x + i + 2 * kLanes));
            v3 = xsimd::max(v3, batch::load_unaligned(x + i + 3 * kLanes));
        }
        vm = xsimd::max(xsimd::max(vm, v1), xsimd::max(v2, v3));
        for (; i + kLanes <= n; i += kLanes) vm = xsimd::max(vm, batch::load_unaligned(x + i));
        alignas(64) float lanes[kLanes];
        vm.store_unaligned(lanes);
        for (float v : lanes) m = v > m ? v : m;
    }
    for (; i < n; ++i) m = x[i] > m ? x[i] : m;
    return m;
}

#if !defined(ATTN_SCALAR)
// e^a for a <= 0 (or NaN): the algorithm of xsimd 8.1's float exp (Cephes expf:
// a = k·ln2 + r with ln2 split into an exact high part and a low part, e^r = 1 + r +
// r²·P(r) with a degree-4 Horner polynomial, then 2^k placed into the exponent field;
// results within ~1 ulp, exp(−∞) = 0), with changes that matter for the softmax:
// * 2^k is built by adding 1.5·2²³ (k + 127 lands in the low mantissa bits) and shifting
//   by 23, not with xsimd's to_int: that is _mm_cvttps_epi32, which Emscripten's SSE
//   layer emulates one lane at a time with lrint, and it made exp the slowest step of
//   the softmax in WebAssembly;
// * the constants are read once per call (ExpConstants) instead of being rematerialised
//   as v128.const inside the loop, which V8 builds from several instructions each time;
// * no test for large arguments (callers pass x − max(x) <= 0): natively 18 instructions
//   per batch against xsimd::exp's 26, which made the tiled kernel 3-4% faster on
//   AVX-512 (docs/benchmarks.md, issue 16). e^a for a <= −87.3 (k = −127, below the
//   smallest normal float) is 0 instead of a subnormal.
// (The one-lane scalar build keeps xsimd::exp, there std::exp.)
struct ExpConstants {
    batch invlog2, neg_log2hi, neg_log2lo, p0, p1, p2, p3, p4, one, magic, minlog;
};
inline ExpConstants exp_constants() {
    static const float k[] = {
        1.44269504088896341f,  // log2(e)
        -0.693359375f,         // −ln2, high part (exact in float)
        2.12194440e-4f,        // −ln2, low part
        5.0000000e-01f, 1.6666277e-01f, 4.1665401e-02f, 8.3955629e-03f, 1.3997796e-03f,  // P(r)
        1.0f,
        12582912.0f + 127.0f,  // 1.5·2²³ + exponent bias
        -88.3762626647949f,    // below this e^a underflows: 0
    };
    const volatile float* v = k;  // opaque to the optimiser: splat once, keep in registers
    return {batch(v[0]), batch(v[1]), batch(v[2]), batch(v[3]), batch(v[4]), batch(v[5]),
            batch(v[6]), batch(v[7]), batch(v[8]), batch(v[9]), batch(v[10])};
}
inline batch exp_nonpositive(const batch& a, const ExpConstants& c) {
    using ibatch = xsimd::batch<std::int32_t>;
#if defined(ATTN_RELAXED_SIMD)
    // With a multiply-add (relaxed SIMD) two instructions fewer, same polynomial: the
    // rounding to k happens in t = a·log2(e) + magic (k + 127 lands in t's low bits, as
    // below), and e^r = 1 + r(1 + r(p0 + r(p1 + ...))) is one Horner chain of madds.
    const batch t = madd(a, c.invlog2, c.magic);
    const batch k = t - c.magic;
    batch r = madd(k, c.neg_log2hi, a);
    r = madd(k, c.neg_log2lo, r);
    batch y = madd(madd(madd(madd(madd(madd(c.p4, r, c.p3), r, c.p2), r, c.p1), r, c.p0), r, c.one), r, c.one);
    const ibatch e = xsimd::bitwise_cast<ibatch>(t) << 23;
#else
    const batch k = xsimd::nearbyint(a * c.invlog2);
    batch r = madd(k, c.neg_log2hi, a);
    r = madd(k, c.neg_log2lo, r);
    batch y = madd(madd(madd(madd(c.p4, r, c.p3), r, c.p2), r, c.p1), r, c.p0);
    y = madd(y, r * r, r) + c.one;
    const ibatch e = xsimd::bitwise_cast<ibatch>(k + c.magic) << 23;
#endif
    y *= xsimd::bitwise_cast<batch>(e);
#if defined(__wasm_simd128__)
    // ~(a <= minlog) & y (xsimd 8.1's bitwise_andnot(x, y) is ~x & y): one v128.andnot;
    // select() is a blend that Emscripten's SSE layer builds from a shift and a bitselect.
    // A NaN lane compares false and stays NaN.
    return xsimd::bitwise_andnot(batch(static_cast<__m128>(a <= c.minlog)), y);
#else
    return xsimd::select(a <= c.minlog, batch(0.0f), y);
#endif
}
#endif

// y[i] = e(x[i] − m) for the exponential e; returns Σ y[i]. (x and y may alias.)
// Precondition: m >= every x[i] that is not NaN (m is the row maximum), so x[i] − m <= 0.
// One pass: exponential, store and sum fused; whole batches, then the scalar tail.
// Exp holds its constants (splatted once per call) and gives e of a batch and of a float:
// NaturalExp below (e^a) and, natively, Exp2 (2^a, the tiled kernel's base 2).
template <class Exp>
inline float exp_shift_sum_with(const float* x, float m, float* y, std::size_t n, const Exp& e) {
    const batch vm(m);
    batch acc(0.0f);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        const batch v = e(batch::load_unaligned(x + i) - vm);
        v.store_unaligned(y + i);
        acc += v;
    }
    float s = xsimd::hadd(acc);
    for (; i < n; ++i) {
        y[i] = e(x[i] - m);
        s += y[i];
    }
    return s;
}

// e^a: exp_nonpositive on batches (xsimd::exp in the one-lane scalar build), std::exp on
// the tail. exp(−∞) is exactly 0.
struct NaturalExp {
#if !defined(ATTN_SCALAR)
    ExpConstants c = exp_constants();
    batch operator()(const batch& a) const { return exp_nonpositive(a, c); }
#else
    batch operator()(const batch& a) const { return xsimd::exp(a); }
#endif
    float operator()(float a) const { return std::exp(a); }
};

// y[i] = exp(x[i] − m); returns Σ y[i]. exp(−∞) is exactly 0. (x and y may alias.)
// Precondition: m >= every x[i] that is not NaN (m is the row maximum), so x[i] − m <= 0.
inline float exp_shift_sum(const float* x, float m, float* y, std::size_t n) {
    return exp_shift_sum_with(x, m, y, n, NaturalExp{});
}

#if !defined(__wasm__) && !defined(ATTN_SCALAR)
// ---- Native only: exponentials in base 2, for the tiled kernel (flash.cpp) --------------
// The native tiled kernel folds log2(e) into the score scale (s·log2 e: the same softmax,
// exp(x − m) = 2^(x·log2 e − m·log2 e)), as FlashAttention-2 does, so the exponential
// needs no ln 2 split: 2^t = 2^k · 2^f with k an integer and f = t − k exact, 2^f by a
// degree-6 polynomial 1 + f·P(f) (within ~1.2 ulp). With AVX-512 (DQ): k = ⌊t⌋, f in [0, 1)
// by one `vreduceps`, P fitted here by Remez on [0, 1) (relative error
// 3.4e-9 before rounding), and 2^⌊t⌋ placed by `vscalefps`: 11 vector instructions per
// batch against exp_nonpositive's 16. Otherwise (AVX2): k = round(t), f in [−½, ½], Cephes
// exp2f's P, and 2^k put into the exponent field as in exp_nonpositive.
// t < −125 gives 0 (never a subnormal), 2^−∞ = 0, a NaN stays NaN.
struct Exp2Constants {
    batch p0, p1, p2, p3, p4, p5, one, minexp, magic;
};
inline Exp2Constants exp2_constants() {
    static const float k[] = {
#if defined(__AVX512DQ__)
        2.147696359e-4f, 1.250571106e-03f, 9.671538137e-03f,  // P(f), f in [0, 1)
        5.548711494e-2f, 2.402289212e-01f, 6.931470633e-01f,
#else
        1.535336188319500e-4f, 1.339887440266574e-3f, 9.618437357674640e-3f,  // P(f), Cephes exp2f
        5.550332471162809e-2f, 2.402264791363012e-1f, 6.931472028550421e-1f,
#endif
        1.0f,
        -125.0f,               // below this 2^t is 0
        12582912.0f + 127.0f,  // 1.5·2²³ + exponent bias (the AVX2 path)
    };
    const volatile float* v = k;  // opaque to the optimiser: splat once, keep in registers
    return {batch(v[0]), batch(v[1]), batch(v[2]), batch(v[3]), batch(v[4]),
            batch(v[5]), batch(v[6]), batch(v[7]), batch(v[8])};
}
inline batch exp2_nonpositive(const batch& t, const Exp2Constants& c) {
#if defined(__AVX512DQ__)
    const batch f = _mm512_reduce_ps(t, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);  // t − ⌊t⌋
#else
    const batch k = xsimd::nearbyint(t);
    const batch f = t - k;
#endif
    batch p = madd(madd(madd(madd(madd(c.p0, f, c.p1), f, c.p2), f, c.p3), f, c.p4), f, c.p5);
    p = madd(p, f, c.one);
#if defined(__AVX512DQ__)
    // Lanes with t >= −125 or NaN keep 2^⌊t⌋·p (NaN stays NaN); the others, −∞ among them, are 0.
    const __mmask16 keep = _mm512_cmp_ps_mask(t, c.minexp, _CMP_NLT_UQ);
    return batch(_mm512_maskz_scalef_ps(keep, p, t));
#else
    using ibatch = xsimd::batch<std::int32_t>;
    const ibatch e = xsimd::bitwise_cast<ibatch>(k + c.magic) << 23;
    return xsimd::select(t < c.minexp, batch(0.0f), p * xsimd::bitwise_cast<batch>(e));
#endif
}

// 2^a: exp2_nonpositive on batches, std::exp2 on the tail.
struct Exp2 {
    Exp2Constants c = exp2_constants();
    batch operator()(const batch& a) const { return exp2_nonpositive(a, c); }
    float operator()(float a) const { return std::exp2(a); }
};

// y[i] = 2^(x[i] − m); returns Σ y[i]. As exp_shift_sum, in base 2 (x and y may alias;
// m >= every x[i] that is not NaN).
inline float exp2_shift_sum(const float* x, float m, float* y, std::size_t n) {
    return exp_shift_sum_with(x, m, y, n, Exp2{});
}
#endif

// How exp_shift_sum computes and adds up a row's exponentials.
//   Lanes    xsimd batches, then the scalar tail (above): every matrix stage.
//   InOrder  std::exp and a running sum, one element after the other: the same bits for
//            any row length on every instruction set (AVX2, AVX-512, SIMD128, the scalar
//            build), which the training model's heads rely on: a seed names one training
//            run, and a run amplifies a last-bit difference into another trajectory.
struct Lanes {};
struct InOrder {};

inline float exp_shift_sum(const float* x, float m, float* y, std::size_t n, Lanes) {
    return exp_shift_sum(x, m, y, n);
}

inline float exp_shift_sum(const float* x, float m, float* y, std::size_t n, InOrder) {
    float s = 0;
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = std::exp(x[i] - m);
        s += y[i];
    }
    return s;
}

// ---- double: the same contracts as plain loops (the double path: gradient checks, the
// training model in double). Summation is sequential.

inline double dot(const double* a, const double* b, std::size_t n) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

inline void axpy(double alpha, const double* x, double* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] += alpha * x[i];
}

inline void scale(const double* x, double alpha, double* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] = x[i] * alpha;
}

inline void add(const double* x, const double* m, double* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] = x[i] + m[i];
}

inline double max(const double* x, std::size_t n) {
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
    return m;
}

inline double exp_shift_sum(const double* x, double m, double* y, std::size_t n) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = std::exp(x[i] - m);
        s += y[i];
    }
    return s;
}

template <class How>
inline double exp_shift_sum(const double* x, double m, double* y, std::size_t n, How) {
    return exp_shift_sum(x, m, y, n);  // double is always in order
}

}  // namespace attn::kernels

// Internal matrix-multiply kernels on views (row-major, any stride).
//
//   gemm_nn(A, B, C, alpha, acc)   C = alpha·A·B   (+ C when acc)   A: m x k, B: k x n, C: m x n
//   gemm_nt(A, B, C, alpha, acc)   C = alpha·A·Bᵀ  (+ C when acc)   A: m x k, B: n x k, C: m x n
//
// Shapes are the caller's responsibility (the public functions check them).
//
// Structure (the BLIS/GotoBLAS layering: Goto & van de Geijn 2008, "Anatomy of
// high-performance matrix multiplication"; Van Zee & van de Geijn 2015, "BLIS"):
//   * B is packed into panels of kNR columns (k-major, zero-padded), A into panels of
//     kMR rows; blocks of kKC x kNC (B) and kMC x kKC (A) sized for L3/L2;
//   * a register-blocked micro-kernel keeps a kMR x kNR block of C in kMR·kNB
//     xsimd::batch<float> accumulators and, for each k, loads kNB batches of B,
//     broadcasts kMR scalars of A and issues kMR·kNB fused multiply-adds.
// Written once on xsimd::batch<float>: natively AVX2+FMA (6 x 16) or AVX-512 (6 x 64), SSE4.2 lowered to
// WebAssembly SIMD128 under Emscripten (2 x 16, multiply + add: SIMD128 has no FMA; the
// relaxed-SIMD build multiply-adds with f32x4.relaxed_madd, kernels::madd).
//
// The micro-kernel is also used directly by the tiled attention kernel (flash.cpp),
// with A read in place from row-major tiles (micro_rows) instead of packed panels.
//
// NaN/∞ follow IEEE-754: every product is formed, so 0·∞ = NaN reaches C. Callers that
// promise "a zero weight takes nothing from V" check V first (all_finite).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/memory.hpp"
#include "kernels/simd.hpp"

namespace attn::kernels {

// Register block: kMR rows x kNB batches of accumulators. Natively 6 x 2 (x 8 lanes):
// 12 accumulators + 2 loads of B + 1 broadcast of A fill AVX2's 16 registers. With
// AVX-512, 6 x 4 (x 16 lanes): 24 accumulators + 4 + 1 of its 32 registers, half the
// broadcasts of A per multiply-add of 6 x 2; a d_h = 64 head is one panel of V, and the
// tiled kernel ran 1-5% faster than with 6 x 2 (docs/benchmarks.md, issue 16, fifth pass). In
// WebAssembly 2 x 4 (x 4 lanes): without FMA every step needs a temporary for each
// product, V8 spilled the 6 x 2 block (it ran at ~60% of 2 x 4 and 4 x 2), and of the
// 8-accumulator shapes 2 x 4 was the steadiest in the tiled kernel. Both reach about
// 70% of the measured multiply+add peak on hot data: each step issues kNB loads, kMR
// splats and 2·kMR·kNB arithmetic instructions for 8·kMR·kNB FLOPs.
// ATTN_GEMM_MR / ATTN_GEMM_NB override them (for tuning).
#ifndef ATTN_GEMM_MR
#if defined(__wasm_simd128__)
#define ATTN_GEMM_MR 2
#else
#define ATTN_GEMM_MR 6
#endif
#endif
#ifndef ATTN_GEMM_NB
#if defined(__wasm_simd128__) || defined(__AVX512F__)
#define ATTN_GEMM_NB 4
#else
#define ATTN_GEMM_NB 2
#endif
#endif
inline constexpr std::size_t kMR = ATTN_GEMM_MR;
inline constexpr std::size_t kNB = ATTN_GEMM_NB;
inline constexpr std::size_t kNR = kNB * kLanes;
// Cache blocks: packed B block kKC x kNC (L3), packed A block kMC x kKC (L2).
inline constexpr std::size_t kKC = 256;
inline constexpr std::size_t kMC = 120;   // a multiple of kMR
inline constexpr std::size_t kNC = 3072;  // a multiple of kNR for every lane count

// Scratch storage of the kernels: aligned, counted by attn::memory_stats(), and not
// zero-filled on creation (Buffer(n) holds n unspecified floats; Buffer(n, x) fills).
using Buffer = std::vector<float, scratch_allocator<float, kAlignment>>;

inline std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

// n scratch values of T: on the stack up to N (no allocation for the page's small calls),
// a counted Buffer-like heap vector beyond.
template <class T, std::size_t N>
class Scratch {
public:
    explicit Scratch(std::size_t n) : heap_(n > N ? n : 0), data_(n > N ? heap_.data() : local_) {}
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    T* data() { return data_; }
    T& operator[](std::size_t i) { return data_[i]; }

private:
    alignas(kAlignment) T local_[N];
    std::vector<T, scratch_allocator<T, kAlignment>> heap_;
    T* data_;
};

// Writes the kMR x kNR accumulator block to C: c[r·ldc + j] (+)= alpha·acc[r][j] for
// r < mr, j < nr (a block cut at the right edge goes through a buffer).
inline void store_block(const batch (&acc)[kMR][kNB], float* c, std::size_t ldc, std::size_t mr,
                        std::size_t nr, float alpha, bool accumulate) {
    const batch va(alpha);
    if (nr == kNR) {
        // Constant bounds with a guard (not r < mr) keep acc in registers.
        for (std::size_t r = 0; r < kMR; ++r)
            for (std::size_t q = 0; q < kNB; ++q) {
                if (r >= mr) continue;
                float* cp = c + r * ldc + q * kLanes;
                batch v = acc[r][q] * va;
                if (accumulate) v += batch::load_unaligned(cp);
                v.store_unaligned(cp);
            }
        return;
    }
    alignas(kAlignment) float tmp[kMR * kNR];
    for (std::size_t r = 0; r < kMR; ++r)
        for (std::size_t q = 0; q < kNB; ++q) (acc[r][q] * va).store_aligned(tmp + r * kNR + q * kLanes);
    for (std::size_t r = 0; r < mr; ++r)
        for (std::size_t j = 0; j < nr; ++j)
            c[r * ldc + j] = accumulate ? c[r * ldc + j] + tmp[r * kNR + j] : tmp[r * kNR + j];
}

// Micro-kernel on a packed A panel: a[p·kMR + r] is A(r, p); b[p·kNR + j] is B(p, j)
// (a packed, zero-padded B panel). C block = alpha · A·B over kc steps.
// The C block is prefetched before the loop when it will be read (a no-op in wasm).
inline void micro_packed(std::size_t kc, const float* a, const float* b, float* c, std::size_t ldc,
                         std::size_t mr, std::size_t nr, float alpha, bool accumulate) {
    batch acc[kMR][kNB];
    for (std::size_t r = 0; r < kMR; ++r)
        for (std::size_t q = 0; q < kNB; ++q) acc[r][q] = batch(0.0f);
    if (accumulate)
        for (std::size_t r = 0; r < mr; ++r) __builtin_prefetch(c + r * ldc, 1);
    for (std::size_t p = 0; p < kc; ++p, a += kMR, b += kNR) {
        batch bq[kNB];
        for (std::size_t q = 0; q < kNB; ++q) bq[q] = batch::load_aligned(b + q * kLanes);
        for (std::size_t r = 0; r < kMR; ++r) {
            const batch ar(a[r]);
            for (std::size_t q = 0; q < kNB; ++q) acc[r][q] = madd(ar, bq[q], acc[r][q]);
        }
    }
    store_block(acc, c, ldc, mr, nr, alpha, accumulate);
}

// Micro-kernel on A read in place: row r of A starts at a + r·lda (rows r >= mr are
// never read: they alias row 0 and their results are dropped). B as in micro_packed.
// accumulate_rows computes the block into acc; micro_rows then stores it. NB < kNB computes
// only the block's first NB batches of columns (a causal diagonal block, flash.cpp).
template <std::size_t NB = kNB>
inline void accumulate_rows(std::size_t kc, const float* a, std::size_t lda, const float* b, std::size_t mr,
                            batch (&acc)[kMR][NB]) {
    const float* rows[kMR];
    for (std::size_t r = 0; r < kMR; ++r) rows[r] = a + (r < mr ? r : 0) * lda;
    for (std::size_t r = 0; r < kMR; ++r)
        for (std::size_t q = 0; q < NB; ++q) acc[r][q] = batch(0.0f);
    for (std::size_t p = 0; p < kc; ++p, b += kNR) {
        batch bq[NB];
        for (std::size_t q = 0; q < NB; ++q) bq[q] = batch::load_aligned(b + q * kLanes);
        for (std::size_t r = 0; r < kMR; ++r) {
            const batch ar(rows[r][p]);
            for (std::size_t q = 0; q < NB; ++q) acc[r][q] = madd(ar, bq[q], acc[r][q]);
        }
    }
}
inline void micro_rows(std::size_t kc, const float* a, std::size_t lda, const float* b, float* c,
                       std::size_t ldc, std::size_t mr, std::size_t nr, float alpha, bool accumulate) {
    batch acc[kMR][kNB];
    accumulate_rows(kc, a, lda, b, mr, acc);
    store_block(acc, c, ldc, mr, nr, alpha, accumulate);
}

// Packs columns [j0, j0 + nc) and depth [p0, p0 + kc) of B into panels of kNR columns:
// panel t holds B(p0 + p, j0 + t·kNR + j) at out[t·kc·kNR + p·kNR + j], zero-padded.
// B(p, j) is b[p·ldb + j] (trans = false) or b[j·ldb + p] (trans = true: B given as Bᵀ).
// trans = false: returns whether every value packed is finite (no NaN, no ±∞): all_finite
// of the block, checked while it is read anyway. trans = true: returns true (not checked).
bool pack_b(const float* b, std::size_t ldb, bool trans, std::size_t p0, std::size_t kc, std::size_t j0,
            std::size_t nc, float* out);
// Packs rows [i0, i0 + mc) and depth [p0, p0 + kc) of row-major A into panels of kMR
// rows: panel t holds A(i0 + t·kMR + r, p0 + p) at out[t·kc·kMR + p·kMR + r], zero-padded.
void pack_a(const float* a, std::size_t lda, std::size_t i0, std::size_t mc, std::size_t p0, std::size_t kc,
            float* out);

// Products of at most kSmallProduct multiply-adds (m·n·k, with k <= kKC) skip the packing
// and compute each entry directly, with the same chain and the same madd as the packed path:
// the same bits whichever path a shape takes (gemm.cpp, gemm_small).
inline constexpr std::size_t kSmallProduct = 256;
inline bool small_product(std::size_t m, std::size_t n, std::size_t k) {
    return k <= kKC && m <= kSmallProduct && n <= kSmallProduct && m * n * k <= kSmallProduct;
}

void gemm_nn(ConstMatrixView A, ConstMatrixView B, MatrixView C, float alpha = 1.0f, bool accumulate = false);
void gemm_nt(ConstMatrixView A, ConstMatrixView B, MatrixView C, float alpha = 1.0f, bool accumulate = false);

// True when no entry is NaN or ±∞.
bool all_finite(ConstMatrixView A);

}  // namespace attn::kernels

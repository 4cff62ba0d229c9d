#include "kernels/gemm.hpp"

#include <cmath>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attn::kernels {

#if defined(__AVX512F__) && !defined(__wasm__)
namespace {
// 16 rows of 16 floats (row i at src + i·ld) transposed: column j stored at dst + j·ldd.
// Four rounds of 16 shuffles (within 128-bit lanes, then across them) instead of 256
// scalar loads and stores.
void transpose16(const float* src, std::size_t ld, float* dst, std::size_t ldd) {
    __m512 r[16], t[16];
    for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(src + i * ld);
    for (int i = 0; i < 16; i += 2) {  // rows i, i+1 interleaved, per 128-bit lane
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int g = 0; g < 16; g += 4) {  // r[g + c], lane L: rows g..g+3 of column 4L + c
        r[g] = _mm512_shuffle_ps(t[g], t[g + 2], 0x44);
        r[g + 1] = _mm512_shuffle_ps(t[g], t[g + 2], 0xEE);
        r[g + 2] = _mm512_shuffle_ps(t[g + 1], t[g + 3], 0x44);
        r[g + 3] = _mm512_shuffle_ps(t[g + 1], t[g + 3], 0xEE);
    }
    for (int c = 0; c < 4; ++c) {  // gather lane L of r[c], r[4 + c], r[8 + c], r[12 + c]
        const __m512 v0 = _mm512_shuffle_f32x4(r[c], r[4 + c], 0x88), v1 = _mm512_shuffle_f32x4(r[c], r[4 + c], 0xDD);
        const __m512 w0 = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0x88),
                     w1 = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0xDD);
        _mm512_storeu_ps(dst + (c + 0) * ldd, _mm512_shuffle_f32x4(v0, w0, 0x88));
        _mm512_storeu_ps(dst + (c + 8) * ldd, _mm512_shuffle_f32x4(v0, w0, 0xDD));
        _mm512_storeu_ps(dst + (c + 4) * ldd, _mm512_shuffle_f32x4(v1, w1, 0x88));
        _mm512_storeu_ps(dst + (c + 12) * ldd, _mm512_shuffle_f32x4(v1, w1, 0xDD));
    }
}
}  // namespace
#endif

bool pack_b(const float* b, std::size_t ldb, bool trans, std::size_t p0, std::size_t kc, std::size_t j0,
            std::size_t nc, float* out) {
    // trans = false: x − x is 0 for finite x and NaN for NaN and ±∞, so the sum stays 0
    // only if every value is finite (one sum per batch of a row: independent chains).
    batch bad[kNB] = {};
    float bad_tail = 0.0f;
    for (std::size_t jp = 0; jp < nc; jp += kNR, out += kc * kNR) {
        const std::size_t nr = std::min(kNR, nc - jp);
        if (!trans) {
            // Rows of B are contiguous: copy kNR floats per depth step.
            for (std::size_t p = 0; p < kc; ++p) {
                const float* src = b + (p0 + p) * ldb + j0 + jp;
                if (p + 8 < kc) __builtin_prefetch(src + 8 * ldb);  // rows ldb apart: see below
                float* dst = out + p * kNR;
                if (nr == kNR) {
                    for (std::size_t q = 0; q < kNB; ++q) {
                        const batch v = batch::load_unaligned(src + q * kLanes);
                        bad[q] += v - v;
                        v.store_aligned(dst + q * kLanes);
                    }
                } else {
                    for (std::size_t j = 0; j < nr; ++j) bad_tail += src[j] - src[j];
                    std::copy_n(src, nr, dst);
                    std::fill(dst + nr, dst + kNR, 0.0f);
                }
            }
        }
#if defined(__wasm_simd128__)
        // WebAssembly: whole 4 x 4 blocks (4 keys x 4 depth steps) transposed with shuffles
        // (two rounds of interleaves, as _MM_TRANSPOSE4_PS), four loads and four stores a
        // block instead of sixteen scalar moves; the rest by the scalar loop below.
        else if (nr == kNR && kc % 4 == 0) {
            for (std::size_t q = 0; q < kNR; q += 4) {
                const float* src = b + (j0 + jp + q) * ldb + p0;
                for (std::size_t p = 0; p < kc; p += 4) {
                    const v128_t r0 = wasm_v128_load(src + p), r1 = wasm_v128_load(src + ldb + p),
                                 r2 = wasm_v128_load(src + 2 * ldb + p), r3 = wasm_v128_load(src + 3 * ldb + p);
                    const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7),
                                 t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
                    float* dst = out + p * kNR + q;
                    wasm_v128_store(dst, wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5));
                    wasm_v128_store(dst + kNR, wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7));
                    wasm_v128_store(dst + 2 * kNR, wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5));
                    wasm_v128_store(dst + 3 * kNR, wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7));
                }
            }
        }
#endif
        else {
            // Bᵀ given row-major: column j of B is row j of the input; read it once,
            // write it with stride kNR. The rows are ldb apart (a head's columns of a
            // wider matrix), which the hardware prefetcher does not follow across pages:
            // the rows of the next panel are prefetched while this one is copied.
#if defined(__AVX512F__) && !defined(__wasm__)
            // AVX-512 (kNR = 64): whole panels by 16 x 16 transposes (transpose16).
            if (kLanes == 16 && nr == kNR && kc % 16 == 0) {
                if (jp + kNR < nc)
                    for (std::size_t j = 0; j < kNR; ++j)
                        for (std::size_t p = 0; p < kc; p += 64 / sizeof(float))
                            __builtin_prefetch(b + (j0 + jp + kNR + j) * ldb + p0 + p);
                for (std::size_t h = 0; h < kNR; h += 16)
                    for (std::size_t p = 0; p < kc; p += 16)
                        transpose16(b + (j0 + jp + h) * ldb + p0 + p, ldb, out + p * kNR + h, kNR);
                continue;
            }
#endif
            for (std::size_t j = 0; j < nr; ++j) {
                const float* src = b + (j0 + jp + j) * ldb + p0;
                if (jp + j + kNR < nc)
                    for (std::size_t p = 0; p < kc; p += 64 / sizeof(float)) __builtin_prefetch(src + kNR * ldb + p);
                for (std::size_t p = 0; p < kc; ++p) out[p * kNR + j] = src[p];
            }
            for (std::size_t j = nr; j < kNR; ++j)
                for (std::size_t p = 0; p < kc; ++p) out[p * kNR + j] = 0.0f;
        }
    }
    for (std::size_t q = 1; q < kNB; ++q) bad[0] += bad[q];
    return xsimd::hadd(bad[0]) + bad_tail == 0.0f;
}

void pack_a(const float* a, std::size_t lda, std::size_t i0, std::size_t mc, std::size_t p0, std::size_t kc,
            float* out) {
    for (std::size_t ip = 0; ip < mc; ip += kMR, out += kc * kMR) {
        const std::size_t mr = std::min(kMR, mc - ip);
        for (std::size_t r = 0; r < mr; ++r) {
            const float* src = a + (i0 + ip + r) * lda + p0;
            for (std::size_t p = 0; p < kc; ++p) out[p * kMR + r] = src[p];
        }
        for (std::size_t r = mr; r < kMR; ++r)
            for (std::size_t p = 0; p < kc; ++p) out[p * kMR + r] = 0.0f;
    }
}

namespace {

// The small products (the page's T = 3, d = 4: 3 x 3 x 4 and 3 x 4 x 3) without packing:
// packing a kNR-wide zero-padded panel of B and kMR-row panels of A, then storing the block
// through a buffer, cost more than the products themselves there. Each entry is the same
// chain the micro-kernel computes for it — acc = 0, then acc = madd(A(i, p), B(p, j), acc)
// for p = 0 .. k − 1 in order, then alpha·acc (+ C) — with the madd of kernels/simd.hpp
// (a lane of the vector one, or the scalar one that rounds as a lane does), so the result
// has the packed path's bits on every instruction set: which path a shape takes changes
// no bit (test_attention.cpp, "the small-product path gives the packed path's bits").
// B row-major (gemm_nn): kLanes columns at a time, as the micro-kernel does; Bᵀ given
// (gemm_nt): one entry at a time (its k values are a row of the input).
void gemm_small(std::size_t m, std::size_t n, std::size_t k, const float* a, std::size_t lda, const float* b,
                std::size_t ldb, bool btrans, float* c, std::size_t ldc, float alpha, bool accumulate) {
    for (std::size_t i = 0; i < m; ++i) {
        const float* ai = a + i * lda;
        float* ci = c + i * ldc;
        std::size_t j = 0;
        if (!btrans) {
            const batch va(alpha);
            for (; j + kLanes <= n; j += kLanes) {
                batch acc(0.0f);
                for (std::size_t p = 0; p < k; ++p) acc = madd(batch(ai[p]), batch::load_unaligned(b + p * ldb + j), acc);
                const batch v = acc * va;
                (accumulate ? batch::load_unaligned(ci + j) + v : v).store_unaligned(ci + j);
            }
        }
        for (; j < n; ++j) {
            float acc = 0.0f;
            if (btrans) {
                const float* bj = b + j * ldb;
                for (std::size_t p = 0; p < k; ++p) acc = madd(ai[p], bj[p], acc);
            } else {
                for (std::size_t p = 0; p < k; ++p) acc = madd(ai[p], b[p * ldb + j], acc);
            }
            const float v = acc * alpha;
            ci[j] = accumulate ? ci[j] + v : v;
        }
    }
}

// C (m x n) = alpha · A (m x k) · B (k x n) (+ C), B(p, j) as in pack_b.
void gemm(std::size_t m, std::size_t n, std::size_t k, const float* a, std::size_t lda, const float* b,
          std::size_t ldb, bool btrans, float* c, std::size_t ldc, float alpha, bool accumulate) {
    if (m == 0 || n == 0) return;
    if (k == 0) {
        if (!accumulate)
            for (std::size_t i = 0; i < m; ++i) std::fill_n(c + i * ldc, n, 0.0f);
        return;
    }
    if (small_product(m, n, k)) {
        gemm_small(m, n, k, a, lda, b, ldb, btrans, c, ldc, alpha, accumulate);
        return;
    }
    Scratch<float, 1024> bp(std::min(k, kKC) * round_up(std::min(n, kNC), kNR));
    Scratch<float, 1024> ap(round_up(std::min(m, kMC), kMR) * std::min(k, kKC));
    for (std::size_t jc = 0; jc < n; jc += kNC) {
        const std::size_t nc = std::min(kNC, n - jc);
        for (std::size_t pc = 0; pc < k; pc += kKC) {
            const std::size_t kc = std::min(kKC, k - pc);
            const bool acc = accumulate || pc > 0;
            pack_b(b, ldb, btrans, pc, kc, jc, nc, bp.data());
            for (std::size_t ic = 0; ic < m; ic += kMC) {
                const std::size_t mc = std::min(kMC, m - ic);
                pack_a(a, lda, ic, mc, pc, kc, ap.data());
                // jr outside ir: one kc x kNR panel of B stays in L1 while the panels
                // of A stream past it.
                for (std::size_t jr = 0; jr < nc; jr += kNR) {
                    const float* bpanel = bp.data() + (jr / kNR) * kc * kNR;
                    for (std::size_t ir = 0; ir < mc; ir += kMR)
                        micro_packed(kc, ap.data() + (ir / kMR) * kc * kMR, bpanel,
                                     c + (ic + ir) * ldc + jc + jr, ldc, std::min(kMR, mc - ir),
                                     std::min(kNR, nc - jr), alpha, acc);
                }
            }
        }
    }
}

}  // namespace

void gemm_nn(ConstMatrixView A, ConstMatrixView B, MatrixView C, float alpha, bool accumulate) {
    gemm(A.rows(), B.cols(), A.cols(), A.data(), A.stride(), B.data(), B.stride(), false, C.data(), C.stride(),
         alpha, accumulate);
}

void gemm_nt(ConstMatrixView A, ConstMatrixView B, MatrixView C, float alpha, bool accumulate) {
    gemm(A.rows(), B.rows(), A.cols(), A.data(), A.stride(), B.data(), B.stride(), true, C.data(), C.stride(),
         alpha, accumulate);
}

bool all_finite(ConstMatrixView A) {
    for (std::size_t i = 0; i < A.rows(); ++i) {
        const float* r = A.row(i);
        // x − x is 0 for finite x and NaN for NaN and ±∞; the sum stays 0 only if all are finite.
        batch acc(0.0f);
        std::size_t j = 0;
        for (; j + kLanes <= A.cols(); j += kLanes) {
            const batch v = batch::load_unaligned(r + j);
            acc += v - v;
        }
        float s = xsimd::hadd(acc);
        for (; j < A.cols(); ++j) s += r[j] - r[j];
        if (s != 0.0f) return false;
    }
    return true;
}

}  // namespace attn::kernels

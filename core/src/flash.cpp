#include "attn/flash.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/checks.hpp"
#include "kernels/gemm.hpp"
#include "kernels/mask.hpp"
#include "kernels/softmax.hpp"

namespace attn {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

void check_flash_inputs(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const FlashOptions& o) {
    kernels::check_attention_inputs("flash_attention", Q, K, V, o.mask ? &*o.mask : nullptr, o.scale ? &*o.scale : nullptr);
    if (o.tile > kMaxTile)
        throw ValueError("flash_attention: tile must be between 1 and " + std::to_string(kMaxTile) + ", got " +
                         std::to_string(o.tile));
}

// True when every mask entry of the block is −∞ (the block contributes nothing).
bool block_fully_masked(ConstMatrixView M, std::size_t i0, std::size_t rows, std::size_t j0, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) {
        const float* m = M.row(i0 + r) + j0;
        for (std::size_t c = 0; c < cols; ++c)
            if (m[c] != kNegInf) return false;
    }
    return true;
}

constexpr float kLog2e = 1.44269504088896341f;

// ---------------------------------------------------------------------------------------------
// The variants of the tiled kernel (as llm.c lists the variants of a kernel): the body below,
// tiled<Variant>(), is written once; what differs between builds is three steps, each a static
// member of a variant, and which variant a build runs is chosen in one place (kVariant, below).
//
//   Plain       the scalar stand-in (ATTN_SCALAR): scores in base e; every register block of
//               a tile computed whole; the online softmax's update().
//   Diagonal    WebAssembly SIMD128, with or without relaxed SIMD: Plain, except that on the
//               causal diagonal a register block whose last query sees fewer than kNR − kLanes of
//               its keys computes only the batches of keys it sees (the rest get weight 0 in
//               step 3; their scores are left unwritten).
//   Base2Fused  native x86 (AVX-512, AVX2, SSE4.2): without a custom mask the scores are kept in
//               base 2 (log2 e folded into the scale, exp2 in the online softmax: kernels/simd.hpp),
//               and a tile whose keys every row of the block sees takes its row maxima from the
//               QKᵀ product's registers (micro_rows_max) instead of a pass over the tile.
//
// Every variant gives the same weights up to rounding (tests/core/test_flash.cpp compares each
// build with attn::reference; ctest -L core.isa runs the native ones on every instruction set).
// ---------------------------------------------------------------------------------------------

struct Plain {
    static constexpr bool kBase2 = false;
    // Step 1 for a register block on the causal diagonal whose last query sees `keys` (< kNR) of
    // its keys: true when computed here, false to leave it to the whole-block product.
    static bool diagonal_block(std::size_t, std::size_t, const float*, std::size_t, const float*, float*,
                               std::size_t, std::size_t, float) {
        return false;
    }
    // Step 1 for a whole tile with its row maxima (Base2Fused only).
    static void fused_scores(std::size_t, std::size_t, const float*, std::size_t, const float*, float*, std::size_t,
                             std::size_t, float*) {}
    // Step 3's update of one row over the tile's first nb scores s (n of them visible; rmax: the
    // row's lane-wise maxima when the tile was fused). Returns the rescale c of OnlineSoftmax.
    static float update(kernels::OnlineSoftmax<float>& row, float* s, std::size_t nb, std::size_t, bool, bool,
                        const float*) {
        return row.update(s, nb);
    }
};

#if defined(__wasm_simd128__)
struct Diagonal : Plain {
    static bool diagonal_block(std::size_t keys, std::size_t kc, const float* a, std::size_t lda, const float* b,
                               float* c, std::size_t ldc, std::size_t mr, float alpha) {
        using namespace kernels;
        static_assert(kNB == 4, "the diagonal blocks are written for 2 x 4 register blocks");
        if (keys > kNR - kLanes) return false;
        switch ((keys + kLanes - 1) / kLanes) {
            case 1: part<1>(kc, a, lda, b, c, ldc, mr, alpha); break;
            case 2: part<2>(kc, a, lda, b, c, ldc, mr, alpha); break;
            default: part<3>(kc, a, lda, b, c, ldc, mr, alpha); break;
        }
        return true;
    }

private:
    // The first NB batches of keys of a register block, scaled by alpha and stored.
    template <std::size_t NB>
    static void part(std::size_t kc, const float* a, std::size_t lda, const float* b, float* c, std::size_t ldc,
                     std::size_t mr, float alpha) {
        using namespace kernels;
        batch acc[kMR][NB];
        accumulate_rows<NB>(kc, a, lda, b, mr, acc);
        const batch va(alpha);
        for (std::size_t r = 0; r < kMR; ++r)
            for (std::size_t q = 0; q < NB; ++q) {
                if (r >= mr) continue;  // constant bounds keep acc in registers (store_block)
                (acc[r][q] * va).store_unaligned(c + r * ldc + q * kLanes);
            }
    }
};
#endif

#if !defined(__wasm__) && !defined(ATTN_SCALAR)
struct Base2Fused : Plain {
    static constexpr bool kBase2 = true;

    // S = A·Bᵀ for the tile's `cols` keys (whole panels; A holds the block's scaled queries),
    // each row's scores also folded into rmax[r·kLanes, (r + 1)·kLanes), lane by lane.
    static void fused_scores(std::size_t cols, std::size_t rows, const float* qb, std::size_t ldq, const float* kp,
                             float* S, std::size_t ldS, std::size_t dk, float* rmax) {
        using namespace kernels;
        std::fill_n(rmax, rows * kLanes, kNegInf);
        for (std::size_t jr = 0; jr < cols; jr += kNR)
            for (std::size_t ir = 0; ir < rows; ir += kMR)
                micro_rows_max(dk, qb + ir * ldq, ldq, kp + jr * dk, S + ir * ldS + jr, ldS, std::min(kMR, rows - ir),
                               rmax + ir * kLanes);
    }

    static float update(kernels::OnlineSoftmax<float>& row, float* s, std::size_t nb, std::size_t n, bool base2, bool fused,
                        const float* rmax) {
        if (!base2) return row.update(s, nb);
        return row.update_base2(s, nb, fused ? kernels::max(rmax, kernels::kLanes) : kernels::max(s, n));
    }

private:
    // micro_rows for a whole register block (kNR keys, stored as they are, not accumulated)
    // that also folds each row's scores into rmax, lane by lane.
    static void micro_rows_max(std::size_t kc, const float* a, std::size_t lda, const float* b, float* c,
                               std::size_t ldc, std::size_t mr, float* rmax) {
        using namespace kernels;
        batch acc[kMR][kNB];
        accumulate_rows(kc, a, lda, b, mr, acc);
        for (std::size_t r = 0; r < kMR; ++r) {
            if (r >= mr) continue;  // constant bounds keep acc in registers (store_block)
            batch m = batch::load_aligned(rmax + r * kLanes);
            for (std::size_t q = 0; q < kNB; ++q) {
                const batch v = acc[r][q];
                v.store_unaligned(c + r * ldc + q * kLanes);
                m = xsimd::max(m, v);
            }
            m.store_aligned(rmax + r * kLanes);
        }
    }
};
#endif

// The one place a build's variant is chosen.
#if !defined(__wasm__) && !defined(ATTN_SCALAR)
using BuildVariant = Base2Fused;
#elif defined(__wasm_simd128__)
using BuildVariant = Diagonal;
#else
using BuildVariant = Plain;
#endif

// The tiled kernel (FlashAttention's loop: Dao et al. 2022, Algorithm 1), one variant's steps
// filled in (above). Inputs checked by the caller.
template <class Variant>
Matrix tiled(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const FlashOptions& options) {
    using namespace kernels;
    // Shapes: Q: Tq x dk, K: Tk x dk, V: Tk x dv, O: Tq x dv.
    const std::size_t Tq = Q.rows(), Tk = K.rows(), dk = Q.cols(), dv = V.cols();
    const float scale = options.scale.value_or(1.0f / std::sqrt(float(dk)));
    const std::size_t rows_per_block = options.tile ? options.tile : kDefaultRows;
    const std::size_t keys_per_tile = options.tile ? options.tile : kDefaultKeys;
    const std::size_t Br = std::min(rows_per_block, Tq);                // query rows per block
    const std::size_t Bc = round_up(std::min(keys_per_tile, Tk), kNR);  // keys per tile (whole K panels)
    const std::size_t ldS = Bc, ldO = round_up(dv, kNR);

    Matrix O(Tq, dv);
    if (dv == 0) return O;

    // K packed once as the B operand of S = Q Kᵀ: panel t holds keys [t·kNR, t·kNR + kNR)
    // over the full depth dk. V packed once as the B operand of O += P V: panel t holds
    // value columns [t·kNR, ...) over all Tk tokens. Both O(T·d).
    Scratch<float, 1024> kp(round_up(Tk, kNR) * dk), vp(round_up(dv, kNR) * Tk);
    pack_b(K.data(), K.stride(), true, 0, dk, 0, Tk, kp.data());
    // A zero weight must take nothing from V: with a NaN or ∞ in V, the product P·V
    // skips zero weights instead of multiplying them (0·∞ would be NaN). The pack checks.
    const bool v_finite = pack_b(V.data(), V.stride(), false, 0, Tk, 0, dv, vp.data());
    // Scores in base 2 (above): natively, without a custom mask.
    const bool base2 = Variant::kBase2 && !options.mask && std::isfinite(scale * kLog2e);
    const float alpha = base2 ? scale * kLog2e : scale;

    // Per query block: one Br x Bc tile of scores/weights, the online-softmax state of
    // each row (running maximum and sum, kernels/softmax.hpp) and the unnormalised output rows.
    Scratch<float, 1024> S(Br * ldS), Oacc(Br * ldO);
    Scratch<OnlineSoftmax<float>, 16> row(Br);
    Scratch<float, 16 * kLanes> rmax(base2 ? Br * kLanes : 0);  // per row, lane-wise maxima of a tile
    // In base 2 the block's queries are copied, scaled by alpha, into qs (rows dk apart):
    // the products then need no scaling, and read contiguous rows.
    Scratch<float, 1024> qs(base2 ? Br * dk : 0);

    for (std::size_t i0 = 0; i0 < Tq; i0 += Br) {
        const std::size_t rows = std::min(Br, Tq - i0);
        std::fill_n(row.data(), rows, OnlineSoftmax<float>{});
        // Without a custom mask the first tile (j0 = 0) is never skipped, every row sees its
        // key 0, and step 4 stores õ there instead of adding to it: no zeroing first.
        const bool store_first = !options.mask && v_finite;
        if (!store_first) std::fill_n(Oacc.data(), rows * ldO, 0.0f);
        // Causal: the block's last query sees keys up to itself, so every tile starting
        // after it is fully masked and skipped.
        const std::size_t kend = visible_keys(i0 + rows - 1, Tk, options.causal);
        const float* qb = Q.row(i0);  // the block's queries, rows ldq apart, and their scale
        std::size_t ldq = Q.stride();
        float qscale = alpha;
        if (base2) {
            for (std::size_t r = 0; r < rows; ++r) kernels::scale(Q.row(i0 + r), alpha, qs.data() + r * dk, dk);
            qb = qs.data();
            ldq = dk;
            qscale = 1.0f;
        }

        for (std::size_t j0 = 0; j0 < kend; j0 += Bc) {
            const std::size_t cols = std::min(Bc, kend - j0);
            if (options.mask && block_fully_masked(*options.mask, i0, rows, j0, cols)) continue;
            // Base2Fused's step 1: the whole tile with its row maxima from the product; whole
            // panels only (a padded key's score is 0, not a score) and every key visible to
            // every row of the block.
            const bool fused = base2 && cols % kNR == 0 && visible_keys(i0, Tk, options.causal) >= j0 + cols;
            if (fused) Variant::fused_scores(cols, rows, qb, ldq, kp.data() + j0 * dk, S.data(), ldS, dk, rmax.data());

            // (1) S = scale · Q[i0 : i0+rows] · K[j0 : j0+cols]ᵀ, register-blocked; Q read in place.
            //     A register block whose first key its last query does not see is entirely
            //     masked: it is not computed (step 3 gives it weight 0).
            for (std::size_t jr = 0; jr < (fused ? 0 : cols); jr += kNR)
                for (std::size_t ir = 0; ir < rows; ir += kMR) {
                    const std::size_t mr = std::min(kMR, rows - ir);
                    const std::size_t seen = visible_keys(i0 + ir + mr - 1, Tk, options.causal);
                    if (j0 + jr >= seen) continue;
                    if (seen - (j0 + jr) < kNR &&
                        Variant::diagonal_block(seen - (j0 + jr), dk, qb + ir * ldq, ldq,
                                                kp.data() + (j0 + jr) / kNR * dk * kNR, S.data() + ir * ldS + jr, ldS,
                                                mr, qscale))
                        continue;
                    micro_rows(dk, qb + ir * ldq, ldq, kp.data() + (j0 + jr) / kNR * dk * kNR,
                               S.data() + ir * ldS + jr, ldS, mr, kNR, qscale, false);
                }

            // (2) The custom mask (kernels/mask.hpp): a masked key's score is replaced by −∞, so
            //     its weight is exactly 0. The causal mask comes after it, as in attention(),
            //     in step 3: a row's keys past its diagonal get weight 0 there, whatever the
            //     custom mask put in them.
            if (options.mask)
                for (std::size_t r = 0; r < rows; ++r)
                    mask_row(S.data() + r * ldS, options.mask->row(i0 + r) + j0, i0 + r, j0, cols, false);

            // (3) Online softmax, row by row (OnlineSoftmax::update, kernels/softmax.hpp): the
            //     tile's scores become p_j = e^(s_j − m_new) in place, and the unnormalised
            //     output row õ is rescaled by c = e^(m − m_new) before this tile's p · V is
            //     added (c = 1, no pass, when the maximum did not move). Under the causal
            //     mask a row's keys past its diagonal get weight 0 without an exponential
            //     (whatever the custom mask left there): only the visible prefix goes
            //     through update().
            //     A row that has seen no visible key before this tile (m = −∞) needs no
            //     rescale: its õ is still 0 (or NaN, with l NaN for good).
            //     The exponentials run on whole batches (kLanes): the keys from n up to the
            //     next multiple of kLanes become −∞ (weight exactly 0, the sum unchanged)
            //     instead of going through a scalar std::exp; ldS is a multiple of kLanes.
            for (std::size_t r = 0; r < rows; ++r) {
                const std::size_t seen = visible_keys(i0 + r, Tk, options.causal);
                const std::size_t n = seen > j0 ? std::min(cols, seen - j0) : 0;
                const std::size_t nb = std::min(round_up(n, kLanes), ldS);
                float* s = S.data() + r * ldS;
                std::fill(s + n, s + nb, kNegInf);
                // Weights past nb that step 4 reads are 0: the register block's product reads
                // up to what its last query sees (at most n + kMR − 1 keys); the scalar
                // path (V not finite) reads the whole tile.
                const std::size_t read = v_finite ? std::min(cols, n + kMR - 1) : cols;
                if (nb < read) std::fill(s + nb, s + read, 0.0f);
                const bool first = row[r].max == kNegInf;
                const float c = Variant::update(row[r], s, nb, n, base2, fused, fused ? rmax.data() + r * kLanes : nullptr);
                if (c != 1.0f && !first) kernels::scale(Oacc.data() + r * ldO, c, Oacc.data() + r * ldO, dv);
            }

            // (4) õ += P · V[j0 : j0+cols], register-blocked; P read in place from the tile.
            //     The rows of a register block see keys up to what their last query sees; the
            //     weights after that are 0, so the product stops there.
            if (v_finite) {
                for (std::size_t ir = 0; ir < rows; ir += kMR) {
                    const std::size_t mr = std::min(kMR, rows - ir);
                    const std::size_t seen = visible_keys(i0 + ir + mr - 1, Tk, options.causal);
                    const std::size_t depth = seen > j0 ? std::min(cols, seen - j0) : 0;
                    if (depth == 0) continue;
                    for (std::size_t jr = 0; jr < dv; jr += kNR)
                        micro_rows(depth, S.data() + ir * ldS, ldS, vp.data() + jr / kNR * Tk * kNR + j0 * kNR,
                                   Oacc.data() + ir * ldO + jr, ldO, mr, kNR, 1.0f, !(store_first && j0 == 0));
                }
            } else {
                for (std::size_t r = 0; r < rows; ++r)
                    for (std::size_t c = 0; c < cols; ++c) {
                        const float p = S[r * ldS + c];
                        if (p != 0.0f) axpy(p, V.row(j0 + c), Oacc.data() + r * ldO, dv);
                    }
            }
        }

        // (5) o = õ / l. A fully masked row (l = 0) is zero; a row that held a NaN (l = NaN) is NaN.
        for (std::size_t r = 0; r < rows; ++r) {
            float* o = O.row(i0 + r);
            if (row[r].sum == 0.0f) std::fill_n(o, dv, 0.0f);
            else kernels::scale(Oacc.data() + r * ldO, row[r].finish(), o, dv);
        }
    }
    return O;
}
}  // namespace

Matrix flash_attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const FlashOptions& options) {
    check_flash_inputs(Q, K, V, options);
    return tiled<BuildVariant>(Q, K, V, options);
}

}  // namespace attn

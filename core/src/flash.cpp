#include "attn/flash.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/gemm.hpp"
#include "kernels/simd.hpp"

namespace attn {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

void check_flash_inputs(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const FlashOptions& o) {
    if (Q.rows() == 0 || K.rows() == 0)
        throw ValueError("flash_attention: Q is " + Q.shape() + " and K is " + K.shape() +
                         "; both need at least one token");
    if (Q.cols() == 0) throw ValueError("flash_attention: d_k = 0 (Q is " + Q.shape() + ")");
    if (Q.cols() != K.cols())
        throw ShapeError("flash_attention: Q is " + Q.shape() + " and K is " + K.shape() +
                         "; Q and K must have the same number of columns (d_k)");
    if (K.rows() != V.rows())
        throw ShapeError("flash_attention: K is " + K.shape() + " and V is " + V.shape() +
                         "; K and V must have the same number of rows (tokens)");
    if (o.mask && (o.mask->rows() != Q.rows() || o.mask->cols() != K.rows()))
        throw ShapeError("flash_attention: mask is " + o.mask->shape() + " but the scores are " +
                         shape_str(Q.rows(), K.rows()) + " (T_q x T_k)");
    if (o.scale && !std::isfinite(*o.scale))
        throw ValueError("flash_attention: the scale must be finite, got " + std::to_string(*o.scale));
    if (o.tile > kMaxTile)
        throw ValueError("flash_attention: tile must be between 1 and " + std::to_string(kMaxTile) + ", got " +
                         std::to_string(o.tile));
}

bool has_nan(const float* x, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
        if (std::isnan(x[j])) return true;
    return false;
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
}  // namespace

Matrix flash_attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const FlashOptions& options) {
    using namespace kernels;
    check_flash_inputs(Q, K, V, options);
    // Shapes: Q: Tq x dk, K: Tk x dk, V: Tk x dv, O: Tq x dv.
    const std::size_t Tq = Q.rows(), Tk = K.rows(), dk = Q.cols(), dv = V.cols();
    const float scale = options.scale.value_or(1.0f / std::sqrt(float(dk)));
    const std::size_t tile = options.tile ? options.tile : kDefaultTile;
    const std::size_t Br = tile;                    // query rows per block
    const std::size_t Bc = round_up(tile, kNR);     // keys per tile (whole K panels)
    const std::size_t ldS = Bc, ldO = round_up(dv, kNR);

    Matrix O(Tq, dv);
    if (dv == 0) return O;

    // K packed once as the B operand of S = Q Kᵀ: panel t holds keys [t·kNR, t·kNR + kNR)
    // over the full depth dk. V packed once as the B operand of O += P V: panel t holds
    // value columns [t·kNR, ...) over all Tk tokens. Both O(T·d).
    Buffer kp(round_up(Tk, kNR) * dk), vp(round_up(dv, kNR) * Tk);
    pack_b(K.data(), K.stride(), true, 0, dk, 0, Tk, kp.data());
    pack_b(V.data(), V.stride(), false, 0, Tk, 0, dv, vp.data());
    // A zero weight must take nothing from V: with a NaN or ∞ in V, the product P·V
    // skips zero weights instead of multiplying them (0·∞ would be NaN).
    const bool v_finite = all_finite(V);

    // Per query block: one Br x Bc tile of scores/weights, the running statistics and
    // the unnormalised output rows.
    Buffer S(Br * ldS), Oacc(Br * ldO), m(Br), l(Br);
    std::vector<char> poisoned(Br);

    for (std::size_t i0 = 0; i0 < Tq; i0 += Br) {
        const std::size_t rows = std::min(Br, Tq - i0);
        // Running maximum starts at −∞ (not a large negative constant), running sum and
        // output at 0.
        std::fill_n(m.data(), rows, kNegInf);
        std::fill_n(l.data(), rows, 0.0f);
        std::fill_n(Oacc.data(), rows * ldO, 0.0f);
        std::fill_n(poisoned.data(), rows, 0);
        // Causal: the block's last query (i0 + rows − 1) sees keys up to itself, so every
        // tile starting at or after i0 + rows is fully masked and skipped.
        const std::size_t kend = options.causal ? std::min(Tk, i0 + rows) : Tk;

        for (std::size_t j0 = 0; j0 < kend; j0 += Bc) {
            const std::size_t cols = std::min(Bc, kend - j0);
            if (options.mask && block_fully_masked(*options.mask, i0, rows, j0, cols)) continue;

            // (1) S = scale · Q[i0 : i0+rows] · K[j0 : j0+cols]ᵀ, register-blocked; Q read in place.
            //     Under causal, a register block whose first key comes after its last query
            //     is entirely masked: it is not computed (step 2 writes −∞ there).
            for (std::size_t jr = 0; jr < cols; jr += kNR)
                for (std::size_t ir = 0; ir < rows; ir += kMR) {
                    const std::size_t mr = std::min(kMR, rows - ir);
                    if (options.causal && j0 + jr > i0 + ir + mr - 1) continue;
                    micro_rows(dk, Q.row(i0 + ir), Q.stride(), kp.data() + (j0 + jr) / kNR * dk * kNR,
                               S.data() + ir * ldS + jr, ldS, mr, kNR, scale, false);
                }

            // (2) Masks. A masked key's score is replaced by −∞ (its weight is then exactly 0).
            //     The custom mask first, then the causal one, as in attention(): a causally
            //     hidden key stays −∞ whatever the custom mask holds there (−∞ + ∞ is NaN).
            if (options.mask) {
                for (std::size_t r = 0; r < rows; ++r)
                    kernels::add_mask(S.data() + r * ldS, options.mask->row(i0 + r) + j0, S.data() + r * ldS, cols);
            }
            if (options.causal && j0 + cols > i0 + 1) {  // the tile reaches above the diagonal
                for (std::size_t r = 0; r < rows; ++r) {
                    const std::size_t i = i0 + r;
                    const std::size_t first = i + 1 > j0 ? i + 1 - j0 : 0;  // first hidden column
                    if (first < cols) std::fill(S.data() + r * ldS + first, S.data() + r * ldS + cols, kNegInf);
                }
            }

            // (3) Online softmax, row by row (Dao et al. 2022, Algorithm 1, lines 9-13).
            //     With m = running max, l = running sum and õ = unnormalised output row
            //     after the previous tiles, and s = this tile's scores of the row:
            //       m_new = max(m, max_j s_j)
            //       p_j   = exp(s_j − m_new)                     (in place of s)
            //       c     = exp(m − m_new)                        rescales what was summed
            //       l     = c · l + Σ_j p_j                       against the old maximum
            //       õ     = c · õ            (then õ += p · V_tile in step 4)
            //     At the end o = õ / l. c = exp(−∞) = 0 on the first visible tile, when
            //     l and õ are still 0; c = 1 (skipped) when the maximum did not move.
            for (std::size_t r = 0; r < rows; ++r) {
                float* s = S.data() + r * ldS;
                const float m_new = std::max(m[r], kernels::max(s, cols));  // NaN entries ignored here
                if (m_new == kNegInf) {
                    // Nothing visible in this row so far. A NaN score (e.g. from a NaN in Q)
                    // must still reach the output; masked entries contribute zero weight.
                    if (has_nan(s, cols)) poisoned[r] = 1;
                    std::fill_n(s, cols, 0.0f);
                    continue;
                }
                const float c = std::exp(m[r] - m_new);
                const float sum = exp_shift_sum(s, m_new, s, cols);  // p_j, and Σ_j p_j (NaN propagates)
                l[r] = c * l[r] + sum;
                if (c != 1.0f) kernels::scale(Oacc.data() + r * ldO, c, Oacc.data() + r * ldO, dv);
                m[r] = m_new;
            }

            // (4) õ += P · V[j0 : j0+cols], register-blocked; P read in place from the tile.
            //     Under causal, the rows of a register block see keys up to their last query
            //     only; the weights after it are 0, so the product stops there.
            if (v_finite) {
                for (std::size_t ir = 0; ir < rows; ir += kMR) {
                    const std::size_t mr = std::min(kMR, rows - ir);
                    const std::size_t last = i0 + ir + mr;  // one past the block's last query
                    const std::size_t depth = options.causal ? (last > j0 ? std::min(cols, last - j0) : 0) : cols;
                    if (depth == 0) continue;
                    for (std::size_t jr = 0; jr < dv; jr += kNR)
                        micro_rows(depth, S.data() + ir * ldS, ldS, vp.data() + jr / kNR * Tk * kNR + j0 * kNR,
                                   Oacc.data() + ir * ldO + jr, ldO, mr, kNR, 1.0f, true);
                }
            } else {
                for (std::size_t r = 0; r < rows; ++r)
                    for (std::size_t c = 0; c < cols; ++c) {
                        const float p = S[r * ldS + c];
                        if (p != 0.0f) axpy(p, V.row(j0 + c), Oacc.data() + r * ldO, dv);
                    }
            }
        }

        // (5) o = õ / l. A fully masked row (l = 0) stays zero; a NaN row stays NaN.
        for (std::size_t r = 0; r < rows; ++r) {
            float* o = O.row(i0 + r);
            if (poisoned[r]) std::fill_n(o, dv, std::numeric_limits<float>::quiet_NaN());
            else if (l[r] == 0.0f) std::fill_n(o, dv, 0.0f);
            else kernels::scale(Oacc.data() + r * ldO, 1.0f / l[r], o, dv);
        }
    }
    return O;
}

}  // namespace attn

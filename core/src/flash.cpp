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
}  // namespace

Matrix flash_attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const FlashOptions& options) {
    using namespace kernels;
    check_flash_inputs(Q, K, V, options);
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

    // Per query block: one Br x Bc tile of scores/weights, the online-softmax state of
    // each row (running maximum and sum, kernels/softmax.hpp) and the unnormalised output rows.
    Scratch<float, 1024> S(Br * ldS), Oacc(Br * ldO);
    Scratch<OnlineSoftmax<float>, 16> row(Br);

    for (std::size_t i0 = 0; i0 < Tq; i0 += Br) {
        const std::size_t rows = std::min(Br, Tq - i0);
        std::fill_n(row.data(), rows, OnlineSoftmax<float>{});
        std::fill_n(Oacc.data(), rows * ldO, 0.0f);
        // Causal: the block's last query sees keys up to itself, so every tile starting
        // after it is fully masked and skipped.
        const std::size_t kend = visible_keys(i0 + rows - 1, Tk, options.causal);

        for (std::size_t j0 = 0; j0 < kend; j0 += Bc) {
            const std::size_t cols = std::min(Bc, kend - j0);
            if (options.mask && block_fully_masked(*options.mask, i0, rows, j0, cols)) continue;

            // (1) S = scale · Q[i0 : i0+rows] · K[j0 : j0+cols]ᵀ, register-blocked; Q read in place.
            //     A register block whose first key its last query does not see is entirely
            //     masked: it is not computed (step 2 writes −∞ there).
            for (std::size_t jr = 0; jr < cols; jr += kNR)
                for (std::size_t ir = 0; ir < rows; ir += kMR) {
                    const std::size_t mr = std::min(kMR, rows - ir);
                    if (j0 + jr >= visible_keys(i0 + ir + mr - 1, Tk, options.causal)) continue;
                    micro_rows(dk, Q.row(i0 + ir), Q.stride(), kp.data() + (j0 + jr) / kNR * dk * kNR,
                               S.data() + ir * ldS + jr, ldS, mr, kNR, scale, false);
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
                if (nb < cols) std::fill(s + nb, s + cols, 0.0f);
                const bool first = row[r].max == kNegInf;
                const float c = row[r].update(s, nb);
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

        // (5) o = õ / l. A fully masked row (l = 0) is zero; a row that held a NaN (l = NaN) is NaN.
        for (std::size_t r = 0; r < rows; ++r) {
            float* o = O.row(i0 + r);
            if (row[r].sum == 0.0f) std::fill_n(o, dv, 0.0f);
            else kernels::scale(Oacc.data() + r * ldO, row[r].finish(), o, dv);
        }
    }
    return O;
}

}  // namespace attn

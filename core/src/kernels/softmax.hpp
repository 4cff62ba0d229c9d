// The row softmax and its rules, written once (attention.hpp, "Numerics"); float and
// double through the same templates. Every forward path calls these: softmax(),
// attention(), attention_output(), softmax_parts(), the tiled kernel's online softmax
// (flash.cpp), the training model's fused head (training/fused.hpp), its cross-entropy and
// probe, and the double path (grad.cpp). The scalar oracle (reference.cpp) keeps its own.
//
//   exp_shifted(x, m, n)           p_j = exp(x_j − m) in place, returns l = Σ p_j: the rule
//   softmax_row_unnormalised(x, n) the same with m = the row's maximum
//   softmax_row(x, n)              the same, divided by l: the weights of one row
//   masked_softmax_row(z, p, ...)  mask_row (kernels/mask.hpp), then softmax_row
//   masked_softmax_rows(Z, P, ...) the same for every row of a matrix, float or double
//   OnlineSoftmax                  the same for a row whose scores come a tile at a time
//   softmax_row_parts(...)         every intermediate of softmax_row, for the page
//
// `How` (kernels/simd.hpp) picks the exponentials' arithmetic: Lanes (xsimd batches, the
// default) or InOrder (one element after the other, the training model's heads); the
// rules are the same.
//
// The rules (Vaswani et al. 2017, eq. 1; the max shift is the usual overflow guard):
// * the row maximum m is subtracted first, so exp never overflows: the largest entry
//   gets exp(0) = 1 and every finite x_j − m <= 0;
// * −∞ is a hidden key: p_j = exp(−∞) = 0 exactly;
// * a row whose every entry is −∞ ("fully masked") gets p = 0 and l = 0, so all-zero
//   weights and a zero output row, never NaN;
// * a NaN anywhere in the row, or a +∞ (∞ − ∞ = NaN), makes l NaN, and with it every
//   weight of the row (p / l) and the row's output: also in a fully masked row.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "kernels/mask.hpp"
#include "kernels/simd.hpp"

namespace attn::kernels {

// p_j = exp(x_j − m) in place; returns l = Σ_j p_j.
// m is the row's maximum with NaN ignored (kernels::max), or a running maximum at least
// as large (OnlineSoftmax), so x_j − m <= 0 for every x_j that is not NaN.
// m = −∞: nothing in the row is visible. p_j = 0 and l = 0, except that a NaN x_j stays
// NaN and makes l NaN.
template <class T, class How = Lanes>
inline T exp_shifted(T* x, T m, std::size_t n, How how = {}) {
    if (m == kMinusInf<T>) {
        T l = 0;
        for (std::size_t j = 0; j < n; ++j) {
            if (std::isnan(x[j])) l = x[j];
            else x[j] = 0;
        }
        return l;
    }
    return exp_shift_sum(x, m, x, n, how);
}

// exp(x_j − max x) in place; returns their sum (0 for a fully masked row, NaN for a row
// holding NaN or +∞). The caller divides later (attention_output divides the output row).
template <class T, class How = Lanes>
inline T softmax_row_unnormalised(T* x, std::size_t n, How how = {}) {
    return exp_shifted(x, max(x, n), n, how);
}

// softmax of one contiguous row in place: two passes over the input (max; exp, store and
// sum fused) and one scaling pass. Returns the sum l before division.
template <class T, class How = Lanes>
inline T softmax_row(T* x, std::size_t n, How how = {}) {
    const T l = softmax_row_unnormalised(x, n, how);
    // l = 0: fully masked, the zeros stay. l = NaN: 1/l = NaN makes the whole row NaN.
    if (l != T(0)) scale(x, T(1) / l, x, n);
    return l;
}

// One query row through both rules: z, row i of the scaled scores (n = T_k entries), gets
// the mask rule in place (the additive mask row m, or null, then the causal mask) and
// p = softmax(z). Returns l. (attention() keeps z as its "masked" stage, p as "weights".)
template <class T>
inline T masked_softmax_row(T* z, T* p, const same_t<T>* m, std::size_t i, std::size_t n, bool causal) {
    mask_row(z, m, i, 0, n, causal);
    std::copy_n(z, n, p);
    return softmax_row(p, n);
}

// masked_softmax_row for every row of a T_q x T_k matrix: masked (the scaled scores on
// entry) gets the mask rule, weights = its row softmax. M is Matrix or f64::MatrixD: the
// float and the double attention() run this same template. mask: T_q x T_k, or null.
template <class M>
inline void masked_softmax_rows(M& masked, M& weights, const M* mask, bool causal) {
    for (std::size_t i = 0; i < masked.rows(); ++i)
        masked_softmax_row(masked.row(i), weights.row(i), mask ? mask->row(i) : nullptr, i, masked.cols(), causal);
}

// The online softmax of one query row whose scores arrive a tile at a time (Milakov &
// Gimelshein 2018, "Online normalizer calculation for softmax"; Dao et al. 2022,
// "FlashAttention", Algorithm 1, lines 9-13). State after the tiles seen so far: the
// running maximum m (starts at −∞, not at a large negative constant) and the running sum
// l = Σ exp(s_j − m) (starts at 0). The caller keeps the unnormalised output row õ.
template <class T>
struct OnlineSoftmax {
    T max = kMinusInf<T>;
    T sum = 0;

    // One tile s of n scores (masks already applied):
    //   m_new = max(m, max_j s_j)
    //   p_j   = exp(s_j − m_new)           written over s, by exp_shifted (the row rule)
    //   c     = exp(m − m_new)             what was summed against the old maximum shrinks
    //   l     = c · l + Σ_j p_j
    // Returns c: the caller sets õ = c · õ, then õ += p · V_tile. c = 0 on the first tile
    // with a visible key (l and õ are still 0), 1 when the maximum did not move (also
    // while nothing is visible: m_new = m = −∞). A NaN in s makes l NaN for good.
    T update(T* s, std::size_t n) {
        const T m_new = std::max(max, kernels::max(s, n));
        const T c = m_new == max ? T(1) : max == kMinusInf<T> ? T(0) : T(std::exp(max - m_new));
        sum = c * sum + exp_shifted(s, m_new, n);
        max = m_new;
        return c;
    }

#if !defined(__wasm__) && !defined(ATTN_SCALAR)
    // The same update with the scores in base 2 (s_j·log2 e: p_j = 2^(s_j − m_new), the
    // same weights, by exp2_shift_sum in kernels/simd.hpp) and the tile's maximum max_j s_j
    // given (the native tiled kernel takes it from the product's registers, flash.cpp).
    // m is then kept in base 2 too; l is the same sum.
    T update_base2(T* s, std::size_t n, T tile_max) {
        const T m_new = std::max(max, tile_max);
        const T c = m_new == max ? T(1) : T(std::exp2(max - m_new));
        sum = c * sum + (m_new == kMinusInf<T> ? exp_shifted(s, m_new, n) : exp2_shift_sum(s, m_new, s, n));
        max = m_new;
        return c;
    }
#endif

    // The factor that turns õ into the output row o = õ / l: 0 for a row that saw no
    // visible key (l = 0: a zero output row), NaN when the row held a NaN or +∞.
    T finish() const { return sum == T(0) ? T(0) : T(1) / sum; }
};

// softmax_row with every intermediate kept, for the page (softmax_parts in attention.hpp):
//   shifted = x − max   (x itself in a fully masked row: −∞ − (−∞) would be NaN)
//   e       = exp(x − max), and sum = Σ e, by exp_shifted: e / sum is the softmax
//   e_raw   = e^x as a hand calculation prints it (computed in double; +∞ past the
//             float range), and sum_raw = Σ e^x (in double)
template <class T>
struct RowParts {
    T max, sum, sum_raw;
};
inline RowParts<float> softmax_row_parts(const float* x, std::size_t n, float* shifted, float* e, float* e_raw) {
    RowParts<float> r{max(x, n), 0.0f, 0.0f};
    double raw = 0;
    for (std::size_t j = 0; j < n; ++j) {
        const double v = std::exp(double(x[j]));
        e_raw[j] = float(v);
        raw += v;
    }
    r.sum_raw = float(raw);
    const bool masked = r.max == kMinusInf<float>;
    for (std::size_t j = 0; j < n; ++j) shifted[j] = masked ? x[j] : x[j] - r.max;
    std::copy_n(x, n, e);
    r.sum = exp_shifted(e, r.max, n);
    return r;
}

}  // namespace attn::kernels

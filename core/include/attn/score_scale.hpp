// The scale stage's factor 1/√d_k: what it is, why (the variance of q·k grows with d_k),
// and what it does to softmax and its gradient. attention() multiplies the scores by
// score_scale(d_k).factor (attention.hpp, scale); scaling_effect compares softmax and its
// gradient before and after a factor; sample_dot_products is the sampling experiment behind
// the factor.
//
// Shapes (each written again at its declaration below):
//   score_scale(d_k)                          -> ScoreScale (numbers)
//   scaling_effect(S, factor)                 r x c -> r x c matrices and r x 1 per-row ones
//   sample_dot_products(d_k, count, seed, first)  -> count x 1 dot products, their Moments
//
// Errors: ValueError for d_k = 0, count = 0, a factor that is not finite and > 0, a seed
// above 2^62; SizeError for count·d_k or first + count past kMaxElements.
// Sources: scaled dot-product attention and the variance argument for 1/√d_k are Vaswani
// et al. 2017, "Attention Is All You Need", eq. 1 and footnote 4 (if q and k have
// independent entries of mean 0 and variance 1, q·k = Σ q_i k_i has mean 0 and variance
// d_k). The softmax gradient's diagonal p (1 − p) is grad.hpp's softmax_jacobian_diag.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attn/matrix.hpp"
#include "attn/statistics.hpp"

namespace attn {

// What multiplying the scores by `factor` (e.g. 1/√d_k) does to softmax and to its
// gradient. Per row: top = the column of the largest score (first on ties; positive
// scaling keeps it), grad_top = p(1 − p) there before scaling, grad_top_scaled after,
// ratio = grad_top_scaled / grad_top (+∞ when grad_top is 0). ValueError unless factor
// is finite and > 0.
struct ScalingEffect {
    float factor = 1.0f;
    Matrix scaled;                          // S * factor
    Matrix weights, weights_scaled;         // softmax by rows
    Matrix grad, grad_scaled;               // P ⊙ (1 − P)
    Matrix top, grad_top, grad_top_scaled;  // r x 1
    Matrix ratio;                           // r x 1, computed in double
};
ScalingEffect scaling_effect(ConstMatrixView S, float factor);

// √d_k, and the factor 1/√d_k that attention multiplies the scores by (float, as in
// attention()). With unit-variance entries, √d_k is also the standard deviation of q·k.
struct ScoreScale {
    std::size_t d_k = 0;
    double sqrt_dk = 0;
    float factor = 1.0f;
};
ScoreScale score_scale(std::size_t d_k);

// The variance experiment: `count` pairs q_s, k_s of d_k independent N(0, 1) entries
// (random_normal with seeds 2·seed and 2·seed + 1), their dot products and the same
// divided by √d_k, with the measured statistics. Deterministic: the same (d_k, count,
// seed) gives the same numbers; a larger count extends a smaller one. With first > 0 the
// sample is pairs first .. first + count − 1 of that draw (bit for bit what the larger
// count gives in those rows, without drawing the pairs before them), so a long draw can
// be made in pieces; raw and normalized are then the statistics of those pairs alone.
struct DotProductSample {
    std::size_t d_k = 0, count = 0, first = 0;
    std::uint64_t seed = 0;
    Matrix dots;     // count x 1: q_s · k_s
    Matrix scaled;   // count x 1: q_s · k_s / √d_k
    Moments raw, normalized;
    double expected_variance = 0;  // d_k: the variance q·k has in theory
};
DotProductSample sample_dot_products(std::size_t d_k, std::size_t count, std::uint64_t seed, std::size_t first = 0);

}  // namespace attn


// Analysis helpers for the walkthroughs: the pieces of a softmax, its gradient, the
// sampling experiment behind the 1/√d_k scale, and small reductions (row and column
// sums, norms, dot products) that the page shows next to the attention stages.
//
// Sources: scaled dot-product attention and the variance argument for 1/√d_k are
// Vaswani et al. 2017, "Attention Is All You Need", eq. 1 and footnote 4 (if q and k
// have independent entries of mean 0 and variance 1, q·k = Σ q_i k_i has mean 0 and
// variance d_k). The softmax Jacobian ∂p_i/∂s_j = p_i (δ_ij − p_j) is standard
// (e.g. Goodfellow, Bengio, Courville 2016, "Deep Learning", §6.2.2.3); its diagonal is
// p_i (1 − p_i). q·k = ‖q‖‖k‖cos θ is the geometric form of the dot product, and
// |q·k| ≤ ‖q‖‖k‖ (Cauchy–Schwarz) is why, with Q = K = X and rows of equal norm, each
// row of X Xᵀ is largest (possibly tied) on the diagonal.
//
// Shapes (r x c is rows x cols):
//   row_sums(M)        r x c -> r x 1     Σ_j M_ij
//   col_sums(M)        r x c -> 1 x c     Σ_i M_ij
//   row_max(M)         r x c -> r x 1     max_j M_ij (−∞ when c = 0; NaN entries ignored)
//   row_dots(A, B)     r x c, r x c -> r x 1     a_i · b_i
//   row_norms(M)       r x c -> r x 1     ‖m_i‖₂
//   normalize_rows(M, n)  r x c -> r x c  each row scaled to length n (a zero row stays 0)
//   difference(A, B)   same shapes -> same   A − B
//   diagonal(M)        r x c -> min(r, c) x 1
//   moments(M)         mean, population variance (÷ count), std, min, max of all entries
//   histogram(M, bins, lo, hi)   counts of entries in `bins` equal bins over [lo, hi]
//   dot_geometry(a, b) a, b: 1 x d -> {a·b, ‖a‖, ‖b‖, cos θ, θ in degrees}
//   diagonal_check(S)  n x n -> per row: S_ii, max_{j≠i} S_ij, their difference, S_ii ≥ it
//   softmax_parts(S, axis)       every intermediate of the stable softmax, plus e^S itself
//   softmax_jacobian_diag(P)     P ⊙ (1 − P)
//   softmax_jacobian(p)          1 x n -> n x n, J_ij = p_i (δ_ij − p_j)  (declared in grad.hpp)
//   scaling_effect(S, f)         softmax and its gradient before and after S * f
//   score_scale(d_k)             √d_k and 1/√d_k
//   sample_dot_products(d_k, count, seed)   the variance experiment
//
// Errors: ShapeError naming both shapes for mismatched operands; ValueError for an
// empty input where a statistic is asked, a non-finite or non-positive factor, bins
// outside [1, 10000], lo >= hi, d_k = 0 or count = 0; SizeError past kMaxElements.
#pragma once

#include <cstdint>
#include <vector>

#include "attn/attention.hpp"
#include "attn/grad.hpp"  // softmax_jacobian
#include "attn/matrix.hpp"

namespace attn {

Matrix row_sums(ConstMatrixView M);
Matrix col_sums(ConstMatrixView M);
Matrix row_max(ConstMatrixView M);
Matrix row_dots(ConstMatrixView A, ConstMatrixView B);
Matrix row_norms(ConstMatrixView M);
Matrix normalize_rows(ConstMatrixView M, float norm = 1.0f);
Matrix difference(ConstMatrixView A, ConstMatrixView B);
Matrix diagonal(ConstMatrixView M);

// Statistics of every entry of M, accumulated in double. NaN or ±∞ entries make the
// sums non-finite (they are not skipped). ValueError for an empty M.
struct Moments {
    std::size_t count = 0;
    double sum = 0, mean = 0;
    double variance = 0;  // population variance: Σ (x − mean)² / count
    double stddev = 0;    // √variance
    double min = 0, max = 0;
};
Moments moments(ConstMatrixView M);

// bins equal-width bins over [lo, hi]; bin k is [edges[k], edges[k+1]), the last bin
// also takes x = hi. Entries outside are counted in below / above, NaN in non_finite
// (±∞ count as below / above).
struct Histogram {
    double lo = 0, hi = 0;
    std::vector<double> edges;        // bins + 1
    std::vector<std::size_t> counts;  // bins
    std::size_t below = 0, above = 0, non_finite = 0;
};
Histogram histogram(ConstMatrixView M, std::size_t bins, double lo, double hi);

// The dot product two ways: Σ a_i b_i and ‖a‖‖b‖cos θ. When a norm is 0 the angle is
// undefined: cos and degrees are NaN. ShapeError unless a and b are both 1 x d.
struct DotGeometry {
    double dot = 0, norm_a = 0, norm_b = 0, cos = 0, degrees = 0;
};
DotGeometry dot_geometry(ConstMatrixView a, ConstMatrixView b);

// For a square score matrix S (e.g. X Xᵀ): per row i the diagonal S_ii, the largest
// other entry of the row (−∞ for a 1 x 1 S), margin = S_ii − that, and holds = 1 when
// S_ii ≥ every other entry up to rel_tol · max(1, |S_ii|) (float rounding), else 0.
// Ties count as holding (repeated tokens give equal rows). ShapeError unless square.
struct DiagonalCheck {
    Matrix diagonal, off_max, margin, holds;  // each n x 1
};
DiagonalCheck diagonal_check(ConstMatrixView S, float rel_tol = 1e-6f);

// The stable softmax of attention.hpp, one intermediate at a time, along `axis`
// (Rows: each row; Cols: each column, the wrong-axis demo). For Rows, max/sums are
// r x 1; for Cols, 1 x c.
//   max       the largest entry of each row
//   shifted   S − max                              (−∞ stays −∞; a fully masked row stays −∞)
//   exp       e^{S − max}                           (what the core exponentiates)
//   sums      Σ e^{S − max}
//   exp_raw   e^{S} itself, as printed by hand     (+∞ where S > ~88.72, the float limit)
//   sums_raw  Σ e^{S}                               (+∞ when it overflows)
//   weights   softmax(S, axis), identical to attn::softmax
// weights = exp / sums = exp_raw / sums_raw whenever the latter are finite and sums > 0.
struct SoftmaxParts {
    Matrix max, shifted, exp, sums, exp_raw, sums_raw, weights;
};
SoftmaxParts softmax_parts(ConstMatrixView S, Axis axis = Axis::Rows);

// ∂p_i/∂s_i = p_i (1 − p_i), entry by entry (any shape; computed in double).
Matrix softmax_jacobian_diag(ConstMatrixView P);
// The full Jacobian of one softmax row, softmax_jacobian(p), is declared in grad.hpp.

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
// seed) gives the same numbers; a larger count extends a smaller one.
struct DotProductSample {
    std::size_t d_k = 0, count = 0;
    std::uint64_t seed = 0;
    Matrix dots;     // count x 1: q_s · k_s
    Matrix scaled;   // count x 1: q_s · k_s / √d_k
    Moments raw, normalized;
    double expected_variance = 0;  // d_k: the variance q·k has in theory
};
DotProductSample sample_dot_products(std::size_t d_k, std::size_t count, std::uint64_t seed);

}  // namespace attn

// Scalar oracles for the reductions above that run on xsimd kernels (tests only).
namespace attn::reference {
Matrix row_sums(ConstMatrixView M);
Matrix col_sums(ConstMatrixView M);
Matrix row_max(ConstMatrixView M);
Matrix row_dots(ConstMatrixView A, ConstMatrixView B);
Matrix row_norms(ConstMatrixView M);
SoftmaxParts softmax_parts(ConstMatrixView S, Axis axis = Axis::Rows);
}  // namespace attn::reference

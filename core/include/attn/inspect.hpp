// The numbers the page shows beside its figures: reductions and checks of an attention
// result (row and column sums, argmax, "same rows, reordered", the convex hull the output of
// a weighted sum cannot leave), statistics of the scores, the geometry of the dot product,
// the softmax's intermediates and gradient, and the sampling experiment behind the 1/√d_k
// scale. Small helpers, not kernels: they run on a handful of numbers (the reductions use
// the xsimd kernels anyway).
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
// Shapes (r x c is rows x cols), each written again at its declaration below:
//   row_sums, row_max, row_argmax, row_norms   r x c -> r x 1
//   col_sums                                   r x c -> 1 x c
//   row_dots(A, B)                             r x c, r x c -> r x 1
//   normalize_rows, normalize_weights          r x c -> r x c
//   difference, add                            same shapes -> same
//   max_abs_diff                               same shapes -> a number
//   diagonal                                   r x c -> min(r, c) x 1
//   permute_rows(M, perm)                      r x c, r indices -> r x c
//   column_range                               r x c -> 2 x c
//   moments, histogram                         any -> statistics
//   dot_geometry(a, b), convex_hull, hull_distance, diagonal_check   vectors and points
//   softmax_parts, softmax_jacobian_diag, scaling_effect   as softmax: r x c -> r x c (+ r x 1)
//   score_scale(d_k), sample_dot_products(d_k, count, seed, first)
//   (softmax_jacobian(p), 1 x n -> n x n, is declared in grad.hpp.)
//
// Errors: ShapeError naming both shapes for mismatched operands (and points that are not
// 2 columns wide); ValueError for an empty input where a statistic is asked, an empty
// matrix for column_range or row_argmax columns, a non-finite or non-positive factor,
// bins outside [1, 10000], lo >= hi, d_k = 0 or count = 0, a perm that is not a permutation
// of 0..r−1, a negative, NaN or infinite entry or a zero row sum in normalize_weights,
// non-finite points or no points for the hull; SizeError past kMaxElements.
// The scalar oracles of the kernel-backed ones are in reference.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/attention.hpp"
#include "attn/matrix.hpp"

namespace attn {

// ---- reductions and element-wise helpers (xsimd kernels where they pay) ----------------

// Σ_j M_ij, r x 1. Every row of softmax weights sums to 1.
Matrix row_sums(ConstMatrixView M);
// Σ_i M_ij, 1 x c. For weights P (T_q x T_k) a column sum lies in [0, T_q]: 0 when no query
// looks at that key, T_q when every query looks only at it; the column sums add up to T_q.
Matrix col_sums(ConstMatrixView M);
// max_j M_ij, r x 1 (−∞ for a row without entries; NaN entries ignored).
Matrix row_max(ConstMatrixView M);
// Index of each row's largest entry (the first on ties; NaN never wins), as a float, r x 1.
Matrix row_argmax(ConstMatrixView M);
// a_i · b_i for each row, r x 1.
Matrix row_dots(ConstMatrixView A, ConstMatrixView B);
// ‖m_i‖₂, r x 1.
Matrix row_norms(ConstMatrixView M);
// Each row scaled to length `norm` (a zero row stays zero).
Matrix normalize_rows(ConstMatrixView M, float norm = 1.0f);
// Each row divided by its sum, so rows sum to 1 (a learner's raw weights made convex).
Matrix normalize_weights(ConstMatrixView W);
// A − B and A + B (e.g. embeddings + positional encoding), same shapes.
Matrix difference(ConstMatrixView A, ConstMatrixView B);
Matrix add(ConstMatrixView A, ConstMatrixView B);
// max |A(i, j) − B(i, j)|: 0 for empty matrices, NaN when either holds a NaN; equal
// infinities differ by 0, others by +∞.
float max_abs_diff(ConstMatrixView A, ConstMatrixView B);
// M_ii, min(r, c) x 1.
Matrix diagonal(ConstMatrixView M);
// Row i of the result is row perm[i] of M (perm: a permutation of 0..r−1).
Matrix permute_rows(ConstMatrixView M, const std::vector<std::size_t>& perm);
// 2 x c: row 0 each column's minimum, row 1 its maximum (r >= 1).
Matrix column_range(ConstMatrixView M);

// ---- statistics --------------------------------------------------------------------------

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

// The most bins histogram() makes.
inline constexpr std::size_t kMaxHistogramBins = 10000;

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

// ---- geometry ----------------------------------------------------------------------------

// The dot product two ways: Σ a_i b_i and ‖a‖‖b‖cos θ. When a norm is 0 the angle is
// undefined: cos and degrees are NaN. ShapeError unless a and b are both 1 x d.
struct DotGeometry {
    double dot = 0, norm_a = 0, norm_b = 0, cos = 0, degrees = 0;
};
DotGeometry dot_geometry(ConstMatrixView a, ConstMatrixView b);

// The convex hull of n points (n x 2, one point per row): its vertices' indices in
// counter-clockwise order, starting at the lowest x (then lowest y); points inside or on an
// edge and repeated points are left out. Andrew's monotone chain (A. M. Andrew, "Another
// efficient algorithm for convex hulls in two dimensions", IPL 9(5), 1979).
std::vector<std::size_t> convex_hull(ConstMatrixView points);
// The Euclidean distance from the point p (1 x 2) to the convex hull of points (n x 2,
// n >= 1): 0 inside or on the boundary. A degenerate hull (one point, or all on a line) is
// that point or segment. The output of a weighted sum with convex weights cannot leave the
// hull of its Values.
double hull_distance(ConstMatrixView point, ConstMatrixView points);

// For a square score matrix S (e.g. X Xᵀ): per row i the diagonal S_ii, the largest
// other entry of the row (−∞ for a 1 x 1 S), margin = S_ii − that, and holds = 1 when
// S_ii ≥ every other entry up to rel_tol · max(1, |S_ii|) (float rounding), else 0.
// Ties count as holding (repeated tokens give equal rows). ShapeError unless square.
struct DiagonalCheck {
    Matrix diagonal, off_max, margin, holds;  // each n x 1
};
DiagonalCheck diagonal_check(ConstMatrixView S, float rel_tol = 1e-6f);

// ---- the softmax's intermediates and gradient, the scaling experiment --------------------

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
// (A fully masked row: max −∞, shifted = the row itself, exp 0 and sums 0; a NaN or +∞ in a
// row makes its sums NaN, and its weights, as in softmax.) The same kernel as softmax
// (core/src/kernels/softmax.hpp).
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

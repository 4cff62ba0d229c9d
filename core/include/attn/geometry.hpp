// The geometry of attention's dot products and of its outputs: q·k computed two ways
// (Σ q_i k_i and ‖q‖‖k‖cos θ), the check that with Q = K = X each score row is largest on
// the diagonal, and the convex hull that the output of a weighted sum with convex weights
// cannot leave (with a point's distance to it).
//
// Shapes (each written again at its declaration below):
//   dot_geometry(a, b)          1 x d, 1 x d -> DotGeometry (numbers)
//   diagonal_check(S)           n x n -> DiagonalCheck (four n x 1)
//   convex_hull(points)         n x 2 -> vertex indices
//   hull_distance(p, points)    1 x 2, n x 2 -> a distance
//
// Errors: ShapeError naming the shapes for vectors that are not both 1 x d, a non-square S,
// points that are not 2 columns wide or p that is not 1 x 2; ValueError for a negative or
// non-finite rel_tol, non-finite points or no points for the hull.
// Sources: q·k = ‖q‖‖k‖cos θ is the geometric form of the dot product, and |q·k| ≤ ‖q‖‖k‖
// (Cauchy–Schwarz) is why, with Q = K = X and rows of equal norm, each row of X Xᵀ is
// largest (possibly tied) on the diagonal. The hull: Andrew's monotone chain (A. M.
// Andrew, "Another efficient algorithm for convex hulls in two dimensions", IPL 9(5), 1979).
#pragma once

#include <cstddef>
#include <vector>

#include "attn/matrix.hpp"

namespace attn {

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

}  // namespace attn

// Reading an attention result: the checks and small transforms the explorable shows
// beside its figures (row and column sums, symmetry, "same rows, reordered", the
// convex hull the output of a weighted sum cannot leave). Plain scalar code: these are
// not kernels and run on a handful of numbers.
//
// Shapes (r, c, n are sizes):
//   (row_sums and col_sums are in analysis.hpp. For an attention weight matrix P
//   (T_q x T_k, rows softmax-normalised) every row sums to 1, while a column sum can be
//   anything in [0, T_q]: 0 when no query looks at that key, T_q when every query looks
//   only at it. The column sums add up to T_q.)
//   row_argmax(M)           M: r x c  ->  r x 1     index of each row's largest entry
//                                                   (the first one on ties), as a float
//   add(A, B)               r x c, r x c -> r x c   A + B (e.g. embeddings + positional encoding)
//   permute_rows(M, perm)   M: r x c, perm: r indices -> r x c
//                                                   row i of the result is row perm[i] of M
//   max_abs_diff(A, B)      r x c, r x c -> float   max |A(i,j) − B(i,j)|; 0 for empty matrices;
//                                                   NaN when an entry of either is NaN; equal
//                                                   infinities differ by 0, others by +∞
//   normalize_weights(W)    r x c -> r x c          each row divided by its sum, so rows sum to 1
//                                                   (a learner's raw weights made convex)
//   column_range(M)         r x c (r >= 1) -> 2 x c row 0: each column's minimum, row 1: maximum
//   convex_hull(P)          P: n x 2 points -> the indices of the hull's vertices in
//                           counter-clockwise order, starting at the lowest x (then lowest y);
//                           points inside or on an edge and repeated points are left out.
//                           Andrew's monotone chain (A. M. Andrew, "Another efficient algorithm
//                           for convex hulls in two dimensions", IPL 9(5), 1979).
//   hull_distance(p, P)     p: 1 x 2, P: n x 2 (n >= 1) -> the Euclidean distance from p to the
//                           convex hull of P's rows: 0 inside or on the boundary. A degenerate
//                           hull (one point, or all points on a line) is that point or segment.
//   sinusoid_angles(T, d)   -> T x d  the argument pos / 10000^(2i/d) of column 2i and 2i+1 of
//                           sinusoidal_encoding(T, d) (Vaswani et al. 2017, section 3.5), so a
//                           page can show sin/cos of a number the core computed.
//
// Errors: ShapeError naming both shapes when operands do not fit (add, max_abs_diff,
// permute_rows with a perm of the wrong length, convex_hull/hull_distance on points that
// are not 2 columns wide); ValueError for a perm that is not a permutation of 0..r−1, a
// negative, NaN or infinite entry or a zero row sum in normalize_weights, non-finite points
// or an empty point set for the hull, an empty matrix for column_range/row_argmax columns,
// and d = 0 in sinusoid_angles.
#pragma once

#include <cstddef>
#include <vector>

#include "attn/matrix.hpp"

namespace attn {

Matrix row_argmax(ConstMatrixView M);
Matrix add(ConstMatrixView A, ConstMatrixView B);
Matrix permute_rows(ConstMatrixView M, const std::vector<std::size_t>& perm);
float max_abs_diff(ConstMatrixView A, ConstMatrixView B);
Matrix normalize_weights(ConstMatrixView W);
Matrix column_range(ConstMatrixView M);
std::vector<std::size_t> convex_hull(ConstMatrixView points);
double hull_distance(ConstMatrixView point, ConstMatrixView points);
Matrix sinusoid_angles(std::size_t T, std::size_t d, double base = 10000.0);

}  // namespace attn

// Reductions of a matrix and the element-wise helpers that go with them: per-row and
// per-column sums, maxima, argmax, dot products and norms (on the xsimd kernels), rows
// rescaled or made convex, differences, sums, the diagonal, a row permutation, each
// column's range. Checks of an attention result are built from them: every row of
// softmax weights sums to 1, a column sum of P (T_q x T_k) lies in [0, T_q], "the same rows,
// reordered" is permute_rows and max_abs_diff.
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
//
// Errors: ShapeError naming both shapes for mismatched operands; ValueError for an empty
// matrix for column_range or row_argmax columns, a non-finite or negative target norm, a
// perm that is not a permutation of 0..r−1, a negative, NaN or infinite entry or a zero row
// sum in normalize_weights.
// Sources: none beyond the definitions; the xsimd kernels are core/src/kernels/simd.hpp.
// The scalar oracles of the kernel-backed ones (row_sums, col_sums, row_max, row_dots,
// row_norms) are in reference.hpp, as for every stage.
#pragma once

#include <cstddef>
#include <vector>

#include "attn/matrix.hpp"

namespace attn {

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

}  // namespace attn

// Dense matrix products on attn::Matrix, vectorised with xsimd.
//
// Shapes (m, k, n are sizes, not indices):
//   matmul(A, B)     A: m x k, B: k x n  ->  m x n      C = A B
//   matmul_bt(A, B)  A: m x k, B: n x k  ->  m x n      C = A Bᵀ  (no transpose is stored)
//   transpose(A)     A: m x n            ->  n x m
//
// Errors: ShapeError naming both shapes when the inner dimensions differ.
// Non-finite inputs propagate by IEEE-754 rules (NaN in a row of A reaches that row of C).
#pragma once

#include "attn/matrix.hpp"

namespace attn {

Matrix matmul(ConstMatrixView A, ConstMatrixView B);
Matrix matmul_bt(ConstMatrixView A, ConstMatrixView B);
Matrix transpose(ConstMatrixView A);

}  // namespace attn

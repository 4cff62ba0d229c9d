// Internal matrix-multiply kernels on views (row-major, any stride).
//   gemm_nn(A, B, C)   C = A B    A: m x k, B: k x n, C: m x n   (C overwritten)
//   gemm_nt(A, B, C)   C = A Bᵀ   A: m x k, B: n x k, C: m x n   (C overwritten)
// Shapes are the caller's responsibility (the public functions check them).
#pragma once

#include "attn/matrix.hpp"

namespace attn::kernels {

void gemm_nn(ConstMatrixView A, ConstMatrixView B, MatrixView C);
void gemm_nt(ConstMatrixView A, ConstMatrixView B, MatrixView C);

}  // namespace attn::kernels

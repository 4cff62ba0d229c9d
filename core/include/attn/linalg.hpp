// Dense matrix products on attn::Matrix, vectorised with xsimd, and which instruction set
// the core's kernels were compiled for.
//
// Shapes (m, k, n are sizes, not indices):
//   matmul(A, B)     A: m x k, B: k x n  ->  m x n      C = A B
//   matmul_bt(A, B)  A: m x k, B: n x k  ->  m x n      C = A Bᵀ  (no transpose is stored)
//   transpose(A)     A: m x n            ->  n x m
//   simd_name()      e.g. "avx2+fma" natively, "wasm-simd128" under Emscripten (xsimd's SSE4.2
//                    backend lowered to WebAssembly SIMD128 by -msimd128 -msse4.2),
//                    "wasm-relaxed-simd" in the build whose products use relaxed SIMD's
//                    multiply-add, "scalar" in the build for engines without SIMD
//
// Errors: ShapeError naming both shapes when the inner dimensions differ.
// Non-finite inputs propagate by IEEE-754 rules (NaN in a row of A reaches that row of C).
#pragma once

#include <string>

#include "attn/matrix.hpp"

namespace attn {

// C = A B (packed, register-blocked GEMM: core/src/kernels/gemm.hpp).
Matrix matmul(ConstMatrixView A, ConstMatrixView B);
// C = A Bᵀ, without storing Bᵀ.
Matrix matmul_bt(ConstMatrixView A, ConstMatrixView B);
// Aᵀ.
Matrix transpose(ConstMatrixView A);
// The instruction set the kernels run on.
std::string simd_name();

}  // namespace attn

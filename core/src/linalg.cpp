#include "attn/linalg.hpp"

#include <xsimd/xsimd.hpp>

#include "kernels/gemm.hpp"

namespace attn {

Matrix matmul(ConstMatrixView A, ConstMatrixView B) {
    if (A.cols() != B.rows())
        throw ShapeError("matmul: A is " + A.shape() + " and B is " + B.shape() +
                         "; A's columns must equal B's rows");
    Matrix C(A.rows(), B.cols());
    kernels::gemm_nn(A, B, C.view());
    return C;
}

Matrix matmul_bt(ConstMatrixView A, ConstMatrixView B) {
    if (A.cols() != B.cols())
        throw ShapeError("matmul_bt: A is " + A.shape() + " and B is " + B.shape() +
                         "; A and B must have the same number of columns");
    Matrix C(A.rows(), B.rows());
    kernels::gemm_nt(A, B, C.view());
    return C;
}

Matrix transpose(ConstMatrixView A) {
    Matrix T(A.cols(), A.rows());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < A.cols(); ++j) T(j, i) = A(i, j);
    return T;
}

std::string simd_name() {
#if defined(ATTN_RELAXED_SIMD)
    return "wasm-relaxed-simd";
#elif defined(__wasm_simd128__)
    return "wasm-simd128";
#else
    return xsimd::default_arch::name();
#endif
}

}  // namespace attn

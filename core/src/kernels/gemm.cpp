#include "kernels/gemm.hpp"

#include <algorithm>

#include "kernels/simd.hpp"

namespace attn::kernels {

void gemm_nn(ConstMatrixView A, ConstMatrixView B, MatrixView C) {
    const std::size_t m = A.rows(), k = A.cols(), n = B.cols();
    for (std::size_t i = 0; i < m; ++i) {
        float* c = C.row(i);
        std::fill_n(c, n, 0.0f);
        const float* a = A.row(i);
        for (std::size_t p = 0; p < k; ++p) axpy(a[p], B.row(p), c, n);
    }
}

void gemm_nt(ConstMatrixView A, ConstMatrixView B, MatrixView C) {
    const std::size_t m = A.rows(), k = A.cols(), n = B.rows();
    for (std::size_t i = 0; i < m; ++i) {
        const float* a = A.row(i);
        float* c = C.row(i);
        for (std::size_t j = 0; j < n; ++j) c[j] = dot(a, B.row(j), k);
    }
}

}  // namespace attn::kernels

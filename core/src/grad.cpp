// The public backward stages (grad.hpp): thin wrappers around the templates of
// training/stages.hpp, instantiated for float (attn) and double (attn::f64), and the
// double forward stages the gradient checks differentiate numerically.
#include "attn/grad.hpp"

#include <cmath>
#include <limits>

#include "kernels/softmax.hpp"
#include "training/stages.hpp"

namespace attn {

namespace d = detail;
using f64::MatrixD;

MatmulGrads matmul_backward(ConstMatrixView A, ConstMatrixView B, ConstMatrixView dC) {
    return d::matmul_backward<Matrix>(A, B, dC);
}
MatmulGrads matmul_bt_backward(ConstMatrixView A, ConstMatrixView B, ConstMatrixView dC) {
    return d::matmul_bt_backward<Matrix>(A, B, dC);
}
Matrix scale_backward(ConstMatrixView dY, float factor) { return d::scale_backward<Matrix>(dY, factor); }
Matrix add_mask_backward(ConstMatrixView M, ConstMatrixView dY) { return d::add_mask_backward<Matrix>(M, dY); }
Matrix softmax_backward(ConstMatrixView P, ConstMatrixView dP) { return d::softmax_backward<Matrix>(P, dP); }
Matrix softmax_jacobian(ConstMatrixView p) { return d::softmax_jacobian<Matrix>(p); }
Matrix softmax_jacobian_diag(ConstMatrixView P) {
    Matrix out(P.rows(), P.cols());
    for (std::size_t i = 0; i < P.rows(); ++i)
        for (std::size_t j = 0; j < P.cols(); ++j) {
            const double p = P(i, j);
            out(i, j) = float(p * (1.0 - p));
        }
    return out;
}
MatmulGrads weighted_sum_backward(ConstMatrixView P, ConstMatrixView V, ConstMatrixView dO) {
    return d::weighted_sum_backward<Matrix>(P, V, dO);
}
Matrix dropout_backward(ConstMatrixView dY, float rate, std::uint64_t seed) {
    return d::dropout_backward<Matrix>(dY, rate, seed);
}
Matrix split_heads_backward(const std::vector<Matrix>& dHeads) { return d::concat<Matrix>(dHeads); }
std::vector<Matrix> concat_heads_backward(ConstMatrixView dC, std::size_t heads) {
    return d::split<Matrix>(dC, heads);
}
Matrix bias_backward(ConstMatrixView dY) { return d::bias_backward<Matrix>(dY); }
Matrix relu(ConstMatrixView X) { return d::relu<Matrix>(X); }
Matrix relu_backward(ConstMatrixView X, ConstMatrixView dY) { return d::relu_backward<Matrix>(X, dY); }
Matrix layer_norm(ConstMatrixView X, ConstMatrixView gain, ConstMatrixView bias, float eps) {
    return d::layer_norm<Matrix>(X, gain, bias, eps);
}
LayerNormGrads layer_norm_backward(ConstMatrixView X, ConstMatrixView gain, ConstMatrixView dY, float eps) {
    auto g = d::layer_norm_backward<Matrix>(X, gain, dY, eps);
    return {std::move(g.dX), std::move(g.dgain), std::move(g.dbias)};
}
Matrix embedding(const std::vector<int>& tokens, ConstMatrixView E) { return d::embedding<Matrix>(tokens, E); }
Matrix embedding_backward(const std::vector<int>& tokens, ConstMatrixView dX, std::size_t vocab) {
    return d::embedding_backward<Matrix>(tokens, dX, vocab);
}
CrossEntropy cross_entropy(ConstMatrixView logits, const std::vector<int>& targets) {
    return d::cross_entropy<Matrix>(logits, targets);
}
AttentionGrads attention_backward(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const Trace& trace,
                                  ConstMatrixView dO, const AttentionOptions& options) {
    return d::attention_backward<Matrix>(Q, K, V, trace, dO, options);
}

namespace f64 {

MatrixD matmul(const MatrixD& A, const MatrixD& B) {
    if (A.cols() != B.rows())
        throw ShapeError("matmul: A is " + A.shape() + " and B is " + B.shape() + "; A's columns must equal B's rows");
    MatrixD C(A.rows(), B.cols());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t k = 0; k < A.cols(); ++k) {
            const double a = A(i, k);
            for (std::size_t j = 0; j < B.cols(); ++j) C(i, j) += a * B(k, j);
        }
    return C;
}

MatrixD matmul_bt(const MatrixD& A, const MatrixD& B) {
    if (A.cols() != B.cols())
        throw ShapeError("matmul_bt: A is " + A.shape() + " and B is " + B.shape() +
                         "; A and B must have the same number of columns");
    MatrixD C(A.rows(), B.rows());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < B.rows(); ++j) {
            double s = 0;
            for (std::size_t k = 0; k < A.cols(); ++k) s += A(i, k) * B(j, k);
            C(i, j) = s;
        }
    return C;
}

MatrixD softmax(const MatrixD& S) {
    MatrixD P = S;
    for (std::size_t i = 0; i < P.rows(); ++i) kernels::softmax_row(P.row(i), P.cols());
    return P;
}

MatrixD dropout(const MatrixD& P, float rate, std::uint64_t seed) {
    check_dropout_rate(rate);
    const double keep_scale = 1.0 / (1.0 - double(rate));
    MatrixD out(P.rows(), P.cols());
    for (std::size_t i = 0; i < P.rows(); ++i)
        for (std::size_t j = 0; j < P.cols(); ++j)
            out(i, j) = dropout_keep(seed, i, j, rate) ? P(i, j) * keep_scale : 0.0;
    return out;
}

MatrixD embedding(const std::vector<int>& tokens, const MatrixD& E) { return d::embedding<MatrixD>(tokens, E); }
MatrixD relu(const MatrixD& X) { return d::relu<MatrixD>(X); }
MatrixD layer_norm(const MatrixD& X, const MatrixD& gain, const MatrixD& bias, double eps) {
    return d::layer_norm<MatrixD>(X, gain, bias, eps);
}

MatmulGradsD matmul_backward(const MatrixD& A, const MatrixD& B, const MatrixD& dC) {
    return d::matmul_backward<MatrixD>(A, B, dC);
}
MatmulGradsD matmul_bt_backward(const MatrixD& A, const MatrixD& B, const MatrixD& dC) {
    return d::matmul_bt_backward<MatrixD>(A, B, dC);
}
MatrixD scale_backward(const MatrixD& dY, double factor) { return d::scale_backward<MatrixD>(dY, factor); }
MatrixD add_mask_backward(const MatrixD& M, const MatrixD& dY) { return d::add_mask_backward<MatrixD>(M, dY); }
MatrixD softmax_backward(const MatrixD& P, const MatrixD& dP) { return d::softmax_backward<MatrixD>(P, dP); }
MatrixD softmax_jacobian(const MatrixD& p) { return d::softmax_jacobian<MatrixD>(p); }
MatmulGradsD weighted_sum_backward(const MatrixD& P, const MatrixD& V, const MatrixD& dO) {
    return d::weighted_sum_backward<MatrixD>(P, V, dO);
}
MatrixD dropout_backward(const MatrixD& dY, float rate, std::uint64_t seed) {
    return d::dropout_backward<MatrixD>(dY, rate, seed);
}
MatrixD split_heads_backward(const std::vector<MatrixD>& dHeads) { return d::concat<MatrixD>(dHeads); }
std::vector<MatrixD> concat_heads_backward(const MatrixD& dC, std::size_t heads) {
    return d::split<MatrixD>(dC, heads);
}
MatrixD bias_backward(const MatrixD& dY) { return d::bias_backward<MatrixD>(dY); }
MatrixD relu_backward(const MatrixD& X, const MatrixD& dY) { return d::relu_backward<MatrixD>(X, dY); }
MatrixD embedding_backward(const std::vector<int>& tokens, const MatrixD& dX, std::size_t vocab) {
    return d::embedding_backward<MatrixD>(tokens, dX, vocab);
}
LayerNormGradsD layer_norm_backward(const MatrixD& X, const MatrixD& gain, const MatrixD& dY, double eps) {
    auto g = d::layer_norm_backward<MatrixD>(X, gain, dY, eps);
    return {std::move(g.dX), std::move(g.dgain), std::move(g.dbias)};
}
CrossEntropyD cross_entropy(const MatrixD& logits, const std::vector<int>& targets) {
    return d::cross_entropy<MatrixD>(logits, targets);
}
AttentionGradsD attention_backward(const MatrixD& Q, const MatrixD& K, const MatrixD& V, const TraceD& trace,
                                   const MatrixD& dO, const AttentionOptionsD& options) {
    return d::attention_backward<MatrixD>(Q, K, V, trace, dO, options);
}

}  // namespace f64

namespace detail {
MatrixD mm_at(const MatrixD& A, const MatrixD& B) {
    if (A.rows() != B.rows())
        throw ShapeError("matmul_at: A is " + A.shape() + " and B is " + B.shape() + "; Aᵀ B needs equal row counts");
    MatrixD C(A.cols(), B.cols());
    for (std::size_t k = 0; k < A.rows(); ++k)
        for (std::size_t i = 0; i < A.cols(); ++i) {
            const double a = A(k, i);
            for (std::size_t j = 0; j < B.cols(); ++j) C(i, j) += a * B(k, j);
        }
    return C;
}
}  // namespace detail

}  // namespace attn

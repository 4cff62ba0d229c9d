// Backward passes of every forward stage, for the live-training chapter.
//
// Each function takes the forward inputs (or the saved forward output) and the gradient
// of a scalar loss L with respect to the stage's output ("upstream", d·), and returns
// the gradient with respect to the stage's inputs (reverse-mode differentiation;
// Rumelhart, Hinton, Williams 1986). Shapes are those of the forward (attention.hpp,
// linalg.hpp, multihead.hpp):
//
//   matmul_backward(A, B, dC)          C = A B      A: m x k, B: k x n, dC: m x n
//                                      -> dA = dC Bᵀ (m x k),  dB = Aᵀ dC (k x n)
//   matmul_bt_backward(A, B, dC)       C = A Bᵀ     A: m x k, B: n x k, dC: m x n
//                                      -> dA = dC B (m x k),   dB = dCᵀ A (n x k)
//                                      (the scores S = Q Kᵀ: dQ = dS K, dK = dSᵀ Q)
//   scale_backward(dY, f)              Y = f X      -> dX = f dY
//   add_mask_backward(M, dY)           Y = S + M    -> dS = dY where M is finite, 0 where
//                                      M = −∞ (there Y = −∞ whatever S is)
//   softmax_backward(P, dP)            P = softmax(Z) by rows, P and dP: r x c
//                                      -> dZ_ij = P_ij (dP_ij − Σ_k P_ik dP_ik)
//                                      This is the full vector-Jacobian product with the
//                                      row Jacobian J = diag(p) − p pᵀ (symmetric), not only
//                                      its diagonal p(1 − p): every weight of a row depends
//                                      on every logit of the row.
//   softmax_jacobian(p)                p: 1 x n (one row of P) -> J: n x n, J = diag(p) − p pᵀ
//   softmax_jacobian_diag(P)           P: any shape -> same shape, J's diagonal p_ij (1 − p_ij)
//   weighted_sum_backward(P, V, dO)    O = P V      -> dP = dO Vᵀ (T_q x T_k), dV = Pᵀ dO
//   dropout_backward(dY, rate, seed)   Y = dropout(X) -> dX_ij = dY_ij / (1 − rate) where
//                                      attn::dropout_keep(seed, i, j, rate), else 0
//                                      (the same seeded mask as the forward)
//   split_heads_backward(dHeads)       the heads' gradients side by side (= concat_heads)
//   concat_heads_backward(dC, h)       dC cut back into h column blocks (= split_heads)
//   bias_backward(dY)                  Y = X + 1 bᵀ (b added to every row) -> db = Σ_rows dY, 1 x n
//   relu_backward(X, dY)               Y = max(X, 0) -> dX = dY where X > 0, else 0
//   layer_norm(X, g, b, eps)           Y = LayerNorm(X) row by row (Ba, Kiros & Hinton 2016):
//                                      y_ij = g_j x̂_ij + b_j, x̂_ij = (x_ij − μ_i)/√(σ_i² + ε),
//                                      μ_i, σ_i² the row's mean and population variance; g, b: 1 x n
//   layer_norm_backward(X, g, dY, eps) -> dX_ij = (d̂_ij − mean_k d̂_ik − x̂_ij mean_k d̂_ik x̂_ik)
//                                      / √(σ_i² + ε) with d̂ = dY ⊙ g; dg = Σ_rows dY ⊙ x̂,
//                                      db = Σ_rows dY (statistics recomputed from X)
//   embedding_backward(tokens, dX, V)  X = E[tokens] (row t of X is row tokens[t] of E)
//                                      -> dE (V x d): row v = Σ of the rows t with tokens[t] = v
//   cross_entropy(logits, targets)     logits: N x V, targets: N entries in [0, V) or −1
//                                      (position not scored). L = mean over the scored rows of
//                                      −log softmax(logits_t)[target_t], computed with the
//                                      log-sum-exp shift; dlogits_t = (softmax(logits_t) −
//                                      onehot(target_t)) / count, 0 for unscored rows.
//   attention_backward(Q, K, V, trace, dO, options)
//                                      one head of attention.hpp's attention(): the stages
//                                      above chained in reverse, O = dropout(softmax(scale·QKᵀ
//                                      + M)) V -> dQ, dK, dV and dLogits (= ∂L/∂Z, the
//                                      gradient that reaches the scores through the softmax)
//
// Every function exists twice: in attn (float, the fast path the page trains with; its
// products go through attn::matmul / attn::matmul_bt, the xsimd kernels) and in
// attn::f64 (double, plain loops, with the double forward stages beside it). Both are
// one template (core/src/training/stages.hpp), so the gradient checks, which compare the
// double path with central finite differences, check the very code the float path runs.
//
// Errors: ShapeError naming both shapes when operands do not fit; ValueError for a
// non-finite scale factor, a LayerNorm eps that is not positive, a dropout rate outside
// [0, 1), a target outside [−1, V), a token outside [0, V), or cross_entropy with no scored
// row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/attention.hpp"
#include "attn/forward.hpp"
#include "attn/matrix.hpp"

namespace attn {

struct MatmulGrads {
    Matrix dA, dB;
};

struct AttentionGrads {
    Matrix dQ, dK, dV;
    Matrix dLogits;  // ∂L/∂Z with Z = scale·QKᵀ + M, the softmax input (T_q x T_k)
};

struct LayerNormGrads {
    Matrix dX, dgain, dbias;  // r x n, 1 x n, 1 x n
};

struct CrossEntropy {
    double loss = 0;        // mean over the scored rows
    std::size_t count = 0;  // scored rows
    std::size_t correct = 0;  // scored rows whose largest logit is the target (ties: first)
    Matrix dlogits;         // N x V
};

MatmulGrads matmul_backward(ConstMatrixView A, ConstMatrixView B, ConstMatrixView dC);
MatmulGrads matmul_bt_backward(ConstMatrixView A, ConstMatrixView B, ConstMatrixView dC);
Matrix scale_backward(ConstMatrixView dY, float factor);
Matrix add_mask_backward(ConstMatrixView M, ConstMatrixView dY);
Matrix softmax_backward(ConstMatrixView P, ConstMatrixView dP);
Matrix softmax_jacobian(ConstMatrixView p);
// ∂p_i/∂s_i = p_i (1 − p_i), entry by entry (any shape; computed in double): the diagonal
// of softmax_jacobian, the gradient a single logit passes to its own weight (Goodfellow,
// Bengio, Courville 2016, "Deep Learning", §6.2.2.3).
Matrix softmax_jacobian_diag(ConstMatrixView P);
MatmulGrads weighted_sum_backward(ConstMatrixView P, ConstMatrixView V, ConstMatrixView dO);
Matrix dropout_backward(ConstMatrixView dY, float rate, std::uint64_t seed);
Matrix split_heads_backward(const std::vector<Matrix>& dHeads);
std::vector<Matrix> concat_heads_backward(ConstMatrixView dC, std::size_t heads);
Matrix bias_backward(ConstMatrixView dY);
Matrix relu(ConstMatrixView X);
Matrix relu_backward(ConstMatrixView X, ConstMatrixView dY);
Matrix layer_norm(ConstMatrixView X, ConstMatrixView gain, ConstMatrixView bias, float eps = 1e-5f);
LayerNormGrads layer_norm_backward(ConstMatrixView X, ConstMatrixView gain, ConstMatrixView dY, float eps = 1e-5f);
Matrix embedding(const std::vector<int>& tokens, ConstMatrixView E);
Matrix embedding_backward(const std::vector<int>& tokens, ConstMatrixView dX, std::size_t vocab);
CrossEntropy cross_entropy(ConstMatrixView logits, const std::vector<int>& targets);
// trace must come from attention(Q, K, V, options) with the same options.
AttentionGrads attention_backward(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                                  const Trace& trace, ConstMatrixView dO,
                                  const AttentionOptions& options);

// The double-precision path: the same stages on a plain double matrix, used by the
// gradient checks (central differences need double: with float, rounding noise
// ε·|L|/h swamps the 1e-4 tolerance for any usable step h).
namespace f64 {

struct MatmulGradsD {
    MatrixD dA, dB;
};

struct AttentionGradsD {
    MatrixD dQ, dK, dV, dLogits;
};

struct LayerNormGradsD {
    MatrixD dX, dgain, dbias;
};

struct CrossEntropyD {
    double loss = 0;
    std::size_t count = 0;
    std::size_t correct = 0;
    MatrixD dlogits;
};

// Forward stages in double (the float stages' rules, including −∞ masks and fully masked
// rows; f64::attention, AttentionOptionsD and TraceD are in forward.hpp).
MatrixD matmul(const MatrixD& A, const MatrixD& B);
MatrixD matmul_bt(const MatrixD& A, const MatrixD& B);
MatrixD softmax(const MatrixD& S);
MatrixD dropout(const MatrixD& P, float rate, std::uint64_t seed);
MatrixD embedding(const std::vector<int>& tokens, const MatrixD& E);
MatrixD relu(const MatrixD& X);
MatrixD layer_norm(const MatrixD& X, const MatrixD& gain, const MatrixD& bias, double eps = 1e-5);

// Backward stages in double.
MatmulGradsD matmul_backward(const MatrixD& A, const MatrixD& B, const MatrixD& dC);
MatmulGradsD matmul_bt_backward(const MatrixD& A, const MatrixD& B, const MatrixD& dC);
MatrixD scale_backward(const MatrixD& dY, double factor);
MatrixD add_mask_backward(const MatrixD& M, const MatrixD& dY);
MatrixD softmax_backward(const MatrixD& P, const MatrixD& dP);
MatrixD softmax_jacobian(const MatrixD& p);
MatmulGradsD weighted_sum_backward(const MatrixD& P, const MatrixD& V, const MatrixD& dO);
MatrixD dropout_backward(const MatrixD& dY, float rate, std::uint64_t seed);
MatrixD split_heads_backward(const std::vector<MatrixD>& dHeads);
std::vector<MatrixD> concat_heads_backward(const MatrixD& dC, std::size_t heads);
MatrixD bias_backward(const MatrixD& dY);
MatrixD relu_backward(const MatrixD& X, const MatrixD& dY);
MatrixD embedding_backward(const std::vector<int>& tokens, const MatrixD& dX, std::size_t vocab);
LayerNormGradsD layer_norm_backward(const MatrixD& X, const MatrixD& gain, const MatrixD& dY, double eps = 1e-5);
CrossEntropyD cross_entropy(const MatrixD& logits, const std::vector<int>& targets);
AttentionGradsD attention_backward(const MatrixD& Q, const MatrixD& K, const MatrixD& V,
                                   const TraceD& trace, const MatrixD& dO,
                                   const AttentionOptionsD& options);

}  // namespace f64
}  // namespace attn

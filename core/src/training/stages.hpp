// The backward stages of grad.hpp written once, as templates over the matrix type:
// M = attn::Matrix (float; products through the xsimd kernels) or attn::f64::MatrixD
// (double; plain loops). The public functions in grad.cpp are thin wrappers, so the
// double path checked against finite differences is the code the float path runs.
//
// Inputs are anything with rows(), cols() and operator()(i, j) (ConstMatrixView,
// Matrix, MatrixD); outputs are M.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "attn/dropout.hpp"
#include "attn/grad.hpp"
#include "attn/linalg.hpp"
#include "attn/multihead.hpp"
#include "kernels/checks.hpp"
#include "kernels/simd.hpp"
#include "kernels/softmax.hpp"

namespace attn::detail {

using f64::MatrixD;

template <class M>
using scalar_t = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<M&>()(0, 0))>>;

// The result types of each path.
template <class M>
struct Path;
template <>
struct Path<Matrix> {
    using MatmulGrads = attn::MatmulGrads;
    using AttentionGrads = attn::AttentionGrads;
    using CrossEntropy = attn::CrossEntropy;
    using Trace = attn::Trace;
};
template <>
struct Path<MatrixD> {
    using MatmulGrads = f64::MatmulGradsD;
    using AttentionGrads = f64::AttentionGradsD;
    using CrossEntropy = f64::CrossEntropyD;
    using Trace = f64::TraceD;
};

using kernels::require_same_shape;
using kernels::shape_of;

// ---- products: float through the core's xsimd kernels, double by plain loops ----------
inline Matrix mm(ConstMatrixView A, ConstMatrixView B) { return attn::matmul(A, B); }
inline Matrix mm_bt(ConstMatrixView A, ConstMatrixView B) { return attn::matmul_bt(A, B); }
// Aᵀ B (A: k x m, B: k x n -> m x n): the weight gradients Xᵀ dY of every projection.
// Aᵀ is materialised (k·m copies) so the product runs in the packed GEMM; scattering
// A(k, i)·B.row(k) into C row by row instead kept C (m x n) streaming through the cache
// for every k and took a third of a text-model training step.
inline Matrix mm_at(ConstMatrixView A, ConstMatrixView B) {
    if (A.rows() != B.rows())
        throw ShapeError("matmul_at: A is " + A.shape() + " and B is " + B.shape() + "; Aᵀ B needs equal row counts");
    return attn::matmul(attn::transpose(A), B);
}
inline MatrixD mm(const MatrixD& A, const MatrixD& B) { return f64::matmul(A, B); }
// A view of a float matrix, the matrix itself in double: lets one template pass owning
// results on to functions taking the path's input type without copies.
inline ConstMatrixView view(ConstMatrixView m) { return m; }
inline const MatrixD& view(const MatrixD& m) { return m; }
inline MatrixD mm_bt(const MatrixD& A, const MatrixD& B) { return f64::matmul_bt(A, B); }
MatrixD mm_at(const MatrixD& A, const MatrixD& B);

// ---- the stages -------------------------------------------------------------------------

template <class M, class In>
typename Path<M>::MatmulGrads matmul_backward(const In& A, const In& B, const In& dC) {
    if (A.cols() != B.rows())
        throw ShapeError("matmul_backward: A is " + shape_of(A) + " and B is " + shape_of(B) +
                         "; A's columns must equal B's rows");
    if (dC.rows() != A.rows() || dC.cols() != B.cols())
        throw ShapeError("matmul_backward: dC is " + shape_of(dC) + " but C = A B is " +
                         shape_str(A.rows(), B.cols()));
    return {mm_bt(dC, B), mm_at(A, dC)};
}

template <class M, class In>
typename Path<M>::MatmulGrads matmul_bt_backward(const In& A, const In& B, const In& dC) {
    if (A.cols() != B.cols())
        throw ShapeError("matmul_bt_backward: A is " + shape_of(A) + " and B is " + shape_of(B) +
                         "; A and B must have the same number of columns");
    if (dC.rows() != A.rows() || dC.cols() != B.rows())
        throw ShapeError("matmul_bt_backward: dC is " + shape_of(dC) + " but C = A Bᵀ is " +
                         shape_str(A.rows(), B.rows()));
    return {mm(dC, B), mm_at(dC, A)};
}

template <class M, class In>
M scale_backward(const In& dY, double factor) {
    if (!std::isfinite(factor))
        throw ValueError("scale_backward: the factor must be finite, got " + std::to_string(factor));
    using S = scalar_t<M>;
    M out(dY.rows(), dY.cols());
    for (std::size_t i = 0; i < dY.rows(); ++i)
        for (std::size_t j = 0; j < dY.cols(); ++j) out(i, j) = S(factor) * dY(i, j);
    return out;
}

template <class M, class In>
M add_mask_backward(const In& Mask, const In& dY) {
    require_same_shape("add_mask_backward", Mask, "mask", dY, "dY");
    M out(dY.rows(), dY.cols());
    for (std::size_t i = 0; i < dY.rows(); ++i)
        for (std::size_t j = 0; j < dY.cols(); ++j)
            out(i, j) = Mask(i, j) == -std::numeric_limits<scalar_t<M>>::infinity() ? 0 : dY(i, j);
    return out;
}

template <class M, class In>
M softmax_backward(const In& P, const In& dP) {
    require_same_shape("softmax_backward", P, "P", dP, "dP");
    using S = scalar_t<M>;
    M out(P.rows(), P.cols());
    for (std::size_t i = 0; i < P.rows(); ++i) {
        // (Jᵀ dP)_j = Σ_k (δ_jk p_j − p_j p_k) dP_k = p_j (dP_j − p·dP)
        double dot = 0;
        for (std::size_t k = 0; k < P.cols(); ++k) dot += double(P(i, k)) * double(dP(i, k));
        for (std::size_t j = 0; j < P.cols(); ++j)
            out(i, j) = P(i, j) == 0 ? S(0) : S(double(P(i, j)) * (double(dP(i, j)) - dot));
    }
    return out;
}

template <class M, class In>
M softmax_jacobian(const In& p) {
    if (p.rows() != 1)
        throw ShapeError("softmax_jacobian: p is " + shape_of(p) + "; pass one row of P (1 x n)");
    const std::size_t n = p.cols();
    M J(n, n);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t k = 0; k < n; ++k) J(j, k) = (j == k ? p(0, j) : 0) - p(0, j) * p(0, k);
    return J;
}

template <class M, class In>
typename Path<M>::MatmulGrads weighted_sum_backward(const In& P, const In& V, const In& dO) {
    if (P.cols() != V.rows())
        throw ShapeError("weighted_sum_backward: P is " + shape_of(P) + " and V is " + shape_of(V) +
                         "; P's columns (keys) must equal V's rows (tokens)");
    if (dO.rows() != P.rows() || dO.cols() != V.cols())
        throw ShapeError("weighted_sum_backward: dO is " + shape_of(dO) + " but O = P V is " +
                         shape_str(P.rows(), V.cols()));
    return {mm_bt(dO, V), mm_at(P, dO)};
}

template <class M, class In>
M dropout_backward(const In& dY, float rate, std::uint64_t seed) {
    check_dropout_rate(rate);
    using S = scalar_t<M>;
    const S keep_scale = S(1) / (S(1) - S(rate));
    M out(dY.rows(), dY.cols());
    for (std::size_t i = 0; i < dY.rows(); ++i)
        for (std::size_t j = 0; j < dY.cols(); ++j)
            out(i, j) = dropout_keep(seed, i, j, rate) ? dY(i, j) * keep_scale : S(0);
    return out;
}

template <class M>
M concat(const std::vector<M>& parts) {
    if (parts.empty()) throw ValueError("split_heads_backward: no head gradients given");
    std::size_t width = 0;
    for (std::size_t h = 0; h < parts.size(); ++h) {
        if (parts[h].rows() != parts[0].rows())
            throw ShapeError("split_heads_backward: head 0 is " + parts[0].shape() + " but head " +
                             std::to_string(h) + " is " + parts[h].shape());
        width += parts[h].cols();
    }
    M out(parts[0].rows(), width);
    std::size_t c0 = 0;
    for (const M& p : parts) {
        for (std::size_t i = 0; i < p.rows(); ++i)
            for (std::size_t j = 0; j < p.cols(); ++j) out(i, c0 + j) = p(i, j);
        c0 += p.cols();
    }
    return out;
}

template <class M, class In>
std::vector<M> split(const In& X, std::size_t heads) {
    if (heads == 0) throw ValueError("concat_heads_backward: heads must be at least 1");
    if (X.cols() % heads != 0)
        throw ValueError("concat_heads_backward: " + std::to_string(heads) + " heads do not divide the width " +
                         std::to_string(X.cols()));
    const std::size_t w = X.cols() / heads;
    std::vector<M> out;
    for (std::size_t h = 0; h < heads; ++h) {
        M part(X.rows(), w);
        for (std::size_t i = 0; i < X.rows(); ++i)
            for (std::size_t j = 0; j < w; ++j) part(i, j) = X(i, h * w + j);
        out.push_back(std::move(part));
    }
    return out;
}

template <class M, class In>
M bias_backward(const In& dY) {
    M out(1, dY.cols());
    for (std::size_t j = 0; j < dY.cols(); ++j) {
        double s = 0;
        for (std::size_t i = 0; i < dY.rows(); ++i) s += dY(i, j);
        out(0, j) = scalar_t<M>(s);
    }
    return out;
}

template <class M, class In>
M relu(const In& X) {
    M out(X.rows(), X.cols());
    for (std::size_t i = 0; i < X.rows(); ++i)
        for (std::size_t j = 0; j < X.cols(); ++j) out(i, j) = X(i, j) > 0 ? X(i, j) : 0;
    return out;
}

template <class M, class In>
M relu_backward(const In& X, const In& dY) {
    require_same_shape("relu_backward", X, "X", dY, "dY");
    M out(X.rows(), X.cols());
    for (std::size_t i = 0; i < X.rows(); ++i)
        for (std::size_t j = 0; j < X.cols(); ++j) out(i, j) = X(i, j) > 0 ? dY(i, j) : 0;
    return out;
}

// Layer normalisation (Ba, Kiros & Hinton 2016) of every row, statistics in double:
//   y_ij = g_j · x̂_ij + b_j,  x̂_ij = (x_ij − μ_i) · r_i,  μ_i = mean_j x_ij,
//   r_i = 1 / √(σ_i² + ε),  σ_i² = mean_j (x_ij − μ_i)²  (population variance).
template <class G>
void check_layer_norm(const char* fn, std::size_t width, const G& gain, const G& bias, double eps) {
    if (gain.rows() != 1 || gain.cols() != width || bias.rows() != 1 || bias.cols() != width)
        throw ShapeError(std::string(fn) + ": gain is " + shape_of(gain) + " and bias is " + shape_of(bias) +
                         "; both must be 1 x " + std::to_string(width));
    if (!(eps > 0) || !std::isfinite(eps)) throw ValueError(std::string(fn) + ": eps must be positive and finite");
}

// The mean and r_i of row i.
template <class In>
std::pair<double, double> row_stats(const In& X, std::size_t i, double eps) {
    double mean = 0, var = 0;
    for (std::size_t j = 0; j < X.cols(); ++j) mean += double(X(i, j));
    mean /= double(X.cols());
    for (std::size_t j = 0; j < X.cols(); ++j) var += (double(X(i, j)) - mean) * (double(X(i, j)) - mean);
    var /= double(X.cols());
    return {mean, 1.0 / std::sqrt(var + eps)};
}

template <class M, class In, class G>
M layer_norm(const In& X, const G& gain, const G& bias, double eps) {
    check_layer_norm("layer_norm", X.cols(), gain, bias, eps);
    using S = scalar_t<M>;
    M Y(X.rows(), X.cols());
    for (std::size_t i = 0; i < X.rows(); ++i) {
        const auto [mean, r] = row_stats(X, i, eps);
        for (std::size_t j = 0; j < X.cols(); ++j)
            Y(i, j) = S(double(gain(0, j)) * (double(X(i, j)) - mean) * r + double(bias(0, j)));
    }
    return Y;
}

// From the forward's input X (statistics recomputed) and dY:
//   dg_j = Σ_i dY_ij x̂_ij,  db_j = Σ_i dY_ij,  with d̂_ij = dY_ij g_j:
//   dX_ij = r_i (d̂_ij − mean_k d̂_ik − x̂_ij · mean_k d̂_ik x̂_ik)
template <class M>
struct LayerNormGradsT {
    M dX, dgain, dbias;
};
template <class M, class In, class G>
LayerNormGradsT<M> layer_norm_backward(const In& X, const G& gain, const In& dY, double eps) {
    check_layer_norm("layer_norm_backward", X.cols(), gain, gain, eps);
    require_same_shape("layer_norm_backward", X, "X", dY, "dY");
    using S = scalar_t<M>;
    const std::size_t n = X.cols();
    LayerNormGradsT<M> g{M(X.rows(), n), M(1, n), M(1, n)};
    std::vector<double> xhat(n), dhat(n), dgain(n, 0.0), dbias(n, 0.0);
    for (std::size_t i = 0; i < X.rows(); ++i) {
        const auto [mean, r] = row_stats(X, i, eps);
        double m1 = 0, m2 = 0;
        for (std::size_t j = 0; j < n; ++j) {
            xhat[j] = (double(X(i, j)) - mean) * r;
            dhat[j] = double(dY(i, j)) * double(gain(0, j));
            m1 += dhat[j];
            m2 += dhat[j] * xhat[j];
            dgain[j] += double(dY(i, j)) * xhat[j];
            dbias[j] += double(dY(i, j));
        }
        m1 /= double(n);
        m2 /= double(n);
        for (std::size_t j = 0; j < n; ++j) g.dX(i, j) = S(r * (dhat[j] - m1 - xhat[j] * m2));
    }
    for (std::size_t j = 0; j < n; ++j) {
        g.dgain(0, j) = S(dgain[j]);
        g.dbias(0, j) = S(dbias[j]);
    }
    return g;
}

inline void check_tokens(const std::vector<int>& tokens, std::size_t vocab, const char* fn) {
    for (std::size_t t = 0; t < tokens.size(); ++t)
        if (tokens[t] < 0 || std::size_t(tokens[t]) >= vocab)
            throw ValueError(std::string(fn) + ": token " + std::to_string(t) + " is " +
                             std::to_string(tokens[t]) + " but the vocabulary has " + std::to_string(vocab) +
                             " entries (0.." + std::to_string(vocab == 0 ? 0 : vocab - 1) + ")");
}

template <class M, class In>
M embedding(const std::vector<int>& tokens, const In& E) {
    check_tokens(tokens, E.rows(), "embedding");
    M X(tokens.size(), E.cols());
    for (std::size_t t = 0; t < tokens.size(); ++t)
        for (std::size_t j = 0; j < E.cols(); ++j) X(t, j) = E(std::size_t(tokens[t]), j);
    return X;
}

template <class M, class In>
M embedding_backward(const std::vector<int>& tokens, const In& dX, std::size_t vocab) {
    if (tokens.size() != dX.rows())
        throw ShapeError("embedding_backward: " + std::to_string(tokens.size()) + " tokens but dX is " +
                         shape_of(dX) + "; dX needs one row per token");
    check_tokens(tokens, vocab, "embedding_backward");
    M dE(vocab, dX.cols());
    for (std::size_t t = 0; t < tokens.size(); ++t)
        for (std::size_t j = 0; j < dX.cols(); ++j) dE(std::size_t(tokens[t]), j) += dX(t, j);
    return dE;
}

template <class M, class In>
typename Path<M>::CrossEntropy cross_entropy(const In& logits, const std::vector<int>& targets) {
    if (targets.size() != logits.rows())
        throw ShapeError("cross_entropy: logits are " + shape_of(logits) + " but there are " +
                         std::to_string(targets.size()) + " targets; one target per row");
    const std::size_t V = logits.cols();
    std::size_t count = 0;
    for (std::size_t t = 0; t < targets.size(); ++t) {
        if (targets[t] < -1 || targets[t] >= int(V))
            throw ValueError("cross_entropy: target " + std::to_string(t) + " is " + std::to_string(targets[t]) +
                             "; targets are class indices in [0, " + std::to_string(V) + ") or -1 (not scored)");
        if (targets[t] >= 0) ++count;
    }
    if (count == 0) throw ValueError("cross_entropy: no position is scored (every target is -1)");
    using S = scalar_t<M>;
    typename Path<M>::CrossEntropy out;
    out.count = count;
    out.dlogits = M(logits.rows(), V);
    double total = 0;
    std::vector<double> e(V);
    for (std::size_t t = 0; t < targets.size(); ++t) {
        if (targets[t] < 0) continue;
        std::size_t arg = 0;
        for (std::size_t v = 0; v < V; ++v) {
            e[v] = double(logits(t, v));
            if (e[v] > e[arg]) arg = v;  // the first of equal maxima
        }
        // The log-sum-exp shift of the softmax rule (kernels/softmax.hpp), in double:
        // −log softmax(l)[y] = log Σ_v e^(l_v − m) − (l_y − m)
        const double m = kernels::max(e.data(), V);
        const double sum = kernels::softmax_row_unnormalised(e.data(), V);
        total += std::log(sum) - (double(logits(t, std::size_t(targets[t]))) - m);
        if (arg == std::size_t(targets[t])) ++out.correct;
        for (std::size_t v = 0; v < V; ++v)
            out.dlogits(t, v) = S((e[v] / sum - (v == std::size_t(targets[t]) ? 1.0 : 0.0)) / double(count));
    }
    out.loss = total / double(count);
    return out;
}

template <class M, class In, class Options>
typename Path<M>::AttentionGrads attention_backward(const In& Q, const In& K, const In& V,
                                                   const typename Path<M>::Trace& t, const In& dO,
                                                   const Options& options) {
    if (t.weights.rows() != Q.rows() || t.weights.cols() != K.rows() || t.dropped.rows() != Q.rows() ||
        t.dropped.cols() != K.rows() || Q.cols() != K.cols() || K.rows() != V.rows())
        throw ShapeError("attention_backward: the trace's weights are " + t.weights.shape() + " but Q is " +
                         shape_of(Q) + ", K is " + shape_of(K) + " and V is " + shape_of(V) +
                         "; pass the trace of attention(Q, K, V)");
    if (dO.rows() != Q.rows() || dO.cols() != V.cols())
        throw ShapeError("attention_backward: dO is " + shape_of(dO) + " but the output is " +
                         shape_str(Q.rows(), V.cols()));
    // O = D V with D = dropout(P) (D = P when not training)
    auto g = weighted_sum_backward<M>(view(t.dropped), view(V), view(dO));
    const bool drop = options.dropout.training && options.dropout.rate > 0.0f;
    M dP = drop ? dropout_backward<M>(view(g.dA), options.dropout.rate, options.dropout.seed) : std::move(g.dA);
    // P = softmax(Z), Z = scaled + masks: the full Jacobian-vector product
    M dZ = softmax_backward<M>(view(t.weights), view(dP));
    // Z = scaled + M: nothing flows where a mask put −∞
    M dScaled = add_mask_backward<M>(view(t.masked), view(dZ));
    for (std::size_t i = 0; i < dScaled.rows(); ++i)
        for (std::size_t j = 0; j < dScaled.cols(); ++j)
            if (std::isinf(t.scaled(i, j))) dScaled(i, j) = 0;  // (an infinite score has no slope)
    // scaled = scale · S, S = Q Kᵀ
    M dS = scale_backward<M>(view(dScaled), t.scale);
    auto qk = matmul_bt_backward<M>(view(Q), view(K), view(dS));
    return {std::move(qk.dA), std::move(qk.dB), std::move(g.dB), std::move(dZ)};
}

}  // namespace attn::detail

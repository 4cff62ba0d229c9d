// Scalar oracle: the most direct reading of each formula, double accumulation.
#include "attn/reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::reference {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}

Matrix matmul(ConstMatrixView A, ConstMatrixView B) {
    if (A.cols() != B.rows()) throw ShapeError("reference::matmul: " + A.shape() + " vs " + B.shape());
    Matrix C(A.rows(), B.cols());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < B.cols(); ++j) {
            double s = 0;
            for (std::size_t p = 0; p < A.cols(); ++p) s += double(A(i, p)) * double(B(p, j));
            C(i, j) = float(s);
        }
    return C;
}

Matrix matmul_bt(ConstMatrixView A, ConstMatrixView B) {
    if (A.cols() != B.cols()) throw ShapeError("reference::matmul_bt: " + A.shape() + " vs " + B.shape());
    Matrix C(A.rows(), B.rows());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < B.rows(); ++j) {
            double s = 0;
            for (std::size_t p = 0; p < A.cols(); ++p) s += double(A(i, p)) * double(B(j, p));
            C(i, j) = float(s);
        }
    return C;
}

Matrix scores(ConstMatrixView Q, ConstMatrixView K) { return reference::matmul_bt(Q, K); }

Matrix scale(ConstMatrixView S, float factor) {
    Matrix out(S);
    for (std::size_t i = 0; i < out.rows(); ++i)
        for (std::size_t j = 0; j < out.cols(); ++j) out(i, j) = S(i, j) * factor;
    return out;
}

Matrix causal_mask(std::size_t Tq, std::size_t Tk) {
    Matrix M(Tq, Tk);
    for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < Tk; ++j) M(i, j) = j <= i ? 0.0f : kNegInf;
    return M;
}

// S + M, but a −∞ in M hides the key whatever S holds (documented rule).
Matrix add_mask(ConstMatrixView S, ConstMatrixView M) {
    Matrix out(S);
    for (std::size_t i = 0; i < out.rows(); ++i)
        for (std::size_t j = 0; j < out.cols(); ++j) out(i, j) = M(i, j) == kNegInf ? kNegInf : S(i, j) + M(i, j);
    return out;
}

// exp(s − max) / Σ exp(s − max). Documented non-finite rules: a NaN anywhere in the
// row, or +∞ (∞ − ∞), makes the whole row NaN; an all −∞ row gives zeros.
Matrix softmax(ConstMatrixView S, Axis axis) {
    const bool rows = axis == Axis::Rows;
    const std::size_t outer = rows ? S.rows() : S.cols(), inner = rows ? S.cols() : S.rows();
    auto at = [&](std::size_t o, std::size_t k) { return rows ? S(o, k) : S(k, o); };
    constexpr double kInf = std::numeric_limits<double>::infinity();
    Matrix P(S.rows(), S.cols());
    for (std::size_t o = 0; o < outer; ++o) {
        double m = -kInf;
        bool nan = false;
        for (std::size_t k = 0; k < inner; ++k) {
            nan = nan || std::isnan(at(o, k));
            if (double(at(o, k)) > m) m = double(at(o, k));
        }
        double sum = 0;
        for (std::size_t k = 0; k < inner; ++k) sum += std::exp(double(at(o, k)) - m);
        for (std::size_t k = 0; k < inner; ++k) {
            double p;
            if (nan || m == kInf) p = std::numeric_limits<double>::quiet_NaN();
            else if (m == -kInf) p = 0.0;
            else p = std::exp(double(at(o, k)) - m) / sum;
            (rows ? P(o, k) : P(k, o)) = float(p);
        }
    }
    return P;
}

// O = P V, where a zero weight takes nothing from its Value row (documented behaviour).
Matrix weighted_sum(ConstMatrixView P, ConstMatrixView V) {
    if (P.cols() != V.rows()) throw ShapeError("reference::weighted_sum: " + P.shape() + " vs " + V.shape());
    Matrix O(P.rows(), V.cols());
    for (std::size_t i = 0; i < P.rows(); ++i)
        for (std::size_t j = 0; j < V.cols(); ++j) {
            double s = 0;
            for (std::size_t p = 0; p < P.cols(); ++p)
                if (P(i, p) != 0.0f) s += double(P(i, p)) * double(V(p, j));
            O(i, j) = float(s);
        }
    return O;
}

Trace attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                const AttentionOptions& options) {
    Trace t;
    t.scale = options.scale.value_or(float(1.0 / std::sqrt(double(Q.cols()))));
    t.scores = reference::scores(Q, K);
    t.scaled = reference::scale(t.scores, t.scale);
    t.masked = t.scaled;
    if (options.mask) t.masked = reference::add_mask(t.masked, *options.mask);
    // Causal last: a −∞ there hides the key whatever S and the mask hold (documented rule).
    if (options.causal) t.masked = reference::add_mask(t.masked, reference::causal_mask(Q.rows(), K.rows()));
    t.weights = reference::softmax(t.masked, Axis::Rows);
    t.dropped = t.weights;
    if (options.dropout.training && options.dropout.rate > 0.0f) {
        const float keep_scale = 1.0f / (1.0f - options.dropout.rate);
        for (std::size_t i = 0; i < t.dropped.rows(); ++i)
            for (std::size_t j = 0; j < t.dropped.cols(); ++j)
                t.dropped(i, j) = dropout_keep(options.dropout.seed, i, j, options.dropout.rate)
                                      ? t.weights(i, j) * keep_scale
                                      : 0.0f;
    }
    t.output = reference::weighted_sum(t.dropped, V);
    return t;
}

std::vector<Matrix> split_heads(ConstMatrixView X, std::size_t heads) {
    const std::size_t dh = X.cols() / heads;
    std::vector<Matrix> out;
    for (std::size_t h = 0; h < heads; ++h) {
        Matrix m(X.rows(), dh);
        for (std::size_t i = 0; i < X.rows(); ++i)
            for (std::size_t j = 0; j < dh; ++j) m(i, j) = X(i, h * dh + j);
        out.push_back(m);
    }
    return out;
}

Matrix concat_heads(const std::vector<Matrix>& heads) {
    std::size_t width = 0;
    for (const Matrix& m : heads) width += m.cols();
    Matrix out(heads.at(0).rows(), width);
    std::size_t c0 = 0;
    for (const Matrix& m : heads) {
        for (std::size_t i = 0; i < m.rows(); ++i)
            for (std::size_t j = 0; j < m.cols(); ++j) out(i, c0 + j) = m(i, j);
        c0 += m.cols();
    }
    return out;
}

MultiHeadTrace multi_head_attention(ConstMatrixView X, const MultiHeadWeights& w,
                                    const MultiHeadOptions& options) {
    MultiHeadTrace t;
    t.q = reference::matmul(X, w.Wq);
    t.k = reference::matmul(X, w.Wk);
    t.v = reference::matmul(X, w.Wv);
    const auto qs = reference::split_heads(t.q, options.heads), ks = reference::split_heads(t.k, options.heads),
               vs = reference::split_heads(t.v, options.heads);
    std::vector<Matrix> outs;
    for (std::size_t h = 0; h < options.heads; ++h) {
        AttentionOptions o;
        o.causal = options.causal;
        o.dropout = options.dropout;
        o.dropout.seed = options.dropout.seed + h;
        t.heads.push_back(reference::attention(qs[h], ks[h], vs[h], o));
        outs.push_back(t.heads.back().output);
    }
    t.concat = reference::concat_heads(outs);
    t.output = reference::matmul(t.concat, w.Wo);
    return t;
}

// ---- the reductions of reductions.hpp and the softmax parts of attention.hpp ------------------

Matrix row_sums(ConstMatrixView M) {
    Matrix out(M.rows(), 1);
    for (std::size_t i = 0; i < M.rows(); ++i) {
        double s = 0;
        for (std::size_t j = 0; j < M.cols(); ++j) s += M(i, j);
        out(i, 0) = float(s);
    }
    return out;
}

Matrix col_sums(ConstMatrixView M) {
    Matrix out(1, M.cols());
    for (std::size_t j = 0; j < M.cols(); ++j) {
        double s = 0;
        for (std::size_t i = 0; i < M.rows(); ++i) s += M(i, j);
        out(0, j) = float(s);
    }
    return out;
}

Matrix row_max(ConstMatrixView M) {
    Matrix out(M.rows(), 1);
    for (std::size_t i = 0; i < M.rows(); ++i) {
        float m = -std::numeric_limits<float>::infinity();
        for (std::size_t j = 0; j < M.cols(); ++j)
            if (M(i, j) > m) m = M(i, j);
        out(i, 0) = m;
    }
    return out;
}

Matrix row_dots(ConstMatrixView A, ConstMatrixView B) {
    if (A.rows() != B.rows() || A.cols() != B.cols())
        throw ShapeError("reference::row_dots: " + A.shape() + " vs " + B.shape());
    Matrix out(A.rows(), 1);
    for (std::size_t i = 0; i < A.rows(); ++i) {
        double s = 0;
        for (std::size_t j = 0; j < A.cols(); ++j) s += double(A(i, j)) * double(B(i, j));
        out(i, 0) = float(s);
    }
    return out;
}

Matrix row_norms(ConstMatrixView M) {
    Matrix out(M.rows(), 1);
    for (std::size_t i = 0; i < M.rows(); ++i) {
        double s = 0;
        for (std::size_t j = 0; j < M.cols(); ++j) s += double(M(i, j)) * double(M(i, j));
        out(i, 0) = float(std::sqrt(s));
    }
    return out;
}

SoftmaxParts softmax_parts(ConstMatrixView S, Axis axis) {
    const bool rows = axis == Axis::Rows;
    const std::size_t outer = rows ? S.rows() : S.cols(), inner = rows ? S.cols() : S.rows();
    auto at = [&](std::size_t o, std::size_t k) { return double(rows ? S(o, k) : S(k, o)); };
    SoftmaxParts p;
    p.max = rows ? Matrix(outer, 1) : Matrix(1, outer);
    p.sums = p.max;
    p.sums_raw = p.max;
    p.shifted = Matrix(S.rows(), S.cols());
    p.exp = p.shifted;
    p.exp_raw = p.shifted;
    auto vec = [&](Matrix& v, std::size_t o) -> float& { return rows ? v(o, 0) : v(0, o); };
    auto el = [&](Matrix& m, std::size_t o, std::size_t k) -> float& { return rows ? m(o, k) : m(k, o); };
    for (std::size_t o = 0; o < outer; ++o) {
        double m = -std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < inner; ++k) m = std::max(m, at(o, k));
        const bool masked = m == -std::numeric_limits<double>::infinity();
        double s = 0, raw = 0;
        for (std::size_t k = 0; k < inner; ++k) {
            const double x = at(o, k);
            el(p.shifted, o, k) = float(masked ? x : x - m);
            // A fully masked row: e = 0, but a NaN stays NaN (and makes the sum NaN).
            const double e = masked ? (std::isnan(x) ? x : 0.0) : std::exp(x - m);
            el(p.exp, o, k) = float(e);
            el(p.exp_raw, o, k) = float(std::exp(x));
            s += e;
            raw += std::exp(x);
        }
        vec(p.max, o) = float(m);
        vec(p.sums, o) = float(s);
        vec(p.sums_raw, o) = float(raw);
    }
    p.weights = reference::softmax(S, axis);
    return p;
}

}  // namespace attn::reference

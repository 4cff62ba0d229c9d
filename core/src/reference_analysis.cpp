// Scalar oracles for analysis.hpp: the most direct reading of each formula, double
// accumulation, no SIMD.
#include <cmath>
#include <limits>

#include "attn/analysis.hpp"
#include "attn/reference.hpp"

namespace attn::reference {

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

// Reductions of a matrix and the element-wise helpers that go with them (reductions.hpp).
#include "attn/reductions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attn/errors.hpp"
#include "kernels/checks.hpp"
#include "kernels/simd.hpp"

namespace attn {

namespace {

// Σ x[0..n): vector loop plus scalar tail.
float sum(const float* x, std::size_t n) {
    using kernels::batch;
    using kernels::kLanes;
    batch acc(0.0f);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) acc += batch::load_unaligned(x + i);
    float s = xsimd::hadd(acc);
    for (; i < n; ++i) s += x[i];
    return s;
}

}  // namespace

Matrix row_sums(ConstMatrixView M) {
    Matrix out(M.rows(), 1);
    for (std::size_t i = 0; i < M.rows(); ++i) out(i, 0) = sum(M.row(i), M.cols());
    return out;
}

Matrix col_sums(ConstMatrixView M) {
    Matrix out(1, M.cols(), 0.0f);
    for (std::size_t i = 0; i < M.rows(); ++i) kernels::add(out.row(0), M.row(i), out.row(0), M.cols());
    return out;
}

Matrix row_max(ConstMatrixView M) {
    Matrix out(M.rows(), 1);
    for (std::size_t i = 0; i < M.rows(); ++i) out(i, 0) = kernels::max(M.row(i), M.cols());
    return out;
}

Matrix row_argmax(ConstMatrixView M) {
    if (M.rows() > 0 && M.cols() == 0)
        throw ValueError("row_argmax: a " + M.shape() + " matrix has no entries to compare");
    Matrix out(M.rows(), 1);
    for (std::size_t i = 0; i < M.rows(); ++i) {
        std::size_t best = 0;
        for (std::size_t j = 1; j < M.cols(); ++j)
            if (M(i, j) > M(i, best)) best = j;  // NaN never wins; first index on ties
        out(i, 0) = float(best);
    }
    return out;
}

Matrix row_dots(ConstMatrixView A, ConstMatrixView B) {
    kernels::require_same_shape("row_dots", A, "A", B, "B");
    Matrix out(A.rows(), 1);
    for (std::size_t i = 0; i < A.rows(); ++i) out(i, 0) = kernels::dot(A.row(i), B.row(i), A.cols());
    return out;
}

Matrix row_norms(ConstMatrixView M) {
    Matrix out(M.rows(), 1);
    for (std::size_t i = 0; i < M.rows(); ++i) out(i, 0) = std::sqrt(kernels::dot(M.row(i), M.row(i), M.cols()));
    return out;
}

Matrix normalize_rows(ConstMatrixView M, float norm) {
    if (!std::isfinite(norm) || norm < 0)
        throw ValueError("normalize_rows: the target norm must be finite and >= 0, got " + std::to_string(norm));
    Matrix out(M);
    for (std::size_t i = 0; i < M.rows(); ++i) {
        const double len = std::sqrt(double(kernels::dot(M.row(i), M.row(i), M.cols())));
        if (len > 0) kernels::scale(out.row(i), float(norm / len), out.row(i), M.cols());
    }
    return out;
}

Matrix normalize_weights(ConstMatrixView W) {
    Matrix out(W.rows(), W.cols());
    for (std::size_t i = 0; i < W.rows(); ++i) {
        double s = 0;
        for (std::size_t j = 0; j < W.cols(); ++j) {
            const float w = W(i, j);
            if (!std::isfinite(w) || w < 0)
                throw ValueError("normalize_weights: entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                                 ") is " + std::to_string(w) + "; weights must be finite and >= 0");
            s += w;
        }
        if (!(s > 0))
            throw ValueError("normalize_weights: row " + std::to_string(i + 1) +
                             " sums to 0; at least one weight must be positive");
        for (std::size_t j = 0; j < W.cols(); ++j) out(i, j) = float(double(W(i, j)) / s);
    }
    return out;
}

Matrix difference(ConstMatrixView A, ConstMatrixView B) {
    kernels::require_same_shape("difference", A, "A", B, "B");
    Matrix out(A.rows(), A.cols());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < A.cols(); ++j) out(i, j) = A(i, j) - B(i, j);
    return out;
}

Matrix add(ConstMatrixView A, ConstMatrixView B) {
    kernels::require_same_shape("add", A, "A", B, "B");
    Matrix out(A.rows(), A.cols());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < A.cols(); ++j) out(i, j) = A(i, j) + B(i, j);
    return out;
}

float max_abs_diff(ConstMatrixView A, ConstMatrixView B) {
    kernels::require_same_shape("max_abs_diff", A, "A", B, "B");
    float m = 0.0f;
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < A.cols(); ++j) {
            const float a = A(i, j), b = B(i, j);
            if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
            if (a == b) continue;  // also equal infinities
            m = std::max(m, std::abs(a - b));
        }
    return m;
}

Matrix diagonal(ConstMatrixView M) {
    const std::size_t n = std::min(M.rows(), M.cols());
    Matrix out(n, 1);
    for (std::size_t i = 0; i < n; ++i) out(i, 0) = M(i, i);
    return out;
}

Matrix permute_rows(ConstMatrixView M, const std::vector<std::size_t>& perm) {
    if (perm.size() != M.rows())
        throw ShapeError("permute_rows: M is " + M.shape() + " and perm has " + std::to_string(perm.size()) +
                         " entries; perm needs one entry per row");
    std::vector<bool> seen(M.rows(), false);
    for (std::size_t i = 0; i < perm.size(); ++i) {
        if (perm[i] >= M.rows() || seen[perm[i]])
            throw ValueError("permute_rows: perm must list each of the rows 0.." + std::to_string(M.rows() - 1) +
                             " exactly once; entry " + std::to_string(i) + " is " + std::to_string(perm[i]));
        seen[perm[i]] = true;
    }
    Matrix out(M.rows(), M.cols());
    for (std::size_t i = 0; i < M.rows(); ++i) std::copy_n(M.row(perm[i]), M.cols(), out.row(i));
    return out;
}

Matrix column_range(ConstMatrixView M) {
    if (M.rows() == 0) throw ValueError("column_range: a " + M.shape() + " matrix has no rows");
    Matrix out(2, M.cols());
    for (std::size_t j = 0; j < M.cols(); ++j) {
        float lo = M(0, j), hi = M(0, j);
        for (std::size_t i = 1; i < M.rows(); ++i) {
            lo = std::min(lo, M(i, j));
            hi = std::max(hi, M(i, j));
        }
        out(0, j) = lo;
        out(1, j) = hi;
    }
    return out;
}

}  // namespace attn

// The numbers the page shows beside its figures (inspect.hpp): reductions, statistics,
// geometry checks, the softmax's intermediates and the scaling experiment.
#include "attn/inspect.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attn/linalg.hpp"
#include "attn/random.hpp"
#include "kernels/checks.hpp"
#include "kernels/simd.hpp"
#include "kernels/softmax.hpp"

namespace attn {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

Matrix difference(ConstMatrixView A, ConstMatrixView B) {
    kernels::require_same_shape("difference", A, "A", B, "B");
    Matrix out(A.rows(), A.cols());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < A.cols(); ++j) out(i, j) = A(i, j) - B(i, j);
    return out;
}

Matrix diagonal(ConstMatrixView M) {
    const std::size_t n = std::min(M.rows(), M.cols());
    Matrix out(n, 1);
    for (std::size_t i = 0; i < n; ++i) out(i, 0) = M(i, i);
    return out;
}

Moments moments(ConstMatrixView M) {
    if (M.empty()) throw ValueError("moments: the matrix is empty (" + M.shape() + ")");
    Moments m;
    m.count = M.rows() * M.cols();
    m.min = std::numeric_limits<double>::infinity();
    m.max = -std::numeric_limits<double>::infinity();
    bool nan = false;
    for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < M.cols(); ++j) {
            const double x = M(i, j);
            nan = nan || std::isnan(x);
            m.sum += x;
            m.min = std::min(m.min, x);
            m.max = std::max(m.max, x);
        }
    m.mean = m.sum / double(m.count);
    // Second pass around the mean (no cancellation from Σx² − n·mean²).
    double ss = 0;
    for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < M.cols(); ++j) ss += (double(M(i, j)) - m.mean) * (double(M(i, j)) - m.mean);
    m.variance = std::isfinite(m.mean) ? ss / double(m.count) : kNaN;
    m.stddev = std::sqrt(m.variance);
    if (nan) m.min = m.max = kNaN;
    return m;
}

Histogram histogram(ConstMatrixView M, std::size_t bins, double lo, double hi) {
    if (bins < 1 || bins > kMaxHistogramBins)
        throw ValueError("histogram: bins must be in [1, " + std::to_string(kMaxHistogramBins) + "], got " +
                         std::to_string(bins));
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
        throw ValueError("histogram: need finite lo < hi, got [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    Histogram h;
    h.lo = lo;
    h.hi = hi;
    h.edges.resize(bins + 1);
    const double width = (hi - lo) / double(bins);
    for (std::size_t k = 0; k <= bins; ++k) h.edges[k] = k == bins ? hi : lo + width * double(k);
    h.counts.assign(bins, 0);
    for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < M.cols(); ++j) {
            const double x = M(i, j);
            if (std::isnan(x)) ++h.non_finite;
            else if (x < lo) ++h.below;
            else if (x > hi) ++h.above;
            else {
                auto k = std::size_t((x - lo) / width);
                if (k >= bins) k = bins - 1;  // x == hi, or rounding at the top edge
                // Keep the bin consistent with the printed edges despite rounding.
                while (k > 0 && x < h.edges[k]) --k;
                while (k + 1 < bins && x >= h.edges[k + 1]) ++k;
                ++h.counts[k];
            }
        }
    return h;
}

DotGeometry dot_geometry(ConstMatrixView a, ConstMatrixView b) {
    if (a.rows() != 1 || b.rows() != 1 || a.cols() != b.cols())
        throw ShapeError("dot_geometry: a is " + a.shape() + " and b is " + b.shape() +
                         "; both must be 1 x d vectors of the same length");
    DotGeometry g;
    double aa = 0, bb = 0;
    for (std::size_t j = 0; j < a.cols(); ++j) {
        g.dot += double(a(0, j)) * double(b(0, j));
        aa += double(a(0, j)) * double(a(0, j));
        bb += double(b(0, j)) * double(b(0, j));
    }
    g.norm_a = std::sqrt(aa);
    g.norm_b = std::sqrt(bb);
    if (g.norm_a > 0 && g.norm_b > 0) {
        g.cos = std::clamp(g.dot / (g.norm_a * g.norm_b), -1.0, 1.0);
        g.degrees = std::acos(g.cos) * (180.0 / 3.14159265358979323846);
    } else {
        g.cos = g.degrees = kNaN;
    }
    return g;
}

DiagonalCheck diagonal_check(ConstMatrixView S, float rel_tol) {
    if (S.rows() != S.cols())
        throw ShapeError("diagonal_check: S is " + S.shape() + "; it must be square (n x n scores of a sequence with itself)");
    if (!(rel_tol >= 0) || !std::isfinite(rel_tol))
        throw ValueError("diagonal_check: rel_tol must be finite and >= 0");
    const std::size_t n = S.rows();
    DiagonalCheck c{Matrix(n, 1), Matrix(n, 1), Matrix(n, 1), Matrix(n, 1)};
    for (std::size_t i = 0; i < n; ++i) {
        float off = kNegInf;
        for (std::size_t j = 0; j < n; ++j)
            if (j != i && S(i, j) > off) off = S(i, j);
        const float d = S(i, i);
        c.diagonal(i, 0) = d;
        c.off_max(i, 0) = off;
        c.margin(i, 0) = d - off;
        const double slack = double(rel_tol) * std::max(1.0, std::abs(double(d)));
        c.holds(i, 0) = double(d) >= double(off) - slack ? 1.0f : 0.0f;
    }
    return c;
}

SoftmaxParts softmax_parts(ConstMatrixView S, Axis axis) {
    // Work on rows; for the column axis, on the rows of Sᵀ, and transpose back.
    const Matrix Sr = axis == Axis::Rows ? Matrix(S) : transpose(S);
    const std::size_t r = Sr.rows(), c = Sr.cols();
    SoftmaxParts p;
    Matrix mx(r, 1), shifted(r, c), e(r, c), sums(r, 1), e_raw(r, c), sums_raw(r, 1);
    for (std::size_t i = 0; i < r; ++i) {
        const auto rp = kernels::softmax_row_parts(Sr.row(i), c, shifted.row(i), e.row(i), e_raw.row(i));
        mx(i, 0) = rp.max;
        sums(i, 0) = rp.sum;
        sums_raw(i, 0) = rp.sum_raw;
    }
    if (axis == Axis::Rows) {
        p.max = std::move(mx);
        p.shifted = std::move(shifted);
        p.exp = std::move(e);
        p.sums = std::move(sums);
        p.exp_raw = std::move(e_raw);
        p.sums_raw = std::move(sums_raw);
    } else {
        p.max = transpose(mx);
        p.shifted = transpose(shifted);
        p.exp = transpose(e);
        p.sums = transpose(sums);
        p.exp_raw = transpose(e_raw);
        p.sums_raw = transpose(sums_raw);
    }
    p.weights = softmax(S, axis);
    return p;
}

Matrix softmax_jacobian_diag(ConstMatrixView P) {
    Matrix out(P.rows(), P.cols());
    for (std::size_t i = 0; i < P.rows(); ++i)
        for (std::size_t j = 0; j < P.cols(); ++j) {
            const double p = P(i, j);
            out(i, j) = float(p * (1.0 - p));
        }
    return out;
}

ScalingEffect scaling_effect(ConstMatrixView S, float factor) {
    if (!std::isfinite(factor) || !(factor > 0))
        throw ValueError("scaling_effect: the factor must be finite and > 0, got " + std::to_string(factor));
    ScalingEffect e;
    e.factor = factor;
    e.scaled = scale(S, factor);
    e.weights = softmax(S);
    e.weights_scaled = softmax(e.scaled);
    e.grad = softmax_jacobian_diag(e.weights);
    e.grad_scaled = softmax_jacobian_diag(e.weights_scaled);
    const std::size_t r = S.rows();
    e.top = Matrix(r, 1);
    e.grad_top = Matrix(r, 1);
    e.grad_top_scaled = Matrix(r, 1);
    e.ratio = Matrix(r, 1);
    for (std::size_t i = 0; i < r; ++i) {
        std::size_t top = 0;
        for (std::size_t j = 1; j < S.cols(); ++j)
            if (S(i, j) > S(i, top)) top = j;
        e.top(i, 0) = float(top);
        if (S.cols() == 0) {
            e.grad_top(i, 0) = e.grad_top_scaled(i, 0) = e.ratio(i, 0) = float(kNaN);
            continue;
        }
        // In double from the float weights, so the ratio is not rounded twice.
        const double p0 = e.weights(i, top), p1 = e.weights_scaled(i, top);
        const double g0 = p0 * (1.0 - p0), g1 = p1 * (1.0 - p1);
        e.grad_top(i, 0) = float(g0);
        e.grad_top_scaled(i, 0) = float(g1);
        e.ratio(i, 0) = g0 > 0 ? float(g1 / g0) : (g1 > 0 ? std::numeric_limits<float>::infinity() : float(kNaN));
    }
    return e;
}

ScoreScale score_scale(std::size_t d_k) {
    if (d_k == 0) throw ValueError("score_scale: d_k must be at least 1");
    ScoreScale s;
    s.d_k = d_k;
    s.sqrt_dk = std::sqrt(double(d_k));
    s.factor = 1.0f / std::sqrt(float(d_k));  // exactly what attention() uses
    return s;
}

DotProductSample sample_dot_products(std::size_t d_k, std::size_t count, std::uint64_t seed, std::size_t first) {
    if (d_k == 0) throw ValueError("sample_dot_products: d_k must be at least 1");
    if (count == 0) throw ValueError("sample_dot_products: count must be at least 1");
    check_size(count, d_k, "sample_dot_products");
    if (first > kMaxElements - count)
        throw SizeError("sample_dot_products: first + count = " + std::to_string(first) + " + " + std::to_string(count) +
                        " exceeds " + std::to_string(kMaxElements) + " pairs");
    if (seed > (std::uint64_t{1} << 62)) throw ValueError("sample_dot_products: seed must be below 2^62");
    DotProductSample s;
    s.d_k = d_k;
    s.count = count;
    s.first = first;
    s.seed = seed;
    const Matrix q = random_normal_rows(first, count, d_k, 2 * seed), k = random_normal_rows(first, count, d_k, 2 * seed + 1);
    s.dots = row_dots(q, k);
    s.scaled = scale(s.dots, score_scale(d_k).factor);
    s.raw = moments(s.dots);
    s.normalized = moments(s.scaled);
    s.expected_variance = double(d_k);
    return s;
}

// ---- reading a result: argmax, permutations, ranges, the convex hull ----------------------

namespace {

void require_points(ConstMatrixView P, const char* what, const char* name) {
    if (P.cols() != 2)
        throw ShapeError(std::string(what) + ": " + name + " is " + P.shape() +
                         "; points must be n x 2 (one point per row)");
    for (std::size_t i = 0; i < P.rows(); ++i)
        if (!std::isfinite(P(i, 0)) || !std::isfinite(P(i, 1)))
            throw ValueError(std::string(what) + ": point " + std::to_string(i + 1) + " of " + name +
                             " is not finite");
}

struct Pt {
    double x, y;
};

double cross(const Pt& o, const Pt& a, const Pt& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

double segment_distance(const Pt& p, const Pt& a, const Pt& b) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

}  // namespace

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

Matrix add(ConstMatrixView A, ConstMatrixView B) {
    kernels::require_same_shape("add", A, "A", B, "B");
    Matrix out(A.rows(), A.cols());
    for (std::size_t i = 0; i < A.rows(); ++i)
        for (std::size_t j = 0; j < A.cols(); ++j) out(i, j) = A(i, j) + B(i, j);
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

std::vector<std::size_t> convex_hull(ConstMatrixView points) {
    require_points(points, "convex_hull", "points");
    const std::size_t n = points.rows();
    if (n == 0) throw ValueError("convex_hull: there are no points");
    std::vector<std::size_t> idx(n);
    for (std::size_t i = 0; i < n; ++i) idx[i] = i;
    auto pt = [&](std::size_t i) { return Pt{points(i, 0), points(i, 1)}; };
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        return points(a, 0) < points(b, 0) || (points(a, 0) == points(b, 0) && points(a, 1) < points(b, 1));
    });
    // Repeated points: keep the first.
    idx.erase(std::unique(idx.begin(), idx.end(),
                          [&](std::size_t a, std::size_t b) {
                              return points(a, 0) == points(b, 0) && points(a, 1) == points(b, 1);
                          }),
              idx.end());
    if (idx.size() < 3) return idx;
    // Lower hull left to right, then upper hull right to left; a non-left turn
    // (cross <= 0) drops the middle point, so collinear points are left out.
    std::vector<std::size_t> hull(2 * idx.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < idx.size(); ++i) {
        while (k >= 2 && cross(pt(hull[k - 2]), pt(hull[k - 1]), pt(idx[i])) <= 0) --k;
        hull[k++] = idx[i];
    }
    for (std::size_t i = idx.size() - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(pt(hull[k - 2]), pt(hull[k - 1]), pt(idx[i])) <= 0) --k;
        hull[k++] = idx[i];
    }
    hull.resize(k - 1);  // the last point repeats the first
    return hull;
}

double hull_distance(ConstMatrixView point, ConstMatrixView points) {
    if (point.rows() != 1 || point.cols() != 2)
        throw ShapeError("hull_distance: p is " + point.shape() + " and points are " + points.shape() +
                         "; p must be 1x2");
    require_points(point, "hull_distance", "p");
    const auto hull = convex_hull(points);
    const Pt p{point(0, 0), point(0, 1)};
    auto pt = [&](std::size_t i) { return Pt{points(i, 0), points(i, 1)}; };
    if (hull.size() == 1) return std::hypot(p.x - pt(hull[0]).x, p.y - pt(hull[0]).y);
    if (hull.size() == 2) return segment_distance(p, pt(hull[0]), pt(hull[1]));
    bool inside = true;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t e = 0; e < hull.size(); ++e) {
        const Pt a = pt(hull[e]), b = pt(hull[(e + 1) % hull.size()]);
        if (cross(a, b, p) < 0) inside = false;  // right of a counter-clockwise edge
        best = std::min(best, segment_distance(p, a, b));
    }
    return inside ? 0.0 : best;
}

}  // namespace attn

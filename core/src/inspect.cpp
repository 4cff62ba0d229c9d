#include "attn/inspect.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/checks.hpp"

namespace attn {

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

Matrix sinusoid_angles(std::size_t T, std::size_t d, double base) {
    if (d == 0) throw ValueError("sinusoid_angles: d must be at least 1");
    if (!(base > 0.0) || !std::isfinite(base)) throw ValueError("sinusoid_angles: base must be positive and finite");
    Matrix out(T, d);
    for (std::size_t pos = 0; pos < T; ++pos)
        for (std::size_t c = 0; c < d; ++c)
            out(pos, c) = float(double(pos) / std::pow(base, double(c - c % 2) / double(d)));
    return out;
}

}  // namespace attn

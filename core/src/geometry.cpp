// The geometry of dot products and of weighted sums' outputs: q·k two ways, the diagonal
// check, the convex hull and the distance to it (geometry.hpp).
#include "attn/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attn/errors.hpp"

namespace attn {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

// Stage: the geometry of dot products and weighted sums (geometry.hpp): q·k as lengths and
// an angle, the diagonal check, the convex hull and its errors.
#include "helpers.hpp"

TEST_CASE("dot_geometry: q·k = |q||k|cos θ", "[geometry]") {
    const DotGeometry g = dot_geometry(Matrix{{1, 1}}, Matrix{{0, 2}});
    REQUIRE(g.dot == 2);
    REQUIRE_THAT(g.norm_a, WithinRel(std::sqrt(2.0), 1e-12));
    REQUIRE(g.norm_b == 2);
    REQUIRE_THAT(g.cos, WithinRel(1 / std::sqrt(2.0), 1e-12));
    REQUIRE_THAT(g.degrees, WithinAbs(45.0, 1e-9));
    REQUIRE_THAT(g.norm_a * g.norm_b * g.cos, WithinRel(g.dot, 1e-12));
    // Aligned: largest; orthogonal: zero; opposite: negative.
    REQUIRE_THAT(dot_geometry(Matrix{{2, 0}}, Matrix{{3, 0}}).degrees, WithinAbs(0.0, 1e-9));
    REQUIRE(dot_geometry(Matrix{{2, 0}}, Matrix{{0, 3}}).dot == 0);
    REQUIRE_THAT(dot_geometry(Matrix{{2, 0}}, Matrix{{0, 3}}).degrees, WithinAbs(90.0, 1e-9));
    REQUIRE_THAT(dot_geometry(Matrix{{2, 0}}, Matrix{{-1, 0}}).degrees, WithinAbs(180.0, 1e-9));
    const DotGeometry zero = dot_geometry(Matrix{{0, 0}}, Matrix{{1, 0}});
    REQUIRE(zero.dot == 0);
    REQUIRE(std::isnan(zero.cos));
    REQUIRE_THROWS_AS(dot_geometry(Matrix{{1, 2}}, Matrix{{1, 2, 3}}), ShapeError);
    REQUIRE_THROWS_AS(dot_geometry(Matrix(2, 2), Matrix(2, 2)), ShapeError);
}

TEST_CASE("Q = K = X with equal-norm rows: each score row is largest on the diagonal (ties allowed)",
          "[geometry]") {
    const std::size_t d = GENERATE(2, 5, 17);
    Matrix X = normalize_rows(random_matrix(7, d, 600 + std::uint32_t(d), -2, 2));
    // A repeated token: rows 2 and 5 equal, so S(2, 5) ties with S(2, 2).
    for (std::size_t j = 0; j < d; ++j) X(5, j) = X(2, j);
    const Matrix S = scores(X, X);
    const DiagonalCheck c = diagonal_check(S);
    for (std::size_t i = 0; i < 7; ++i) {
        INFO("row " << i);
        REQUIRE(c.holds(i, 0) == 1.0f);
        REQUIRE(c.diagonal(i, 0) == S(i, i));
        for (std::size_t j = 0; j < 7; ++j) REQUIRE(S(i, i) >= S(i, j) - 1e-6f);
    }
    REQUIRE_THAT(c.margin(2, 0), WithinAbs(0.0, 1e-6));  // the tie
    // Rows of unequal length: the diagonal need not win.
    const Matrix Y{{1, 0}, {3, 0.5f}};
    const DiagonalCheck u = diagonal_check(scores(Y, Y));
    REQUIRE(u.holds(0, 0) == 0.0f);  // 1·1 = 1 < 1·3 = 3
    REQUIRE(u.off_max(0, 0) == 3.0f);
    REQUIRE(u.margin(0, 0) == -2.0f);
    REQUIRE(u.holds(1, 0) == 1.0f);
    REQUIRE(diagonal_check(Matrix{{5}}).off_max(0, 0) == -INFINITY);
    REQUIRE_THROWS_AS(diagonal_check(Matrix(2, 3)), ShapeError);
}

TEST_CASE("convex hull: counter-clockwise vertices, interior, collinear and repeated points dropped", "[geometry]") {
    //                 0        1       2       3       4 (inside)  5 (on an edge)  6 (repeat of 0)
    const Matrix P{{0, 0}, {2, 0}, {2, 2}, {0, 2}, {1, 1}, {1, 0}, {0, 0}};
    REQUIRE(convex_hull(P) == std::vector<std::size_t>{0, 1, 2, 3});
    REQUIRE(convex_hull(Matrix{{1, 1}}) == std::vector<std::size_t>{0});
    REQUIRE(convex_hull(Matrix{{0, 0}, {1, 1}, {2, 2}}) == std::vector<std::size_t>{0, 2});
    REQUIRE(hull_distance(Matrix{{1, 1}}, P) == 0.0);
    REQUIRE(hull_distance(Matrix{{2, 1}}, P) == 0.0);  // on the boundary
    REQUIRE_THAT(hull_distance(Matrix{{3, 1}}, P), WithinAbs(1.0, 1e-12));
    REQUIRE_THAT(hull_distance(Matrix{{3, 3}}, P), WithinAbs(std::sqrt(2.0), 1e-12));
    // Degenerate hulls: a segment and a point.
    REQUIRE_THAT(hull_distance(Matrix{{0, 2}}, Matrix{{0, 0}, {2, 2}}), WithinAbs(std::sqrt(2.0), 1e-12));
    REQUIRE_THAT(hull_distance(Matrix{{3, 4}}, Matrix{{0, 0}}), WithinAbs(5.0, 1e-12));
    REQUIRE_THROWS_WITH(convex_hull(Matrix(3, 3)), Contains("3x3") && Contains("n x 2"));
    REQUIRE_THROWS_AS(convex_hull(Matrix(0, 2)), ValueError);
    REQUIRE_THROWS_AS(convex_hull(Matrix{{0, NAN}}), ValueError);
    REQUIRE_THROWS_AS(hull_distance(Matrix{{0, 0, 0}}, P), ShapeError);
    REQUIRE_THROWS_AS(hull_distance(Matrix{{INFINITY, 0}}, P), ValueError);
}

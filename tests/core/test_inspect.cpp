// Stage: the numbers the page shows beside its figures (inspect.hpp): reductions against
// attn::reference on swept sizes, statistics, the geometry of the dot product, argmax,
// permutations, ranges and the convex hull, and their errors.
#include "helpers.hpp"

TEST_CASE("row and column sums, row max, row dots and norms match the reference", "[inspect]") {
    const std::size_t rows = GENERATE(1, 3, 6);
    const std::size_t cols = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    INFO(rows << "x" << cols);
    const Matrix A = random_matrix(rows, cols, 300 + std::uint32_t(cols), -3, 3);
    const Matrix B = random_matrix(rows, cols, 400 + std::uint32_t(cols), -3, 3);
    // Float sums of `cols` terms of size <= 3 against double accumulation.
    const double tol = 4e-6 * double(cols) * 3;
    require_close(row_sums(A), reference::row_sums(A), 1e-5, tol, "row_sums");
    require_close(col_sums(A), reference::col_sums(A), 1e-5, tol, "col_sums");
    require_close(row_max(A), reference::row_max(A), 0, 0, "row_max");
    require_close(row_dots(A, B), reference::row_dots(A, B), 1e-5, 3 * tol, "row_dots");
    require_close(row_norms(A), reference::row_norms(A), 1e-5, tol, "row_norms");
    REQUIRE(row_sums(A).shape() == shape_str(rows, 1));
    REQUIRE(col_sums(A).shape() == shape_str(1, cols));
    // On a strided view (a block of columns), too.
    const Matrix W = random_matrix(rows, cols + 3, 500, -3, 3);
    const ConstMatrixView blk = W.cols_block(2, cols);
    require_close(row_sums(blk), reference::row_sums(blk), 1e-5, tol, "row_sums on a view");
    require_close(row_dots(blk, A), reference::row_dots(blk, A), 1e-5, 3 * tol, "row_dots on a view");
}

TEST_CASE("row and column sums, argmax, add", "[inspect]") {
    const Matrix M{{1, 2, 3}, {4, 5, 6}};
    REQUIRE(row_sums(M).to_vector() == std::vector<float>{6, 15});
    REQUIRE(col_sums(M).to_vector() == std::vector<float>{5, 7, 9});
    REQUIRE(row_argmax(Matrix{{1, 3, 3}, {-INFINITY, -5, NAN}}).to_vector() == std::vector<float>{1, 1});
    REQUIRE(add(M, M).to_vector() == std::vector<float>{2, 4, 6, 8, 10, 12});
    REQUIRE_THROWS_WITH(add(M, Matrix(3, 2)), Contains("2x3") && Contains("3x2"));
    REQUIRE(row_sums(Matrix(0, 3)).shape() == "0x1");
    REQUIRE(col_sums(Matrix(0, 3)).to_vector() == std::vector<float>{0, 0, 0});
    REQUIRE_THROWS_AS(row_argmax(Matrix(2, 0)), ValueError);
}

TEST_CASE("attention weights: rows sum to 1, column sums lie in [0, n] and add up to n", "[inspect]") {
    const std::size_t Tq = GENERATE(1, 3, 7), Tk = GENERATE(1, 4, 9);
    CAPTURE(Tq, Tk);
    const Matrix P = softmax(random_matrix(Tq, Tk, unsigned(Tq * 31 + Tk), -4, 4));
    const Matrix rs = row_sums(P), cs = col_sums(P);
    REQUIRE(rs.shape() == shape_str(Tq, 1));
    REQUIRE(cs.shape() == shape_str(1, Tk));
    double total = 0;
    for (std::size_t i = 0; i < Tq; ++i) REQUIRE_THAT(rs(i, 0), WithinAbs(1.0, 1e-6));
    for (std::size_t j = 0; j < Tk; ++j) {
        REQUIRE(cs(0, j) >= 0.0f);
        REQUIRE(cs(0, j) <= float(Tq) + 1e-5f);
        total += cs(0, j);
    }
    REQUIRE_THAT(total, WithinAbs(double(Tq), 1e-5));
}

TEST_CASE("normalize_rows, difference and diagonal", "[inspect]") {
    const Matrix X{{3, 4}, {0, 0}, {-1, 0}};
    const Matrix N = normalize_rows(X);
    require_close(N, Matrix{{0.6f, 0.8f}, {0, 0}, {-1, 0}}, 1e-6, 1e-7);
    require_close(row_norms(normalize_rows(X, 2.5f)), Matrix{{2.5f}, {0}, {2.5f}}, 1e-6, 1e-6);
    require_close(difference(X, N), Matrix{{2.4f, 3.2f}, {0, 0}, {0, 0}}, 1e-6, 1e-6);
    require_close(diagonal(Matrix{{1, 2, 3}, {4, 5, 6}}), Matrix{{1}, {5}}, 0, 0);
    REQUIRE_THROWS_AS(difference(X, Matrix(2, 3)), ShapeError);
    REQUIRE_THROWS_AS(normalize_rows(X, -1), ValueError);
}

TEST_CASE("moments: mean, population variance, min and max", "[inspect]") {
    const Moments m = moments(Matrix{{1, 2, 3, 4}});
    REQUIRE(m.count == 4);
    REQUIRE(m.sum == 10);
    REQUIRE(m.mean == 2.5);
    REQUIRE(m.variance == 1.25);  // Σ(x − 2.5)² / 4
    REQUIRE_THAT(m.stddev, WithinRel(std::sqrt(1.25), 1e-12));
    REQUIRE(m.min == 1);
    REQUIRE(m.max == 4);
    // Large offsets do not cancel (two passes).
    const Moments big = moments(Matrix{{1e6f + 1, 1e6f - 1}});
    REQUIRE(big.variance == 1.0);
    const Moments withNaN = moments(Matrix{{1, NAN}});
    REQUIRE(std::isnan(withNaN.mean));
    REQUIRE(std::isnan(withNaN.variance));
    REQUIRE_THROWS_AS(moments(Matrix(0, 3)), ValueError);
}

TEST_CASE("histogram: equal bins, edges, outliers, the top edge", "[inspect]") {
    const Matrix x{{0, 0.5f, 0.999f, 1, 2.5f, 3, -0.1f, 3.5f, NAN, INFINITY}};
    const Histogram h = histogram(x, 3, 0, 3);
    REQUIRE(h.edges == std::vector<double>{0, 1, 2, 3});
    REQUIRE(h.counts == std::vector<std::size_t>{3, 1, 2});  // 3 falls in the last bin
    REQUIRE(h.below == 1);
    REQUIRE(h.above == 2);  // 3.5 and +∞
    REQUIRE(h.non_finite == 1);
    std::size_t total = h.below + h.above + h.non_finite;
    for (auto c : h.counts) total += c;
    REQUIRE(total == x.cols());
    REQUIRE_THROWS_AS(histogram(x, 0, 0, 1), ValueError);
    REQUIRE_THROWS_AS(histogram(x, 4, 1, 1), ValueError);
    REQUIRE_THROWS_AS(histogram(x, 4, 0, INFINITY), ValueError);
}

TEST_CASE("dot_geometry: q·k = |q||k|cos θ", "[inspect]") {
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
          "[inspect]") {
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

TEST_CASE("permute_rows and max_abs_diff", "[inspect]") {
    const Matrix M{{1, 1}, {2, 2}, {3, 3}};
    REQUIRE(permute_rows(M, {2, 0, 1}).to_vector() == std::vector<float>{3, 3, 1, 1, 2, 2});
    REQUIRE_THROWS_WITH(permute_rows(M, {0, 0, 1}), Contains("exactly once"));
    REQUIRE_THROWS_AS(permute_rows(M, {0, 1, 3}), ValueError);
    REQUIRE_THROWS_WITH(permute_rows(M, {0, 1}), Contains("3x2") && Contains("2 entries"));
    REQUIRE(max_abs_diff(M, permute_rows(M, {0, 2, 1})) == 1.0f);
    REQUIRE(max_abs_diff(Matrix{{INFINITY, 1}}, Matrix{{INFINITY, 1}}) == 0.0f);
    REQUIRE(std::isinf(max_abs_diff(Matrix{{INFINITY}}, Matrix{{1}})));
    REQUIRE(std::isnan(max_abs_diff(Matrix{{NAN}}, Matrix{{1}})));
    REQUIRE(max_abs_diff(Matrix(0, 0), Matrix(0, 0)) == 0.0f);
    REQUIRE_THROWS_AS(max_abs_diff(M, Matrix(2, 2)), ShapeError);
}

TEST_CASE("normalize_weights makes non-negative weights sum to 1, and rejects the rest", "[inspect]") {
    const Matrix w = normalize_weights(Matrix{{1, 1, 2}, {0, 0, 5}});
    REQUIRE_THAT(w(0, 2), WithinAbs(0.5, 1e-7));
    REQUIRE(w(1, 2) == 1.0f);
    REQUIRE_THROWS_WITH(normalize_weights(Matrix{{0, 0}}), Contains("sums to 0"));
    REQUIRE_THROWS_WITH(normalize_weights(Matrix{{1, -1}}), Contains(">= 0"));
    REQUIRE_THROWS_AS(normalize_weights(Matrix{{1, NAN}}), ValueError);
    REQUIRE_THROWS_AS(normalize_weights(Matrix{{1, INFINITY}}), ValueError);
}

TEST_CASE("column_range", "[inspect]") {
    const Matrix r = column_range(Matrix{{1, 0}, {0, 1}, {1, 1}});
    REQUIRE(r.to_vector() == std::vector<float>{0, 0, 1, 1});
    REQUIRE_THROWS_AS(column_range(Matrix(0, 2)), ValueError);
}

TEST_CASE("convex hull: counter-clockwise vertices, interior, collinear and repeated points dropped", "[inspect]") {
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

// Stage: reductions of a matrix and the element-wise helpers (reductions.hpp): the
// kernel-backed reductions against attn::reference on swept sizes, argmax, permutations,
// ranges, and their errors.
#include "helpers.hpp"

TEST_CASE("row and column sums, row max, row dots and norms match the reference", "[reductions]") {
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

TEST_CASE("row and column sums, argmax, add", "[reductions]") {
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

TEST_CASE("attention weights: rows sum to 1, column sums lie in [0, n] and add up to n", "[reductions]") {
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

TEST_CASE("normalize_rows, difference and diagonal", "[reductions]") {
    const Matrix X{{3, 4}, {0, 0}, {-1, 0}};
    const Matrix N = normalize_rows(X);
    require_close(N, Matrix{{0.6f, 0.8f}, {0, 0}, {-1, 0}}, 1e-6, 1e-7);
    require_close(row_norms(normalize_rows(X, 2.5f)), Matrix{{2.5f}, {0}, {2.5f}}, 1e-6, 1e-6);
    require_close(difference(X, N), Matrix{{2.4f, 3.2f}, {0, 0}, {0, 0}}, 1e-6, 1e-6);
    require_close(diagonal(Matrix{{1, 2, 3}, {4, 5, 6}}), Matrix{{1}, {5}}, 0, 0);
    REQUIRE_THROWS_AS(difference(X, Matrix(2, 3)), ShapeError);
    REQUIRE_THROWS_AS(normalize_rows(X, -1), ValueError);
}

TEST_CASE("permute_rows and max_abs_diff", "[reductions]") {
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

TEST_CASE("normalize_weights makes non-negative weights sum to 1, and rejects the rest", "[reductions]") {
    const Matrix w = normalize_weights(Matrix{{1, 1, 2}, {0, 0, 5}});
    REQUIRE_THAT(w(0, 2), WithinAbs(0.5, 1e-7));
    REQUIRE(w(1, 2) == 1.0f);
    REQUIRE_THROWS_WITH(normalize_weights(Matrix{{0, 0}}), Contains("sums to 0"));
    REQUIRE_THROWS_WITH(normalize_weights(Matrix{{1, -1}}), Contains(">= 0"));
    REQUIRE_THROWS_AS(normalize_weights(Matrix{{1, NAN}}), ValueError);
    REQUIRE_THROWS_AS(normalize_weights(Matrix{{1, INFINITY}}), ValueError);
}

TEST_CASE("column_range", "[reductions]") {
    const Matrix r = column_range(Matrix{{1, 0}, {0, 1}, {1, 1}});
    REQUIRE(r.to_vector() == std::vector<float>{0, 0, 1, 1});
    REQUIRE_THROWS_AS(column_range(Matrix(0, 2)), ValueError);
}

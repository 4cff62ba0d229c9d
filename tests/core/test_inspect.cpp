// The inspection helpers (attn/inspect.hpp): sums, argmax, add, permutations, the
// largest difference, row normalisation, column ranges and the convex hull.
#include "helpers.hpp"

using namespace attn;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

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

// Stage: the matrix (matrix.hpp): construction, views, alignment, the size limit and the
// typed errors every allocation and view gives before any memory is touched.
#include "helpers.hpp"

TEST_CASE("Matrix construction, element access and views", "[matrix]") {
    Matrix m{{1, 2, 3}, {4, 5, 6}};
    REQUIRE(m.rows() == 2);
    REQUIRE(m.cols() == 3);
    REQUIRE(m(1, 2) == 6.0f);
    REQUIRE(m.shape() == "2x3");
    const ConstMatrixView b = m.cols_block(1, 2);
    REQUIRE(b.shape() == "2x2");
    REQUIRE(b(1, 0) == 5.0f);
    REQUIRE(b.stride() == 3);
    REQUIRE(Matrix(b).to_vector() == std::vector<float>{2, 3, 5, 6});
    REQUIRE_THROWS_AS(m.cols_block(2, 2), ShapeError);
    REQUIRE_THROWS_AS((Matrix{{1, 2}, {3}}), ShapeError);
    REQUIRE_THROWS_AS(Matrix(2, 2, std::vector<float>{1, 2, 3}), ShapeError);
}

TEST_CASE("storage is SIMD-aligned", "[matrix]") {
    const Matrix m(3, 7);
    REQUIRE(reinterpret_cast<std::uintptr_t>(m.data()) % kAlignment == 0);
}

TEST_CASE("allocations past kMaxElements throw SizeError before allocating", "[matrix]") {
    REQUIRE_THROWS_AS(Matrix(kMaxElements, 2), SizeError);
    REQUIRE_THROWS_AS(Matrix(std::size_t(1) << 40, std::size_t(1) << 40), SizeError);
    REQUIRE_THROWS_AS(causal_mask(1u << 20, 1u << 20), SizeError);
}

TEST_CASE("sizes past kMaxElements, rows x cols overflowing size_t, bad views: typed errors", "[matrix]") {
    REQUIRE_THROWS_AS(Matrix(std::size_t{1} << 15, (std::size_t{1} << 13) + 1), SizeError);
    REQUIRE_THROWS_WITH(Matrix(kHuge, 2), Catch::Matchers::Contains("longer than the limit"));
    REQUIRE_THROWS_AS(Matrix(kHuge, kHuge, std::vector<float>{}), SizeError);
    REQUIRE_NOTHROW(check_size(kMaxElements, 1, "x"));
    REQUIRE_THROWS_AS(check_size(kMaxElements + 1, 1, "x"), SizeError);
    const Matrix A(3, 4, 1.0f);
    REQUIRE_THROWS_AS((Matrix{{1, 2}, {3}}), ShapeError);
    REQUIRE_THROWS_AS(Matrix(2, 2, std::vector<float>{1, 2, 3}), ShapeError);
    REQUIRE_THROWS_AS(A.cols_block(3, 2), ShapeError);
    REQUIRE_THROWS_AS(A.cols_block(kHuge, 2), ShapeError);
    // Views: overlapping rows and null data are refused.
    float buf[8] = {};
    REQUIRE_THROWS_AS(ConstMatrixView(buf, 2, 4, 3), ShapeError);
    REQUIRE_THROWS_AS(MatrixView(buf, 2, 4, 2), ShapeError);
    REQUIRE_THROWS_AS(ConstMatrixView(nullptr, 2, 4, 4), ValueError);
    REQUIRE_NOTHROW(ConstMatrixView(buf, 1, 8, 0));  // one row: the stride is never used
    REQUIRE_NOTHROW(ConstMatrixView(nullptr, 0, 4, 4));
    // MatrixD, the double path's matrix, has the same limits.
    REQUIRE_THROWS_AS(f64::MatrixD(kHuge, 2), SizeError);
    REQUIRE_THROWS_AS(f64::MatrixD(2, 2, std::vector<double>{1, 2, 3}), ShapeError);
    REQUIRE(f64::MatrixD(Matrix{{1.5f, -2}}).to_float().to_vector() == std::vector<float>{1.5f, -2});
}

// Regressions from the fuzz targets (inputs kept in tests/fuzz/regressions/).
TEST_CASE("fuzz regression: column blocks of an empty matrix (null data) are valid empty views", "[matrix][regression]") {
    // fuzz_multihead: cols_block added an offset to the null pointer of an empty matrix (UB).
    const Matrix empty(0, 4);
    const ConstMatrixView v = empty.cols_block(2, 2);
    REQUIRE(v.rows() == 0);
    REQUIRE(v.cols() == 2);
    REQUIRE(split_heads(empty, 2).size() == 2);
    REQUIRE(Matrix(3, 0).cols_block(0, 0).cols() == 0);
    MultiHeadOptions o;
    o.heads = 2;
    REQUIRE_THROWS_AS(multi_head_attention(empty, {Matrix(4, 4), Matrix(4, 4), Matrix(4, 4), Matrix(4, 2)}, o), ValueError);
}

TEST_CASE("fuzz regression: a huge side with nothing in it is refused, not looped over", "[matrix][regression]") {
    // fuzz_sizes: causal_mask(2^28, 0) looped over 2^28 empty rows; (2^64 − 1, 0) never ended.
    REQUIRE(causal_mask(kMaxElements, 0).rows() == kMaxElements);
    REQUIRE_THROWS_AS(causal_mask(kHuge, 0), SizeError);
    REQUIRE_THROWS_AS(Matrix(kHuge, 0), SizeError);
    REQUIRE_THROWS_AS(Matrix(0, kMaxElements + 1), SizeError);
    float x = 0;
    REQUIRE_THROWS_AS(ConstMatrixView(&x, kHuge, 0, 0), SizeError);
    REQUIRE_THROWS_AS(softmax(ConstMatrixView(&x, kHuge, 0, 0)), SizeError);
}

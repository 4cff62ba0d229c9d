#include "helpers.hpp"

using namespace attn;

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

// Stage: matrix products (linalg.hpp) against attn::reference on swept shapes: 1, lanes − 1,
// lanes, lanes + 1 and odd sizes, and every blocking edge of the packed GEMM, so both the
// vector loops and the scalar tails run.
#include "helpers.hpp"

TEST_CASE("matmul and matmul_bt match the reference", "[linalg]") {
    const std::size_t m = GENERATE(1, 3, 5);
    const std::size_t k = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    const std::size_t n = GENERATE(1, 5, 17);
    CAPTURE(m, k, n);
    const Matrix A = random_matrix(m, k, 1), B = random_matrix(k, n, 2), Bt = random_matrix(n, k, 3);
    require_close(matmul(A, B), reference::matmul(A, B), 1e-5, 1e-5, "matmul");
    require_close(matmul_bt(A, Bt), reference::matmul_bt(A, Bt), 1e-5, 1e-5, "matmul_bt");
}

// The packed GEMM (core/src/kernels/gemm.hpp) blocks C into kMR x kNR register tiles
// (6 x 16 with AVX2, 6 x 64 with AVX-512, 2 x 16 in WebAssembly) and A, B into kMC = 120 rows, kKC = 256 depth
// steps and kNC = 3072 columns. These shapes sit on each edge: one below, on, one above,
// and a second block with a remainder.
TEST_CASE("matmul and matmul_bt across the GEMM's blocking edges", "[linalg]") {
    struct Shape {
        std::size_t m, k, n;
    };
    const Shape shape = GENERATE(Shape{4, 8, 8}, Shape{5, 7, 15}, Shape{6, 16, 16}, Shape{7, 17, 17},
                                 Shape{13, 33, 33}, Shape{119, 31, 40}, Shape{120, 9, 48}, Shape{121, 12, 47},
                                 Shape{241, 5, 3}, Shape{9, 255, 20}, Shape{9, 256, 20}, Shape{9, 257, 20},
                                 Shape{14, 513, 19}, Shape{3, 6, 3071}, Shape{3, 6, 3072}, Shape{2, 3, 3073},
                                 Shape{125, 260, 35}, Shape{5, 9, 63}, Shape{7, 9, 64}, Shape{13, 9, 65},
                                 Shape{8, 70, 129});
    CAPTURE(shape.m, shape.k, shape.n);
    const Matrix A = random_matrix(shape.m, shape.k, 50), B = random_matrix(shape.k, shape.n, 51),
                 Bt = random_matrix(shape.n, shape.k, 52);
    // k products of unit-sized terms: float error grows like k·2⁻²³ in the worst case.
    const double abs_tol = 4.0 * double(shape.k) * 1.2e-7;
    require_close(matmul(A, B), reference::matmul(A, B), 1e-5, abs_tol, "matmul");
    require_close(matmul_bt(A, Bt), reference::matmul_bt(A, Bt), 1e-5, abs_tol, "matmul_bt");
    // Misaligned starts and a row stride: a view that begins one column in.
    const Matrix Aw = random_matrix(shape.m, shape.k + 3, 53), Bw = random_matrix(shape.k, shape.n + 2, 54);
    const ConstMatrixView Av = Aw.cols_block(1, shape.k), Bv = Bw.cols_block(1, shape.n);
    require_close(matmul(Av, Bv), reference::matmul(Matrix(Av), Matrix(Bv)), 1e-5, abs_tol, "views");
}

TEST_CASE("matmul works on strided views (one head's columns)", "[linalg]") {
    const Matrix X = random_matrix(5, 12, 4), Y = random_matrix(7, 12, 5);
    const ConstMatrixView Xh = X.cols_block(4, 4), Yh = Y.cols_block(4, 4);
    require_close(matmul_bt(Xh, Yh), reference::matmul_bt(Matrix(Xh), Matrix(Yh)));
}

TEST_CASE("transpose swaps rows and columns", "[linalg]") {
    const Matrix A = random_matrix(3, 5, 6);
    const Matrix T = transpose(A);
    REQUIRE(T.rows() == 5);
    REQUIRE(T.cols() == 3);
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 5; ++j) REQUIRE(T(j, i) == A(i, j));
}

TEST_CASE("matrix products: shapes that do not chain are ShapeErrors, empty inner dimensions give zeros", "[linalg]") {
    const Matrix A(3, 4, 1.0f), B(5, 2, 1.0f);
    REQUIRE_THROWS_AS(matmul(A, B), ShapeError);
    REQUIRE_THROWS_AS(matmul_bt(A, B), ShapeError);
    REQUIRE(matmul(Matrix(2, 0), Matrix(0, 3)).to_vector() == std::vector<float>(6, 0.0f));
    REQUIRE_FALSE(simd_name().empty());
}

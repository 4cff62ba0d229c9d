// Every xsimd stage against attn::reference on swept shapes: 1, lanes - 1, lanes,
// lanes + 1 and odd sizes, so both the vector loop and the scalar tail run.
#include "helpers.hpp"

using namespace attn;
using attn::test::random_matrix;
using attn::test::require_close;

namespace {
// Column counts that hit the tails of 4-lane (wasm, SSE) and 8-lane (AVX) batches.
const std::size_t kSizes[] = {1, 3, 4, 5, 7, 8, 9, 16, 17, 33};
}  // namespace

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
// (6 x 16 with AVX2, 2 x 16 in WebAssembly) and A, B into kMC = 120 rows, kKC = 256 depth
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
                                 Shape{125, 260, 35});
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

TEST_CASE("scores, scale, masks and softmax match the reference", "[attention]") {
    const std::size_t Tq = GENERATE(1, 3, 9);
    const std::size_t Tk = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    const std::size_t dk = GENERATE(1, 4, 17);
    CAPTURE(Tq, Tk, dk);
    const Matrix Q = random_matrix(Tq, dk, 10, -2, 2), K = random_matrix(Tk, dk, 11, -2, 2);
    const Matrix S = scores(Q, K);
    require_close(S, reference::scores(Q, K), 1e-5, 1e-5, "scores");
    const Matrix Ss = scale(S, 0.5f);
    require_close(Ss, reference::scale(S, 0.5f), 0, 0, "scale");
    const Matrix M = causal_mask(Tq, Tk);
    require_close(M, reference::causal_mask(Tq, Tk), 0, 0, "causal_mask");
    const Matrix Sm = add_mask(Ss, M);
    require_close(Sm, reference::add_mask(Ss, M), 0, 0, "add_mask");
    // xsimd's exp is within ~2 ulp; normalising adds a few more.
    require_close(softmax(Sm, Axis::Rows), reference::softmax(Sm, Axis::Rows), 1e-5, 1e-6, "softmax rows");
    require_close(softmax(Ss, Axis::Cols), reference::softmax(Ss, Axis::Cols), 1e-5, 1e-6, "softmax cols");
}

TEST_CASE("weighted_sum matches the reference", "[attention]") {
    const std::size_t Tk = GENERATE(1, 3, 8, 17);
    const std::size_t dv = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    CAPTURE(Tk, dv);
    const Matrix P = softmax(random_matrix(4, Tk, 20, -3, 3));
    const Matrix V = random_matrix(Tk, dv, 21);
    require_close(weighted_sum(P, V), reference::weighted_sum(P, V), 1e-5, 1e-6);
}

TEST_CASE("attention keeps every stage and matches the reference", "[attention]") {
    const bool causal = GENERATE(false, true);
    const std::size_t Tq = GENERATE(1, 4, 7), Tk = GENERATE(1, 5, 9), dk = GENERATE(3, 8), dv = GENERATE(1, 5);
    CAPTURE(causal, Tq, Tk, dk, dv);
    const Matrix Q = random_matrix(Tq, dk, 30), K = random_matrix(Tk, dk, 31), V = random_matrix(Tk, dv, 32);
    AttentionOptions o;
    o.causal = causal;
    const Trace got = attention(Q, K, V, o);
    const Trace want = reference::attention(Q, K, V, o);
    REQUIRE(got.scale == Approx(1.0 / std::sqrt(double(dk))));
    require_close(got.scores, want.scores, 1e-5, 1e-5, "scores");
    require_close(got.scaled, want.scaled, 1e-5, 1e-5, "scaled");
    require_close(got.masked, want.masked, 1e-5, 1e-5, "masked");
    require_close(got.weights, want.weights, 1e-5, 1e-6, "weights");
    require_close(got.dropped, got.weights, 0, 0, "no dropout in evaluation mode");
    require_close(got.output, want.output, 1e-5, 1e-5, "output");
}

TEST_CASE("attention with a custom additive mask and a custom scale", "[attention]") {
    const Matrix Q = random_matrix(3, 4, 40), K = random_matrix(5, 4, 41), V = random_matrix(5, 2, 42);
    Matrix M(3, 5, 0.0f);
    M(0, 1) = -INFINITY;
    M(2, 4) = -1.5f;
    AttentionOptions o;
    o.mask = M;
    o.scale = 1.0f;
    const Trace got = attention(Q, K, V, o), want = reference::attention(Q, K, V, o);
    REQUIRE(got.scale == 1.0f);
    require_close(got.masked, want.masked);
    REQUIRE(got.weights(0, 1) == 0.0f);
    require_close(got.output, want.output);
}

// analysis.hpp: the reductions against attn::reference on swept sizes, the softmax
// parts and gradient against their definitions (and finite differences), the variance
// experiment's statistics, and the documented errors.
#include "helpers.hpp"

#include <limits>

#include "attn/inspect.hpp"

using namespace attn;
using attn::test::random_matrix;
using attn::test::require_close;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {
// Column counts that hit the tails of 4-lane (wasm, SSE) and 8-lane (AVX) batches.
const std::size_t kSizes[] = {1, 3, 4, 5, 7, 8, 9, 16, 17, 33};
}  // namespace

TEST_CASE("row and column sums, row max, row dots and norms match the reference", "[analysis]") {
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

TEST_CASE("normalize_rows, difference and diagonal", "[analysis]") {
    const Matrix X{{3, 4}, {0, 0}, {-1, 0}};
    const Matrix N = normalize_rows(X);
    require_close(N, Matrix{{0.6f, 0.8f}, {0, 0}, {-1, 0}}, 1e-6, 1e-7);
    require_close(row_norms(normalize_rows(X, 2.5f)), Matrix{{2.5f}, {0}, {2.5f}}, 1e-6, 1e-6);
    require_close(difference(X, N), Matrix{{2.4f, 3.2f}, {0, 0}, {0, 0}}, 1e-6, 1e-6);
    require_close(diagonal(Matrix{{1, 2, 3}, {4, 5, 6}}), Matrix{{1}, {5}}, 0, 0);
    REQUIRE_THROWS_AS(difference(X, Matrix(2, 3)), ShapeError);
    REQUIRE_THROWS_AS(normalize_rows(X, -1), ValueError);
}

TEST_CASE("moments: mean, population variance, min and max", "[analysis]") {
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

TEST_CASE("histogram: equal bins, edges, outliers, the top edge", "[analysis]") {
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

TEST_CASE("dot_geometry: q·k = |q||k|cos θ", "[analysis]") {
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
          "[analysis]") {
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

TEST_CASE("separate W_Q and W_K make scores asymmetric, a shared projection keeps them symmetric",
          "[analysis]") {
    const Matrix X = random_matrix(4, 6, 700), Wq = random_matrix(6, 3, 701), Wk = random_matrix(6, 3, 702);
    const Matrix Q = matmul(X, Wq), K = matmul(X, Wk);
    const Matrix S = scores(Q, K);
    const Matrix D = difference(S, transpose(S));
    REQUIRE(moments(D).max > 1e-3);
    const Matrix Sq = scores(Q, Q);
    require_close(difference(Sq, transpose(Sq)), Matrix(4, 4, 0.0f), 0, 1e-6, "shared W");
}

TEST_CASE("softmax_parts: every intermediate, consistent with softmax", "[analysis]") {
    const std::size_t cols = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    const Matrix S = random_matrix(3, cols, 800 + std::uint32_t(cols), -6, 6);
    for (Axis axis : {Axis::Rows, Axis::Cols}) {
        INFO("cols " << cols << (axis == Axis::Rows ? " rows" : " cols"));
        const SoftmaxParts p = softmax_parts(S, axis);
        const SoftmaxParts r = reference::softmax_parts(S, axis);
        // The weights are exactly those of softmax (attention's).
        require_close(p.weights, softmax(S, axis), 0, 0, "weights");
        require_close(p.max, r.max, 0, 0, "max");
        require_close(p.shifted, r.shifted, 1e-6, 1e-6, "shifted");
        require_close(p.exp, r.exp, 1e-5, 1e-6, "exp");
        require_close(p.sums, r.sums, 1e-5, 1e-5, "sums");
        require_close(p.exp_raw, r.exp_raw, 1e-6, 1e-9, "exp_raw");
        require_close(p.sums_raw, r.sums_raw, 1e-6, 1e-9, "sums_raw");
        // e / Σe = e_raw / Σe_raw = weights.
        for (std::size_t i = 0; i < S.rows(); ++i)
            for (std::size_t j = 0; j < S.cols(); ++j) {
                const std::size_t o = axis == Axis::Rows ? i : j;
                const float sum = axis == Axis::Rows ? p.sums(o, 0) : p.sums(0, o);
                const float raw = axis == Axis::Rows ? p.sums_raw(o, 0) : p.sums_raw(0, o);
                REQUIRE_THAT(p.exp(i, j) / sum, WithinAbs(p.weights(i, j), 1e-6));
                REQUIRE_THAT(p.exp_raw(i, j) / raw, WithinAbs(p.weights(i, j), 1e-6));
                REQUIRE(p.exp(i, j) > 0.0f);
                REQUIRE(p.exp(i, j) <= 1.0f);  // shifted by the max: e^{≤0}
            }
    }
    // Shapes of the per-row / per-column vectors.
    REQUIRE(softmax_parts(S, Axis::Rows).sums.shape() == "3x1");
    REQUIRE(softmax_parts(S, Axis::Cols).sums.shape() == shape_str(1, cols));
}

TEST_CASE("softmax_parts: huge scores overflow e^x but not the shifted path, masked rows", "[analysis]") {
    const SoftmaxParts p = softmax_parts(Matrix{{100, 0, -INFINITY}, {-INFINITY, -INFINITY, -INFINITY}});
    REQUIRE(std::isinf(p.exp_raw(0, 0)));
    REQUIRE(std::isinf(p.sums_raw(0, 0)));
    REQUIRE(p.exp(0, 0) == 1.0f);
    REQUIRE(p.exp(0, 2) == 0.0f);
    REQUIRE(std::isfinite(p.sums(0, 0)));
    REQUIRE(p.weights(0, 2) == 0.0f);
    // Fully masked row: no NaN anywhere, zero exps and weights.
    for (std::size_t j = 0; j < 3; ++j) {
        REQUIRE(p.exp(1, j) == 0.0f);
        REQUIRE(p.weights(1, j) == 0.0f);
        REQUIRE(p.shifted(1, j) == -INFINITY);
    }
    REQUIRE(p.sums(1, 0) == 0.0f);
    REQUIRE(p.max(1, 0) == -INFINITY);
}

TEST_CASE("softmax Jacobian: diagonal p(1 − p), full matrix against finite differences", "[analysis]") {
    const Matrix s{{0.3f, -1.2f, 2.0f, 0.0f, 0.7f}};
    const Matrix p = softmax(s);
    const Matrix J = softmax_jacobian(p);
    const Matrix diag = softmax_jacobian_diag(p);
    const double h = 1e-3;
    for (std::size_t j = 0; j < 5; ++j) {
        // Central difference of softmax with respect to s_j, in double.
        auto soft = [&](double dj) {
            std::vector<double> e(5);
            double sum = 0;
            for (std::size_t k = 0; k < 5; ++k) sum += e[k] = std::exp(double(s(0, k)) + (k == j ? dj : 0.0));
            for (auto& v : e) v /= sum;
            return e;
        };
        const auto up = soft(h), down = soft(-h);
        for (std::size_t i = 0; i < 5; ++i) {
            INFO("dp_" << i << "/ds_" << j);
            // Central differences: error O(h²) ≈ 1e-6, float rounding of p ≈ 1e-7.
            REQUIRE_THAT(J(i, j), WithinAbs((up[i] - down[i]) / (2 * h), 2e-6));
        }
        REQUIRE(diag(0, j) == J(j, j));
    }
    // Each column of J sums to 0 (the weights always sum to 1).
    const Matrix cs = col_sums(J);
    for (std::size_t j = 0; j < 5; ++j) REQUIRE_THAT(cs(0, j), WithinAbs(0.0, 1e-7));
    REQUIRE_THROWS_AS(softmax_jacobian(Matrix(2, 3)), ShapeError);
}

TEST_CASE("scaling_effect: same ranking, larger gradient, errors", "[analysis]") {
    const Matrix S{{8, 0, -8}, {0, 3, 1}};
    const ScalingEffect e = scaling_effect(S, 0.125f);
    REQUIRE(e.top(0, 0) == 0.0f);
    REQUIRE(e.top(1, 0) == 1.0f);
    for (std::size_t i = 0; i < 2; ++i) {
        REQUIRE(e.grad_top_scaled(i, 0) > e.grad_top(i, 0));
        REQUIRE(e.ratio(i, 0) > 1.0f);
        // Positive scaling keeps the order of every row.
        for (std::size_t j = 0; j + 1 < 3; ++j)
            REQUIRE((e.weights(i, j) < e.weights(i, j + 1)) == (e.weights_scaled(i, j) < e.weights_scaled(i, j + 1)));
    }
    require_close(e.scaled, scale(S, 0.125f), 0, 0);
    REQUIRE_THROWS_AS(scaling_effect(S, 0), ValueError);
    REQUIRE_THROWS_AS(scaling_effect(S, -1), ValueError);
    REQUIRE_THROWS_AS(scaling_effect(S, INFINITY), ValueError);
}

TEST_CASE("score_scale is the factor attention uses", "[analysis]") {
    const std::size_t dk = GENERATE(1, 2, 3, 64, 100, 512);
    const ScoreScale s = score_scale(dk);
    REQUIRE_THAT(s.sqrt_dk * s.sqrt_dk, WithinRel(double(dk), 1e-12));
    const Matrix Q = random_matrix(2, dk, 900), K = random_matrix(3, dk, 901), V = random_matrix(3, 2, 902);
    REQUIRE(attention(Q, K, V).scale == s.factor);
    REQUIRE_THROWS_AS(score_scale(0), ValueError);
}

TEST_CASE("sample_dot_products: Var(q·k) ≈ d_k, ≈ 1 after ÷√d_k, deterministic under a seed", "[analysis]") {
    const std::size_t dk = GENERATE(4, 16, 64, 512);
    const std::size_t n = 4000;
    const DotProductSample s = sample_dot_products(dk, n, 7);
    INFO("d_k = " << dk << ", measured variance " << s.raw.variance << ", after scaling " << s.normalized.variance);
    REQUIRE(s.dots.shape() == shape_str(n, 1));
    REQUIRE(s.expected_variance == double(dk));
    // Statistical model: for q·k with d_k independent N(0,1)·N(0,1) terms, Var = d_k and
    // the fourth central moment is 3d_k² + 6d_k, so the sample variance has standard
    // error √((2d_k² + 6d_k)/n). Five standard errors; the seed is fixed, so no flakes.
    const double se = std::sqrt((2.0 * dk * dk + 6.0 * dk) / double(n));
    REQUIRE(std::abs(s.raw.variance - double(dk)) <= 5 * se);
    REQUIRE(std::abs(s.normalized.variance - 1.0) <= 5 * se / double(dk));
    REQUIRE(std::abs(s.raw.mean) <= 5 * std::sqrt(double(dk) / double(n)));
    // The scaled samples are the raw ones times 1/√d_k.
    for (std::size_t i = 0; i < 20; ++i) REQUIRE(s.scaled(i, 0) == s.dots(i, 0) * score_scale(dk).factor);
    // Same seed, same numbers; another seed, other numbers; more samples extend fewer.
    const DotProductSample again = sample_dot_products(dk, n, 7);
    require_close(again.dots, s.dots, 0, 0, "same seed");
    REQUIRE(sample_dot_products(dk, n, 8).dots(0, 0) != s.dots(0, 0));
    const DotProductSample fewer = sample_dot_products(dk, 100, 7);
    for (std::size_t i = 0; i < 100; ++i) REQUIRE(fewer.dots(i, 0) == s.dots(i, 0));
}

TEST_CASE("sample_dot_products: errors", "[analysis]") {
    REQUIRE_THROWS_AS(sample_dot_products(0, 10, 1), ValueError);
    REQUIRE_THROWS_AS(sample_dot_products(4, 0, 1), ValueError);
    REQUIRE_THROWS_AS(sample_dot_products(std::size_t(1) << 20, std::size_t(1) << 20, 1), SizeError);
}

// Stage: the scores S = Q Kᵀ and their scale (attention.hpp), and the numbers the page shows
// about them (score_scale.hpp: scaling_effect, score_scale, the q·k variance experiment behind
// 1/√d_k, Vaswani et al. 2017, footnote 4).
#include "helpers.hpp"

TEST_CASE("scores and scale match the reference on swept sizes", "[scores]") {
    const std::size_t Tq = GENERATE(1, 3, 9);
    const std::size_t Tk = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    const std::size_t dk = GENERATE(1, 4, 17);
    CAPTURE(Tq, Tk, dk);
    const Matrix Q = random_matrix(Tq, dk, 10, -2, 2), K = random_matrix(Tk, dk, 11, -2, 2);
    const Matrix S = scores(Q, K);
    require_close(S, reference::scores(Q, K), 1e-5, 1e-5, "scores");
    require_close(scale(S, 0.5f), reference::scale(S, 0.5f), 0, 0, "scale");
}

TEST_CASE("separate W_Q and W_K make scores asymmetric, a shared projection keeps them symmetric",
          "[scores]") {
    const Matrix X = random_matrix(4, 6, 700), Wq = random_matrix(6, 3, 701), Wk = random_matrix(6, 3, 702);
    const Matrix Q = matmul(X, Wq), K = matmul(X, Wk);
    const Matrix S = scores(Q, K);
    const Matrix D = difference(S, transpose(S));
    REQUIRE(moments(D).max > 1e-3);
    const Matrix Sq = scores(Q, Q);
    require_close(difference(Sq, transpose(Sq)), Matrix(4, 4, 0.0f), 0, 1e-6, "shared W");
}

TEST_CASE("scaling_effect: same ranking, larger gradient, errors", "[scores]") {
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

TEST_CASE("score_scale is the factor attention uses", "[scores]") {
    const std::size_t dk = GENERATE(1, 2, 3, 64, 100, 512);
    const ScoreScale s = score_scale(dk);
    REQUIRE_THAT(s.sqrt_dk * s.sqrt_dk, WithinRel(double(dk), 1e-12));
    const Matrix Q = random_matrix(2, dk, 900), K = random_matrix(3, dk, 901), V = random_matrix(3, 2, 902);
    REQUIRE(attention(Q, K, V).scale == s.factor);
    REQUIRE_THROWS_AS(score_scale(0), ValueError);
}

TEST_CASE("sample_dot_products: Var(q·k) ≈ d_k, ≈ 1 after ÷√d_k, deterministic under a seed", "[scores]") {
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
    // A draw in pieces: pairs first .. first + count − 1 are those rows of the whole draw.
    const DotProductSample tail = sample_dot_products(dk, 300, 7, 100);
    REQUIRE(tail.first == 100);
    REQUIRE(tail.dots.shape() == shape_str(300, 1));
    for (std::size_t i = 0; i < 300; ++i) REQUIRE(tail.dots(i, 0) == s.dots(100 + i, 0));
    REQUIRE(tail.raw.count == 300);
}

TEST_CASE("random_normal_rows: rows of the whole draw, bit for bit", "[random]") {
    const Matrix whole = random_normal(9, 5, 42, 0.5f, 2.0f);
    const Matrix rows = random_normal_rows(3, 4, 5, 42, 0.5f, 2.0f);
    REQUIRE(rows.shape() == shape_str(4, 5));
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 5; ++j) REQUIRE(rows(i, j) == whole(3 + i, j));
    require_close(random_normal_rows(0, 9, 5, 42, 0.5f, 2.0f), whole, 0, 0, "first = 0");
    REQUIRE_THROWS_AS(random_normal_rows(kMaxElements + 1, 1, 1, 1), SizeError);
}

TEST_CASE("sample_dot_products: errors", "[scores]") {
    REQUIRE_THROWS_AS(sample_dot_products(0, 10, 1), ValueError);
    REQUIRE_THROWS_AS(sample_dot_products(4, 0, 1), ValueError);
    REQUIRE_THROWS_AS(sample_dot_products(4, 10, 1, kMaxElements), SizeError);
    REQUIRE_THROWS_AS(sample_dot_products(std::size_t(1) << 20, std::size_t(1) << 20, 1), SizeError);
}

TEST_CASE("scores and scale: typed errors", "[scores]") {
    const Matrix A(3, 4, 1.0f), B(5, 2, 1.0f);
    REQUIRE_THROWS_AS(scores(A, B), ShapeError);
    REQUIRE_THROWS_AS(scale(A, kNaN), ValueError);
    REQUIRE_THROWS_AS(scale(A, -kInf), ValueError);
    // T_q x T_k scores past the limit: refused before anything is allocated.
    const Matrix Q(20000, 1, 1.0f);
    REQUIRE_THROWS_AS(scores(Q, Q), SizeError);
}

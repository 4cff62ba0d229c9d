// Stage: the weighted sum O = P V (attention.hpp): against the reference, a zero weight
// takes nothing from its Value row, and the output stays in the range (the convex hull) of
// the Values it sees, with the two documented exceptions (CONTENT.md).
#include "helpers.hpp"

TEST_CASE("weighted_sum matches the reference", "[weighted-sum]") {
    const std::size_t Tk = GENERATE(1, 3, 8, 17);
    const std::size_t dv = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    CAPTURE(Tk, dv);
    const Matrix P = softmax(random_matrix(4, Tk, 20, -3, 3));
    const Matrix V = random_matrix(Tk, dv, 21);
    require_close(weighted_sum(P, V), reference::weighted_sum(P, V), 1e-5, 1e-6);
}

TEST_CASE("a zero weight takes nothing from its Value row, not even a NaN or ∞", "[weighted-sum]") {
    const Matrix P{{0.5f, 0.0f, 0.5f}, {0.0f, 1.0f, 0.0f}};
    const Matrix V{{1, 2}, {kNaN, kInf}, {3, 4}};
    for (const Matrix& O : {weighted_sum(P, V), reference::weighted_sum(P, V)}) {
        REQUIRE(O(0, 0) == 2.0f);
        REQUIRE(O(0, 1) == 3.0f);
        REQUIRE(std::isnan(O(1, 0)));
        REQUIRE(O(1, 1) == kInf);
    }
    REQUIRE_THROWS_AS(weighted_sum(Matrix(3, 4), Matrix(5, 2)), ShapeError);
}

// A non-finite Value makes weighted_sum skip zero weights one by one (a row-by-row
// multiply-add) instead of the packed GEMM: the other rows' bits must not change, whatever
// the width (vector loop and scalar tail). Fused on FMA hardware in both; before the scalar
// tail used kernels::madd, clang did not fuse it under the sanitizers and the last bit moved.
TEST_CASE("regression: a NaN Value under a zero weight changes no bit of the other outputs", "[weighted-sum][regression]") {
    const std::size_t dv = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    CAPTURE(dv);
    for (std::uint32_t seed = 0; seed < 20; ++seed) {
        const std::size_t Tk = 24, seen = 5 + seed % 7;  // weights on the first `seen` keys only
        Matrix P = softmax(random_matrix(3, Tk, 40 + seed, -3, 3));
        for (std::size_t i = 0; i < P.rows(); ++i)
            for (std::size_t j = seen; j < Tk; ++j) P(i, j) = 0.0f;
        Matrix V = random_matrix(Tk, dv, 60 + seed, -3, 3);
        const Matrix finite = weighted_sum(P, V);
        for (std::size_t j = seen; j < Tk; ++j) V(j, j % dv) = j % 2 ? kNaN : -kInf;
        const Matrix skipping = weighted_sum(P, V);
        CAPTURE(seed);
        for (std::size_t i = 0; i < P.rows(); ++i) REQUIRE(rows_identical(finite, skipping, i));
    }
}

TEST_CASE("a convex combination of Values never leaves their hull or their per-column range", "[weighted-sum]") {
    const std::size_t n = GENERATE(1, 2, 3, 5, 9);
    const std::uint32_t seed = GENERATE(1u, 2u, 3u);
    CAPTURE(n, seed);
    const Matrix V = random_matrix(n, 2, seed, -3, 3);
    const Matrix w = normalize_weights(random_matrix(4, n, seed + 100, 0, 1));
    const Matrix o = weighted_sum(w, V);
    const Matrix range = column_range(V);
    for (std::size_t i = 0; i < o.rows(); ++i) {
        const Matrix p{{o(i, 0), o(i, 1)}};
        // Float rounding of the sum can put a point on an edge a hair outside.
        REQUIRE(hull_distance(p, V) <= 1e-5);
        for (std::size_t c = 0; c < 2; ++c) {
            REQUIRE(o(i, c) >= range(0, c) - 1e-5f);
            REQUIRE(o(i, c) <= range(1, c) + 1e-5f);
        }
    }
}

TEST_CASE("the exceptions to 'outputs lie within the Values': a fully masked row, training dropout", "[weighted-sum]") {
    const auto ex = examples::weighted_sum();
    // A fully masked row: zero weights, zero output, which is outside this triangle.
    const Matrix masked = softmax(Matrix{{-INFINITY, -INFINITY, -INFINITY}});
    const Matrix zero = weighted_sum(masked, ex.V);
    REQUIRE(zero(0, 0) == 0.0f);
    REQUIRE(zero(0, 1) == 0.0f);
    REQUIRE_THAT(hull_distance(zero, ex.V), WithinAbs(std::sqrt(0.5), 1e-6));
    // Training-mode dropout rescales kept weights by 1/(1 − rate): the weights no longer
    // sum to 1 and the output can leave the hull. Some seed among the first few does.
    bool left = false;
    for (std::uint64_t seed = 0; seed < 16 && !left; ++seed) {
        const Matrix o = weighted_sum(dropout(ex.weights, 0.5f, seed), ex.V);
        left = hull_distance(o, ex.V) > 0.05;
    }
    REQUIRE(left);
}

TEST_CASE("property: each output lies in the per-column range of the Values it sees", "[weighted-sum][property]") {
    // Ordinary rows only (CONTENT.md): a fully masked row is 0, and training-mode
    // dropout scales by 1/(1 − rate); neither is used here except the masked rows, skipped.
    for (std::uint32_t seed = 301; seed <= 600; ++seed) {
        const Case c = random_case(seed);
        CAPTURE(seed, c.Q.shape(), c.K.shape(), c.V.shape());
        const Trace t = attention(c.Q, c.K, c.V, c.o);
        for (std::size_t i = 0; i < t.output.rows(); ++i)
            for (std::size_t k = 0; k < t.output.cols(); ++k) {
                float lo = INFINITY, hi = -INFINITY, colmin = INFINITY, colmax = -INFINITY;
                for (std::size_t j = 0; j < c.V.rows(); ++j) {
                    colmin = std::min(colmin, c.V(j, k));
                    colmax = std::max(colmax, c.V(j, k));
                    if (visible(c.o, i, j)) {
                        lo = std::min(lo, c.V(j, k));
                        hi = std::max(hi, c.V(j, k));
                    }
                }
                if (lo > hi) continue;  // fully masked row: output 0, checked above
                CAPTURE(i, k, lo, hi, t.output(i, k));
                // Weights sum to 1 within ~1e-6, so the convex combination may pass the
                // range by that much times the largest |V| (5).
                const float tol = 1e-5f;
                REQUIRE(t.output(i, k) >= lo - tol);
                REQUIRE(t.output(i, k) <= hi + tol);
                REQUIRE(t.output(i, k) >= colmin - tol);
                REQUIRE(t.output(i, k) <= colmax + tol);
            }
    }
}

// Property tests on random inputs (seeded, so a failure names its case): the rules of
// attention.hpp checked on hundreds of shapes, scales and masks rather than on a few
// hand-picked examples.
#include "helpers.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>

using namespace attn;

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// One random attention problem: shapes, magnitudes, causal flag and an optional mask
// with hidden entries and, now and then, fully hidden rows.
struct Case {
    std::uint32_t seed;
    Matrix Q, K, V;
    AttentionOptions o;
};

Case make_case(std::uint32_t seed, bool allow_mask = true) {
    std::mt19937 rng(seed);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    const std::size_t Tq = pick(1, 24), Tk = pick(1, 24), dk = pick(1, 19), dv = pick(1, 11);
    const float mag = std::vector<float>{0.1f, 1.0f, 3.0f, 10.0f}[pick(0, 3)];
    Case c{seed, test::random_matrix(Tq, dk, seed * 3 + 1, -mag, mag), test::random_matrix(Tk, dk, seed * 3 + 2, -mag, mag),
           test::random_matrix(Tk, dv, seed * 3 + 3, -5, 5), {}};
    c.o.causal = pick(0, 2) == 0;
    if (allow_mask && pick(0, 2) == 0) {
        Matrix M(Tq, Tk, 0.0f);
        for (std::size_t i = 0; i < Tq; ++i) {
            const bool all = pick(0, 5) == 0;
            for (std::size_t j = 0; j < Tk; ++j)
                if (all || pick(0, 3) == 0) M(i, j) = kNegInf;
                else M(i, j) = float(pick(0, 4)) - 2.0f;  // additive finite biases too
        }
        c.o.mask = M;
    }
    return c;
}

// Key j is visible to query i: not hidden by the causal mask nor by −∞ in the mask.
bool visible(const Case& c, std::size_t i, std::size_t j) {
    if (c.o.causal && j > i) return false;
    return !(c.o.mask && (*c.o.mask)(i, j) == kNegInf);
}
}  // namespace

TEST_CASE("property: rows of P sum to 1, or are all 0 when fully masked, hidden keys get exactly 0", "[properties]") {
    for (std::uint32_t seed = 1; seed <= 300; ++seed) {
        const Case c = make_case(seed);
        CAPTURE(seed, c.Q.shape(), c.K.shape(), c.o.causal, bool(c.o.mask));
        const Trace t = attention(c.Q, c.K, c.V, c.o);
        REQUIRE(t.nonfinite.clean());
        for (std::size_t i = 0; i < t.weights.rows(); ++i) {
            CAPTURE(i);
            double sum = 0;
            std::size_t seen = 0;
            for (std::size_t j = 0; j < t.weights.cols(); ++j) {
                const float p = t.weights(i, j);
                REQUIRE(p >= 0.0f);
                REQUIRE(p <= 1.0f);
                if (visible(c, i, j)) ++seen;
                else REQUIRE(p == 0.0f);
                sum += p;
            }
            if (seen == 0) {
                REQUIRE(sum == 0.0);
                for (std::size_t k = 0; k < t.output.cols(); ++k) REQUIRE(t.output(i, k) == 0.0f);
            } else {
                // ≤ 24 float terms, each within a few ulps after exp and one division.
                REQUIRE_THAT(sum, Catch::Matchers::WithinAbs(1.0, 1e-5));
            }
        }
    }
}

TEST_CASE("property: each output lies in the per-column range of the Values it sees", "[properties]") {
    // Ordinary rows only (CONTENT.md): a fully masked row is 0, and training-mode
    // dropout scales by 1/(1 − rate); neither is used here except the masked rows, skipped.
    for (std::uint32_t seed = 301; seed <= 600; ++seed) {
        const Case c = make_case(seed);
        CAPTURE(seed, c.Q.shape(), c.K.shape(), c.V.shape());
        const Trace t = attention(c.Q, c.K, c.V, c.o);
        for (std::size_t i = 0; i < t.output.rows(); ++i)
            for (std::size_t k = 0; k < t.output.cols(); ++k) {
                float lo = INFINITY, hi = -INFINITY, colmin = INFINITY, colmax = -INFINITY;
                for (std::size_t j = 0; j < c.V.rows(); ++j) {
                    colmin = std::min(colmin, c.V(j, k));
                    colmax = std::max(colmax, c.V(j, k));
                    if (visible(c, i, j)) {
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

TEST_CASE("property: permuting the tokens permutes the outputs (no mask, no positions, no dropout)", "[properties]") {
    for (std::uint32_t seed = 601; seed <= 800; ++seed) {
        std::mt19937 rng(seed);
        const std::size_t T = std::uniform_int_distribution<std::size_t>(1, 20)(rng);
        const std::size_t d = std::uniform_int_distribution<std::size_t>(1, 17)(rng);
        const Matrix X = test::random_matrix(T, d, seed, -2, 2);
        const Matrix V = test::random_matrix(T, 5, seed + 7, -2, 2);
        std::vector<std::size_t> perm(T);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        Matrix Xp(T, d), Vp(T, 5);
        for (std::size_t i = 0; i < T; ++i) {
            std::copy_n(X.row(perm[i]), d, Xp.row(i));
            std::copy_n(V.row(perm[i]), 5, Vp.row(i));
        }
        CAPTURE(seed, T, d);
        // Self-attention, Q = K = X: token perm[i] of the original sits at row i.
        const Trace a = attention(X, X, V), b = attention(Xp, Xp, Vp);
        Matrix back(T, 5);
        for (std::size_t i = 0; i < T; ++i) std::copy_n(a.output.row(perm[i]), 5, back.row(i));
        // Same terms summed in another order: a few ulps.
        test::require_close(b.output, back, 1e-5, 1e-6, "permuted outputs");
        // Permuting only the keys and values (same order for both) changes nothing.
        const Trace kv = attention(X, Xp, Vp);
        test::require_close(kv.output, a.output, 1e-5, 1e-6, "permuted keys and values");
    }
}

TEST_CASE("property: causal outputs do not depend on later tokens, even non-finite ones", "[properties]") {
    for (std::uint32_t seed = 801; seed <= 1000; ++seed) {
        std::mt19937 rng(seed);
        const std::size_t T = std::uniform_int_distribution<std::size_t>(2, 24)(rng);
        const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, T - 2)(rng);  // rows <= cut kept
        const std::size_t d = std::uniform_int_distribution<std::size_t>(1, 13)(rng);
        Matrix Q = test::random_matrix(T, d, seed, -3, 3), K = test::random_matrix(T, d, seed + 1, -3, 3),
               V = test::random_matrix(T, 4, seed + 2, -3, 3);
        AttentionOptions o;
        o.causal = true;
        const Trace a = attention(Q, K, V, o);
        // Rewrite every later token, sometimes with NaN or ±∞.
        const float specials[] = {NAN, INFINITY, -INFINITY, 1e30f, -7.0f};
        for (std::size_t i = cut + 1; i < T; ++i) {
            for (std::size_t j = 0; j < d; ++j) {
                Q(i, j) = specials[(i + j + seed) % 5];
                K(i, j) = specials[(i + 2 * j + seed) % 5];
            }
            for (std::size_t j = 0; j < 4; ++j) V(i, j) = specials[(3 * i + j + seed) % 5];
        }
        const Trace b = attention(Q, K, V, o);
        CAPTURE(seed, T, cut, d);
        for (std::size_t i = 0; i <= cut; ++i)
            for (std::size_t j = 0; j < 4; ++j) REQUIRE(a.output(i, j) == b.output(i, j));
    }
}

#if __has_include("attn/flash.hpp")
#include "attn/flash.hpp"
// Written before the tiled kernel was merged: it adapts to flash_attention's signature
// (options type = its 4th parameter, result = a Matrix or something with .output).
namespace {
template <class F> struct fn_args;
template <class R, class... A> struct fn_args<R (*)(A...)> {
    using result = R;
    using options = std::decay_t<std::tuple_element_t<3, std::tuple<A..., void, void, void, void>>>;
};
template <class T, class = void> struct has_causal : std::false_type {};
template <class T> struct has_causal<T, std::void_t<decltype(std::declval<T&>().causal)>> : std::true_type {};
template <class T, class = void> struct has_output : std::false_type {};
template <class T> struct has_output<T, std::void_t<decltype(std::declval<T&>().output)>> : std::true_type {};
}  // namespace

TEST_CASE("property: the tiled kernel equals plain attention within 1e-5 relative", "[properties][flash]") {
    using traits = fn_args<decltype(&attn::flash_attention)>;
    // Generic lambdas, so the branch that does not apply is never instantiated.
    const auto set_causal = [](auto& opts, bool causal) {
        if constexpr (has_causal<std::decay_t<decltype(opts)>>::value) opts.causal = causal;
        return has_causal<std::decay_t<decltype(opts)>>::value;
    };
    const auto output_of = [](const auto& r) -> const Matrix& {
        if constexpr (has_output<std::decay_t<decltype(r)>>::value) return r.output;
        else return r;
    };
    for (std::uint32_t seed = 1001; seed <= 1100; ++seed) {
        Case c = make_case(seed, false);
        typename traits::options fo{};
        if (!set_causal(fo, c.o.causal)) c.o.causal = false;
        const auto got = attn::flash_attention(c.Q, c.K, c.V, fo);
        const Trace want = attention(c.Q, c.K, c.V, c.o);
        CAPTURE(seed, c.Q.shape(), c.K.shape(), c.o.causal);
        test::require_close(output_of(got), want.output, 1e-5, 1e-6, "flash vs plain");
    }
}
#endif

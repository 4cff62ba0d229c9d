// Stage: sinusoidal positional encoding (positional.hpp), and why it is there: without it,
// attention is permutation-equivariant (seeds/004, "why positional encoding").
#include <algorithm>
#include <numeric>

#include "helpers.hpp"

TEST_CASE("positional encoding: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...), odd d included", "[positional]") {
    const std::size_t d = GENERATE(1, 3, 4, 5, 7, 8, 13);
    CAPTURE(d);
    const Matrix pe = sinusoidal_encoding(9, d), ang = sinusoid_angles(9, d);
    REQUIRE(pe.shape() == shape_str(9, d));
    for (std::size_t pos = 0; pos < 9; ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const std::size_t i = c / 2;
            const double angle = double(pos) / std::pow(10000.0, 2.0 * double(i) / double(d));
            REQUIRE_THAT(ang(pos, c), WithinAbs(angle, 1e-5 * (1 + angle)));
            REQUIRE_THAT(pe(pos, c), WithinAbs(c % 2 == 0 ? std::sin(angle) : std::cos(angle), 1e-6));
        }
    // Position 0 is [0, 1, 0, 1, ...]; with odd d the last column is a sine.
    REQUIRE(pe(0, d - 1) == ((d - 1) % 2 == 0 ? 0.0f : 1.0f));
}

TEST_CASE("positional encoding: typed errors and allowed edges", "[positional]") {
    REQUIRE_THROWS_AS(sinusoidal_encoding(3, 0), ValueError);
    REQUIRE_THROWS_AS(sinusoid_angles(3, 0), ValueError);
    REQUIRE_THROWS_AS(sinusoidal_encoding(3, 4, -1.0), ValueError);
    REQUIRE_THROWS_AS(sinusoidal_encoding(3, 4, std::numeric_limits<double>::quiet_NaN()), ValueError);
    REQUIRE_THROWS_AS(sinusoidal_encoding(kHuge, 3), SizeError);
    REQUIRE(sinusoidal_encoding(0, 4).shape() == "0x4");
}

namespace {
Matrix self_attention(ConstMatrixView X, const examples::Permutation& ex, bool causal = false,
                      DropoutOptions dropout = {}) {
    AttentionOptions o;
    o.causal = causal;
    o.dropout = dropout;
    return attention(matmul(X, ex.Wq), matmul(X, ex.Wk), matmul(X, ex.Wv), o).output;
}
}  // namespace

TEST_CASE("seed 004: without positional encoding, reordering the tokens only reorders the outputs", "[positional]") {
    const auto ex = examples::permutation();
    // dog bites man -> man bites dog: words 0 2 1 -> 1 2 0, the same token set.
    const std::vector<std::size_t> a = {0, 2, 1}, b = {1, 2, 0};
    const std::vector<std::size_t> b_from_a = {2, 1, 0};  // row i of b is row b_from_a[i] of a
    const Matrix Xa = permute_rows(ex.embeddings, a), Xb = permute_rows(ex.embeddings, b);
    const Matrix Oa = self_attention(Xa, ex), Ob = self_attention(Xb, ex);
    REQUIRE(max_abs_diff(permute_rows(Oa, b_from_a), Ob) <= 1e-6f);
    // With positional encoding added, the same word gets a different output.
    const Matrix pe = sinusoidal_encoding(3, 4);
    const Matrix Pa = self_attention(add(Xa, pe), ex), Pb = self_attention(add(Xb, pe), ex);
    REQUIRE(max_abs_diff(permute_rows(Pa, b_from_a), Pb) > 0.05f);
    // A causal mask also breaks it (the visible set depends on the position) ...
    REQUIRE(max_abs_diff(permute_rows(self_attention(Xa, ex, true), b_from_a), self_attention(Xb, ex, true)) > 0.05f);
    // ... and so does training-mode dropout: its mask is drawn per position (i, j), so
    // for most seeds the two orders lose different token pairs.
    int broken = 0;
    for (std::uint64_t seed = 0; seed < 16; ++seed) {
        DropoutOptions drop{0.5f, seed, true};
        broken += max_abs_diff(permute_rows(self_attention(Xa, ex, false, drop), b_from_a),
                               self_attention(Xb, ex, false, drop)) > 0.05f;
    }
    CAPTURE(broken);
    REQUIRE(broken >= 8);
}

TEST_CASE("property: permuting the tokens permutes the outputs (no mask, no positions, no dropout)", "[positional][property]") {
    for (std::uint32_t seed = 601; seed <= 800; ++seed) {
        std::mt19937 rng(seed);
        const std::size_t T = std::uniform_int_distribution<std::size_t>(1, 20)(rng);
        const std::size_t d = std::uniform_int_distribution<std::size_t>(1, 17)(rng);
        const Matrix X = random_matrix(T, d, seed, -2, 2);
        const Matrix V = random_matrix(T, 5, seed + 7, -2, 2);
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
        require_close(b.output, back, 1e-5, 1e-6, "permuted outputs");
        // Permuting only the keys and values (same order for both) changes nothing.
        const Trace kv = attention(X, Xp, Vp);
        require_close(kv.output, a.output, 1e-5, 1e-6, "permuted keys and values");
        // Through projections W_Q, W_K, W_V: the same (permute_rows and max_abs_diff, as the page).
        const Matrix Wq = random_matrix(d, d, seed + 10), Wk = random_matrix(d, d, seed + 20), Wv = random_matrix(d, 3, seed + 30);
        auto run = [&](ConstMatrixView x) { return attention(matmul(x, Wq), matmul(x, Wk), matmul(x, Wv)).output; };
        REQUIRE(max_abs_diff(permute_rows(run(X), perm), run(permute_rows(X, perm))) <= 1e-5f);
    }
}

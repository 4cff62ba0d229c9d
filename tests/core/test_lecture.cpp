// The self-attention article (seeds/001) and the lecture (seeds/004): every number they
// state that the lecture chapters show, at the precision the documents print, and the
// properties the chapters demonstrate (convex hull, column sums in [0, n], permutation
// equivariance without positional encoding, dilution of a recurrent state).
#include "helpers.hpp"

using namespace attn;
using attn::test::random_matrix;
using Catch::Matchers::WithinAbs;

namespace {
// Row i of P·V computed by hand from the core's weights, for a 1-row P.
Matrix one_row(std::initializer_list<float> xs) { return Matrix{xs}; }
}  // namespace

TEST_CASE("seed 001: the weighted sum 0.2[1,0] + 0.5[0,1] + 0.3[1,1] = [0.5, 0.8]", "[document][lecture]") {
    const auto ex = examples::weighted_sum();
    REQUIRE(ex.V.shape() == "3x2");
    const Matrix o = weighted_sum(ex.weights, ex.V);
    REQUIRE(o.shape() == "1x2");
    // The document prints one decimal; the value is exact up to float rounding.
    REQUIRE_THAT(o(0, 0), WithinAbs(0.5, 1e-6));
    REQUIRE_THAT(o(0, 1), WithinAbs(0.8, 1e-6));
    // The weights already sum to 1: normalising leaves them as they are.
    const Matrix w = normalize_weights(ex.weights);
    for (std::size_t j = 0; j < 3; ++j) REQUIRE_THAT(w(0, j), WithinAbs(ex.weights(0, j), 1e-7));
    // [0.5, 0.8] lies inside the triangle of the three Values.
    REQUIRE(convex_hull(ex.V).size() == 3);
    REQUIRE(hull_distance(o, ex.V) == 0.0);
}

TEST_CASE("a convex combination of Values never leaves their hull or their per-column range", "[lecture]") {
    const std::size_t n = GENERATE(1, 2, 3, 5, 9);
    const std::uint32_t seed = GENERATE(1u, 2u, 3u);
    CAPTURE(n, seed);
    const Matrix V = random_matrix(n, 2, seed, -3, 3);
    const Matrix w = normalize_weights(random_matrix(4, n, seed + 100, 0, 1));
    const Matrix o = weighted_sum(w, V);
    const Matrix range = column_range(V);
    for (std::size_t i = 0; i < o.rows(); ++i) {
        const Matrix p = one_row({o(i, 0), o(i, 1)});
        // Float rounding of the sum can put a point on an edge a hair outside.
        REQUIRE(hull_distance(p, V) <= 1e-5);
        for (std::size_t c = 0; c < 2; ++c) {
            REQUIRE(o(i, c) >= range(0, c) - 1e-5f);
            REQUIRE(o(i, c) <= range(1, c) + 1e-5f);
        }
    }
}

TEST_CASE("the exceptions to 'outputs lie within the Values': a fully masked row, training dropout", "[lecture]") {
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

TEST_CASE("seed 001: BERT-base gives 12 layers x 12 heads = 144 attention matrices", "[document][lecture][cost]") {
    const Cost c = cost({8, 768, 12, 12, 4});
    REQUIRE(c.attention_matrices == 144.0);
    REQUIRE(cost({8, 768, 12, 6, 4}).attention_matrices == 72.0);
    REQUIRE(cost({8, 512, 8, 1, 4}).attention_matrices == 8.0);
}

TEST_CASE("seed 001: sequential steps and path length, recurrent vs attention", "[document][lecture][cost]") {
    // Length 100: a recurrent layer takes 100 steps in order, and token 1's information
    // passes 99 updates to reach token 100; attention: two products, one step.
    const Cost c100 = cost({100, 512, 8, 1, 4});
    REQUIRE(c100.sequential_steps_recurrent == 100.0);
    REQUIRE(c100.path_length_recurrent == 99.0);
    REQUIRE(c100.sequential_steps_attention == 2.0);
    REQUIRE(c100.path_length_attention == 1.0);
    // "Whether the length is 100 or 1,000, the steps in order stay two."
    const Cost c1000 = cost({1000, 512, 8, 1, 4});
    REQUIRE(c1000.sequential_steps_attention == 2.0);
    REQUIRE(c1000.sequential_steps_recurrent == 1000.0);
}

TEST_CASE("the toy recurrent state dilutes a token by r^distance, attention's lookup does not", "[lecture]") {
    const std::size_t n = 12;
    const float r = GENERATE(0.0f, 0.5f, 0.8f, 0.95f);
    CAPTURE(r);
    Matrix I(n, n);
    for (std::size_t i = 0; i < n; ++i) I(i, i) = 1;
    const Matrix H = recurrent_scan(I, r);
    for (std::size_t t = 0; t < n; ++t)
        for (std::size_t s = 0; s < n; ++s) {
            const double want = s <= t ? (1.0 - r) * std::pow(double(r), double(t - s)) : 0.0;
            REQUIRE_THAT(H(t, s), WithinAbs(want, 1e-6));
        }
    // The last token looks up token s directly: the share it gets does not depend on s.
    Matrix Q(n, n);
    for (std::size_t i = 0; i < n; ++i) Q(i, i) = 6;  // query s looks for key s
    AttentionOptions o;
    o.scale = 1.0f;
    const Trace t = attention(Q, I, I, o);
    for (std::size_t s = 1; s < n; ++s) REQUIRE_THAT(t.output(s, s), WithinAbs(t.output(0, 0), 1e-6));
    REQUIRE_THAT(t.output(0, 0), WithinAbs(std::exp(6.0) / (std::exp(6.0) + double(n - 1)), 1e-6));
    REQUIRE_THROWS_AS(recurrent_scan(I, 1.0f), ValueError);
    REQUIRE_THROWS_AS(recurrent_scan(I, -0.1f), ValueError);
    REQUIRE_THROWS_AS(recurrent_scan(I, NAN), ValueError);
}

TEST_CASE("attention weights: rows sum to 1, column sums lie in [0, n] and add up to n", "[lecture]") {
    const std::size_t Tq = GENERATE(1, 3, 7), Tk = GENERATE(1, 4, 9);
    CAPTURE(Tq, Tk);
    const Matrix P = softmax(random_matrix(Tq, Tk, unsigned(Tq * 31 + Tk), -4, 4));
    const Matrix rs = row_sums(P), cs = col_sums(P);
    REQUIRE(rs.shape() == shape_str(Tq, 1));
    REQUIRE(cs.shape() == shape_str(1, Tk));
    double total = 0;
    for (std::size_t i = 0; i < Tq; ++i) REQUIRE_THAT(rs(i, 0), WithinAbs(1.0, 1e-6));
    for (std::size_t j = 0; j < Tk; ++j) {
        REQUIRE(cs(0, j) >= 0.0f);
        REQUIRE(cs(0, j) <= float(Tq) + 1e-5f);
        total += cs(0, j);
    }
    REQUIRE_THAT(total, WithinAbs(double(Tq), 1e-5));
}

TEST_CASE("constructed heads produce their patterns on every example sentence", "[lecture][reading]") {
    using namespace attn::reading;
    for (const auto& s : examples::reading_sentences()) {
        INFO(s.lang << " " << s.id);
        const std::size_t T = s.tokens.size();
        REQUIRE(s.flags.size() == T);
        const Matrix X = token_features(s.flags);
        REQUIRE(X.shape() == shape_str(T, kFeatureCount + T));
        auto weights = [&](HeadKind k) {
            const auto w = constructed_head(k, T, 4.0f);
            return attention(matmul(X, w.Wq), matmul(X, w.Wk), X).weights;
        };
        const Matrix prev = row_argmax(weights(HeadKind::PreviousToken));
        const Matrix self = row_argmax(weights(HeadKind::Self));
        const Matrix first = row_argmax(weights(HeadKind::FirstToken));
        for (std::size_t i = 0; i < T; ++i) {
            REQUIRE(prev(i, 0) == float(i == 0 ? 0 : i - 1));
            REQUIRE(self(i, 0) == float(i));
            REQUIRE(first(i, 0) == 0.0f);
        }
        // The first-token head: column 0 collects nearly everything (column sum near T),
        // every other column nearly nothing.
        const Matrix cs = col_sums(weights(HeadKind::FirstToken));
        REQUIRE(cs(0, 0) > 0.85f * float(T));
        for (std::size_t j = 1; j < T; ++j) REQUIRE(cs(0, j) < 0.15f);
        // Not symmetric: the previous-token head's P[i][i−1] is large, P[i−1][i] is not.
        const Matrix Pp = weights(HeadKind::PreviousToken);
        REQUIRE(Pp(2, 1) > 0.8f);
        REQUIRE(Pp(1, 2) < 0.1f);
        REQUIRE(max_abs_diff(Pp, transpose(Pp)) > 0.5f);
        // Verb -> object, pronoun -> animate noun.
        std::size_t verb = T, object = T, animate = T;
        for (std::size_t t = 0; t < T; ++t) {
            if (s.flags[t] & kVerb) verb = t;
            if (s.flags[t] & kObject) object = t;
            if (s.flags[t] & kAnimate) animate = t;
        }
        REQUIRE(verb < T);
        const Matrix vo = weights(HeadKind::VerbObject);
        REQUIRE(row_argmax(vo)(verb, 0) == float(object));
        REQUIRE(vo(verb, object) > 0.85f);
        const Matrix pn = weights(HeadKind::PronounNoun);
        REQUIRE(row_argmax(pn)(s.pronoun, 0) == float(animate));
        // The pattern "pronoun -> the noun it refers to" holds in version a and falls
        // apart in version b, where the pronoun refers to the ball.
        REQUIRE((animate == s.referent) == (s.id == "a"));
        // A row the rule does not cover spreads its weight evenly.
        REQUIRE_THAT(pn(0, 0), WithinAbs(1.0 / double(T), 1e-6));
    }
    REQUIRE_THROWS_AS(head_kind("diagonal"), ValueError);
    REQUIRE_THROWS_AS(token_features({16}), ValueError);
    REQUIRE_THROWS_AS(constructed_head(HeadKind::Self, 0, 4.0f), ValueError);
}

TEST_CASE("two previous-token layers mix in token i−2, which neither layer's matrix shows", "[lecture][reading]") {
    using namespace attn::reading;
    const auto s = examples::reading_sentences()[2];
    const std::size_t T = s.tokens.size();
    const Matrix X = token_features(s.flags);
    const auto w = constructed_head(HeadKind::PreviousToken, T, 5.0f);
    const Matrix P = attention(matmul(X, w.Wq), matmul(X, w.Wk), X).weights;
    const Matrix P2 = matmul(P, P);  // layer 2 after layer 1, ignoring everything else
    for (std::size_t i = 2; i < T; ++i) {
        REQUIRE(P(i, i - 2) < 0.05f);
        REQUIRE(P2(i, i - 2) > 0.8f);
    }
}

TEST_CASE("seed 004: positional encoding formula, odd d included", "[document][lecture][positional]") {
    const std::size_t d = GENERATE(1, 3, 5, 8, 13);
    CAPTURE(d);
    const Matrix pe = sinusoidal_encoding(9, d), ang = sinusoid_angles(9, d);
    for (std::size_t pos = 0; pos < 9; ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const std::size_t i = c / 2;
            const double angle = double(pos) / std::pow(10000.0, 2.0 * double(i) / double(d));
            REQUIRE_THAT(ang(pos, c), WithinAbs(angle, 1e-5 * (1 + angle)));
            REQUIRE_THAT(pe(pos, c), WithinAbs(c % 2 == 0 ? std::sin(angle) : std::cos(angle), 1e-6));
        }
    // Position 0 is [0, 1, 0, 1, ...]; with odd d the last column is a sine.
    REQUIRE(pe(0, d - 1) == ((d - 1) % 2 == 0 ? 0.0f : 1.0f));
    REQUIRE_THROWS_AS(sinusoid_angles(3, 0), ValueError);
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

TEST_CASE("seed 004: without positional encoding, reordering the tokens only reorders the outputs", "[document][lecture][positional]") {
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

TEST_CASE("property: permuting the input rows permutes the output rows (no PE, no mask, no dropout)", "[lecture][positional]") {
    const std::size_t T = GENERATE(1, 2, 3, 5, 8, 17);
    const std::size_t d = GENERATE(1, 4, 7);
    const std::uint32_t seed = GENERATE(1u, 2u);
    CAPTURE(T, d, seed);
    const Matrix X = random_matrix(T, d, seed, -2, 2);
    const Matrix Wq = random_matrix(d, d, seed + 10), Wk = random_matrix(d, d, seed + 20), Wv = random_matrix(d, 3, seed + 30);
    // A deterministic shuffle: the rotation by seed, reversed.
    std::vector<std::size_t> perm(T);
    for (std::size_t i = 0; i < T; ++i) perm[i] = (T - 1 - i + seed) % T;
    auto run = [&](ConstMatrixView x) { return attention(matmul(x, Wq), matmul(x, Wk), matmul(x, Wv)).output; };
    // Only the summation order inside softmax and PV changes: a few float ulps.
    REQUIRE(max_abs_diff(permute_rows(run(X), perm), run(permute_rows(X, perm))) <= 1e-5f);
}

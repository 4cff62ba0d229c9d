// Documented numerical behaviour: stable softmax, fully masked rows, exact zeros,
// NaN/∞ propagation, dropout statistics, positional encoding.
#include "helpers.hpp"

#include <limits>

using namespace attn;
using attn::test::random_matrix;
using Catch::Matchers::WithinAbs;

TEST_CASE("a fully masked row gives zero weights and a zero output row", "[numerics]") {
    const Matrix Q = random_matrix(3, 4, 70), K = random_matrix(3, 4, 71), V = random_matrix(3, 5, 72, 1, 2);
    Matrix M(3, 3, 0.0f);
    for (std::size_t j = 0; j < 3; ++j) M(1, j) = -INFINITY;
    AttentionOptions o;
    o.mask = M;
    const Trace t = attention(Q, K, V, o);
    for (std::size_t j = 0; j < 3; ++j) REQUIRE(t.weights(1, j) == 0.0f);
    for (std::size_t j = 0; j < 5; ++j) REQUIRE(t.output(1, j) == 0.0f);
    for (std::size_t i : {0, 2}) {
        float sum = 0;
        for (std::size_t j = 0; j < 3; ++j) sum += t.weights(i, j);
        REQUIRE_THAT(sum, WithinAbs(1.0, 1e-6));
    }
    // Same rule for a column under the wrong-axis softmax, and for a long row (vector path).
    const Matrix allmasked(2, 19, -INFINITY);
    const Matrix P = softmax(allmasked);
    for (std::size_t j = 0; j < 19; ++j) REQUIRE(P(0, j) == 0.0f);
    REQUIRE(softmax(allmasked, Axis::Cols)(1, 18) == 0.0f);
}

TEST_CASE("softmax never overflows on huge logits", "[numerics]") {
    const float big = GENERATE(1e30f, 3e38f, -3e38f);
    Matrix S{{big, 0.0f, -big, big / 2}};
    const Matrix P = softmax(S);
    float sum = 0;
    for (std::size_t j = 0; j < 4; ++j) {
        REQUIRE(std::isfinite(P(0, j)));
        sum += P(0, j);
    }
    REQUIRE_THAT(sum, WithinAbs(1.0, 1e-6));
}

TEST_CASE("softmax rows sum to 1, the wrong axis makes columns sum to 1 instead", "[numerics]") {
    const Matrix S = random_matrix(4, 6, 80, -5, 5);
    const Matrix Pr = softmax(S, Axis::Rows), Pc = softmax(S, Axis::Cols);
    REQUIRE(Pc.shape() == Pr.shape());
    bool some_row_off = false;
    for (std::size_t i = 0; i < 4; ++i) {
        float r = 0, c = 0;
        for (std::size_t j = 0; j < 6; ++j) {
            REQUIRE(Pr(i, j) > 0.0f);
            r += Pr(i, j);
            c += Pc(i, j);
        }
        REQUIRE_THAT(r, WithinAbs(1.0, 1e-6));
        some_row_off = some_row_off || std::abs(c - 1.0f) > 1e-3f;
    }
    REQUIRE(some_row_off);
    for (std::size_t j = 0; j < 6; ++j) {
        float c = 0;
        for (std::size_t i = 0; i < 4; ++i) c += Pc(i, j);
        REQUIRE_THAT(c, WithinAbs(1.0, 1e-6));
    }
}

TEST_CASE("NaN and +∞ propagate only to the outputs they reach", "[numerics]") {
    Matrix Q = random_matrix(4, 4, 90), K = random_matrix(4, 4, 91), V = random_matrix(4, 3, 92);
    SECTION("NaN in one query row poisons that row only") {
        Q(2, 1) = std::numeric_limits<float>::quiet_NaN();
        const Trace t = attention(Q, K, V);
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isnan(t.output(i, j)) == (i == 2));
    }
    SECTION("+∞ in a masked-out Value does not reach earlier tokens") {
        V(3, 0) = std::numeric_limits<float>::infinity();
        AttentionOptions o;
        o.causal = true;
        const Trace t = attention(Q, K, V, o);
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isfinite(t.output(i, j)));
        REQUIRE(std::isinf(t.output(3, 0)));
    }
}

TEST_CASE("softmax: a NaN makes its own row NaN, in the kernel and the reference alike", "[numerics]") {
    const Matrix S{{1.0f, NAN, 2.0f}, {0.0f, 1.0f, 2.0f}};
    for (const Matrix& P : {softmax(S), reference::softmax(S)}) {
        for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isnan(P(0, j)));
        for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isfinite(P(1, j)));
    }
}

TEST_CASE("causal: a token's output does not depend on later tokens", "[numerics]") {
    const Matrix Q = random_matrix(6, 4, 100), V = random_matrix(6, 3, 102);
    Matrix K = random_matrix(6, 4, 101), V2 = V;
    AttentionOptions o;
    o.causal = true;
    const Trace a = attention(Q, K, V, o);
    K(5, 0) += 3.0f;
    V2(5, 2) -= 7.0f;
    const Trace b = attention(Q, K, V2, o);
    for (std::size_t i = 0; i < 5; ++i)
        for (std::size_t j = 0; j < 3; ++j) REQUIRE(a.output(i, j) == b.output(i, j));
}

TEST_CASE("inverted dropout: exact at rate 0 and in evaluation, mean preserved", "[dropout]") {
    const Matrix P = softmax(random_matrix(64, 64, 110));
    REQUIRE(dropout(P, 0.0f, 7).to_vector() == P.to_vector());
    const Matrix D = dropout(P, 0.25f, 7);
    std::size_t zeros = 0;
    double sum_p = 0, sum_d = 0;
    for (std::size_t i = 0; i < P.size(); ++i) {
        if (D.data()[i] == 0.0f) ++zeros;
        else REQUIRE_THAT(D.data()[i], WithinAbs(P.data()[i] / 0.75, 1e-7));
        sum_p += P.data()[i];
        sum_d += D.data()[i];
    }
    // 4096 Bernoulli(0.25) draws: 1024 ± 28 (1σ); 5σ bounds.
    REQUIRE(zeros > 1024 - 140);
    REQUIRE(zeros < 1024 + 140);
    REQUIRE_THAT(sum_d / sum_p, WithinAbs(1.0, 0.05));
    REQUIRE(dropout(P, 0.25f, 7).to_vector() == D.to_vector());      // same seed, same mask
    REQUIRE(dropout(P, 0.25f, 8).to_vector() != D.to_vector());      // another seed, another mask
    AttentionOptions eval;
    eval.dropout = {0.5f, 3, false};
    const Matrix V = random_matrix(64, 2, 111);
    const Trace te = attention(random_matrix(64, 4, 112), random_matrix(64, 4, 113), V, eval);
    REQUIRE(te.dropped.to_vector() == te.weights.to_vector());
}

TEST_CASE("sinusoidal positional encoding", "[positional]") {
    const std::size_t d = GENERATE(1, 4, 7, 8);
    const Matrix pe = sinusoidal_encoding(5, d);
    REQUIRE(pe.shape() == shape_str(5, d));
    for (std::size_t pos = 0; pos < 5; ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const double w = std::pow(10000.0, double(c - c % 2) / double(d));
            const double want = c % 2 ? std::cos(pos / w) : std::sin(pos / w);
            REQUIRE_THAT(pe(pos, c), WithinAbs(want, 1e-6));
        }
    REQUIRE_THROWS_AS(sinusoidal_encoding(3, 0), ValueError);
}

TEST_CASE("cost model", "[cost]") {
    const Cost c = cost({8192, 768, 12, 12, 2});
    REQUIRE(c.attention_entries == 67108864.0);
    REQUIRE_THAT(c.bytes_per_matrix / 1e6, WithinAbs(134.2, 0.05));
    REQUIRE_THAT(c.bytes_per_layer / 1e9, WithinAbs(1.61, 0.005));
    REQUIRE(c.bytes_total == 12 * c.bytes_per_layer);
    const Cost one = cost({512, 512, 1, 1, 4}), eight = cost({512, 512, 8, 1, 4});
    REQUIRE(eight.d_head == 64);
    REQUIRE(one.flops_attention == eight.flops_attention);  // more heads, same work
    REQUIRE(cost({512, 512, 8, 1, 4}).crossover_n == 512);
    REQUIRE_THROWS_AS(cost({512, 512, 3, 1, 4}), ValueError);
}

TEST_CASE("cost model: growth, crossover, tiled memory (seed 001, n² cost)", "[cost]") {
    // 6 tokens: one product gives 36 scores.
    REQUIRE(cost({6, 8, 1, 1, 4}).attention_entries == 36);
    // Doubling n quadruples QKᵀ and PV; the second 4096 tokens cost 3x the first.
    const Cost c = cost({4096, 768, 12, 12, 2});
    REQUIRE(c.attention_growth == 4.0);
    REQUIRE(c.second_half_ratio == 3.0);
    REQUIRE(c.flops_attention_at_2n == cost({8192, 768, 12, 12, 2}).flops_attention);
    // With the projections (O(n·d²)) a layer grows by less than 4x per doubling.
    REQUIRE(c.layer_growth < 4.0);
    REQUIRE(c.layer_growth > 2.0);
    REQUIRE(cost({64, 768, 12, 1, 2}).layer_growth < cost({65536, 768, 12, 1, 2}).layer_growth);
    // n²·d against n·d²: equal at n = d = 512, attention cheaper below, dearer above.
    const Cost at = cost({512, 512, 8, 1, 4});
    REQUIRE(at.order_attention == at.order_recurrent);
    REQUIRE(cost({256, 512, 8, 1, 4}).order_attention < cost({256, 512, 8, 1, 4}).order_recurrent);
    REQUIRE(cost({1024, 512, 8, 1, 4}).order_attention > cost({1024, 512, 8, 1, 4}).order_recurrent);
    // Path length: one layer connects any two tokens; a recurrent net needs n − 1 steps.
    REQUIRE(c.path_length_attention == 1);
    REQUIRE(c.path_length_recurrent == 4095);
    // Tiled memory is O(n·d): doubling n doubles it (no n² term); the plain layer's ~4x.
    const Cost t1 = cost({8192, 768, 12, 1, 2}), t2 = cost({16384, 768, 12, 1, 2});
    REQUIRE(t2.bytes_tiled_layer < 2.01 * t1.bytes_tiled_layer);
    REQUIRE(t2.bytes_plain_layer > 3.9 * t1.bytes_plain_layer);
    REQUIRE(t1.bytes_tiled_layer == 4.0 * 8192 * 768 * 2 + 12.0 * 128 * 128 * 2);
    REQUIRE_THROWS_AS(cost({8, 8, 1, 1, 4, 0}), ValueError);
}

TEST_CASE("the double path follows the float path's rules: a fully masked row holding a NaN is NaN", "[numerics]") {
    // Before the rules moved into one kernel, f64::softmax skipped the NaN (std::max keeps
    // −∞) and gave a zero row where the float path gives NaN.
    const Matrix S{{-INFINITY, NAN, -INFINITY}, {-INFINITY, -INFINITY, -INFINITY}, {1.0f, NAN, 2.0f}, {INFINITY, 0.0f, 1.0f}};
    const Matrix Pf = softmax(S), Pr = reference::softmax(S);
    const Matrix Pd = f64::softmax(f64::MatrixD(S)).to_float();
    for (std::size_t j = 0; j < 3; ++j) {
        for (const Matrix* P : {&Pf, &Pr, &Pd}) {
            REQUIRE(std::isnan((*P)(0, j)));
            REQUIRE((*P)(1, j) == 0.0f);
            REQUIRE(std::isnan((*P)(2, j)));
            REQUIRE(std::isnan((*P)(3, j)));
        }
    }
    // Through attention: the same NaN row in every variant's output.
    const Matrix Q{{1, 0}, {0, 1}}, K{{1, 0}, {0, 1}}, V{{1, 2}, {3, 4}};
    Matrix M(2, 2, -INFINITY);
    M(1, 0) = NAN;  // row 1: fully hidden but for a NaN
    M(0, 1) = 0.0f;
    AttentionOptions o;
    o.mask = M;
    f64::AttentionOptionsD od;
    od.scale = 1.0 / std::sqrt(2.0);
    od.mask = f64::MatrixD(M);
    const Trace t = attention(Q, K, V, o);
    const f64::TraceD td = f64::attention(f64::MatrixD(Q), f64::MatrixD(K), f64::MatrixD(V), od);
    FlashOptions fo;
    fo.mask = M.view();
    const Matrix F = flash_attention(Q, K, V, fo), A = attention_output(Q, K, V, o);
    for (std::size_t k = 0; k < 2; ++k) {
        REQUIRE(std::isnan(t.output(1, k)));
        REQUIRE(std::isnan(td.output(1, k)));
        REQUIRE(std::isnan(F(1, k)));
        REQUIRE(std::isnan(A(1, k)));
        REQUIRE(t.output(0, k) == V(1, k));
        REQUIRE(td.output(0, k) == V(1, k));
    }
}

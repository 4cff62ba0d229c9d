// Stage: inverted dropout (dropout.hpp) on its own, inside attention() and through the heads:
// exact in evaluation and at rate 0, the expected value kept in training, one seeded mask.
#include "helpers.hpp"

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

TEST_CASE("attention's dropout mask is dropout() of a matrix of ones", "[dropout]") {
    // The causal-dropout chapter shows the mask as dropout(ones): the same (seed, i, j)
    // decisions and the same 1/(1 - rate) factor as inside attention().
    const Matrix Q = random_matrix(6, 2, 250), K = random_matrix(6, 2, 251), V = random_matrix(6, 2, 252);
    AttentionOptions o;
    o.causal = true;
    o.dropout = {0.5f, 42, true};
    const Trace t = attention(Q, K, V, o);
    const Matrix mask = dropout(Matrix(6, 6, 1.0f), 0.5f, 42);
    for (std::size_t i = 0; i < 6; ++i)
        for (std::size_t j = 0; j < 6; ++j) {
            REQUIRE((mask(i, j) == 0.0f || mask(i, j) == 2.0f));
            REQUIRE(t.dropped(i, j) == t.weights(i, j) * mask(i, j));
        }
}

TEST_CASE("multi-head dropout: exact in evaluation and at rate 0, mean kept in training", "[dropout]") {
    const std::size_t T = 64, d = 8, h = 2;
    const Matrix X = random_matrix(T, d, 240);
    const auto w = random_weights(d, d, d, d, 241);
    MultiHeadOptions plain;
    plain.heads = h;
    const auto base = multi_head_attention(X, w, plain);

    SECTION("evaluation mode is the identity, whatever the rate") {
        MultiHeadOptions o = plain;
        o.dropout = {0.9f, 3, false};
        const auto t = multi_head_attention(X, w, o);
        REQUIRE(t.output.to_vector() == base.output.to_vector());
        for (std::size_t k = 0; k < h; ++k) REQUIRE(t.heads[k].dropped.to_vector() == t.heads[k].weights.to_vector());
    }
    SECTION("rate 0 in training mode is the identity") {
        MultiHeadOptions o = plain;
        o.dropout = {0.0f, 3, true};
        REQUIRE(multi_head_attention(X, w, o).output.to_vector() == base.output.to_vector());
    }
    SECTION("training mode: zeros at about the rate, survivors scaled by 1/(1 - rate), mean kept") {
        const float rate = GENERATE(0.1f, 0.5f);
        CAPTURE(rate);
        MultiHeadOptions o = plain;
        o.dropout = {rate, 11, true};
        const auto t = multi_head_attention(X, w, o);
        for (std::size_t k = 0; k < h; ++k) {
            INFO("head " << k);
            const Matrix& P = t.heads[k].weights;
            const Matrix& D = t.heads[k].dropped;
            std::size_t zeros = 0;
            double sum_p = 0, sum_d = 0;
            for (std::size_t n = 0; n < P.size(); ++n) {
                if (D.data()[n] == 0.0f) ++zeros;
                else REQUIRE_THAT(D.data()[n], WithinAbs(P.data()[n] / (1.0 - rate), 1e-6));
                sum_p += P.data()[n];
                sum_d += D.data()[n];
            }
            // 4096 Bernoulli(rate) draws: sd = sqrt(4096 rate (1 - rate)) <= 32; 5 sd bounds.
            const double n = double(P.size()), sd = std::sqrt(n * rate * (1 - rate));
            REQUIRE(double(zeros) > n * rate - 5 * sd);
            REQUIRE(double(zeros) < n * rate + 5 * sd);
            // Sum of P is T (rows sum to 1); the dropped sum has relative sd <= ~1/64 here.
            REQUIRE_THAT(sum_d / sum_p, WithinAbs(1.0, 0.08));
        }
        // Head k uses seed + k: the two heads' masks differ.
        REQUIRE(t.heads[0].dropped.to_vector() != t.heads[1].dropped.to_vector());
    }
}

TEST_CASE("dropout: a rate outside 0 <= rate < 1 is a ValueError", "[dropout]") {
    const Matrix A(3, 4, 1.0f);
    REQUIRE_NOTHROW(dropout(Matrix(1, 1), 0.5f, 1));
    for (float rate : {1.0f, 1.5f, -0.01f, kNaN, kInf}) {
        CAPTURE(rate);
        REQUIRE_THROWS_AS(dropout(A, rate, 1), ValueError);
        REQUIRE_THROWS_AS(check_dropout_rate(rate), ValueError);
    }
}

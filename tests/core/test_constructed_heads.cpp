// Stage: constructed heads (constructed_heads.hpp): hand-set W_Q, W_K that produce the patterns
// analyses of trained models report, on the example sentences (examples.hpp).
#include "helpers.hpp"

TEST_CASE("constructed heads produce their patterns on every example sentence", "[constructed-heads]") {
    using namespace attn::constructed;
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

TEST_CASE("two previous-token layers mix in token i−2, which neither layer's matrix shows", "[constructed-heads]") {
    using namespace attn::constructed;
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

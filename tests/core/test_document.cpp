// Every number "Core Attention" (seeds/000) states, computed by the core from the
// example in attn::examples, compared at the precision the document prints.
#include "helpers.hpp"

using namespace attn;
using Catch::Matchers::WithinAbs;

namespace {
struct Head1 {
    Matrix Q, K, V;
};
Head1 head1() {
    const auto ex = examples::core_attention();
    const auto q = split_heads(ex.Q, ex.heads), k = split_heads(ex.K, ex.heads),
               v = split_heads(ex.V, ex.heads);
    return {q[0], k[0], v[0]};
}
void require_row(const Matrix& m, std::size_t i, std::vector<float> want, double tol) {
    INFO("row " << i);
    for (std::size_t j = 0; j < want.size(); ++j) {
        INFO("column " << j);
        if (std::isinf(want[j])) REQUIRE(m(i, j) == want[j]);
        else REQUIRE_THAT(m(i, j), WithinAbs(want[j], tol));
    }
}
}  // namespace

TEST_CASE("seed 000: shapes of the multi-head flow (T=3, d=8, h=2, d_h=4)", "[document]") {
    const auto ex = examples::core_attention();
    REQUIRE(ex.Q.shape() == "3x8");
    REQUIRE(ex.K.shape() == "3x8");
    REQUIRE(ex.V.shape() == "3x8");
    const auto heads = split_heads(ex.Q, 2);
    REQUIRE(heads.size() == 2);
    REQUIRE(heads[0].shape() == "3x4");
    // Each token's first four components go to head 1, the last four to head 2.
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 4; ++j) {
            REQUIRE(heads[0](i, j) == ex.Q(i, j));
            REQUIRE(heads[1](i, j) == ex.Q(i, 4 + j));
        }
    // O1, O2 are 3x4; concatenated per token they form H, 3x8.
    AttentionOptions causal;
    causal.causal = true;
    std::vector<Matrix> outs;
    const auto ks = split_heads(ex.K, 2), vs = split_heads(ex.V, 2);
    for (std::size_t h = 0; h < 2; ++h) outs.push_back(attention(heads[h], ks[h], vs[h], causal).output);
    REQUIRE(outs[0].shape() == "3x4");
    REQUIRE(concat_heads(outs).shape() == "3x8");
}

TEST_CASE("seed 000: head 1, step by step", "[document]") {
    const Head1 h = head1();
    // Token 3's query and token 1's key.
    require_row(h.Q, 2, {-1, 1, 1, 2}, 0);
    require_row(h.K, 0, {1, -1, 2, 1}, 0);

    AttentionOptions o;
    o.causal = true;
    const Trace t = attention(h.Q, h.K, h.V, o);
    // Their dot product: -1·1 + 1·(-1) + 1·2 + 2·1 = 2, at row 3, column 1 of S.
    REQUIRE(t.scores(2, 0) == 2.0f);
    require_row(t.scores, 2, {2, 0, 6}, 0);
    // Division by √d_h = 2.
    REQUIRE(t.scale == 0.5f);
    REQUIRE(t.scaled(2, 0) == 1.0f);
    require_row(t.scaled, 2, {1, 0, 3}, 0);
    require_row(t.scaled, 1, {3, 1.5f, -1}, 0);
    // Causal mask: above the diagonal becomes −∞, the rest is unchanged.
    require_row(t.masked, 1, {3, 1.5f, -INFINITY}, 0);
    require_row(t.masked, 2, {1, 0, 3}, 0);
    // Row-wise softmax, printed to three decimals.
    require_row(t.weights, 0, {1, 0, 0}, 0.0005);
    require_row(t.weights, 1, {0.818f, 0.182f, 0}, 0.0005);
    require_row(t.weights, 2, {0.114f, 0.042f, 0.844f}, 0.0005);
    // A zero score is not a zero weight: e⁰ = 1 gives token 2 about 0.042.
    REQUIRE(t.weights(2, 1) > 0.04f);
    // Masked weights are exactly zero.
    REQUIRE(t.weights(0, 1) == 0.0f);
    REQUIRE(t.weights(1, 2) == 0.0f);
    // O = P V; V = [I₃ | 1], so O row 3 ≈ [0.114, 0.042, 0.844, 1].
    require_row(t.output, 2, {0.114f, 0.042f, 0.844f, 1}, 0.0005);
    // Token 1 only sees itself: its output is its own Value.
    require_row(t.output, 0, {1, 0, 0, 1}, 1e-6);
    // The last component is 1 because every Value ends in 1 and each row of P sums to 1.
    for (std::size_t i = 0; i < 3; ++i) REQUIRE_THAT(t.output(i, 3), WithinAbs(1.0, 1e-6));
}

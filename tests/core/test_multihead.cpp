#include "helpers.hpp"

using namespace attn;
using attn::test::random_matrix;
using attn::test::require_close;

TEST_CASE("split_heads then concat_heads is the identity", "[multihead]") {
    const std::size_t heads = GENERATE(1, 2, 3, 6);
    const Matrix X = random_matrix(5, 12, 50);
    const auto parts = split_heads(X, heads);
    REQUIRE(parts.size() == heads);
    for (const auto& p : parts) REQUIRE(p.cols() == 12 / heads);
    require_close(concat_heads(parts), X, 0, 0);
    require_close(concat_heads(parts), reference::concat_heads(reference::split_heads(X, heads)), 0, 0);
}

TEST_CASE("multi_head_attention matches single-head reference calls", "[multihead]") {
    const std::size_t heads = GENERATE(1, 2, 4);
    const bool causal = GENERATE(false, true);
    CAPTURE(heads, causal);
    const Matrix X = random_matrix(6, 8, 60);
    const MultiHeadWeights w{random_matrix(8, 8, 61), random_matrix(8, 8, 62),
                             random_matrix(8, 8, 63), random_matrix(8, 8, 64)};
    MultiHeadOptions o;
    o.heads = heads;
    o.causal = causal;
    const auto got = multi_head_attention(X, w, o);
    const auto want = reference::multi_head_attention(X, w, o);
    REQUIRE(got.heads.size() == heads);
    require_close(got.q, want.q);
    for (std::size_t h = 0; h < heads; ++h) {
        require_close(got.heads[h].weights, want.heads[h].weights, 1e-5, 1e-6, "head weights");
        REQUIRE(got.heads[h].scale == Approx(1.0 / std::sqrt(8.0 / double(heads))));
    }
    require_close(got.concat, want.concat);
    require_close(got.output, want.output, 1e-4, 1e-5);
}

TEST_CASE("multi_head_attention rejects weights that do not chain", "[multihead][errors]") {
    const Matrix X(3, 8, 1.0f);
    MultiHeadOptions o;
    o.heads = 2;
    REQUIRE_THROWS_AS(multi_head_attention(X, {Matrix(4, 8), Matrix(8, 8), Matrix(8, 8), Matrix(8, 8)}, o), ShapeError);
    REQUIRE_THROWS_AS(multi_head_attention(X, {Matrix(8, 8), Matrix(8, 8), Matrix(8, 8), Matrix(6, 8)}, o), ShapeError);
    o.heads = 3;
    REQUIRE_THROWS_AS(multi_head_attention(X, {Matrix(8, 8), Matrix(8, 8), Matrix(8, 8), Matrix(8, 8)}, o), ValueError);
}

// Stage: the cost model of one layer (cost.hpp). The figures the documents state are in
// test_documents.cpp; here, what the model must do whatever the numbers.
#include "helpers.hpp"

TEST_CASE("cost model: heads split d_model, more heads the same work, the crossover at n = d", "[cost]") {
    const Cost c = cost({8192, 768, 12, 12, 2});
    REQUIRE(c.bytes_total == 12 * c.bytes_per_layer);
    const Cost one = cost({512, 512, 1, 1, 4}), eight = cost({512, 512, 8, 1, 4});
    REQUIRE(eight.d_head == 64);
    REQUIRE(one.flops_attention == eight.flops_attention);  // more heads, same work
    REQUIRE(cost({512, 512, 8, 1, 4}).crossover_n == 512);
    // (Every divisor of 512 as h, the same work: test_documents.cpp, seeds/001.)
}

TEST_CASE("cost model: growth below 4x with projections, the orders cross at n = d, tiled memory O(n·d)", "[cost]") {
    const Cost c = cost({4096, 768, 12, 12, 2});
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
    REQUIRE(cost({8, 768, 12, 6, 4}).attention_matrices == 72.0);
    REQUIRE(cost({8, 512, 8, 1, 4}).attention_matrices == 8.0);
}

TEST_CASE("cost model: typed errors", "[cost]") {
    REQUIRE_THROWS_AS(cost({512, 512, 3, 1, 4}), ValueError);
    REQUIRE_THROWS_AS(cost({8, 8, 1, 1, 4, 0}), ValueError);
    REQUIRE_THROWS_AS(cost({0, 8, 1, 1, 4}), ValueError);
    REQUIRE_THROWS_AS(cost({8, 8, 0, 1, 4}), ValueError);
    REQUIRE_THROWS_AS(cost({8, 8, 16, 1, 4}), ValueError);
    REQUIRE_THROWS_AS(cost({8, 8, 1, 0, 4}), ValueError);
    REQUIRE_THROWS_AS(cost({8, 8, 1, 1, 0}), ValueError);
    REQUIRE_NOTHROW(cost({kHuge, 8, 1, 1, 4}));  // doubles: no overflow
}

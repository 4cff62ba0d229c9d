// Stage: attribution beyond the raw weight (attribution.hpp): attention x value norm,
// attention rollout, a token matrix grouped by character.
#include "helpers.hpp"

#include "attn/attribution.hpp"

TEST_CASE("attention x value norm, rollout, and characters from jamo", "[attribution]") {
    const Matrix P{{1.0f, 0.0f, 0.0f}, {0.5f, 0.5f, 0.0f}, {0.6f, 0.2f, 0.2f}};
    const Matrix N = norm_weights(P, {0.1, 1.0, 2.0});
    REQUIRE(N(2, 0) == Approx(0.06f));
    REQUIRE(N(2, 2) == Approx(0.4f));
    REQUIRE(weight_norm_distance(P, P) == Approx(0.0).margin(1e-7));
    // row 1 renormalised: 0.05/0.55, 0.5/0.55: distance ½(|0.5 − 0.0909| + |0.5 − 0.909|)
    const double row1 = 0.5 * (std::abs(0.5 - 0.05 / 0.55) + std::abs(0.5 - 0.5 / 0.55));
    const double row2 = 0.5 * (std::abs(0.6 - 0.06 / 0.66) + std::abs(0.2 - 0.2 / 0.66) + std::abs(0.2 - 0.4 / 0.66));
    REQUIRE(weight_norm_distance(P, N) == Approx((0.0 + row1 + row2) / 3).epsilon(1e-5));
    REQUIRE_THROWS_AS(norm_weights(P, {1.0}), ShapeError);

    // rollout of one layer of one head: ½P + ½I; of two layers, its square
    Probe probe;
    probe.weights = {{P}};
    const Matrix R1 = attention_rollout(probe);
    REQUIRE(R1(0, 0) == Approx(1.0f));
    REQUIRE(R1(2, 0) == Approx(0.3f));
    REQUIRE(R1(2, 2) == Approx(0.6f));
    probe.weights = {{P}, {P}};
    const Matrix R2 = attention_rollout(probe);
    for (std::size_t i = 0; i < 3; ++i) {
        double rowsum = 0;
        for (std::size_t j = 0; j < 3; ++j) {
            double want = 0;
            for (std::size_t k = 0; k < 3; ++k) want += double(R1(i, k)) * double(R1(k, j));
            REQUIRE(R2(i, j) == Approx(want).epsilon(1e-6));
            rowsum += R2(i, j);
        }
        REQUIRE(rowsum == Approx(1.0));  // still a distribution over the input tokens
    }
    REQUIRE_THROWS_AS(attention_rollout(Probe{}), ValueError);

    // tokens 0, 1 2, 3 as characters 0, 1, 2: columns summed, rows from each character's last token
    const Matrix W{{1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.2f, 0.3f, 0.5f, 0}, {0.1f, 0.2f, 0.3f, 0.4f}};
    const Matrix C = group_by_character(W, {0, 1, 1, 2});
    REQUIRE(C.rows() == 3);
    REQUIRE(C(1, 0) == Approx(0.2f));
    REQUIRE(C(1, 1) == Approx(0.8f));
    REQUIRE(C(2, 1) == Approx(0.5f));
    REQUIRE(C(2, 2) == Approx(0.4f));
    REQUIRE_THROWS_AS(group_by_character(W, {0, 2, 2, 3}), ValueError);
    REQUIRE_THROWS_AS(group_by_character(W, {0, 1}), ShapeError);
}

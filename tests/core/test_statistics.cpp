// Stage: statistics of a matrix's entries (statistics.hpp): moments and histograms.
#include "helpers.hpp"

TEST_CASE("moments: mean, population variance, min and max", "[statistics]") {
    const Moments m = moments(Matrix{{1, 2, 3, 4}});
    REQUIRE(m.count == 4);
    REQUIRE(m.sum == 10);
    REQUIRE(m.mean == 2.5);
    REQUIRE(m.variance == 1.25);  // Σ(x − 2.5)² / 4
    REQUIRE_THAT(m.stddev, WithinRel(std::sqrt(1.25), 1e-12));
    REQUIRE(m.min == 1);
    REQUIRE(m.max == 4);
    // Large offsets do not cancel (two passes).
    const Moments big = moments(Matrix{{1e6f + 1, 1e6f - 1}});
    REQUIRE(big.variance == 1.0);
    const Moments withNaN = moments(Matrix{{1, NAN}});
    REQUIRE(std::isnan(withNaN.mean));
    REQUIRE(std::isnan(withNaN.variance));
    REQUIRE_THROWS_AS(moments(Matrix(0, 3)), ValueError);
}

TEST_CASE("histogram: equal bins, edges, outliers, the top edge", "[statistics]") {
    const Matrix x{{0, 0.5f, 0.999f, 1, 2.5f, 3, -0.1f, 3.5f, NAN, INFINITY}};
    const Histogram h = histogram(x, 3, 0, 3);
    REQUIRE(h.edges == std::vector<double>{0, 1, 2, 3});
    REQUIRE(h.counts == std::vector<std::size_t>{3, 1, 2});  // 3 falls in the last bin
    REQUIRE(h.below == 1);
    REQUIRE(h.above == 2);  // 3.5 and +∞
    REQUIRE(h.non_finite == 1);
    std::size_t total = h.below + h.above + h.non_finite;
    for (auto c : h.counts) total += c;
    REQUIRE(total == x.cols());
    REQUIRE_THROWS_AS(histogram(x, 0, 0, 1), ValueError);
    REQUIRE_THROWS_AS(histogram(x, 4, 1, 1), ValueError);
    REQUIRE_THROWS_AS(histogram(x, 4, 0, INFINITY), ValueError);
}

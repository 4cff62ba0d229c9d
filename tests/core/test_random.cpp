// Stage: seeded random matrices (random.hpp).
#include "helpers.hpp"

TEST_CASE("seeded random matrices: deterministic, right moments, prefix-stable", "[random]") {
    const Matrix a = random_normal(100, 100, 42), b = random_normal(100, 100, 42), c = random_normal(100, 100, 43);
    REQUIRE(a.to_vector() == b.to_vector());
    REQUIRE(a.to_vector() != c.to_vector());
    double sum = 0, sq = 0;
    for (float x : a.to_vector()) {
        sum += x;
        sq += double(x) * x;
    }
    const double n = 10000, mean = sum / n, var = sq / n - mean * mean;
    // 10⁴ N(0,1) draws: mean ± 0.01 (1σ), variance ± 0.014 (1σ); 5σ bounds.
    REQUIRE_THAT(mean, WithinAbs(0.0, 0.05));
    REQUIRE_THAT(var, WithinAbs(1.0, 0.07));
    const Matrix small = random_normal(3, 100, 42);
    for (std::size_t k = 0; k < small.size(); ++k) REQUIRE(small.data()[k] == a.data()[k]);
    const Matrix u = random_uniform(50, 50, 7, -2, 3);
    for (float x : u.to_vector()) {
        REQUIRE(x >= -2.0f);
        REQUIRE(x < 3.0f);
    }
    REQUIRE_THROWS_AS(random_uniform(2, 2, 1, 3, 2), ValueError);
    REQUIRE_THROWS_AS(random_normal(2, 2, 1, 0, -1), ValueError);
}

TEST_CASE("random matrices: sizes past the limit and bad bounds are typed errors", "[random]") {
    REQUIRE_THROWS_AS(random_uniform(1 << 20, 1 << 20, 1), SizeError);
    REQUIRE_THROWS_AS(random_normal(kHuge / 2, 3, 1), SizeError);
    REQUIRE_THROWS_AS(random_uniform(2, 2, 1, 3.0f, 1.0f), ValueError);
    REQUIRE_THROWS_AS(random_uniform(2, 2, 1, 0.0f, kInf), ValueError);
    REQUIRE_THROWS_AS(random_normal(2, 2, 1, 0.0f, -1.0f), ValueError);
    REQUIRE_THROWS_AS(random_normal(2, 2, 1, kNaN, 1.0f), ValueError);
}

// Issue 15, item 16: the documented ranges hold after rounding to float. Each case first
// checks that its inputs reach the edge (the unrounded formula would give hi there).
TEST_CASE("random matrices: uniform stays below hi and normal stays finite after rounding to float", "[random]") {
    const auto unrounded = [](std::uint64_t seed, std::size_t k, float lo, float hi) {
        return float(lo + (double(hi) - lo) * uniform01(seed, k));
    };
    // 32 x 32, seed 10544: entry 503 draws 0.99999999513, which rounds to 1.0f.
    REQUIRE(unrounded(10544, 503, 0.0f, 1.0f) == 1.0f);
    const Matrix u = random_uniform(32, 32, 10544, 0.0f, 1.0f);
    REQUIRE(u.data()[503] < 1.0f);
    REQUIRE(u.data()[503] == std::nextafter(1.0f, 0.0f));
    for (float x : u.to_vector()) REQUIRE((x >= 0.0f && x < 1.0f));
    // Away from the edge nothing changed.
    std::size_t same = 0;
    for (std::size_t k = 0; k < u.size(); ++k) same += u.data()[k] == unrounded(10544, k, 0.0f, 1.0f);
    REQUIRE(same == u.size() - 1);

    // [1, next float after 1) holds one float: 1.
    const float lo = 1.0f, hi = std::nextafter(1.0f, 2.0f);
    std::size_t at_hi = 0;
    for (std::size_t k = 0; k < 256; ++k) at_hi += unrounded(3, k, lo, hi) == hi;
    REQUIRE(at_hi > 50);  // about half the draws round up to hi
    for (float x : random_uniform(16, 16, 3, lo, hi).to_vector()) REQUIRE(x == lo);
    // Negative ranges and lo = hi.
    for (float x : random_uniform(16, 16, 3, -hi, -lo).to_vector()) REQUIRE((x >= -hi && x < -lo));
    for (float x : random_uniform(4, 4, 3, 2.5f, 2.5f).to_vector()) REQUIRE(x == 2.5f);

    // Normal: mean and std at the top of the float range; without the clamp about half
    // of these draws are +∞.
    const float big = std::numeric_limits<float>::max();
    const Matrix n = random_normal(16, 16, 5, big, big);
    for (float x : n.to_vector()) REQUIRE(std::isfinite(x));
    REQUIRE(*std::max_element(n.data(), n.data() + n.size()) == big);
    for (float x : random_normal(16, 16, 5, -big, big).to_vector()) REQUIRE(std::isfinite(x));
}

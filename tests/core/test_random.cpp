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

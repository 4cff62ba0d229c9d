// Stage: the recurrent state (recurrent.hpp), the baseline attention is compared with.
#include "helpers.hpp"

TEST_CASE("the toy recurrent state dilutes a token by r^distance, attention's lookup does not", "[recurrent]") {
    const std::size_t n = 12;
    const float r = GENERATE(0.0f, 0.5f, 0.8f, 0.95f);
    CAPTURE(r);
    Matrix I(n, n);
    for (std::size_t i = 0; i < n; ++i) I(i, i) = 1;
    const Matrix H = recurrent_scan(I, r);
    for (std::size_t t = 0; t < n; ++t)
        for (std::size_t s = 0; s < n; ++s) {
            const double want = s <= t ? (1.0 - r) * std::pow(double(r), double(t - s)) : 0.0;
            REQUIRE_THAT(H(t, s), WithinAbs(want, 1e-6));
        }
    // The last token looks up token s directly: the share it gets does not depend on s.
    Matrix Q(n, n);
    for (std::size_t i = 0; i < n; ++i) Q(i, i) = 6;  // query s looks for key s
    AttentionOptions o;
    o.scale = 1.0f;
    const Trace t = attention(Q, I, I, o);
    for (std::size_t s = 1; s < n; ++s) REQUIRE_THAT(t.output(s, s), WithinAbs(t.output(0, 0), 1e-6));
    REQUIRE_THAT(t.output(0, 0), WithinAbs(std::exp(6.0) / (std::exp(6.0) + double(n - 1)), 1e-6));
    REQUIRE_THROWS_AS(recurrent_scan(I, 1.0f), ValueError);
    REQUIRE_THROWS_AS(recurrent_scan(I, -0.1f), ValueError);
    REQUIRE_THROWS_AS(recurrent_scan(I, NAN), ValueError);
}

#include "attn/random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "splitmix.hpp"

namespace attn {

double uniform01(std::uint64_t seed, std::uint64_t n) {
    // 53 random bits -> a double in [0, 1)
    return double(detail::splitmix64(detail::splitmix64(seed ^ 0x5bd1e995ULL) + n) >> 11) * (1.0 / 9007199254740992.0);
}

Matrix random_uniform(std::size_t rows, std::size_t cols, std::uint64_t seed, float lo, float hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi)
        throw ValueError("random_uniform: need finite lo <= hi, got [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + ")");
    Matrix m(rows, cols);
    // lo + (hi − lo)·u is below hi in double, but the nearest float can be hi itself (u
    // within half a float step of 1): that draw takes the largest float below hi instead,
    // so the range [lo, hi) holds after rounding. Every other draw is unchanged. lo = hi
    // (an empty range) gives lo.
    const float below_hi = lo < hi ? std::nextafter(hi, lo) : lo;
    for (std::size_t k = 0; k < m.size(); ++k) {
        const float x = float(lo + (double(hi) - lo) * uniform01(seed, k));
        m.data()[k] = x < hi ? x : below_hi;
    }
    return m;
}

Matrix random_normal(std::size_t rows, std::size_t cols, std::uint64_t seed, float mean, float stddev) {
    return random_normal_rows(0, rows, cols, seed, mean, stddev);
}

Matrix random_normal_rows(std::size_t first, std::size_t rows, std::size_t cols, std::uint64_t seed, float mean,
                          float stddev) {
    if (!std::isfinite(mean) || !std::isfinite(stddev) || stddev < 0)
        throw ValueError("random_normal: need a finite mean and a finite std >= 0, got std = " +
                         std::to_string(stddev));
    if (first > kMaxElements) throw SizeError("random_normal_rows: first row " + std::to_string(first) + " is past the size limit");
    Matrix m(rows, cols);
    const std::uint64_t offset = std::uint64_t(first) * cols;  // entry (first, 0) of the whole draw
    constexpr double kTwoPi = 6.283185307179586;
    constexpr double kMax = std::numeric_limits<float>::max();
    for (std::size_t k = 0; k < m.size(); ++k) {
        // Box–Muller on two uniforms drawn from counters 2n and 2n+1, n = offset + k the
        // entry's index in the whole draw (u1 in (0, 1], so the
        // logarithm and the draw are finite). A draw past the float range (a mean or std
        // near 3.4e38) is held at ±FLT_MAX rather than rounded to ±∞.
        const std::uint64_t n = offset + k;
        const double u1 = 1.0 - uniform01(seed, 2 * n), u2 = uniform01(seed, 2 * n + 1);
        const double x = mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
        m.data()[k] = float(std::clamp(x, -kMax, kMax));
    }
    return m;
}

}  // namespace attn

#include "attn/random.hpp"

#include <cmath>

#include "splitmix.hpp"
#include <string>

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
    for (std::size_t k = 0; k < m.size(); ++k)
        m.data()[k] = float(lo + (double(hi) - lo) * uniform01(seed, k));
    return m;
}

Matrix random_normal(std::size_t rows, std::size_t cols, std::uint64_t seed, float mean, float stddev) {
    if (!std::isfinite(mean) || !std::isfinite(stddev) || stddev < 0)
        throw ValueError("random_normal: need a finite mean and a finite std >= 0, got std = " +
                         std::to_string(stddev));
    Matrix m(rows, cols);
    constexpr double kTwoPi = 6.283185307179586;
    for (std::size_t k = 0; k < m.size(); ++k) {
        // Box–Muller on two uniforms drawn from counters 2k and 2k+1.
        const double u1 = 1.0 - uniform01(seed, 2 * k), u2 = uniform01(seed, 2 * k + 1);
        m.data()[k] = float(mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2));
    }
    return m;
}

}  // namespace attn

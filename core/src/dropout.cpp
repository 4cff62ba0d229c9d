#include "attn/dropout.hpp"

#include <cmath>

namespace attn {

namespace {
// SplitMix64 finaliser (Steele, Lea, Flood 2014): a strong 64-bit mix of a counter.
std::uint64_t mix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
}  // namespace

void check_dropout_rate(float rate) {
    if (!(rate >= 0.0f && rate < 1.0f))
        throw ValueError("dropout: rate must be in [0, 1), got " + std::to_string(rate));
}

bool dropout_keep(std::uint64_t seed, std::size_t i, std::size_t j, float rate) {
    const std::uint64_t h = mix(mix(seed) ^ mix((std::uint64_t(i) << 32) ^ std::uint64_t(j)));
    // 24 random bits -> uniform in [0, 1) exactly representable as float
    const float u = float(h >> 40) * (1.0f / 16777216.0f);
    return u >= rate;
}

Matrix dropout(ConstMatrixView P, float rate, std::uint64_t seed) {
    check_dropout_rate(rate);
    Matrix out(P.rows(), P.cols());
    const float keep_scale = 1.0f / (1.0f - rate);
    for (std::size_t i = 0; i < P.rows(); ++i)
        for (std::size_t j = 0; j < P.cols(); ++j)
            out(i, j) = dropout_keep(seed, i, j, rate) ? P(i, j) * keep_scale : 0.0f;
    return out;
}

}  // namespace attn

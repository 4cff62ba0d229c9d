#include "attn/dropout.hpp"

#include <cmath>

#include "splitmix.hpp"

namespace attn {

void check_dropout_rate(float rate) {
    if (!(rate >= 0.0f && rate < 1.0f))
        throw ValueError("dropout: rate must be in [0, 1), got " + std::to_string(rate));
}

bool dropout_keep(std::uint64_t seed, std::size_t i, std::size_t j, float rate) {
    const std::uint64_t h = detail::splitmix64(detail::splitmix64(seed) ^ detail::splitmix64((std::uint64_t(i) << 32) ^ std::uint64_t(j)));
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

#include "attn/positional.hpp"

#include <cmath>

namespace attn {

Matrix sinusoidal_encoding(std::size_t T, std::size_t d, double base) {
    if (d == 0) throw ValueError("sinusoidal_encoding: d must be at least 1");
    if (!(base > 0.0) || !std::isfinite(base))
        throw ValueError("sinusoidal_encoding: base must be positive and finite");
    Matrix pe(T, d);
    for (std::size_t pos = 0; pos < T; ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const std::size_t two_i = c - c % 2;  // 2i for both the sine and the cosine column
            const double angle = double(pos) / std::pow(base, double(two_i) / double(d));
            pe(pos, c) = float(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    return pe;
}

}  // namespace attn

#include "attn/positional.hpp"

#include <cmath>
#include <string>

namespace attn {

namespace {
void check(const char* fn, std::size_t d, double base) {
    if (d == 0) throw ValueError(std::string(fn) + ": d must be at least 1");
    if (!(base > 0.0) || !std::isfinite(base)) throw ValueError(std::string(fn) + ": base must be positive and finite");
}

// pos / base^(2i / d) for column c = 2i (sine) or 2i + 1 (cosine).
double angle(std::size_t pos, std::size_t c, std::size_t d, double base) {
    return double(pos) / std::pow(base, double(c - c % 2) / double(d));
}
}  // namespace

Matrix sinusoidal_encoding(std::size_t T, std::size_t d, double base) {
    check("sinusoidal_encoding", d, base);
    Matrix pe(T, d);
    for (std::size_t pos = 0; pos < T; ++pos)
        for (std::size_t c = 0; c < d; ++c) {
            const double a = angle(pos, c, d, base);
            pe(pos, c) = float(c % 2 == 0 ? std::sin(a) : std::cos(a));
        }
    return pe;
}

Matrix sinusoid_angles(std::size_t T, std::size_t d, double base) {
    check("sinusoid_angles", d, base);
    Matrix out(T, d);
    for (std::size_t pos = 0; pos < T; ++pos)
        for (std::size_t c = 0; c < d; ++c) out(pos, c) = float(angle(pos, c, d, base));
    return out;
}

}  // namespace attn

// Shared test helpers: seeded random matrices and element-wise comparison with a
// stated tolerance model.
#pragma once

#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "attn/attn.hpp"
#include "attn/reference.hpp"

namespace attn::test {

inline Matrix random_matrix(std::size_t rows, std::size_t cols, std::uint32_t seed,
                            float lo = -1.0f, float hi = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = dist(rng);
    return m;
}

// Tolerance model: float kernels (FMA, other summation order) against a double-
// accumulating reference differ by at most a few ulps per term of a k-term sum, so
// |got − want| <= abs + rel·|want| with abs, rel ~ k · 2⁻²³ for unit-sized inputs.
// Non-finite entries must match exactly (both −∞, both NaN, ...).
inline void require_close(ConstMatrixView got, ConstMatrixView want, double rel = 1e-5,
                          double abs = 1e-5, const std::string& what = "") {
    INFO(what << " got " << got.shape() << ", want " << want.shape());
    REQUIRE(got.rows() == want.rows());
    REQUIRE(got.cols() == want.cols());
    for (std::size_t i = 0; i < got.rows(); ++i)
        for (std::size_t j = 0; j < got.cols(); ++j) {
            const float g = got(i, j), w = want(i, j);
            INFO("entry (" << i << ", " << j << "): got " << g << ", want " << w);
            if (!std::isfinite(w)) {
                if (std::isnan(w)) REQUIRE(std::isnan(g));
                else REQUIRE(g == w);
                continue;
            }
            REQUIRE(std::abs(double(g) - double(w)) <= abs + rel * std::abs(double(w)));
        }
}

inline std::string describe(std::size_t a, std::size_t b, std::size_t c) {
    std::ostringstream os;
    os << a << "x" << b << " · " << c;
    return os.str();
}

}  // namespace attn::test

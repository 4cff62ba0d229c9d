// Shared by the Catch2 tests (tests/core/test_<stage>.cpp, each tagged [<stage>]): seeded
// random matrices, element-wise comparison with a stated tolerance model, the sizes that
// hit SIMD tails, and the random attention problems the property tests draw.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "attn/attn.hpp"
#include "attn/reference.hpp"

namespace attn::test {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr std::size_t kHuge = std::numeric_limits<std::size_t>::max();

// Column counts that hit the tails of 4-lane (wasm, SSE), 8-lane (AVX) and 16-lane
// (AVX-512) batches: 1, lanes − 1, lanes, lanes + 1, odd sizes.
inline const std::size_t kSizes[] = {1, 3, 4, 5, 7, 8, 9, 16, 17, 33};

inline Matrix random_matrix(std::size_t rows, std::size_t cols, std::uint32_t seed,
                            float lo = -1.0f, float hi = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = dist(rng);
    return m;
}

// got agrees with want entry by entry: the same NaN and ±∞ entries (both −∞, both NaN,
// ...), finite ones with |got − want| <= abs(row) + rel·|want|.
template <class AbsOfRow>
void require_agree(ConstMatrixView got, ConstMatrixView want, AbsOfRow abs, double rel, const std::string& what) {
    INFO(what << " got " << got.shape() << ", want " << want.shape());
    REQUIRE(got.rows() == want.rows());
    REQUIRE(got.cols() == want.cols());
    for (std::size_t i = 0; i < got.rows(); ++i)
        for (std::size_t j = 0; j < got.cols(); ++j) {
            const float g = got(i, j), w = want(i, j);
            INFO("entry (" << i << ", " << j << "): got " << g << ", want " << w);
            if (std::isnan(w)) REQUIRE(std::isnan(g));
            else if (std::isinf(w)) REQUIRE(g == w);
            else REQUIRE(std::abs(double(g) - double(w)) <= abs(i) + rel * std::abs(double(w)));
        }
}

// Tolerance model: float kernels (FMA, other summation order) against a double-
// accumulating reference differ by at most a few ulps per term of a k-term sum, so
// |got − want| <= abs + rel·|want| with abs, rel ~ k · 2⁻²³ for unit-sized inputs.
inline void require_close(ConstMatrixView got, ConstMatrixView want, double rel = 1e-5,
                          double abs = 1e-5, const std::string& what = "") {
    require_agree(got, want, [abs](std::size_t) { return abs; }, rel, what);
}

inline double max_abs(ConstMatrixView m) {
    double a = 0;
    for (std::size_t i = 0; i < m.rows(); ++i)
        for (std::size_t j = 0; j < m.cols(); ++j) a = std::max(a, double(std::abs(m(i, j))));
    return a;
}

// An attention output against the reference: a convex combination of V rows, so the
// error is a few ulps of max|V| per row, not of the (possibly tiny) entry itself. Past
// 256 keys the rounding of the float sums over T_k terms grows like √T_k, and so does the
// bound (at T_k = 1041 the plain and the tiled kernel both reach ~1.1e-6·max|V|).
inline void require_output(ConstMatrixView got, ConstMatrixView want, ConstMatrixView V, const std::string& what) {
    // Several lanes and accumulators sum in parallel, so the rounding error grows like √n.
    // The one-lane scalar build (core.isa.scalar) sums each product in one sequence: n.
#if defined(ATTN_SCALAR)
    const double keys = std::max(1.0, double(V.rows()) / 128.0);
#else
    const double keys = std::max(1.0, std::sqrt(double(V.rows()) / 256.0));
#endif
    require_close(got, want, 1e-5, 1e-6 * keys * std::max(1.0, max_abs(V)), what);
}

inline bool all_nan(const float* x, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
        if (!std::isnan(x[j])) return false;
    return true;
}
inline bool all_finite(const float* x, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
        if (!std::isfinite(x[j])) return false;
    return true;
}

// Row i of a and b hold the same bits (so −0 ≠ 0, and a NaN equals the same NaN).
inline bool rows_identical(ConstMatrixView a, ConstMatrixView b, std::size_t i) {
    return std::memcmp(a.row(i), b.row(i), a.cols() * sizeof(float)) == 0;
}

inline Matrix row_of(ConstMatrixView m, std::size_t i) { return Matrix(ConstMatrixView(m.row(i), 1, m.cols(), m.cols())); }

inline std::vector<std::size_t> divisors(std::size_t n) {
    std::vector<std::size_t> d;
    for (std::size_t k = 1; k <= n; ++k)
        if (n % k == 0) d.push_back(k);
    return d;
}

// W_Q, W_K: d_model x dk, W_V: d_model x dv, W_O: dv x dout.
inline MultiHeadWeights random_weights(std::size_t d_model, std::size_t dk, std::size_t dv, std::size_t dout,
                                       std::uint32_t seed) {
    return {random_matrix(d_model, dk, seed), random_matrix(d_model, dk, seed + 1),
            random_matrix(d_model, dv, seed + 2), random_matrix(dv, dout, seed + 3)};
}

inline std::string describe(std::size_t a, std::size_t b, std::size_t c) {
    std::ostringstream os;
    os << a << "x" << b << " · " << c;
    return os.str();
}

// One random attention problem (seeded, so a failure names its case): shapes up to 24,
// magnitudes 0.1..10, causal one time in three, and one time in three an additive mask
// with hidden keys, finite biases and, now and then, fully hidden rows.
struct Case {
    std::uint32_t seed;
    Matrix Q, K, V;
    AttentionOptions o;
};

inline Case random_case(std::uint32_t seed, bool allow_mask = true) {
    std::mt19937 rng(seed);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    const std::size_t Tq = pick(1, 24), Tk = pick(1, 24), dk = pick(1, 19), dv = pick(1, 11);
    const float mag = std::vector<float>{0.1f, 1.0f, 3.0f, 10.0f}[pick(0, 3)];
    Case c{seed, random_matrix(Tq, dk, seed * 3 + 1, -mag, mag), random_matrix(Tk, dk, seed * 3 + 2, -mag, mag),
           random_matrix(Tk, dv, seed * 3 + 3, -5, 5), {}};
    c.o.causal = pick(0, 2) == 0;
    if (allow_mask && pick(0, 2) == 0) {
        Matrix M(Tq, Tk, 0.0f);
        for (std::size_t i = 0; i < Tq; ++i) {
            const bool all = pick(0, 5) == 0;
            for (std::size_t j = 0; j < Tk; ++j)
                if (all || pick(0, 3) == 0) M(i, j) = -kInf;
                else M(i, j) = float(pick(0, 4)) - 2.0f;  // additive finite biases too
        }
        c.o.mask = M;
    }
    return c;
}

// Key j is visible to query i: not hidden by the causal mask nor by −∞ in the mask.
inline bool visible(const AttentionOptions& o, std::size_t i, std::size_t j) {
    if (o.causal && j > i) return false;
    return !(o.mask && (*o.mask)(i, j) == -kInf);
}

}  // namespace attn::test

// Every test file works in these namespaces.
using namespace attn;
using namespace attn::test;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

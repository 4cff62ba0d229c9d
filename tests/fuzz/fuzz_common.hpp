// Shared by the libFuzzer targets: turning fuzz bytes into matrices, and a CHECK that
// aborts (so libFuzzer records the input as a crash) with the failed condition printed.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <fuzzer/FuzzedDataProvider.h>

#include "attn/attn.hpp"
#include "attn/reference.hpp"

#define ATTN_CHECK(cond)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::fprintf(stderr, "ATTN_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            std::abort();                                                                  \
        }                                                                                  \
    } while (0)

namespace attn::fuzz {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// How a matrix's entries are drawn:
//   Bits  any 32-bit pattern (NaN payloads, ±∞, subnormals, ±0, ±3.4e38),
//   Tame  multiples of 1/16 in [−4, 4] (products and sums of up to 12 of them are exact
//         in float, so the kernels must match the reference closely),
//   Mixed tame values with, now and then, a special one (NaN, ±∞, ±1e30, 0).
enum class Fill { Bits, Tame, Mixed };

inline float special(FuzzedDataProvider& fdp) {
    return fdp.PickValueInArray<float>({std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                        kNegInf, 1e30f, -1e30f, 0.0f, -0.0f, 3.4e38f, 1e-40f});
}

inline float value(FuzzedDataProvider& fdp, Fill fill) {
    switch (fill) {
        case Fill::Bits: {
            const std::uint32_t bits = fdp.ConsumeIntegral<std::uint32_t>();
            float f;
            std::memcpy(&f, &bits, sizeof f);
            return f;
        }
        case Fill::Tame: return float(fdp.ConsumeIntegralInRange<int>(-64, 64)) / 16.0f;
        case Fill::Mixed:
            if (fdp.ConsumeIntegralInRange<int>(0, 15) == 0) return special(fdp);
            return float(fdp.ConsumeIntegralInRange<int>(-64, 64)) / 16.0f;
    }
    return 0.0f;
}

inline Matrix matrix(FuzzedDataProvider& fdp, std::size_t rows, std::size_t cols, Fill fill) {
    Matrix m(rows, cols);
    for (std::size_t k = 0; k < m.size(); ++k) m.data()[k] = value(fdp, fill);
    return m;
}

inline Fill pick_fill(FuzzedDataProvider& fdp) {
    return fdp.PickValueInArray<Fill>({Fill::Bits, Fill::Tame, Fill::Mixed});
}

inline bool finite_row(ConstMatrixView m, std::size_t i) {
    for (std::size_t j = 0; j < m.cols(); ++j)
        if (!std::isfinite(m(i, j))) return false;
    return true;
}

inline std::size_t count_nonfinite(ConstMatrixView m, bool minus_inf_is_mask) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < m.rows(); ++i)
        for (std::size_t j = 0; j < m.cols(); ++j)
            if (!std::isfinite(m(i, j)) && !(minus_inf_is_mask && m(i, j) == kNegInf)) ++n;
    return n;
}

// |a − b| <= abs + rel·|b|, non-finite entries equal (NaN matches NaN).
inline bool close(ConstMatrixView a, ConstMatrixView b, double rel, double abs) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
    for (std::size_t i = 0; i < a.rows(); ++i)
        for (std::size_t j = 0; j < a.cols(); ++j) {
            const float x = a(i, j), y = b(i, j);
            if (std::isnan(y)) {
                if (!std::isnan(x)) return false;
            } else if (!std::isfinite(y)) {
                if (x != y) return false;
            } else if (!(std::abs(double(x) - double(y)) <= abs + rel * std::abs(double(y)))) {
                return false;
            }
        }
    return true;
}

}  // namespace attn::fuzz

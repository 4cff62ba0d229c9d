// Statistics of the entries of a matrix: moments and a histogram (statistics.hpp).
#include "attn/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attn/errors.hpp"

namespace attn {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

Moments moments(ConstMatrixView M) {
    if (M.empty()) throw ValueError("moments: the matrix is empty (" + M.shape() + ")");
    Moments m;
    m.count = M.rows() * M.cols();
    m.min = std::numeric_limits<double>::infinity();
    m.max = -std::numeric_limits<double>::infinity();
    bool nan = false;
    for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < M.cols(); ++j) {
            const double x = M(i, j);
            nan = nan || std::isnan(x);
            m.sum += x;
            m.min = std::min(m.min, x);
            m.max = std::max(m.max, x);
        }
    m.mean = m.sum / double(m.count);
    // Second pass around the mean (no cancellation from Σx² − n·mean²).
    double ss = 0;
    for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < M.cols(); ++j) ss += (double(M(i, j)) - m.mean) * (double(M(i, j)) - m.mean);
    m.variance = std::isfinite(m.mean) ? ss / double(m.count) : kNaN;
    m.stddev = std::sqrt(m.variance);
    if (nan) m.min = m.max = kNaN;
    return m;
}

Histogram histogram(ConstMatrixView M, std::size_t bins, double lo, double hi) {
    if (bins < 1 || bins > kMaxHistogramBins)
        throw ValueError("histogram: bins must be in [1, " + std::to_string(kMaxHistogramBins) + "], got " +
                         std::to_string(bins));
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
        throw ValueError("histogram: need finite lo < hi, got [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    Histogram h;
    h.lo = lo;
    h.hi = hi;
    h.edges.resize(bins + 1);
    const double width = (hi - lo) / double(bins);
    for (std::size_t k = 0; k <= bins; ++k) h.edges[k] = k == bins ? hi : lo + width * double(k);
    h.counts.assign(bins, 0);
    for (std::size_t i = 0; i < M.rows(); ++i)
        for (std::size_t j = 0; j < M.cols(); ++j) {
            const double x = M(i, j);
            if (std::isnan(x)) ++h.non_finite;
            else if (x < lo) ++h.below;
            else if (x > hi) ++h.above;
            else {
                auto k = std::size_t((x - lo) / width);
                if (k >= bins) k = bins - 1;  // x == hi, or rounding at the top edge
                // Keep the bin consistent with the printed edges despite rounding.
                while (k > 0 && x < h.edges[k]) --k;
                while (k + 1 < bins && x >= h.edges[k + 1]) ++k;
                ++h.counts[k];
            }
        }
    return h;
}

}  // namespace attn

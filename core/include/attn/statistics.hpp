// Statistics of the entries of a matrix: count, sum, mean, population variance, standard
// deviation, min and max (Moments), and an equal-width histogram. The page uses them to
// describe scores and sampled dot products (score_scale.hpp); they run on a handful of
// numbers and accumulate in double.
//
// Shapes: moments(M), histogram(M, bins, lo, hi): any r x c -> statistics of its r·c entries.
//
// Errors: ValueError for an empty M in moments, bins outside [1, kMaxHistogramBins], lo or
// hi not finite, or lo >= hi.
// Sources: the population variance Σ (x − mean)² / n, computed in two passes (no
// cancellation from Σx² − n·mean²).
#pragma once

#include <cstddef>
#include <vector>

#include "attn/matrix.hpp"

namespace attn {

// Statistics of every entry of M, accumulated in double. NaN or ±∞ entries make the
// sums non-finite (they are not skipped). ValueError for an empty M.
struct Moments {
    std::size_t count = 0;
    double sum = 0, mean = 0;
    double variance = 0;  // population variance: Σ (x − mean)² / count
    double stddev = 0;    // √variance
    double min = 0, max = 0;
};
Moments moments(ConstMatrixView M);

// The most bins histogram() makes.
inline constexpr std::size_t kMaxHistogramBins = 10000;

// bins equal-width bins over [lo, hi]; bin k is [edges[k], edges[k+1]), the last bin
// also takes x = hi. Entries outside are counted in below / above, NaN in non_finite
// (±∞ count as below / above).
struct Histogram {
    double lo = 0, hi = 0;
    std::vector<double> edges;        // bins + 1
    std::vector<std::size_t> counts;  // bins
    std::size_t below = 0, above = 0, non_finite = 0;
};
Histogram histogram(ConstMatrixView M, std::size_t bins, double lo, double hi);

}  // namespace attn

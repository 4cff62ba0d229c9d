// Bindings of core/include/attn/statistics.hpp: moments and histograms.
#include "bind.hpp"

ATTN_BINDINGS(attn_statistics) {
    using namespace attn::wasm;
    using attn::Histogram, attn::Moments;
    constant("MAX_HISTOGRAM_BINS", double(attn::kMaxHistogramBins));

    object<Moments>()
        .field("count", &Moments::count)
        .field("sum", &Moments::sum)
        .field("mean", &Moments::mean)
        .field("variance", &Moments::variance)
        .field("std", &Moments::stddev)
        .field("min", &Moments::min)
        .field("max", &Moments::max);
    object<Histogram>()
        .field("lo", &Histogram::lo)
        .field("hi", &Histogram::hi)
        .field("edges", &Histogram::edges)
        .field("counts", &Histogram::counts)
        .field("below", &Histogram::below)
        .field("above", &Histogram::above)
        .field("nonFinite", &Histogram::non_finite);

    bind<&attn::moments>("moments");
    bind<&attn::histogram>("histogram");
}

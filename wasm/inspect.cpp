// Bindings of core/include/attn/inspect.hpp: the numbers the page shows beside its figures.
#include "bind.hpp"

namespace {

struct ColumnRange {
    attn::Matrix min, max;  // 1 x c each
};

// column_range's 2 x c as {min, max}.
ColumnRange column_range(attn::ConstMatrixView M) {
    const attn::Matrix r = attn::column_range(M);
    const auto row = [&](std::size_t i) { return attn::Matrix(attn::ConstMatrixView(r.row(i), 1, r.cols(), r.cols())); };
    return {row(0), row(1)};
}

}  // namespace

ATTN_BINDINGS(attn_inspect) {
    using namespace attn::wasm;
    using attn::DiagonalCheck, attn::DotGeometry, attn::DotProductSample, attn::Histogram, attn::Moments,
        attn::ScalingEffect, attn::ScoreScale, attn::SoftmaxParts;
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
    object<DotGeometry>()
        .field("dot", &DotGeometry::dot)
        .field("normA", &DotGeometry::norm_a)
        .field("normB", &DotGeometry::norm_b)
        .field("cos", &DotGeometry::cos)
        .field("degrees", &DotGeometry::degrees);
    object<DiagonalCheck>()
        .field("diagonal", &DiagonalCheck::diagonal)
        .field("offMax", &DiagonalCheck::off_max)
        .field("margin", &DiagonalCheck::margin)
        .field("holds", &DiagonalCheck::holds);
    object<SoftmaxParts>()
        .field("max", &SoftmaxParts::max)
        .field("shifted", &SoftmaxParts::shifted)
        .field("exp", &SoftmaxParts::exp)
        .field("sums", &SoftmaxParts::sums)
        .field("expRaw", &SoftmaxParts::exp_raw)
        .field("sumsRaw", &SoftmaxParts::sums_raw)
        .field("weights", &SoftmaxParts::weights);
    object<ScalingEffect>()
        .field("factor", &ScalingEffect::factor)
        .field("scaled", &ScalingEffect::scaled)
        .field("weights", &ScalingEffect::weights)
        .field("weightsScaled", &ScalingEffect::weights_scaled)
        .field("grad", &ScalingEffect::grad)
        .field("gradScaled", &ScalingEffect::grad_scaled)
        .field("top", &ScalingEffect::top)
        .field("gradTop", &ScalingEffect::grad_top)
        .field("gradTopScaled", &ScalingEffect::grad_top_scaled)
        .field("ratio", &ScalingEffect::ratio);
    object<ScoreScale>()
        .field("dk", &ScoreScale::d_k)
        .field("sqrtDk", &ScoreScale::sqrt_dk)
        .field("factor", &ScoreScale::factor);
    object<DotProductSample>()
        .field("dk", &DotProductSample::d_k)
        .field("count", &DotProductSample::count)
        .field("first", &DotProductSample::first)
        .field("seed", &DotProductSample::seed)
        .field("dots", &DotProductSample::dots)
        .field("scaled", &DotProductSample::scaled)
        .field("raw", &DotProductSample::raw)
        .field("normalized", &DotProductSample::normalized)
        .field("expectedVariance", &DotProductSample::expected_variance);
    object<ColumnRange>()
        .field("min", &ColumnRange::min)
        .field("max", &ColumnRange::max);

    bind<&attn::row_sums>("rowSums");
    bind<&attn::col_sums>("colSums");
    bind<&attn::row_max>("rowMax");
    bind<&attn::row_argmax>("rowArgmax");
    bind<&attn::row_dots>("rowDots");
    bind<&attn::row_norms>("rowNorms");
    bind<&attn::normalize_rows>("normalizeRows");
    bind<&attn::normalize_weights>("normalizeWeights");
    bind<&attn::difference>("difference");
    bind<&attn::add>("add");
    bind<&attn::max_abs_diff>("maxAbsDiff");
    bind<&attn::diagonal>("diagonal");
    bind<&attn::permute_rows>("permuteRows");
    bind<&column_range>("columnRange");
    bind<&attn::moments>("moments");
    bind<&attn::histogram>("histogram");
    bind<&attn::dot_geometry>("dotGeometry");
    bind<&attn::convex_hull>("convexHull");
    bind<&attn::hull_distance>("hullDistance");
    bind<&attn::diagonal_check>("diagonalCheck");
    bind<&attn::softmax_parts>("softmaxParts");
    bind<&attn::softmax_jacobian_diag>("softmaxJacobianDiag");
    bind<&attn::scaling_effect>("scalingEffect");
    bind<&attn::score_scale>("scoreScale");
    bind<&attn::sample_dot_products>("sampleDotProducts");
}

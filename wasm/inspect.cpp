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

EMSCRIPTEN_BINDINGS(attn_inspect) {
    using namespace attn::wasm;
    using emscripten::value_object;
    using attn::DiagonalCheck, attn::DotGeometry, attn::DotProductSample, attn::Histogram, attn::Moments,
        attn::ScalingEffect, attn::ScoreScale, attn::SoftmaxParts;
    emscripten::constant("MAX_HISTOGRAM_BINS", double(attn::kMaxHistogramBins));

    value_object<Moments>("Moments")
        .field("count", &Moments::count)
        .field("sum", &Moments::sum)
        .field("mean", &Moments::mean)
        .field("variance", &Moments::variance)
        .field("std", &Moments::stddev)
        .field("min", &Moments::min)
        .field("max", &Moments::max);
    value_object<Histogram>("Histogram")
        .field("lo", &Histogram::lo)
        .field("hi", &Histogram::hi)
        .field("edges", js<&Histogram::edges>, none<Histogram>)
        .field("counts", js<&Histogram::counts>, none<Histogram>)
        .field("below", &Histogram::below)
        .field("above", &Histogram::above)
        .field("nonFinite", &Histogram::non_finite);
    value_object<DotGeometry>("DotGeometry")
        .field("dot", &DotGeometry::dot)
        .field("normA", &DotGeometry::norm_a)
        .field("normB", &DotGeometry::norm_b)
        .field("cos", &DotGeometry::cos)
        .field("degrees", &DotGeometry::degrees);
    value_object<DiagonalCheck>("DiagonalCheck")
        .field("diagonal", js<&DiagonalCheck::diagonal>, none<DiagonalCheck>)
        .field("offMax", js<&DiagonalCheck::off_max>, none<DiagonalCheck>)
        .field("margin", js<&DiagonalCheck::margin>, none<DiagonalCheck>)
        .field("holds", js<&DiagonalCheck::holds>, none<DiagonalCheck>);
    value_object<SoftmaxParts>("SoftmaxParts")
        .field("max", js<&SoftmaxParts::max>, none<SoftmaxParts>)
        .field("shifted", js<&SoftmaxParts::shifted>, none<SoftmaxParts>)
        .field("exp", js<&SoftmaxParts::exp>, none<SoftmaxParts>)
        .field("sums", js<&SoftmaxParts::sums>, none<SoftmaxParts>)
        .field("expRaw", js<&SoftmaxParts::exp_raw>, none<SoftmaxParts>)
        .field("sumsRaw", js<&SoftmaxParts::sums_raw>, none<SoftmaxParts>)
        .field("weights", js<&SoftmaxParts::weights>, none<SoftmaxParts>);
    value_object<ScalingEffect>("ScalingEffect")
        .field("factor", &ScalingEffect::factor)
        .field("scaled", js<&ScalingEffect::scaled>, none<ScalingEffect>)
        .field("weights", js<&ScalingEffect::weights>, none<ScalingEffect>)
        .field("weightsScaled", js<&ScalingEffect::weights_scaled>, none<ScalingEffect>)
        .field("grad", js<&ScalingEffect::grad>, none<ScalingEffect>)
        .field("gradScaled", js<&ScalingEffect::grad_scaled>, none<ScalingEffect>)
        .field("top", js<&ScalingEffect::top>, none<ScalingEffect>)
        .field("gradTop", js<&ScalingEffect::grad_top>, none<ScalingEffect>)
        .field("gradTopScaled", js<&ScalingEffect::grad_top_scaled>, none<ScalingEffect>)
        .field("ratio", js<&ScalingEffect::ratio>, none<ScalingEffect>);
    value_object<ScoreScale>("ScoreScale")
        .field("dk", &ScoreScale::d_k)
        .field("sqrtDk", &ScoreScale::sqrt_dk)
        .field("factor", &ScoreScale::factor);
    value_object<DotProductSample>("DotProductSample")
        .field("dk", &DotProductSample::d_k)
        .field("count", &DotProductSample::count)
        .field("seed", js<&DotProductSample::seed>, none<DotProductSample>)
        .field("dots", js<&DotProductSample::dots>, none<DotProductSample>)
        .field("scaled", js<&DotProductSample::scaled>, none<DotProductSample>)
        .field("raw", &DotProductSample::raw)
        .field("normalized", &DotProductSample::normalized)
        .field("expectedVariance", &DotProductSample::expected_variance);
    value_object<ColumnRange>("ColumnRange")
        .field("min", js<&ColumnRange::min>, none<ColumnRange>)
        .field("max", js<&ColumnRange::max>, none<ColumnRange>);

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

// Bindings of core/include/attn/score_scale.hpp: the factor 1/√d_k, its effect on softmax
// and its gradient, the variance experiment.
#include "bind.hpp"

ATTN_BINDINGS(attn_score_scale) {
    using namespace attn::wasm;
    using attn::DotProductSample, attn::ScalingEffect, attn::ScoreScale;
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

    bind<&attn::scaling_effect>("scalingEffect");
    bind<&attn::score_scale>("scoreScale");
    bind<&attn::sample_dot_products>("sampleDotProducts");
}

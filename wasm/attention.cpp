// Bindings of core/include/attn/attention.hpp: the stages and the two plain variants
// (see bind.hpp for how a line binds a function).
#include "bind.hpp"

namespace {

using namespace attn::wasm;

// attention() with the trace's working set checked against the module's memory first:
// scores, scaled, masked, weights, dropped (and one more for the conversion), then O.
attn::Trace attention(const attn::Matrix& Q, const attn::Matrix& K, const attn::Matrix& V,
                      const attn::AttentionOptions& options) {
    check_budget(6.0 * double(Q.rows()) * double(K.rows()) + double(Q.rows()) * double(V.cols()), "attention");
    return attn::attention(Q, K, V, options);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_attention) {
    using namespace attn::wasm;
    using attn::NonFiniteEntry, attn::NonFiniteReport, attn::Trace;
    emscripten::value_object<NonFiniteEntry>("NonFiniteEntry")
        .field("input", &NonFiniteEntry::input)
        .field("row", &NonFiniteEntry::row)
        .field("col", &NonFiniteEntry::col)
        .field("value", &NonFiniteEntry::value);
    emscripten::value_object<NonFiniteReport>("NonFiniteReport")
        .field("count", &NonFiniteReport::count)
        .field("entries", js<&NonFiniteReport::entries>, none<NonFiniteReport>)
        .field("stages", js<&NonFiniteReport::stages>, none<NonFiniteReport>);
    emscripten::value_object<Trace>("Trace")
        .field("scale", &Trace::scale)
        .field("scores", js<&Trace::scores>, none<Trace>)
        .field("scaled", js<&Trace::scaled>, none<Trace>)
        .field("masked", js<&Trace::masked>, none<Trace>)
        .field("weights", js<&Trace::weights>, none<Trace>)
        .field("dropped", js<&Trace::dropped>, none<Trace>)
        .field("output", js<&Trace::output>, none<Trace>)
        .field("nonFinite", &Trace::nonfinite);

    bind<&attn::scores>("scores");
    bind<&attn::scale>("scale");
    bind<&attn::causal_mask>("causalMask");
    bind<&attn::add_mask>("addMask");
    bind<&attn::softmax>("softmax");
    bind<&attn::weighted_sum>("weightedSum");
    bind<&attention>("attention");
    bind<&attn::attention_output>("attentionOutput");
}

// Bindings of core/include/attn/attention.hpp: the stages and the two plain variants
// (see bind.hpp for how a line binds a function).
#include "bind.hpp"

namespace {

using namespace attn::wasm;

// attention() with the trace's working set checked against the module's memory first:
// scores, scaled, masked, weights, dropped (and one more to spare), then O.
attn::Trace attention(attn::ConstMatrixView Q, attn::ConstMatrixView K, attn::ConstMatrixView V,
                      const attn::AttentionOptions& options) {
    check_budget(6.0 * double(Q.rows()) * double(K.rows()) + double(Q.rows()) * double(V.cols()), "attention");
    return attn::attention(Q, K, V, options);
}

}  // namespace

ATTN_BINDINGS(attn_attention) {
    using namespace attn::wasm;
    using attn::NonFiniteEntry, attn::NonFiniteReport, attn::SoftmaxParts, attn::Trace;
    object<NonFiniteEntry>()
        .field("input", &NonFiniteEntry::input)
        .field("row", &NonFiniteEntry::row)
        .field("col", &NonFiniteEntry::col)
        .field("value", &NonFiniteEntry::value);
    object<NonFiniteReport>()
        .field("count", &NonFiniteReport::count)
        .field("entries", &NonFiniteReport::entries)
        .field("stages", &NonFiniteReport::stages);
    object<Trace>()
        .field("scale", &Trace::scale)
        .field("scores", &Trace::scores)
        .field("scaled", &Trace::scaled)
        .field("masked", &Trace::masked)
        .field("weights", &Trace::weights)
        .field("dropped", &Trace::dropped)
        .field("output", &Trace::output)
        .field("nonFinite", &Trace::nonfinite);
    object<SoftmaxParts>()
        .field("max", &SoftmaxParts::max)
        .field("shifted", &SoftmaxParts::shifted)
        .field("exp", &SoftmaxParts::exp)
        .field("sums", &SoftmaxParts::sums)
        .field("expRaw", &SoftmaxParts::exp_raw)
        .field("sumsRaw", &SoftmaxParts::sums_raw)
        .field("weights", &SoftmaxParts::weights);

    bind<&attn::scores>("scores");
    bind<&attn::scale>("scale");
    bind<&attn::causal_mask>("causalMask");
    bind<&attn::add_mask>("addMask");
    bind<&attn::softmax>("softmax");
    bind<&attn::softmax_parts>("softmaxParts");
    bind<&attn::weighted_sum>("weightedSum");
    bind<&attention>("attention");
    bind<&attn::attention_output>("attentionOutput");
}

// The same call as Module.attention, as a plain wasm export (no Embind): what Embind's own
// JS wrapper costs per call is measured against it once (tests/bench/small_calls.mjs,
// docs/benchmarks.md, "Small calls on Embind").
extern "C" EMSCRIPTEN_KEEPALIVE double attn_raw_attention(double Q, double K, double V, double options) {
    return attn::wasm::Bound<&attention>::call(Q, K, V, options);
}

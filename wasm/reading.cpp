// Bindings of core/include/attn/reading.hpp: constructed heads.
#include "bind.hpp"

namespace {
// The kind by name ("previous", "self", ...).
attn::reading::HeadWeights constructed_head(const std::string& kind, std::size_t T, float strength) {
    return attn::reading::constructed_head(attn::reading::head_kind(kind), T, strength);
}
}  // namespace

EMSCRIPTEN_BINDINGS(attn_reading) {
    using namespace attn::wasm;
    using attn::reading::HeadWeights;
    emscripten::value_object<HeadWeights>("HeadWeights")
        .field("Wq", js<&HeadWeights::Wq>, none<HeadWeights>)
        .field("Wk", js<&HeadWeights::Wk>, none<HeadWeights>);
    bind<&attn::reading::token_features>("tokenFeatures");
    bind<&constructed_head>("constructedHead");
}

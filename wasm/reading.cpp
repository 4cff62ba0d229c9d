// Bindings of core/include/attn/reading.hpp: constructed heads.
#include "bind.hpp"

namespace {
// The kind by name ("previous", "self", ...).
attn::reading::HeadWeights constructed_head(const std::string& kind, std::size_t T, float strength) {
    return attn::reading::constructed_head(attn::reading::head_kind(kind), T, strength);
}
}  // namespace

ATTN_BINDINGS(attn_reading) {
    using namespace attn::wasm;
    using attn::reading::HeadWeights;
    object<HeadWeights>()
        .field("Wq", &HeadWeights::Wq)
        .field("Wk", &HeadWeights::Wk);
    bind<&attn::reading::token_features>("tokenFeatures");
    bind<&constructed_head>("constructedHead");
}

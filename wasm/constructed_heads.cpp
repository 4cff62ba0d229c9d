// Bindings of core/include/attn/constructed_heads.hpp: constructed heads.
#include "bind.hpp"

namespace {
// The kind by name ("previous", "self", ...).
attn::constructed::HeadWeights constructed_head(const std::string& kind, std::size_t T, float strength) {
    return attn::constructed::constructed_head(attn::constructed::head_kind(kind), T, strength);
}
}  // namespace

ATTN_BINDINGS(attn_constructed_heads) {
    using namespace attn::wasm;
    using attn::constructed::HeadWeights;
    object<HeadWeights>()
        .field("Wq", &HeadWeights::Wq)
        .field("Wk", &HeadWeights::Wk);
    bind<&attn::constructed::token_features>("tokenFeatures");
    bind<&constructed_head>("constructedHead");
}

// Bindings of core/include/attn/attribution.hpp that every core carries (the lite one too):
// the per-character and value-norm views of a weight matrix the trained-heads chapter draws.
// attention_rollout needs a text model's probe, and rides with it (loadModel, role scores
// and ablation: head_roles.hpp) in wasm/text_model.cpp.
#include "attn/attribution.hpp"
#include "bind.hpp"

ATTN_BINDINGS(attn_attribution) {
    using namespace attn::wasm;
    bind<&attn::group_by_character>("groupByCharacter");
    bind<&attn::norm_weights>("normWeights");
    bind<&attn::weight_norm_distance>("weightNormDistance");
}

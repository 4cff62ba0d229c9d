// Bindings of core/include/attn/heads.hpp that every core carries (the lite one too): the
// per-character and value-norm views of a weight matrix the trained-heads chapter draws.
// The text model itself (loadModel, its probe, role scores and ablation) rides with the
// trainer in wasm/text_model.cpp.
#include "attn/heads.hpp"
#include "bind.hpp"

ATTN_BINDINGS(attn_heads) {
    using namespace attn::wasm;
    bind<&attn::group_by_character>("groupByCharacter");
    bind<&attn::norm_weights>("normWeights");
    bind<&attn::weight_norm_distance>("weightNormDistance");
}

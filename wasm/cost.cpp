// Bindings of core/include/attn/cost.hpp.
#include "bind.hpp"

namespace attn {
// {n, dModel, heads, layers, bytesPerElement, tile} (attn.mjs fills the defaults).
inline void read_js(attn::wasm::Record& in, CostInput& c) {
    wasm::read_fields(in, "n", c.n, "dModel", c.d_model, "heads", c.heads, "layers", c.layers, "bytesPerElement",
                      c.bytes_per_element, "tile", c.tile);
}
}  // namespace attn

ATTN_BINDINGS(attn_cost) {
    using namespace attn::wasm;
    using attn::Cost;
    object<Cost>()
        .field("dHead", &Cost::d_head)
        .field("flopsProjections", &Cost::flops_projections)
        .field("flopsScores", &Cost::flops_scores)
        .field("flopsWeightedSum", &Cost::flops_weighted_sum)
        .field("flopsAttention", &Cost::flops_attention)
        .field("flopsLayer", &Cost::flops_layer)
        .field("flopsTotal", &Cost::flops_total)
        .field("attentionEntries", &Cost::attention_entries)
        .field("bytesPerMatrix", &Cost::bytes_per_matrix)
        .field("bytesPerLayer", &Cost::bytes_per_layer)
        .field("bytesTotal", &Cost::bytes_total)
        .field("flopsRecurrent", &Cost::flops_recurrent)
        .field("crossoverN", &Cost::crossover_n)
        .field("pathLengthAttention", &Cost::path_length_attention)
        .field("pathLengthRecurrent", &Cost::path_length_recurrent)
        .field("sequentialStepsAttention", &Cost::sequential_steps_attention)
        .field("sequentialStepsRecurrent", &Cost::sequential_steps_recurrent)
        .field("attentionMatrices", &Cost::attention_matrices)
        .field("orderAttention", &Cost::order_attention)
        .field("orderRecurrent", &Cost::order_recurrent)
        .field("flopsAttentionAt2n", &Cost::flops_attention_at_2n)
        .field("flopsLayerAt2n", &Cost::flops_layer_at_2n)
        .field("attentionGrowth", &Cost::attention_growth)
        .field("layerGrowth", &Cost::layer_growth)
        .field("secondHalfRatio", &Cost::second_half_ratio)
        .field("bytesQkvo", &Cost::bytes_qkvo)
        .field("bytesPlainLayer", &Cost::bytes_plain_layer)
        .field("bytesTiledLayer", &Cost::bytes_tiled_layer);
    bind<&attn::cost>("cost");
}

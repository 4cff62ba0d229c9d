#include "attn/cost.hpp"

#include <string>

#include "attn/errors.hpp"

namespace attn {

Cost cost(const CostInput& in) {
    if (in.n == 0 || in.d_model == 0 || in.heads == 0 || in.layers == 0 || in.bytes_per_element == 0 ||
        in.tile == 0)
        throw ValueError("cost: n, d_model, heads, layers, bytes_per_element and tile must be at least 1");
    if (in.d_model % in.heads != 0)
        throw ValueError("cost: " + std::to_string(in.heads) + " heads do not divide d_model = " +
                         std::to_string(in.d_model));
    const double n = double(in.n), d = double(in.d_model), h = double(in.heads);
    Cost c;
    c.d_head = d / h;
    c.flops_projections = 4.0 * 2.0 * n * d * d;
    c.flops_scores = h * 2.0 * n * n * c.d_head;
    c.flops_weighted_sum = h * 2.0 * n * n * c.d_head;
    c.flops_attention = c.flops_scores + c.flops_weighted_sum;
    c.flops_layer = c.flops_projections + c.flops_attention;
    c.flops_total = double(in.layers) * c.flops_layer;
    c.attention_entries = n * n;
    c.bytes_per_matrix = n * n * double(in.bytes_per_element);
    c.bytes_per_layer = h * c.bytes_per_matrix;
    c.bytes_total = double(in.layers) * c.bytes_per_layer;
    c.flops_recurrent = 2.0 * n * d * d;
    c.crossover_n = d;
    c.path_length_attention = 1;
    c.path_length_recurrent = n - 1;
    c.sequential_steps_attention = 2;
    c.sequential_steps_recurrent = n;
    c.attention_matrices = double(in.layers) * h;
    c.order_attention = n * n * d;
    c.order_recurrent = n * d * d;
    const double n2 = 2.0 * n;
    c.flops_attention_at_2n = 2.0 * h * 2.0 * n2 * n2 * c.d_head;
    c.flops_layer_at_2n = 4.0 * 2.0 * n2 * d * d + c.flops_attention_at_2n;
    c.attention_growth = c.flops_attention_at_2n / c.flops_attention;
    c.layer_growth = c.flops_layer_at_2n / c.flops_layer;
    c.second_half_ratio = (c.flops_attention_at_2n - c.flops_attention) / c.flops_attention;
    const double bpe = double(in.bytes_per_element);
    c.bytes_qkvo = 4.0 * n * d * bpe;
    c.bytes_plain_layer = c.bytes_qkvo + c.bytes_per_layer;
    c.bytes_tiled_layer = c.bytes_qkvo + h * double(in.tile) * double(in.tile) * bpe;
    return c;
}

}  // namespace attn

#include "attn/cost.hpp"

#include <string>

#include "attn/errors.hpp"

namespace attn {

Cost cost(const CostInput& in) {
    if (in.n == 0 || in.d_model == 0 || in.heads == 0 || in.layers == 0 || in.bytes_per_element == 0)
        throw ValueError("cost: n, d_model, heads, layers and bytes_per_element must be at least 1");
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
    return c;
}

}  // namespace attn

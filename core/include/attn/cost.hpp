// The cost model of one self-attention layer, for the explorable's "n² cost" chapter.
//
// Counts (multiply and add counted as 2 FLOPs; n tokens, d = d_model, h heads, d_h = d/h):
//   flops_projections   = 4 · 2·n·d²         Q, K, V and output projections
//   flops_scores        = h · 2·n²·d_h       Q Kᵀ for every head       O(n²·d_k)
//   flops_weighted_sum  = h · 2·n²·d_h       P V for every head        O(n²·d_v)
//   attention_entries   = n²                 one attention matrix
//   bytes_per_matrix    = n² · bytes_per_element
//   bytes_per_layer     = h · bytes_per_matrix, bytes_total = layers · bytes_per_layer
//   flops_recurrent     = 2·n·d²             a recurrent layer's h_t = W h_{t-1} + ..., O(n·d²)
//   crossover_n         = d                  where n²·d = n·d²
//   path_length         = 1 (attention) vs n − 1 (recurrent), sequential steps 2 vs n
//   attention_matrices  = layers · heads     matrices one input sequence produces
//                                            (BERT-base: 12 · 12 = 144)
//   order_attention     = n²·d, order_recurrent = n·d²   the per-layer complexity terms of
//                         Table 1 without constants (they cross exactly at n = d)
//   *_at_2n, growth     = the same counts for 2n tokens: attention_growth =
//                         flops_attention(2n) / flops_attention(n) = 4 (QKᵀ and PV only);
//                         layer_growth includes the projections (O(n·d²)) and stays below 4;
//                         second_half_ratio = (f(2n) − f(n)) / f(n) = 3: the second n tokens
//                         cost three times the first
//   bytes_qkvo          = 4·n·d·bytes_per_element     Q, K, V and O of one layer
//   bytes_plain_layer   = bytes_qkvo + bytes_per_layer           keeps every head's n x n matrix
//   bytes_tiled_layer   = bytes_qkvo + h·tile²·bytes_per_element one tile of scores per head:
//                         O(n·d), the n x n matrix never exists (FlashAttention, Dao et al. 2022)
// (Vaswani et al. 2017, Table 1.) Values are doubles: n = 10⁶ does not overflow.
//
// Errors: ValueError when n, d_model, heads, layers, bytes_per_element or tile is 0, or
// heads does not divide d_model.
#pragma once

#include <cstddef>

namespace attn {

struct CostInput {
    std::size_t n = 0;
    std::size_t d_model = 0;
    std::size_t heads = 1;
    std::size_t layers = 1;
    std::size_t bytes_per_element = 4;
    std::size_t tile = 128;  // the tiled kernel's tile edge (flash.hpp has the kernel's own defaults)
};

struct Cost {
    double d_head = 0;
    double flops_projections = 0;
    double flops_scores = 0;
    double flops_weighted_sum = 0;
    double flops_attention = 0;  // scores + weighted sum
    double flops_layer = 0;      // projections + attention
    double flops_total = 0;      // layers · flops_layer
    double attention_entries = 0;
    double bytes_per_matrix = 0;
    double bytes_per_layer = 0;
    double bytes_total = 0;
    double flops_recurrent = 0;
    double crossover_n = 0;
    double path_length_attention = 1;
    double path_length_recurrent = 0;
    double sequential_steps_attention = 2;
    double sequential_steps_recurrent = 0;
    double attention_matrices = 0;  // layers · heads
    double order_attention = 0;
    double order_recurrent = 0;
    double flops_attention_at_2n = 0;
    double flops_layer_at_2n = 0;
    double attention_growth = 0;
    double layer_growth = 0;
    double second_half_ratio = 0;
    double bytes_qkvo = 0;
    double bytes_plain_layer = 0;
    double bytes_tiled_layer = 0;
};

// Every count above for one input (doubles: n = 10⁶ does not overflow).
Cost cost(const CostInput& in);

}  // namespace attn

// Attribution beyond the raw attention weight: how much of an output comes from each input
// token once the Values' sizes (attention × value norm) and the stacked layers (attention
// rollout) are counted, and a token matrix summed up by character.
//
// Attention × value norm (Kobayashi et al. 2020, "Attention is Not Only a Weight: Analyzing
// Transformers with Vector Norms", eq. 5): head h's output at i is Σ_j P(i, j) f(x_j) with
// f(x_j) = v_j^h W_O^h, so token j's contribution has norm P(i, j)·‖f(x_j)‖. A large weight on
// a token whose f is small (typically the attention sink) moves the output little.
// Attention rollout (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers",
// §3): Ã_ℓ = ½ mean_h P_ℓ^h + ½ I (the residual connection as an identity), R = Ã_L ⋯ Ã_1;
// R(i, j) is how much of position i's last layer traces back to input token j.
//
// Shapes (each written again at its declaration below):
//   norm_weights(P, value_norm)      T x T, T norms -> T x T
//   weight_norm_distance(P, N)       T x T, T x T -> a number in [0, 1]
//   attention_rollout(probe)         a probe's L layers of H heads, T x T each -> T x T
//   group_by_character(P, group)     T x T, T ids -> C x C
//
// Errors: ShapeError for weights, norms and group ids that do not fit; ValueError for a
// probe without heads or group ids that do not start at 0 and go up by at most 1.
#pragma once

#include <cstddef>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/model.hpp"

namespace attn {

// P(i, j)·value_norm[j], T x T (Kobayashi et al. 2020).
Matrix norm_weights(ConstMatrixView P, const std::vector<double>& value_norm);
// Mean over rows (that have any weight) of ½ Σ_j |P(i, j) − N(i, j) / Σ_k N(i, k)|: how far
// the weights are from the normalised norm view, 0 (the same) .. 1 (disjoint).
double weight_norm_distance(ConstMatrixView P, ConstMatrixView N);
// Attention rollout of a probe: T x T.
Matrix attention_rollout(const Probe& probe);
// A T x T token matrix as a C x C character matrix, rows and columns grouped by group[t]
// (0..C−1, nondecreasing): column c sums the weights on c's tokens, row c is the row of
// c's last token (the query that has read the whole character).
Matrix group_by_character(ConstMatrixView P, const std::vector<std::size_t>& group);

}  // namespace attn

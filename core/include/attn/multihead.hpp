// Multi-head attention (Vaswani et al. 2017, section 3.2.2):
//
//   MultiHead(X) = Concat(head_1, ..., head_h) W_O,
//   head_i = Attention(X W_Q[:, block i], X W_K[:, block i], X W_V[:, block i])
//
// Heads are contiguous column blocks: head i owns columns [i·d_h, (i+1)·d_h) of Q, K
// and V, with d_h = D / h. Heads never mix: head i's queries only meet head i's keys.
//
// Shapes:
//   split_heads(X, h)        X: T x D  ->  h matrices of T x D/h
//   concat_heads(list)       h matrices of T x d_h  ->  T x (h·d_h)
//   multi_head_attention(X, weights, options)
//       X: T x d_model, W_Q, W_K: d_model x D, W_V: d_model x D_v, W_O: D_v x d_out
//       -> MultiHeadTrace with q, k: T x D, v: T x D_v, one Trace per head,
//          concat: T x D_v, output: T x d_out
//
// Each head's scores are scaled by 1/√d_h, d_h being the per-head width of Q and K.
//
// Errors: ValueError when h is 0, does not divide the width or exceeds it (d_h would be
// 0); ShapeError for weights whose shapes do not chain; ValueError for a dropout rate
// outside [0, 1); SizeError past kMaxElements. Non-finite values follow attention.hpp's
// rules; MultiHeadTrace::nonfinite lists those in X and the weights (inputs "X", "W_Q",
// "W_K", "W_V", "W_O") and the stages "q", "k", "v", "concat", "output" holding one;
// each head's Trace has its own report for its slices of q, k, v.
#pragma once

#include <vector>

#include "attn/attention.hpp"

namespace attn {

// h contiguous column blocks of X, each T x D/h.
std::vector<Matrix> split_heads(ConstMatrixView X, std::size_t heads);
// The heads side by side, T x (sum of widths); every head needs the same T.
Matrix concat_heads(const std::vector<Matrix>& heads);

struct MultiHeadWeights {
    Matrix Wq, Wk, Wv, Wo;
};

struct MultiHeadOptions {
    std::size_t heads = 1;
    bool causal = false;
    DropoutOptions dropout;  // head i uses seed + i
};

struct MultiHeadTrace {
    Matrix q, k, v;            // X W_Q, X W_K, X W_V
    std::vector<Trace> heads;  // one per head
    Matrix concat;             // heads' outputs side by side
    Matrix output;             // concat W_O
    NonFiniteReport nonfinite; // where NaN / ±∞ entered X or the weights, if anywhere
};

// Projections, one attention() per head on its column block (scale 1/√d_h), concat, W_O.
MultiHeadTrace multi_head_attention(ConstMatrixView X, const MultiHeadWeights& weights,
                                    const MultiHeadOptions& options);

}  // namespace attn

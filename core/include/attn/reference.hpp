// attn::reference: plain scalar implementations of every stage, written to be
// obviously correct (double accumulation, no SIMD, no blocking). Tests and the
// benchmark use them as the oracle for the xsimd kernels; the page never calls them.
// Shapes and numerics (including NaN, ±∞ and fully masked rows) are those of the public
// headers; argument checks are not: call them only with valid arguments.
#pragma once

#include <vector>

#include "attn/attention.hpp"
#include "attn/multihead.hpp"

namespace attn::reference {

Matrix matmul(ConstMatrixView A, ConstMatrixView B);
Matrix matmul_bt(ConstMatrixView A, ConstMatrixView B);
Matrix scores(ConstMatrixView Q, ConstMatrixView K);
Matrix scale(ConstMatrixView S, float factor);
Matrix causal_mask(std::size_t Tq, std::size_t Tk);
Matrix add_mask(ConstMatrixView S, ConstMatrixView M);
Matrix softmax(ConstMatrixView S, Axis axis = Axis::Rows);
Matrix weighted_sum(ConstMatrixView P, ConstMatrixView V);
Trace attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                const AttentionOptions& options = {});
std::vector<Matrix> split_heads(ConstMatrixView X, std::size_t heads);
Matrix concat_heads(const std::vector<Matrix>& heads);
// Built from single-head reference::attention calls on explicit column slices.
MultiHeadTrace multi_head_attention(ConstMatrixView X, const MultiHeadWeights& weights,
                                    const MultiHeadOptions& options);

}  // namespace attn::reference

// attn::reference: plain scalar implementations of every stage, written to be obviously
// correct (double accumulation, no SIMD, no blocking, each rule read again from the
// documentation instead of calling core/src/kernels/). Tests, the fuzz targets and the
// benchmark use them as the oracle for the xsimd kernels (llm.c keeps a readable CPU
// attention_forward beside every fast variant in the same way); the page never calls them.
// Each is declared here only; the fast function it checks is declared once, in its stage's
// header (softmax_parts in attention.hpp, row_sums in reductions.hpp, ...).
// Shapes and numerics (including NaN, ±∞ and fully masked rows) are those of the public
// headers; argument checks are not: call them only with valid arguments.
#pragma once

#include <vector>

#include "attn/attention.hpp"
#include "attn/multihead.hpp"

namespace attn::reference {

// ---- linalg.hpp -----------------------------------------------------------------------------
Matrix matmul(ConstMatrixView A, ConstMatrixView B);      // A B
Matrix matmul_bt(ConstMatrixView A, ConstMatrixView B);   // A Bᵀ

// ---- attention.hpp --------------------------------------------------------------------------
Matrix scores(ConstMatrixView Q, ConstMatrixView K);      // Q Kᵀ
Matrix scale(ConstMatrixView S, float factor);            // S · factor
Matrix causal_mask(std::size_t Tq, std::size_t Tk);       // 0 where j <= i, −∞ where j > i
Matrix add_mask(ConstMatrixView S, ConstMatrixView M);    // S + M, a −∞ in M replacing S
Matrix softmax(ConstMatrixView S, Axis axis = Axis::Rows);
SoftmaxParts softmax_parts(ConstMatrixView S, Axis axis = Axis::Rows);  // every intermediate
Matrix weighted_sum(ConstMatrixView P, ConstMatrixView V);  // P V, zero weights skipped
// Every stage, as attn::attention (forward.hpp lists the variants it is the oracle of).
Trace attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                const AttentionOptions& options = {});

// ---- multihead.hpp --------------------------------------------------------------------------
std::vector<Matrix> split_heads(ConstMatrixView X, std::size_t heads);
Matrix concat_heads(const std::vector<Matrix>& heads);
// Built from single-head reference::attention calls on explicit column slices.
MultiHeadTrace multi_head_attention(ConstMatrixView X, const MultiHeadWeights& weights,
                                    const MultiHeadOptions& options);

// ---- reductions.hpp: the ones that run on xsimd kernels ----------------------------------------
Matrix row_sums(ConstMatrixView M);
Matrix col_sums(ConstMatrixView M);
Matrix row_max(ConstMatrixView M);
Matrix row_dots(ConstMatrixView A, ConstMatrixView B);
Matrix row_norms(ConstMatrixView M);

}  // namespace attn::reference

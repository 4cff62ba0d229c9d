// Scaled dot-product attention, stage by stage (Vaswani et al. 2017, "Attention Is
// All You Need", eq. 1):
//
//   Attention(Q, K, V) = softmax(Q Kᵀ / √d_k + M) V
//
// Shapes: Q: T_q x d_k, K: T_k x d_k, V: T_k x d_v, M: T_q x T_k.
// Rows of every T_q x T_k matrix are query tokens, columns key tokens.
//
//   scores(Q, K)         -> T_q x T_k     S = Q Kᵀ
//   scale(S, f)          -> same shape    S * f   (attention uses f = 1/√d_k)
//   causal_mask(Tq, Tk)  -> Tq x Tk       0 where key j <= query i, −∞ where j > i.
//                                         Top-left aligned when Tq != Tk: query i sees
//                                         keys 0..i (a query with i >= Tk sees all keys).
//   add_mask(S, M)       -> same shape    S + M; M is additive (0 keeps, −∞ hides)
//   softmax(S, axis)     -> same shape    exp(s - max) / Σ exp(s - max) along the axis
//   weighted_sum(P, V)   -> T_q x d_v     O = P V
//   attention(Q, K, V, options) -> Trace  all of the above, every intermediate kept
//   attention_output(Q, K, V, options) -> T_q x d_v   only O, one T_q x T_k buffer
//
// Numerics (documented behaviour, tested):
// * softmax subtracts the maximum of each row (column) before exp, so logits up to
//   ±3.4e38 never overflow.
// * a row whose every entry is −∞ ("fully masked") gets all-zero weights and therefore
//   a zero output row, never NaN.
// * masked weights (exp(−∞)) are exactly 0.
// * +∞ or NaN in Q, K or V propagates to the outputs it reaches by IEEE-754 rules: a NaN
//   in row i of Q makes row i of S, P and O NaN and no other row.
//
// Errors: ShapeError naming both shapes for mismatched operands; ValueError for a
// non-finite scale factor, d_k = 0 or an empty sequence.
#pragma once

#include <optional>

#include "attn/dropout.hpp"
#include "attn/matrix.hpp"

namespace attn {

enum class Axis { Rows, Cols };

Matrix scores(ConstMatrixView Q, ConstMatrixView K);
Matrix scale(ConstMatrixView S, float factor);
Matrix causal_mask(std::size_t Tq, std::size_t Tk);
Matrix add_mask(ConstMatrixView S, ConstMatrixView M);
// Axis::Rows is attention's softmax (each query's weights sum to 1). Axis::Cols exists
// to show the classic wrong-axis bug; its rows do not sum to 1.
Matrix softmax(ConstMatrixView S, Axis axis = Axis::Rows);
Matrix weighted_sum(ConstMatrixView P, ConstMatrixView V);

struct AttentionOptions {
    bool causal = false;
    // Multiplies the scores; defaults to 1/√d_k with d_k = Q.cols().
    std::optional<float> scale;
    // Additive T_q x T_k mask, applied together with the causal mask when both are set.
    std::optional<Matrix> mask;
    DropoutOptions dropout;
};

// Every intermediate of one attention call.
struct Trace {
    float scale = 1.0f;  // the factor applied to the scores
    Matrix scores;       // S = Q Kᵀ                       T_q x T_k
    Matrix scaled;       // S * scale                      T_q x T_k
    Matrix masked;       // scaled + causal mask + mask    T_q x T_k
    Matrix weights;      // P = softmax(masked) by rows    T_q x T_k
    Matrix dropped;      // P after dropout (equals P in evaluation mode)
    Matrix output;       // O = dropped · V                T_q x d_v
};

Trace attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                const AttentionOptions& options = {});

// Only the output of attention(): the same formula and options, computed the plain way
// with one T_q x T_k buffer (S, turned into unnormalised weights in place; each output
// row is divided by its weight sum at the end) instead of six kept intermediates.
// Memory O(T_q·T_k); the tiled kernel without that buffer is flash_attention (flash.hpp).
// Numerics and errors as attention().
Matrix attention_output(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                        const AttentionOptions& options = {});

}  // namespace attn

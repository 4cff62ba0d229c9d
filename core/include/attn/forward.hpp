// Every forward variant of scaled dot-product attention, and what each is for.
//
//   O = softmax(s · Q Kᵀ + M) V        (Vaswani et al. 2017, "Attention Is All You Need", eq. 1)
//
// Shapes, for every variant: Q: T_q x d_k, K: T_k x d_k, V: T_k x d_v, M: T_q x T_k
// (additive: 0 keeps, −∞ hides) -> O: T_q x d_v; s defaults to 1/√d_k; causal hides key j
// from query i when j > i (top-left aligned when T_q ≠ T_k).
//
//   variant                   declared in     keeps                 memory     for
//   attention()               attention.hpp   every stage (Trace)   5·T_q·T_k  the page: every intermediate a
//                                                                              walkthrough shows, Trace::nonfinite
//   attention_output()        attention.hpp   O                     T_q·T_k    the plain kernel: one buffer of
//                                                                              scores, the output row divided once
//   flash_attention()         flash.hpp       O                     O(T·d)     the tiled kernel, online softmax
//                                                                              (Dao et al. 2022): long sequences
//   attention_head()          here            Z, P, O               2·T_q·T_k  the training model's fused head
//                                                                              (model.hpp), row by row
//   f64::attention()          here            every stage (TraceD)  5·T_q·T_k  the double path: what the gradient
//                                                                              checks differentiate numerically
//   reference::attention()    reference.hpp   every stage (Trace)   5·T_q·T_k  the scalar oracle of the tests
//
// One set of rules for all of them, written once in core/src/kernels/ (and read
// independently by the scalar reference): the mask rule (the additive mask, then the causal
// mask, each replacing the score: a hidden key is −∞ whatever its score holds), the row
// softmax (max shift; a fully masked row gives zero weights and a zero output row; a NaN
// or +∞ reaching a row makes that row NaN), the online-softmax update of the tiled kernel,
// and the input checks. float and double go through the same templates. The variants
// agree on the same inputs (non-finite values and fully masked rows included): checked by
// tests/core/test_forward.cpp and fuzzed by tests/fuzz/fuzz_attention.cpp.
//
// Errors, for every variant: ShapeError naming both shapes for operands that do not fit;
// ValueError for T_q = 0 or T_k = 0, d_k = 0, a non-finite scale or a dropout rate outside
// [0, 1); SizeError past kMaxElements.
#pragma once

#include <optional>

#include "attn/attention.hpp"
#include "attn/flash.hpp"
#include "attn/matrix.hpp"

namespace attn {

// What the training model's fused head keeps of one head (training/fused.hpp).
struct HeadTrace {
    Matrix masked;   // Z = s·QKᵀ with the masks applied (−∞ where hidden)   T_q x T_k
    Matrix weights;  // P = softmax(Z) by rows, before dropout                T_q x T_k
    Matrix output;   // O = dropout(P) V                                      T_q x d_v
};

// The training forward: one head exactly as TinyTransformer runs it (its scores dot by
// dot, only the visible keys of each row computed, the softmax in order: the same bits on
// every instruction set), on matrices. options as attention(); dropout applies in training
// mode only, with the same seeded mask.
HeadTrace attention_head(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                         const AttentionOptions& options = {});

namespace f64 {

struct AttentionOptionsD {
    bool causal = false;
    double scale = 1.0;           // applied as given (no default 1/√d_k: callers say what they use)
    std::optional<MatrixD> mask;  // additive T_q x T_k mask, as AttentionOptions::mask
    DropoutOptions dropout;
};

// Every stage in double, as Trace in float.
struct TraceD {
    double scale = 1.0;
    MatrixD scores, scaled, masked, weights, dropped, output;
};

// The double path: attention() in double, stage by stage (plain loops, no SIMD), with the
// float path's rules. The gradient checks (grad.hpp) differentiate it by central
// differences, which need double: in float, rounding noise ε·|L|/h swamps any usable step h.
TraceD attention(const MatrixD& Q, const MatrixD& K, const MatrixD& V, const AttentionOptionsD& options);

}  // namespace f64
}  // namespace attn

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
//   softmax_parts(S, axis) -> SoftmaxParts  the same softmax one intermediate at a time (max,
//                                         S − max, its exp, their sums, e^S and Σ e^S as
//                                         printed by hand, the weights)
//   weighted_sum(P, V)   -> T_q x d_v     O = P V
//   attention(Q, K, V, options) -> Trace  all of the above, every intermediate kept
//   attention_output(Q, K, V, options) -> T_q x d_v   only O, one T_q x T_k buffer
//
// The other forward variants (tiled, training, double, reference) and what each is for are
// listed in forward.hpp; all of them follow the rules below, which are written once in
// core/src/kernels/ (mask.hpp: the mask rule and causal visibility; softmax.hpp: the row
// softmax; checks.hpp: the argument checks).
//
// The stages' scalar oracles are in reference.hpp (attn::reference::softmax,
// attn::reference::softmax_parts, ...), as every stage's are: each fast function is
// declared once, here, and its oracle only there, for the tests, fuzzers and benchmark.
//
// Numerics (documented behaviour, tested in tests/core/test_mask.cpp, test_softmax.cpp,
// test_weighted_sum.cpp and test_forward.cpp, fuzzed by tests/fuzz/):
// * softmax subtracts the maximum of each row (column) before exp, so finite logits of
//   any size (±1e30, ±3.4e38) never overflow: the largest entry gets exp(0) = 1.
// * −∞ in the scores is a mask: that key gets weight exactly 0. A row whose every
//   entry is −∞ ("fully masked") gets all-zero weights and therefore a zero output
//   row, never NaN.
// * A mask hides a key whatever its score: where the causal mask or M is −∞, the
//   masked score is −∞ even if S holds NaN or +∞ there, or M holds +∞ or NaN where the
//   causal mask hides (add_mask follows the same rule). So a non-finite value in a hidden key never reaches the queries it is
//   hidden from.
// * A zero weight takes nothing from its Value row (not even a NaN or ∞ there).
// * NaN or +∞ that reaches a row of the scores makes that whole row of P NaN (a NaN
//   anywhere in a row, or +∞ next to anything: ∞ − ∞ is NaN), and so that row of O.
//   Other rows are untouched: +∞ or NaN in an input propagates to the outputs it
//   reaches by IEEE-754 rules and no further — a NaN in row i of Q reaches row i of
//   S, P and O only; one in row j of K or V reaches every query that sees key j.
//   −∞ in Q or K is an ordinary non-finite input (−∞ · 0 is NaN), not a mask.
// * Finite inputs whose dot products overflow float (|q·k| > 3.4e38) give ±∞ scores,
//   which then follow the rules above.
// * Trace::nonfinite says where a non-finite value entered (the first entries of
//   Q, K, V and the mask that are NaN or ±∞; −∞ in the mask is a mask, not counted)
//   and which stages hold one, so the page can point at its source.
//
// Errors: ShapeError naming both shapes for mismatched operands; ValueError for a
// non-finite scale factor, d_k = 0, an empty sequence (T_q = 0 or T_k = 0), a dropout
// rate outside [0, 1) or an unknown Axis; SizeError when a T_q x T_k matrix would
// exceed kMaxElements. V may have 0 columns (the output is then T_q x 0). A scale of 0
// or below is allowed (0 gives uniform weights over the visible keys).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/dropout.hpp"
#include "attn/matrix.hpp"

namespace attn {

enum class Axis { Rows, Cols };

// S = Q Kᵀ (T_q x T_k): row i, column j is query i's dot product with key j.
Matrix scores(ConstMatrixView Q, ConstMatrixView K);
// S · factor; the factor must be finite (attention uses 1/√d_k).
Matrix scale(ConstMatrixView S, float factor);
// 0 where key j is visible to query i (j <= i), −∞ where it is hidden.
Matrix causal_mask(std::size_t Tq, std::size_t Tk);
// S + M, except that where M is −∞ the result is −∞ whatever S holds.
Matrix add_mask(ConstMatrixView S, ConstMatrixView M);
// Axis::Rows is attention's softmax (each query's weights sum to 1). Axis::Cols exists
// to show the classic wrong-axis bug; its rows do not sum to 1.
Matrix softmax(ConstMatrixView S, Axis axis = Axis::Rows);

// The stable softmax above, one intermediate at a time, along `axis` (Rows: each row; Cols:
// each column, the wrong-axis demo). For Rows, max/sums are r x 1; for Cols, 1 x c.
//   max       the largest entry of each row
//   shifted   S − max                              (−∞ stays −∞; a fully masked row stays −∞)
//   exp       e^{S − max}                           (what the core exponentiates)
//   sums      Σ e^{S − max}
//   exp_raw   e^{S} itself, as printed by hand     (+∞ where S > ~88.72, the float limit)
//   sums_raw  Σ e^{S}                               (+∞ when it overflows)
//   weights   softmax(S, axis), identical to attn::softmax
// weights = exp / sums = exp_raw / sums_raw whenever the latter are finite and sums > 0.
struct SoftmaxParts {
    Matrix max, shifted, exp, sums, exp_raw, sums_raw, weights;
};
// (A fully masked row: max −∞, shifted = the row itself, exp 0 and sums 0; a NaN or +∞ in a
// row makes its sums NaN, and its weights, as in softmax.) The same kernel as softmax
// (core/src/kernels/softmax.hpp, softmax_row_parts); the gradient of the weights is in
// grad.hpp (softmax_jacobian, softmax_jacobian_diag). ValueError for an unknown Axis.
SoftmaxParts softmax_parts(ConstMatrixView S, Axis axis = Axis::Rows);

// O = P V (T_q x d_v); a zero weight takes nothing from its Value row.
Matrix weighted_sum(ConstMatrixView P, ConstMatrixView V);

struct AttentionOptions {
    bool causal = false;
    // Multiplies the scores; defaults to 1/√d_k with d_k = Q.cols().
    std::optional<float> scale;
    // Additive T_q x T_k mask, applied together with the causal mask when both are set.
    std::optional<Matrix> mask;
    DropoutOptions dropout;
};

// Where a NaN or an infinity entered a computation (see "Numerics" above).
struct NonFiniteEntry {
    std::string input;     // the argument it sits in: "Q", "K", "V", "mask" ("X", "W_Q", ... for multi-head)
    std::size_t row = 0, col = 0;
    float value = 0.0f;    // NaN, +∞ or −∞
};

struct NonFiniteReport {
    // At most this many entries are listed; count says how many there are in total.
    static constexpr std::size_t kMaxListed = 16;
    std::size_t count = 0;                // non-finite input entries in total
    std::vector<NonFiniteEntry> entries;  // the first kMaxListed, inputs in argument order, row-major
    // Stages holding a NaN or ±∞, in computation order ("scores", "scaled", "masked",
    // "weights", "dropped", "output"; "q", "k", "v", "concat", "output" for multi-head).
    // −∞ in scores, scaled and masked is a mask and does not count. Finite inputs whose
    // products overflow show up here with count = 0: the first stage named is where.
    std::vector<std::string> stages;
    bool clean() const { return count == 0 && stages.empty(); }
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
    NonFiniteReport nonfinite;  // where NaN / ±∞ entered, if anywhere
};

// softmax(scale · Q Kᵀ + M) V with every intermediate kept (the page's variant).
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

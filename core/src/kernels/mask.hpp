// The masking rules of attention, written once (attention.hpp, "Numerics"). Every forward
// path applies them through these functions: attention() and causal_mask(), add_mask(),
// attention_output(), the tiled kernel (flash.cpp, a tile at a time), the training
// model's fused head (training/fused.hpp) and the double path (grad.cpp). float and
// double through the same templates. The scalar oracle (reference.cpp) keeps its own
// reading of the rules, on purpose.
//
//   visible_keys(i, T_k, causal)  the causal visibility rule: query i sees keys j <= i
//                                 (top-left aligned: a query i >= T_k sees every key)
//   add_mask(x, m, y, n)          y = x + m, except that a −∞ in m hides the key whatever
//                                 x holds there (NaN + −∞ and +∞ + −∞ would be NaN)
//   mask_row(s, m, i, j0, n, c)   row i of the scores, columns [j0, j0 + n): the additive
//                                 mask first, then the causal mask, each replacing
//
// Preconditions: pointers valid for n elements; x, m and y may alias.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>

#include "kernels/simd.hpp"

namespace attn::kernels {

template <class T>
inline constexpr T kMinusInf = -std::numeric_limits<T>::infinity();

// T, but not deduced from this argument (so a null mask can be passed as nullptr).
template <class T>
struct same {
    using type = T;
};
template <class T>
using same_t = typename same<T>::type;

// How many leading keys of [0, Tk) query i sees. Causal: keys 0..i (Vaswani et al. 2017,
// §3.2.3: "masking out ... all values in the input of the softmax which correspond to
// illegal connections"); otherwise all Tk. The one place the causal comparison is written.
inline std::size_t visible_keys(std::size_t i, std::size_t Tk, bool causal) {
    return causal ? std::min(i + 1, Tk) : Tk;
}

// Hides keys [from, n) of a row: their scores become −∞.
template <class T>
inline void hide(T* s, std::size_t from, std::size_t n) {
    if (from < n) std::fill(s + from, s + n, kMinusInf<T>);
}

// y = x + m, a −∞ in m replacing whatever x holds.
template <class T>
inline void add_mask(const T* x, const T* m, T* y, std::size_t n) {
    add(x, m, y, n);
    for (std::size_t j = 0; j < n; ++j)
        if (m[j] == kMinusInf<T>) y[j] = kMinusInf<T>;
}

// Row i of the scores, columns [j0, j0 + n) of the T_q x T_k scores: the additive mask
// (m: the same columns of row i of the mask, or null for none), then the causal mask.
// Each replaces, so a hidden key is −∞ whatever its score and the other mask hold. (In
// the other order a +∞ or NaN in the additive mask, added to a causal −∞, would give NaN;
// fuzz_attention found that once: tests/fuzz/regressions/attention/.)
template <class T>
inline void mask_row(T* s, const same_t<T>* m, std::size_t i, std::size_t j0, std::size_t n, bool causal) {
    if (m) add_mask(s, m, s, n);
    if (causal) {
        const std::size_t end = visible_keys(i, j0 + n, true);  // one past the last visible key
        hide(s, end > j0 ? end - j0 : 0, n);
    }
}

}  // namespace attn::kernels

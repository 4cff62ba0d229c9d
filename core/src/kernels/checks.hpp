// The argument checks shared by every public entry, written once: the shapes of
// Q, K, V and the mask of every attention variant (attention, attention_output,
// flash_attention, attention_head, f64::attention), and "same shape" for element-wise
// operations. Templates over the matrix type (views, Matrix, f64::MatrixD). Each throws
// the typed error of errors.hpp with a message that starts with the public function's
// name and names both shapes.
#pragma once

#include <cmath>
#include <string>

#include "attn/errors.hpp"

namespace attn::kernels {

template <class A>
std::string shape_of(const A& a) {
    return shape_str(a.rows(), a.cols());
}

// ShapeError unless a and b have the same shape: "fn: A is 3x4 but B is 5x2; they must
// have the same shape".
template <class A, class B>
void require_same_shape(const char* fn, const A& a, const char* an, const B& b, const char* bn) {
    if (a.rows() != b.rows() || a.cols() != b.cols())
        throw ShapeError(std::string(fn) + ": " + an + " is " + shape_of(a) + " but " + bn + " is " + shape_of(b) +
                         "; they must have the same shape");
}

// Q: T_q x d_k, K: T_k x d_k, V: T_k x d_v, mask (null for none): T_q x T_k, scale (null
// for the default 1/√d_k): finite. ValueError for an empty sequence (T_q = 0 or T_k = 0),
// d_k = 0 or a non-finite scale; ShapeError naming both shapes otherwise. V may have no
// columns (the output is then T_q x 0).
template <class M, class Mask, class S>
void check_attention_inputs(const char* fn, const M& Q, const M& K, const M& V, const Mask* mask, const S* scale) {
    if (Q.rows() == 0 || K.rows() == 0)
        throw ValueError(std::string(fn) + ": Q is " + shape_of(Q) + " and K is " + shape_of(K) +
                         "; both need at least one token");
    if (Q.cols() == 0) throw ValueError(std::string(fn) + ": d_k = 0 (Q is " + shape_of(Q) + ")");
    if (Q.cols() != K.cols())
        throw ShapeError(std::string(fn) + ": Q is " + shape_of(Q) + " and K is " + shape_of(K) +
                         "; Q and K must have the same number of columns (d_k)");
    if (K.rows() != V.rows())
        throw ShapeError(std::string(fn) + ": K is " + shape_of(K) + " and V is " + shape_of(V) +
                         "; K and V must have the same number of rows (tokens)");
    if (mask && (mask->rows() != Q.rows() || mask->cols() != K.rows()))
        throw ShapeError(std::string(fn) + ": mask is " + shape_of(*mask) + " but the scores are " +
                         shape_str(Q.rows(), K.rows()) + " (T_q x T_k)");
    if (scale && !std::isfinite(*scale))
        throw ValueError(std::string(fn) + ": the scale must be finite, got " + std::to_string(*scale));
}

}  // namespace attn::kernels

// One attention head of the tiny model, forward and backward, on raw row pointers: the
// stages of attention.hpp / grad.hpp (S = QKᵀ, ·s, masks, softmax, dropout, PV and their
// backward passes) fused into one pass per head, so a training step does not allocate a
// dozen small matrices per head and sequence. The masking and softmax rules are the
// kernels' (kernels/mask.hpp, kernels/softmax.hpp), the dropout mask attn::dropout_keep,
// as in every other forward path; float and double through the same template (the model's
// gradient test checks the double instance against finite differences). attention_head()
// (forward.hpp) runs the forward on matrices, for the tests that compare every variant.
//
// Layout: q: T_q rows with stride ldq, k: T_k rows with stride ldk (the head's d_k columns
// at the pointer), v: T_k rows with stride ldv, out: T_q rows with stride ldo (d_v columns).
// P, Z: T_q x T_k row-major scratch owned by the caller. mask: T_q x T_k with stride ldm, or
// null. Z keeps the softmax input (−∞ where a key is hidden), P the weights before dropout.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "attn/dropout.hpp"
#include "kernels/mask.hpp"
#include "kernels/simd.hpp"
#include "kernels/softmax.hpp"

namespace attn::detail {

struct HeadShape {
    std::size_t Tq = 0, Tk = 0, dk = 0, dv = 0;
    std::size_t ldq = 0, ldk = 0, ldv = 0, ldo = 0;
    double scale = 1;
    float rate = 0;          // dropout rate (0: none)
    std::uint64_t seed = 0;  // dropout seed of this head
    bool causal = true;
};

// Forward: Z = s·QKᵀ + M, P = softmax(Z), out = dropout(P) V (out overwritten).
// Under causal, query i's scores are computed for the keys it sees only (the rest are −∞
// by the mask rule), and its softmax runs over that prefix.
template <class S>
void head_forward(const HeadShape& h, const S* q, const S* k, const S* v, S* P, S* Z, S* out,
                  const S* mask = nullptr, std::size_t ldm = 0) {
    const S s = S(h.scale);
    const S keep_scale = h.rate > 0 ? S(1) / (S(1) - S(h.rate)) : S(1);
    for (std::size_t i = 0; i < h.Tq; ++i) {
        S* z = Z + i * h.Tk;
        S* p = P + i * h.Tk;
        const std::size_t seen = kernels::visible_keys(i, h.Tk, h.causal);
        for (std::size_t j = 0; j < seen; ++j) z[j] = s * kernels::dot(q + i * h.ldq, k + j * h.ldk, h.dk);
        std::fill(z + seen, z + h.Tk, S(0));
        kernels::mask_row(z, mask ? mask + i * ldm : nullptr, i, 0, h.Tk, h.causal);
        std::copy_n(z, h.Tk, p);
        // In order (kernels/simd.hpp): a training run's bits must not depend on the row
        // length or the SIMD width. The keys past `seen` are −∞: weight exactly 0, unless the
        // row is NaN (l = NaN), which makes the whole row NaN as in every other variant.
        const S l = kernels::softmax_row(p, seen, kernels::InOrder{});
        std::fill(p + seen, p + h.Tk, std::isnan(l) ? l : S(0));
        S* o = out + i * h.ldo;
        std::fill_n(o, h.dv, S(0));
        for (std::size_t j = 0; j < seen; ++j) {
            const S w = h.rate > 0 ? (dropout_keep(h.seed, i, j, h.rate) ? p[j] * keep_scale : S(0)) : p[j];
            if (w != 0) kernels::axpy(w, v + j * h.ldv, o, h.dv);
        }
    }
}

// Backward: adds ∂L/∂Q, ∂L/∂K, ∂L/∂V of this head into dq, dk, dv (same strides as
// q, k, v) from dout (stride ldo); returns Σ (∂L/∂Z)², the squared gradient at the softmax
// input. dP is T_k-long scratch.
template <class S>
double head_backward(const HeadShape& h, const S* q, const S* k, const S* v, const S* P, const S* dout, S* dq,
                     S* dk, S* dv, S* dP) {
    const S s = S(h.scale);
    const S keep_scale = h.rate > 0 ? S(1) / (S(1) - S(h.rate)) : S(1);
    double sq = 0;
    for (std::size_t i = 0; i < h.Tq; ++i) {
        const S* p = P + i * h.Tk;
        const S* g = dout + i * h.ldo;
        const std::size_t seen = kernels::visible_keys(i, h.Tk, h.causal);
        // out_i = Σ_j D_ij v_j: dD_ij = g·v_j, dv_j += D_ij g; dropout: dP = dD · keep/(1−r)
        double pdp = 0;
        for (std::size_t j = 0; j < seen; ++j) {
            const bool kept = h.rate <= 0 || dropout_keep(h.seed, i, j, h.rate);
            const S factor = kept ? keep_scale : S(0);
            const S d = factor * p[j];
            if (d != 0) kernels::axpy(d, g, dv + j * h.ldv, h.dv);
            dP[j] = factor != 0 ? factor * kernels::dot(g, v + j * h.ldv, h.dv) : S(0);
            pdp += double(p[j]) * double(dP[j]);
        }
        // softmax: dZ_ij = P_ij (dP_ij − Σ_k P_ik dP_ik); masked entries (P = 0) get 0
        for (std::size_t j = 0; j < seen; ++j) {
            const S dz = p[j] == 0 ? S(0) : S(double(p[j]) * (double(dP[j]) - pdp));
            sq += double(dz) * double(dz);
            const S ds = s * dz;  // Z = s·S
            if (ds != 0) {
                kernels::axpy(ds, k + j * h.ldk, dq + i * h.ldq, h.dk);  // dQ_i += dS_ij k_j
                kernels::axpy(ds, q + i * h.ldq, dk + j * h.ldk, h.dk);  // dK_j += dS_ij q_i
            }
        }
    }
    return sq;
}

}  // namespace attn::detail

// One causal attention head of the tiny model, forward and backward, on raw row pointers:
// the stages of attention.hpp / grad.hpp (S = QKᵀ, ·s, + causal M, softmax, dropout, PV and
// their backward passes) fused into one pass per head, so a training step does not
// allocate a dozen small matrices per head and sequence. Same formulas, same seeded
// dropout mask (attn::dropout_keep) as the stage functions; the model's gradient test
// checks it against finite differences in double.
//
// Layout: q, k: T rows with stride ldq (head's d_k columns at the pointer), v and out: T
// rows with stride ldv (d_v columns). P, Z: T x T row-major scratch owned by the caller.
// Causal: query i sees keys 0..i; entries j > i of P are 0 and of Z are −∞.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "attn/dropout.hpp"
#include "kernels/simd.hpp"

namespace attn::detail {

inline float dotp(const float* a, const float* b, std::size_t n) { return kernels::dot(a, b, n); }
inline double dotp(const double* a, const double* b, std::size_t n) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}
inline void axpyp(float alpha, const float* x, float* y, std::size_t n) { kernels::axpy(alpha, x, y, n); }
inline void axpyp(double alpha, const double* x, double* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] += alpha * x[i];
}

struct HeadShape {
    std::size_t T, dk, dv, ldq, ldv;
    double scale;
    float rate;          // dropout rate (0: none)
    std::uint64_t seed;  // dropout seed of this head
};

// Forward: Z = s·QKᵀ + M, P = softmax(Z), out = dropout(P) V (out overwritten).
template <class S>
void head_forward(const HeadShape& h, const S* q, const S* k, const S* v, S* P, S* Z, S* out) {
    const S s = S(h.scale);
    const S keep_scale = h.rate > 0 ? S(1) / (S(1) - S(h.rate)) : S(1);
    for (std::size_t i = 0; i < h.T; ++i) {
        S* z = Z + i * h.T;
        S* p = P + i * h.T;
        S m = -std::numeric_limits<S>::infinity();
        for (std::size_t j = 0; j <= i; ++j) {
            z[j] = s * dotp(q + i * h.ldq, k + j * h.ldq, h.dk);
            if (z[j] > m) m = z[j];
        }
        S sum = 0;
        for (std::size_t j = 0; j <= i; ++j) sum += (p[j] = std::exp(z[j] - m));
        const S inv = S(1) / sum;
        for (std::size_t j = 0; j <= i; ++j) p[j] *= inv;
        for (std::size_t j = i + 1; j < h.T; ++j) {
            z[j] = -std::numeric_limits<S>::infinity();
            p[j] = 0;
        }
        S* o = out + i * h.ldv;
        for (std::size_t c = 0; c < h.dv; ++c) o[c] = 0;
        for (std::size_t j = 0; j <= i; ++j) {
            const S w = h.rate > 0 ? (dropout_keep(h.seed, i, j, h.rate) ? p[j] * keep_scale : S(0)) : p[j];
            if (w != 0) axpyp(w, v + j * h.ldv, o, h.dv);
        }
    }
}

// Backward: adds ∂L/∂Q, ∂L/∂K, ∂L/∂V of this head into dq, dk, dv (same strides as
// q, k, v) from dout; returns Σ (∂L/∂Z)², the squared gradient at the softmax input.
// dP is T-long scratch.
template <class S>
double head_backward(const HeadShape& h, const S* q, const S* k, const S* v, const S* P, const S* dout, S* dq,
                     S* dk, S* dv, S* dP) {
    const S s = S(h.scale);
    const S keep_scale = h.rate > 0 ? S(1) / (S(1) - S(h.rate)) : S(1);
    double sq = 0;
    for (std::size_t i = 0; i < h.T; ++i) {
        const S* p = P + i * h.T;
        const S* g = dout + i * h.ldv;
        // out_i = Σ_j D_ij v_j: dD_ij = g·v_j, dv_j += D_ij g; dropout: dP = dD · keep/(1−r)
        double pdp = 0;
        for (std::size_t j = 0; j <= i; ++j) {
            const bool kept = h.rate <= 0 || dropout_keep(h.seed, i, j, h.rate);
            const S factor = kept ? keep_scale : S(0);
            const S d = factor * p[j];
            if (d != 0) axpyp(d, g, dv + j * h.ldv, h.dv);
            dP[j] = factor != 0 ? factor * dotp(g, v + j * h.ldv, h.dv) : S(0);
            pdp += double(p[j]) * double(dP[j]);
        }
        // softmax: dZ_ij = P_ij (dP_ij − Σ_k P_ik dP_ik); masked entries (P = 0) get 0
        for (std::size_t j = 0; j <= i; ++j) {
            const S dz = p[j] == 0 ? S(0) : S(double(p[j]) * (double(dP[j]) - pdp));
            sq += double(dz) * double(dz);
            const S ds = s * dz;  // Z = s·S
            if (ds != 0) {
                axpyp(ds, k + j * h.ldq, dq + i * h.ldq, h.dk);  // dQ_i += dS_ij k_j
                axpyp(ds, q + i * h.ldq, dk + j * h.ldq, h.dk);  // dK_j += dS_ij q_i
            }
        }
    }
    return sq;
}

}  // namespace attn::detail

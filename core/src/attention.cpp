#include "attn/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "attn/linalg.hpp"
#include "kernels/checks.hpp"
#include "kernels/gemm.hpp"
#include "kernels/mask.hpp"
#include "kernels/softmax.hpp"
#include "nonfinite.hpp"

namespace attn {

namespace {
// O = P V where a zero weight takes nothing from V (not even a NaN or ∞ sitting in a
// masked-out token's Value). With every entry of V finite, 0·v = 0 exactly, so the
// packed GEMM gives that; otherwise zero weights are skipped one by one.
void pv_product(ConstMatrixView P, ConstMatrixView V, MatrixView O, bool v_finite) {
    if (v_finite) {
        kernels::gemm_nn(P, V, O);
        return;
    }
    for (std::size_t i = 0; i < P.rows(); ++i) {
        const float* p = P.row(i);
        std::fill_n(O.row(i), V.cols(), 0.0f);
        for (std::size_t j = 0; j < P.cols(); ++j)
            if (p[j] != 0.0f) kernels::axpy(p[j], V.row(j), O.row(i), V.cols());
    }
}
void pv_product(ConstMatrixView P, ConstMatrixView V, MatrixView O) { pv_product(P, V, O, kernels::all_finite(V)); }

}  // namespace

Matrix scores(ConstMatrixView Q, ConstMatrixView K) {
    if (Q.cols() != K.cols())
        throw ShapeError("scores: Q is " + Q.shape() + " and K is " + K.shape() +
                         "; Q and K must have the same number of columns (d_k)");
    return matmul_bt(Q, K);
}

Matrix scale(ConstMatrixView S, float factor) {
    if (!std::isfinite(factor))
        throw ValueError("scale: the factor must be finite, got " + std::to_string(factor));
    Matrix out(S.rows(), S.cols());
    for (std::size_t i = 0; i < S.rows(); ++i) kernels::scale(S.row(i), factor, out.row(i), S.cols());
    return out;
}

Matrix causal_mask(std::size_t Tq, std::size_t Tk) {
    Matrix M(Tq, Tk, 0.0f);
    // Rows i >= Tk see every key (visible_keys = Tk): only the first min(Tq, Tk) rows hide any.
    for (std::size_t i = 0; i < std::min(Tq, Tk); ++i) kernels::mask_row(M.row(i), nullptr, i, 0, Tk, true);
    return M;
}

Matrix add_mask(ConstMatrixView S, ConstMatrixView M) {
    kernels::require_same_shape("add_mask", S, "S", M, "mask");
    Matrix out(S.rows(), S.cols());
    for (std::size_t i = 0; i < S.rows(); ++i) kernels::add_mask(S.row(i), M.row(i), out.row(i), S.cols());
    return out;
}

Matrix softmax(ConstMatrixView S, Axis axis) {
    if (axis != Axis::Rows && axis != Axis::Cols)
        throw ValueError("softmax: unknown axis " + std::to_string(int(axis)));
    if (axis == Axis::Cols) {
        Matrix T = transpose(S);
        for (std::size_t i = 0; i < T.rows(); ++i) kernels::softmax_row(T.row(i), T.cols());
        return transpose(T);
    }
    Matrix P(S);
    for (std::size_t i = 0; i < P.rows(); ++i) kernels::softmax_row(P.row(i), P.cols());
    return P;
}

SoftmaxParts softmax_parts(ConstMatrixView S, Axis axis) {
    if (axis != Axis::Rows && axis != Axis::Cols)
        throw ValueError("softmax_parts: unknown axis " + std::to_string(int(axis)));
    // Work on rows; for the column axis, on the rows of Sᵀ, and transpose back.
    const Matrix Sr = axis == Axis::Rows ? Matrix(S) : transpose(S);
    const std::size_t r = Sr.rows(), c = Sr.cols();
    SoftmaxParts p;
    Matrix mx(r, 1), shifted(r, c), e(r, c), sums(r, 1), e_raw(r, c), sums_raw(r, 1);
    for (std::size_t i = 0; i < r; ++i) {
        const auto rp = kernels::softmax_row_parts(Sr.row(i), c, shifted.row(i), e.row(i), e_raw.row(i));
        mx(i, 0) = rp.max;
        sums(i, 0) = rp.sum;
        sums_raw(i, 0) = rp.sum_raw;
    }
    if (axis == Axis::Rows) {
        p.max = std::move(mx);
        p.shifted = std::move(shifted);
        p.exp = std::move(e);
        p.sums = std::move(sums);
        p.exp_raw = std::move(e_raw);
        p.sums_raw = std::move(sums_raw);
    } else {
        p.max = transpose(mx);
        p.shifted = transpose(shifted);
        p.exp = transpose(e);
        p.sums = transpose(sums);
        p.exp_raw = transpose(e_raw);
        p.sums_raw = transpose(sums_raw);
    }
    p.weights = softmax(S, axis);
    return p;
}

Matrix weighted_sum(ConstMatrixView P, ConstMatrixView V) {
    if (P.cols() != V.rows())
        throw ShapeError("weighted_sum: P is " + P.shape() + " and V is " + V.shape() +
                         "; P's columns (keys) must equal V's rows (tokens)");
    Matrix O(P.rows(), V.cols(), 0.0f);
    pv_product(P, V, O.view());
    return O;
}

namespace {
void check_attention_inputs(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const AttentionOptions& o,
                            const char* fn) {
    kernels::check_attention_inputs(fn, Q, K, V, o.mask ? &*o.mask : nullptr, o.scale ? &*o.scale : nullptr);
    check_dropout_rate(o.dropout.rate);
}
}  // namespace

Matrix attention_output(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                        const AttentionOptions& options) {
    check_attention_inputs(Q, K, V, options, "attention_output");
    // Shapes: Q: Tq x dk, K: Tk x dk, V: Tk x dv; S: Tq x Tk (the one n² buffer); O: Tq x dv.
    const std::size_t Tq = Q.rows(), Tk = K.rows();
    const float f = options.scale.value_or(1.0f / std::sqrt(float(Q.cols())));
    Matrix S(Tq, Tk);
    kernels::gemm_nt(Q, K, S.view(), f);  // S = f · Q Kᵀ (the scale folded into the GEMM)
    kernels::Scratch<float, 64> sums(Tq);  // on the stack for the page's calls (no allocation)
    const bool drop = options.dropout.training && options.dropout.rate > 0.0f;
    const float keep_scale = drop ? 1.0f / (1.0f - options.dropout.rate) : 1.0f;
    for (std::size_t i = 0; i < Tq; ++i) {
        float* s = S.row(i);
        kernels::mask_row(s, options.mask ? options.mask->row(i) : nullptr, i, 0, Tk, options.causal);
        // Unnormalised softmax: two passes (max; exp, store and sum). The division by the
        // sum is applied to the output row instead (T·d_v divisions, not T²).
        sums[i] = kernels::softmax_row_unnormalised(s, Tk);
        if (drop)
            for (std::size_t j = 0; j < Tk; ++j)
                s[j] = dropout_keep(options.dropout.seed, i, j, options.dropout.rate) ? s[j] * keep_scale : 0.0f;
    }
    Matrix O(Tq, V.cols());
    pv_product(S, V, O.view());
    // Σ = 0: a fully masked row, its zero output stays; Σ = NaN makes the row NaN.
    for (std::size_t i = 0; i < Tq; ++i)
        if (sums[i] != 0.0f) kernels::scale(O.row(i), 1.0f / sums[i], O.row(i), V.cols());
    return O;
}

// The same stages as scores(), scale(), masked_softmax_rows(), dropout() and
// weighted_sum() one after the other (the same kernels, so the same bits), written out so
// that the page's call touches each matrix once: scaled and masked are written in one
// pass that also tests scores and scaled for NaN and ±∞, V is tested once (for the report
// and for pv_product), and a stage whose finiteness follows from the one before is not
// scanned again: with no additive mask, masked holds scaled's entries or −∞ (clean when
// scaled is); a row of masked with no NaN or +∞ has weights in [0, 1] (clean when masked is).
Trace attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V,
                const AttentionOptions& options) {
    check_attention_inputs(Q, K, V, options, "attention");
    using detail::nonfinite_bit;

    Trace t;
    NonFiniteReport& report = t.nonfinite;
    detail::report_input(report, "Q", Q);
    detail::report_input(report, "K", K);
    const bool v_finite = !detail::report_input(report, "V", V);
    if (options.mask) detail::report_input(report, "mask", *options.mask, true);

    const std::size_t Tq = Q.rows(), Tk = K.rows(), n = Tq * Tk;
    const float f = options.scale.value_or(1.0f / std::sqrt(float(Q.cols())));
    t.scale = f;
    t.scores = Matrix(Tq, Tk);
    kernels::gemm_nt(Q, K, t.scores.view());
    t.scaled = Matrix(Tq, Tk);
    t.masked = Matrix(Tq, Tk);
    std::uint32_t scores_bad = 0, scaled_bad = 0;
    {
        const float* s = t.scores.data();
        float *y = t.scaled.data(), *z = t.masked.data();
        for (std::size_t k = 0; k < n; ++k) {
            const float x = s[k], v = x * f;
            y[k] = v;
            z[k] = v;
            scores_bad |= nonfinite_bit(x, true);
            scaled_bad |= nonfinite_bit(v, true);
        }
    }
    t.weights = Matrix(Tq, Tk);
    kernels::masked_softmax_rows(t.masked, t.weights, options.mask ? &*options.mask : nullptr, options.causal);
    const bool masked_bad = (options.mask || scaled_bad) && detail::any_nonfinite(t.masked, true);
    const bool weights_bad = masked_bad && detail::any_nonfinite(t.weights);
    const bool drop = options.dropout.training && options.dropout.rate > 0.0f;
    t.dropped = drop ? dropout(t.weights, options.dropout.rate, options.dropout.seed) : t.weights;
    t.output = Matrix(Tq, V.cols());
    pv_product(t.dropped, V, t.output.view(), v_finite);

    if (scores_bad) report.stages.emplace_back("scores");
    if (scaled_bad) report.stages.emplace_back("scaled");
    if (masked_bad) report.stages.emplace_back("masked");
    if (weights_bad) report.stages.emplace_back("weights");
    if (drop) detail::report_stage(report, "dropped", t.dropped);
    detail::report_stage(report, "output", t.output);
    return t;
}

}  // namespace attn

// The forward variants declared in forward.hpp: the training model's fused head on
// matrices, and the double path. (attention() and attention_output() are in
// attention.cpp, flash_attention() in flash.cpp.)
#include "attn/forward.hpp"

#include <cmath>

#include "attn/grad.hpp"
#include "kernels/checks.hpp"
#include "kernels/softmax.hpp"
#include "training/fused.hpp"

namespace attn {

HeadTrace attention_head(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const AttentionOptions& o) {
    kernels::check_attention_inputs("attention_head", Q, K, V, o.mask ? &*o.mask : nullptr, o.scale ? &*o.scale : nullptr);
    check_dropout_rate(o.dropout.rate);
    // The fused head reads rows with a stride; Matrix copies give them one (and a mask row
    // pointer that outlives the call).
    const Matrix q(Q), k(K), v(V);
    detail::HeadShape h;
    h.Tq = Q.rows();
    h.Tk = K.rows();
    h.dk = Q.cols();
    h.dv = V.cols();
    h.ldq = h.ldk = h.dk;
    h.ldv = h.ldo = h.dv;
    h.scale = o.scale.value_or(1.0f / std::sqrt(float(Q.cols())));
    h.rate = o.dropout.training ? o.dropout.rate : 0.0f;
    h.seed = o.dropout.seed;
    h.causal = o.causal;
    HeadTrace t{Matrix(h.Tq, h.Tk), Matrix(h.Tq, h.Tk), Matrix(h.Tq, h.dv)};
    detail::head_forward(h, q.data(), k.data(), v.data(), t.weights.data(), t.masked.data(), t.output.data(),
                         o.mask ? o.mask->data() : nullptr, h.Tk);
    return t;
}

namespace f64 {

TraceD attention(const MatrixD& Q, const MatrixD& K, const MatrixD& V, const AttentionOptionsD& o) {
    kernels::check_attention_inputs("attention", Q, K, V, o.mask ? &*o.mask : nullptr, &o.scale);
    check_dropout_rate(o.dropout.rate);
    TraceD t;
    t.scale = o.scale;
    t.scores = matmul_bt(Q, K);
    t.scaled = MatrixD(t.scores.rows(), t.scores.cols());
    for (std::size_t k = 0; k < t.scores.size(); ++k) t.scaled.data()[k] = t.scores.data()[k] * o.scale;
    // The float path's rules, through the same kernels: the mask rule, then the row softmax.
    t.masked = t.scaled;
    t.weights = MatrixD(t.masked.rows(), t.masked.cols());
    kernels::masked_softmax_rows(t.masked, t.weights, o.mask ? &*o.mask : nullptr, o.causal);
    const bool drop = o.dropout.training && o.dropout.rate > 0.0f;
    t.dropped = drop ? dropout(t.weights, o.dropout.rate, o.dropout.seed) : t.weights;
    // O = P V where a zero weight takes nothing from its Value row (not a NaN or ∞ either).
    t.output = MatrixD(Q.rows(), V.cols());
    for (std::size_t i = 0; i < Q.rows(); ++i)
        for (std::size_t j = 0; j < K.rows(); ++j)
            if (t.dropped(i, j) != 0.0) kernels::axpy(t.dropped(i, j), V.row(j), t.output.row(i), V.cols());
    return t;
}

}  // namespace f64
}  // namespace attn

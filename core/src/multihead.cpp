#include "attn/multihead.hpp"

#include <algorithm>

#include "attn/linalg.hpp"
#include "nonfinite.hpp"

namespace attn {

namespace {
void check_heads(std::size_t width, std::size_t heads, const char* fn, const char* what) {
    if (heads == 0) throw ValueError(std::string(fn) + ": heads must be at least 1");
    if (heads > width)
        throw ValueError(std::string(fn) + ": " + std::to_string(heads) + " heads are more than " +
                         what + " = " + std::to_string(width) + " (each head needs at least one column)");
    if (width % heads != 0)
        throw ValueError(std::string(fn) + ": " + std::to_string(heads) + " heads do not divide " +
                         what + " = " + std::to_string(width));
}
}  // namespace

std::vector<Matrix> split_heads(ConstMatrixView X, std::size_t heads) {
    check_heads(X.cols(), heads, "split_heads", "the width");
    const std::size_t dh = X.cols() / heads;
    std::vector<Matrix> out;
    out.reserve(heads);
    for (std::size_t h = 0; h < heads; ++h) out.emplace_back(X.cols_block(h * dh, dh));
    return out;
}

Matrix concat_heads(const std::vector<Matrix>& heads) {
    if (heads.empty()) throw ValueError("concat_heads: no heads given");
    const std::size_t T = heads[0].rows();
    std::size_t width = 0;
    for (std::size_t h = 0; h < heads.size(); ++h) {
        if (heads[h].rows() != T)
            throw ShapeError("concat_heads: head 0 is " + heads[0].shape() + " but head " +
                             std::to_string(h) + " is " + heads[h].shape() +
                             "; every head needs the same number of rows");
        width += heads[h].cols();
    }
    Matrix out(T, width);
    std::size_t c0 = 0;
    for (const Matrix& m : heads) {
        for (std::size_t i = 0; i < T; ++i) std::copy_n(m.row(i), m.cols(), out.row(i) + c0);
        c0 += m.cols();
    }
    return out;
}

MultiHeadTrace multi_head_attention(ConstMatrixView X, const MultiHeadWeights& w,
                                    const MultiHeadOptions& options) {
    const auto chain = [&](const Matrix& W, const char* name) {
        if (W.rows() != X.cols())
            throw ShapeError(std::string("multi_head_attention: X is ") + X.shape() + " and " +
                             name + " is " + W.shape() + "; " + name +
                             " needs one row per column of X (d_model)");
    };
    chain(w.Wq, "W_Q");
    chain(w.Wk, "W_K");
    chain(w.Wv, "W_V");
    if (w.Wq.cols() != w.Wk.cols())
        throw ShapeError("multi_head_attention: W_Q is " + w.Wq.shape() + " and W_K is " +
                         w.Wk.shape() + "; they must have the same number of columns");
    if (w.Wo.rows() != w.Wv.cols())
        throw ShapeError("multi_head_attention: W_V is " + w.Wv.shape() + " and W_O is " +
                         w.Wo.shape() + "; W_O needs one row per column of W_V");
    check_heads(w.Wq.cols(), options.heads, "multi_head_attention", "the width of Q and K");
    check_heads(w.Wv.cols(), options.heads, "multi_head_attention", "the width of V");
    check_dropout_rate(options.dropout.rate);

    MultiHeadTrace t;
    t.q = matmul(X, w.Wq);
    t.k = matmul(X, w.Wk);
    t.v = matmul(X, w.Wv);
    const std::size_t dh = t.q.cols() / options.heads, dv = t.v.cols() / options.heads;
    std::vector<Matrix> outs;
    for (std::size_t h = 0; h < options.heads; ++h) {
        AttentionOptions o;
        o.causal = options.causal;
        o.dropout = options.dropout;
        o.dropout.seed = options.dropout.seed + h;
        t.heads.push_back(attention(t.q.cols_block(h * dh, dh), t.k.cols_block(h * dh, dh),
                                    t.v.cols_block(h * dv, dv), o));
        outs.push_back(t.heads.back().output);
    }
    t.concat = concat_heads(outs);
    t.output = matmul(t.concat, w.Wo);

    detail::report_input(t.nonfinite, "X", X);
    detail::report_input(t.nonfinite, "W_Q", w.Wq);
    detail::report_input(t.nonfinite, "W_K", w.Wk);
    detail::report_input(t.nonfinite, "W_V", w.Wv);
    detail::report_input(t.nonfinite, "W_O", w.Wo);
    detail::report_stage(t.nonfinite, "q", t.q);
    detail::report_stage(t.nonfinite, "k", t.k);
    detail::report_stage(t.nonfinite, "v", t.v);
    detail::report_stage(t.nonfinite, "concat", t.concat);
    detail::report_stage(t.nonfinite, "output", t.output);
    return t;
}

}  // namespace attn

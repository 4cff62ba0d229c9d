// The tiny Transformer of model.hpp: forward, backward (the stages of grad.hpp chained
// in reverse), Adam and the Trainer. One template for float (the page trains with it;
// products through the xsimd kernels) and double (the gradient checks). Each causal head
// runs fused (training/fused.hpp: the attention stages and their backward passes in one
// pass per head and sequence, no per-head allocations).
#include "splitmix.hpp"
#include "attn/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "kernels/mask.hpp"
#include "kernels/softmax.hpp"
#include "training/fused.hpp"
#include "training/stages.hpp"

namespace attn {

namespace {
using f64::MatrixD;
using detail::view;
namespace d = detail;

std::uint64_t mix(std::uint64_t z) { return detail::splitmix64(z); }
std::uint64_t combine(std::uint64_t a, std::uint64_t b) { return mix(a ^ mix(b + 0x632be59bd9b4e019ULL)); }

template <class T>
Mat<T> from_float(const Matrix& m) {
    if constexpr (std::is_same_v<T, float>) return m;
    else return MatrixD(m);
}

// Rows [r0, r0+nr) and columns [c0, c0+nc): a strided view for float, a copy for double.
inline ConstMatrixView block(const Matrix& m, std::size_t r0, std::size_t nr, std::size_t c0, std::size_t nc) {
    return {m.data() + r0 * m.cols() + c0, nr, nc, m.cols()};
}
inline MatrixD block(const MatrixD& m, std::size_t r0, std::size_t nr, std::size_t c0, std::size_t nc) {
    MatrixD out(nr, nc);
    for (std::size_t i = 0; i < nr; ++i)
        for (std::size_t j = 0; j < nc; ++j) out(i, j) = m(r0 + i, c0 + j);
    return out;
}

template <class M, class S>
void add_block(M& dst, std::size_t r0, std::size_t c0, const S& src) {
    for (std::size_t i = 0; i < src.rows(); ++i)
        for (std::size_t j = 0; j < src.cols(); ++j) dst(r0 + i, c0 + j) += src(i, j);
}
template <class M, class S>
void add_into(M& dst, const S& src) { add_block(dst, 0, 0, src); }
template <class M, class B>
void add_row(M& dst, const B& bias) {
    for (std::size_t i = 0; i < dst.rows(); ++i)
        for (std::size_t j = 0; j < dst.cols(); ++j) dst(i, j) += bias(0, j);
}

// Parameter layout: E, then per layer [ln1.gain, ln1.bias,] Wq, Wk, Wv, Wo
// [, [ln2.gain, ln2.bias,] W1, b1, W2, b2], then [ln_f.gain, ln_f.bias,] Wout, bout
// (the bracketed LayerNorm parameters only with ModelConfig::layer_norm).
struct Layout {
    bool ln, mlp;
    std::size_t layers;
    std::size_t per_layer() const { return 4 + (mlp ? 4 : 0) + (ln ? (mlp ? 4 : 2) : 0); }
    std::size_t E() const { return 0; }
    std::size_t ln1(std::size_t l) const { return 1 + l * per_layer(); }  // gain; bias at + 1
    std::size_t Wq(std::size_t l) const { return ln1(l) + (ln ? 2 : 0); }
    std::size_t Wk(std::size_t l) const { return Wq(l) + 1; }
    std::size_t Wv(std::size_t l) const { return Wq(l) + 2; }
    std::size_t Wo(std::size_t l) const { return Wq(l) + 3; }
    std::size_t ln2(std::size_t l) const { return Wq(l) + 4; }  // gain; bias at + 1
    std::size_t W1(std::size_t l) const { return Wq(l) + 4 + (ln ? 2 : 0); }
    std::size_t b1(std::size_t l) const { return W1(l) + 1; }
    std::size_t W2(std::size_t l) const { return W1(l) + 2; }
    std::size_t b2(std::size_t l) const { return W1(l) + 3; }
    std::size_t lnf() const { return 1 + layers * per_layer(); }  // gain; bias at + 1
    std::size_t Wout() const { return lnf() + (ln ? 2 : 0); }
    std::size_t bout() const { return Wout() + 1; }
};
Layout layout(const ModelConfig& c) { return {c.layer_norm, c.mlp_hidden > 0, c.layers}; }
constexpr double kLayerNormEps = 1e-5;

std::size_t value_width(const ModelConfig& c) { return c.d_v > 0 ? c.d_v : c.d_model / c.heads; }
double attention_scale(const ModelConfig& c) { return c.scale ? 1.0 / std::sqrt(double(c.d_k)) : 1.0; }
}  // namespace

namespace {
void check_range(const char* who, const char* what, std::size_t v, Range r) {
    if (v < r.min || v > r.max)
        throw ValueError(std::string(who) + ": " + what + " must be " + std::to_string(r.min) + ".." +
                         std::to_string(r.max) + ", got " + std::to_string(v));
}
}  // namespace

void check_config(const ModelConfig& c) {
    check_range("model", "vocab_in", c.vocab_in, limits::vocab);
    check_range("model", "vocab_out", c.vocab_out, limits::vocab);
    check_range("model", "max_len", c.max_len, limits::max_len);
    check_range("model", "d_model", c.d_model, limits::d_model);
    check_range("model", "heads", c.heads, limits::heads);
    if (c.d_v == 0 && c.d_model % c.heads != 0)
        throw ValueError("model: " + std::to_string(c.heads) + " heads do not divide d_model = " +
                         std::to_string(c.d_model) + " (set d_v to give each head its own value width)");
    check_range("model", "d_v", c.d_v, limits::d_v);
    check_range("model", "d_k", c.d_k, limits::d_k);
    check_range("model", "layers", c.layers, limits::layers);
    check_range("model", "mlp_hidden", c.mlp_hidden, limits::mlp_hidden);
    check_dropout_rate(c.dropout);
}

// ---- the model --------------------------------------------------------------------------

template <class T>
TinyTransformerT<T>::TinyTransformerT(const ModelConfig& c) : config_(c) {
    check_config(c);
    const std::size_t D = c.d_model, H = c.heads, dqk = H * c.d_k, dv = H * value_width(c);
    std::uint64_t k = 0;
    const auto add = [&](std::string name, std::size_t rows, std::size_t cols, double stddev) {
        Matrix init = stddev > 0 ? random_normal(rows, cols, combine(c.seed, k), 0.0f, float(stddev)) : Matrix(rows, cols);
        ++k;
        Mat<T> value = from_float<T>(init);
        params_.push_back({std::move(name), value, Mat<T>(rows, cols)});
    };
    // LayerNorm: gain 1, bias 0 (drawing nothing, so a model without it starts as before)
    const auto add_ln = [&](const std::string& name) {
        Mat<T> gain(1, D);
        for (std::size_t j = 0; j < D; ++j) gain(0, j) = T(1);
        params_.push_back({name + ".gain", gain, Mat<T>(1, D)});
        params_.push_back({name + ".bias", Mat<T>(1, D), Mat<T>(1, D)});
    };
    add("E", c.vocab_in, D, 1.0);
    for (std::size_t l = 0; l < c.layers; ++l) {
        const std::string p = "layer" + std::to_string(l + 1) + ".";
        if (c.layer_norm) add_ln(p + "ln1");
        add(p + "Wq", D, dqk, 1.0 / std::sqrt(double(D)));
        add(p + "Wk", D, dqk, 1.0 / std::sqrt(double(D)));
        add(p + "Wv", D, dv, 1.0 / std::sqrt(double(D)));
        add(p + "Wo", dv, D, 1.0 / std::sqrt(double(dv)));
        if (c.mlp_hidden > 0) {
            if (c.layer_norm) add_ln(p + "ln2");
            add(p + "W1", D, c.mlp_hidden, std::sqrt(2.0 / double(D)));
            add(p + "b1", 1, c.mlp_hidden, 0);
            add(p + "W2", c.mlp_hidden, D, 1.0 / std::sqrt(double(c.mlp_hidden)));
            add(p + "b2", 1, D, 0);
        }
    }
    if (c.layer_norm) add_ln("ln_f");
    add("Wout", D, c.vocab_out, 1.0 / std::sqrt(double(D)));
    add("bout", 1, c.vocab_out, 0);
    pe_ = from_float<T>(sinusoidal_encoding(c.max_len, D));
}

template <class T>
template <class U>
TinyTransformerT<T>::TinyTransformerT(const TinyTransformerT<U>& other) : config_(other.config()) {
    for (const auto& p : other.params()) {
        Mat<T> v(p.value.rows(), p.value.cols());
        for (std::size_t i = 0; i < v.rows(); ++i)
            for (std::size_t j = 0; j < v.cols(); ++j) v(i, j) = T(p.value(i, j));
        params_.push_back({p.name, v, Mat<T>(v.rows(), v.cols())});
    }
    pe_ = from_float<T>(sinusoidal_encoding(config_.max_len, config_.d_model));
}

template <class T>
std::size_t TinyTransformerT<T>::parameter_count() const {
    std::size_t n = 0;
    for (const auto& p : params_) n += p.value.rows() * p.value.cols();
    return n;
}

template <class T>
struct TinyTransformerT<T>::Forward {
    struct Layer {
        // x_in: the layer's residual input; a = LN1(x_in) (x_in without LayerNorm), the
        // attention's input; m = LN2(x_mid) (x_mid without), the MLP's input
        Mat<T> x_in, a, q, k, v, concat, x_mid, m, h_pre, h;
        // per head of each sequence, [b·H + h]: weights P and softmax inputs Z (T x T each)
        std::vector<T> P, Z;
        std::vector<d::HeadShape> heads;
    };
    std::size_t B = 0, Tn = 0;
    std::vector<Layer> layers;
    Mat<T> x_out, y_out, logits;  // y_out = LN_f(x_out) (x_out without LayerNorm)
};

template <class T>
typename TinyTransformerT<T>::Forward TinyTransformerT<T>::forward(const std::vector<int>& tokens, std::size_t B,
                                                                   std::size_t Tn, bool training,
                                                                   std::uint64_t dropout_seed,
                                                                   const std::vector<bool>& zeroed) const {
    const ModelConfig& c = config_;
    if (Tn == 0 || B == 0) throw ValueError("model: empty batch");
    if (Tn > c.max_len)
        throw ValueError("model: a sequence of " + std::to_string(Tn) + " tokens is longer than this model's " +
                         std::to_string(c.max_len));
    if (tokens.size() != B * Tn)
        throw ShapeError("model: " + std::to_string(tokens.size()) + " tokens for " + std::to_string(B) +
                         " sequences of " + std::to_string(Tn));
    const Layout L = layout(c);
    const std::size_t H = c.heads, dk = c.d_k, dv = value_width(c);
    const double s = attention_scale(c);
    if (!zeroed.empty() && zeroed.size() != c.layers * H)
        throw ShapeError("model: " + std::to_string(zeroed.size()) + " head flags for " + std::to_string(c.layers) +
                         " layers of " + std::to_string(H) + " heads");
    Forward f;
    f.B = B;
    f.Tn = Tn;
    Mat<T> x = d::embedding<Mat<T>>(tokens, view(param(L.E())));
    if (c.positional)
        for (std::size_t b = 0; b < B; ++b) add_block(x, b * Tn, 0, block(pe_, 0, Tn, 0, c.d_model));
    const auto norm = [&](const Mat<T>& in, std::size_t at) {
        return d::layer_norm<Mat<T>>(view(in), view(param(at)), view(param(at + 1)), kLayerNormEps);
    };
    for (std::size_t l = 0; l < c.layers; ++l) {
        typename Forward::Layer ly;
        ly.a = c.layer_norm ? norm(x, L.ln1(l)) : x;
        ly.q = d::mm(ly.a, param(L.Wq(l)));
        ly.k = d::mm(ly.a, param(L.Wk(l)));
        ly.v = d::mm(ly.a, param(L.Wv(l)));
        ly.concat = Mat<T>(B * Tn, H * dv);
        ly.P.assign(B * H * Tn * Tn, T(0));
        ly.Z.assign(B * H * Tn * Tn, T(0));
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t h = 0; h < H; ++h) {
                d::HeadShape hs;
                hs.Tq = hs.Tk = Tn;
                hs.dk = dk;
                hs.dv = dv;
                hs.ldq = hs.ldk = H * dk;
                hs.ldv = hs.ldo = H * dv;
                hs.scale = s;
                hs.rate = training ? c.dropout : 0.0f;
                hs.seed = combine(combine(combine(dropout_seed, l), b), h);
                hs.causal = true;
                const std::size_t r0 = b * Tn, n = (b * H + h) * Tn * Tn;
                d::head_forward(hs, ly.q.data() + r0 * hs.ldq + h * dk, ly.k.data() + r0 * hs.ldq + h * dk,
                                ly.v.data() + r0 * hs.ldv + h * dv, ly.P.data() + n, ly.Z.data() + n,
                                ly.concat.data() + r0 * hs.ldv + h * dv);
                if (!zeroed.empty() && zeroed[l * H + h])
                    for (std::size_t t = 0; t < Tn; ++t)
                        std::fill_n(ly.concat.data() + (r0 + t) * hs.ldv + h * dv, dv, T(0));
                ly.heads.push_back(hs);
            }
        ly.x_mid = d::mm(ly.concat, param(L.Wo(l)));
        add_into(ly.x_mid, x);
        ly.x_in = std::move(x);
        if (c.mlp_hidden > 0) {
            ly.m = c.layer_norm ? norm(ly.x_mid, L.ln2(l)) : ly.x_mid;
            ly.h_pre = d::mm(ly.m, param(L.W1(l)));
            add_row(ly.h_pre, param(L.b1(l)));
            ly.h = d::relu<Mat<T>>(view(ly.h_pre));
            x = d::mm(ly.h, param(L.W2(l)));
            add_row(x, param(L.b2(l)));
            add_into(x, ly.x_mid);
        } else {
            x = ly.x_mid;
        }
        f.layers.push_back(std::move(ly));
    }
    f.y_out = c.layer_norm ? norm(x, L.lnf()) : x;
    f.logits = d::mm(f.y_out, param(L.Wout()));
    add_row(f.logits, param(L.bout()));
    f.x_out = std::move(x);
    return f;
}

namespace {
// Per part (Batch::parts): the loss and accuracy of its scored positions, from the logits
// (a log-softmax per position, in double).
template <class M>
void part_stats(const M& logits, const Batch& batch, LossStats& st) {
    if (batch.parts.empty()) return;
    int n = 0;
    for (int p : batch.parts) n = std::max(n, p + 1);
    st.parts.assign(std::size_t(n), PartStats{});
    std::vector<double> nats(std::size_t(n), 0.0);
    for (std::size_t r = 0; r < batch.targets.size(); ++r) {
        const int y = batch.targets[r], p = batch.parts[r];
        if (y < 0 || p < 0) continue;
        double mx = -std::numeric_limits<double>::infinity();
        std::size_t arg = 0;
        for (std::size_t v = 0; v < logits.cols(); ++v) {
            if (double(logits(r, v)) > mx) mx = double(logits(r, v)), arg = v;
        }
        double sum = 0;
        for (std::size_t v = 0; v < logits.cols(); ++v) sum += std::exp(double(logits(r, v)) - mx);
        nats[std::size_t(p)] += std::log(sum) + mx - double(logits(r, std::size_t(y)));
        PartStats& ps = st.parts[std::size_t(p)];
        ++ps.count;
        ps.correct += arg == std::size_t(y);
    }
    for (std::size_t p = 0; p < st.parts.size(); ++p)
        st.parts[p].loss = st.parts[p].count ? nats[p] / double(st.parts[p].count) : 0.0;
}

template <class M>
void sequence_stats(const M& logits, const Batch& batch, LossStats& st) {
    part_stats(logits, batch, st);
    st.sequences = batch.size;
    for (std::size_t b = 0; b < batch.size; ++b) {
        bool all = true;
        for (std::size_t t = 0; t < batch.seq_len; ++t) {
            const std::size_t r = b * batch.seq_len + t;
            const int y = batch.targets[r];
            if (y < 0) continue;
            std::size_t arg = 0;
            for (std::size_t v = 1; v < logits.cols(); ++v)
                if (logits(r, v) > logits(r, arg)) arg = v;
            if (arg != std::size_t(y)) all = false;
        }
        if (all) ++st.sequences_correct;
    }
}

void check_batch(const Batch& b) {
    if (b.tokens.size() != b.size * b.seq_len || b.targets.size() != b.tokens.size())
        throw ShapeError("model: the batch holds " + std::to_string(b.tokens.size()) + " tokens and " +
                         std::to_string(b.targets.size()) + " targets for " + std::to_string(b.size) +
                         " sequences of " + std::to_string(b.seq_len));
    if (!b.parts.empty() && b.parts.size() != b.tokens.size())
        throw ShapeError("model: the batch holds " + std::to_string(b.parts.size()) + " part ids for " +
                         std::to_string(b.tokens.size()) + " tokens");
}
}  // namespace

template <class T>
LossStats TinyTransformerT<T>::evaluate(const Batch& batch, const std::vector<bool>& zeroed) const {
    check_batch(batch);
    const Forward f = forward(batch.tokens, batch.size, batch.seq_len, false, 0, zeroed);
    const auto ce = d::cross_entropy<Mat<T>>(view(f.logits), batch.targets);
    LossStats st;
    st.loss = ce.loss;
    st.count = ce.count;
    st.correct = ce.correct;
    sequence_stats(f.logits, batch, st);
    return st;
}

template <class T>
double TinyTransformerT<T>::loss(const Batch& batch, bool training, std::uint64_t dropout_seed) const {
    check_batch(batch);
    const Forward f = forward(batch.tokens, batch.size, batch.seq_len, training, dropout_seed);
    return d::cross_entropy<Mat<T>>(view(f.logits), batch.targets).loss;
}

template <class T>
LossStats TinyTransformerT<T>::loss_and_grad(const Batch& batch, bool training, std::uint64_t dropout_seed) {
    check_batch(batch);
    const ModelConfig& c = config_;
    const Layout L = layout(c);
    const std::size_t H = c.heads, dk = c.d_k, dv = value_width(c);
    const std::size_t B = batch.size, Tn = batch.seq_len;
    Forward f = forward(batch.tokens, B, Tn, training, dropout_seed);
    auto ce = d::cross_entropy<Mat<T>>(view(f.logits), batch.targets);
    LossStats st;
    st.loss = ce.loss;
    st.count = ce.count;
    st.correct = ce.correct;
    sequence_stats(f.logits, batch, st);
    auto grad = [&](std::size_t i) -> Mat<T>& { return params_[i].grad; };

    // y = LN(x) (the identity without LayerNorm): dy -> dx, into the gain's and bias's grads
    const auto norm_backward = [&](const Mat<T>& in, std::size_t at, const Mat<T>& dy) {
        auto g = d::layer_norm_backward<Mat<T>>(view(in), view(param(at)), view(dy), kLayerNormEps);
        grad(at) = std::move(g.dgain);
        grad(at + 1) = std::move(g.dbias);
        return std::move(g.dX);
    };
    // logits = y Wout + bout, y = LN_f(x)
    grad(L.Wout()) = d::mm_at(f.y_out, ce.dlogits);
    grad(L.bout()) = d::bias_backward<Mat<T>>(view(ce.dlogits));
    Mat<T> dx = d::mm_bt(ce.dlogits, param(L.Wout()));
    if (c.layer_norm) dx = norm_backward(f.x_out, L.lnf(), dx);
    double logits_sq = 0, scores_sq = 0;
    for (std::size_t l = c.layers; l-- > 0;) {
        auto& ly = f.layers[l];
        Mat<T> dmid;
        if (c.mlp_hidden > 0) {
            // x_out = x_mid + relu(m W1 + b1) W2 + b2, m = LN2(x_mid)
            grad(L.W2(l)) = d::mm_at(ly.h, dx);
            grad(L.b2(l)) = d::bias_backward<Mat<T>>(view(dx));
            const Mat<T> dh = d::mm_bt(dx, param(L.W2(l)));
            const Mat<T> dpre = d::relu_backward<Mat<T>>(view(ly.h_pre), view(dh));
            grad(L.W1(l)) = d::mm_at(ly.m, dpre);
            grad(L.b1(l)) = d::bias_backward<Mat<T>>(view(dpre));
            dmid = d::mm_bt(dpre, param(L.W1(l)));
            if (c.layer_norm) dmid = norm_backward(ly.x_mid, L.ln2(l), dmid);
            add_into(dmid, dx);
        } else {
            dmid = std::move(dx);
        }
        // x_mid = x_in + concat Wo
        grad(L.Wo(l)) = d::mm_at(ly.concat, dmid);
        const Mat<T> dconcat = d::mm_bt(dmid, param(L.Wo(l)));
        Mat<T> dq(B * Tn, H * dk), dk_(B * Tn, H * dk), dvv(B * Tn, H * dv);
        std::vector<T> scratch(Tn);
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t h = 0; h < H; ++h) {
                const d::HeadShape& hs = ly.heads[b * H + h];
                const std::size_t r0 = b * Tn, qo = r0 * hs.ldq + h * dk, vo = r0 * hs.ldv + h * dv;  // ldq = ldk, ldv = ldo
                const double sq = d::head_backward(hs, ly.q.data() + qo, ly.k.data() + qo, ly.v.data() + vo,
                                                   ly.P.data() + (b * H + h) * Tn * Tn, dconcat.data() + vo,
                                                   dq.data() + qo, dk_.data() + qo, dvv.data() + vo, scratch.data());
                logits_sq += sq;
                scores_sq += sq * hs.scale * hs.scale;
            }
        // q = a Wq, k = a Wk, v = a Wv, a = LN1(x_in)
        grad(L.Wq(l)) = d::mm_at(ly.a, dq);
        grad(L.Wk(l)) = d::mm_at(ly.a, dk_);
        grad(L.Wv(l)) = d::mm_at(ly.a, dvv);
        Mat<T> da = d::mm_bt(dq, param(L.Wq(l)));
        add_into(da, d::mm_bt(dk_, param(L.Wk(l))));
        add_into(da, d::mm_bt(dvv, param(L.Wv(l))));
        if (c.layer_norm) da = norm_backward(ly.x_in, L.ln1(l), da);
        dx = std::move(dmid);  // the residual path
        add_into(dx, da);
    }
    // x⁰ = E[tokens] + PE (PE is fixed)
    grad(L.E()) = d::embedding_backward<Mat<T>>(batch.tokens, view(dx), c.vocab_in);
    st.grad_logits_norm = std::sqrt(logits_sq);
    st.grad_scores_norm = std::sqrt(scores_sq);
    return st;
}

template <class T>
ProbeT<T> TinyTransformerT<T>::probe(const std::vector<int>& tokens, std::size_t first_row,
                                     const std::vector<bool>& zeroed) const {
    const Forward f = forward(tokens, 1, tokens.size(), false, 0, zeroed);
    const std::size_t Tn = tokens.size();
    ProbeT<T> p;
    p.tokens = tokens;
    const Layout L = layout(config_);
    const std::size_t dv = value_width(config_), D = config_.d_model;
    for (std::size_t l = 0; l < f.layers.size(); ++l) {
        const auto& ly = f.layers[l];
        const Mat<T>& Wo = param(L.Wo(l));
        std::vector<std::vector<double>> vnorms;
        for (std::size_t h = 0; h < ly.heads.size(); ++h) {
            // ‖v_j^h W_O^h‖: the head's d_v columns of v times its d_v rows of W_O
            std::vector<double> norms(Tn, 0.0), row(D);
            for (std::size_t j = 0; j < Tn; ++j) {
                std::fill(row.begin(), row.end(), 0.0);
                for (std::size_t c = 0; c < dv; ++c) {
                    const double x = double(ly.v(j, h * dv + c));
                    for (std::size_t d = 0; d < D; ++d) row[d] += x * double(Wo(h * dv + c, d));
                }
                double sq = 0;
                for (double r : row) sq += r * r;
                norms[j] = std::sqrt(sq);
            }
            vnorms.push_back(std::move(norms));
        }
        p.value_norm.push_back(std::move(vnorms));
        std::vector<Mat<T>> ws;
        std::vector<double> stds, maxes;
        std::vector<std::vector<double>> offsets;
        for (std::size_t h = 0; h < ly.heads.size(); ++h) {
            const T* P = ly.P.data() + h * Tn * Tn;
            const T* Z = ly.Z.data() + h * Tn * Tn;
            Mat<T> W(Tn, Tn);
            std::copy(P, P + Tn * Tn, W.data());
            ws.push_back(std::move(W));
            // Rows that see at least two keys (i >= 1): the entries a softmax chooses among.
            double n = 0, sum = 0, sq = 0, mx = 0;
            for (std::size_t i = 1; i < Tn; ++i) {
                double rmax = 0;
                for (std::size_t j = 0; j < kernels::visible_keys(i, Tn, true); ++j) {
                    const double z = Z[i * Tn + j];
                    n += 1, sum += z, sq += z * z;
                    rmax = std::max(rmax, double(P[i * Tn + j]));
                }
                mx += rmax;
            }
            const double mean = n > 0 ? sum / n : 0;
            stds.push_back(n > 1 ? std::sqrt(std::max(0.0, sq / n - mean * mean)) : 0.0);
            maxes.push_back(Tn > 1 ? mx / double(Tn - 1) : 1.0);
            std::vector<double> by_offset(Tn, 0.0);
            for (std::size_t o = 0; o < Tn; ++o) {
                const std::size_t from = std::max(o, first_row);
                for (std::size_t i = from; i < Tn; ++i) by_offset[o] += double(P[i * Tn + i - o]);
                if (from < Tn) by_offset[o] /= double(Tn - from);
            }
            offsets.push_back(std::move(by_offset));
        }
        p.weights.push_back(std::move(ws));
        p.logit_std.push_back(std::move(stds));
        p.mean_max_weight.push_back(std::move(maxes));
        p.offset_weight.push_back(std::move(offsets));
    }
    const std::size_t V = f.logits.cols();
    p.probabilities = Mat<T>(Tn, V);
    std::vector<double> row(V);
    for (std::size_t t = 0; t < Tn; ++t) {
        std::size_t arg = 0;
        for (std::size_t v = 0; v < V; ++v) {
            row[v] = double(f.logits(t, v));
            if (row[v] > row[arg]) arg = v;  // the first of equal maxima
        }
        kernels::softmax_row(row.data(), V);  // in double, whatever T is
        for (std::size_t v = 0; v < V; ++v) p.probabilities(t, v) = T(row[v]);
        p.predictions.push_back(int(arg));
    }
    return p;
}

template <class T>
void TinyTransformerT<T>::visit_weights_impl(
    const Batch& batch, const std::function<void(std::size_t, std::size_t, std::size_t, const T*)>& visit) const {
    check_batch(batch);
    const Forward f = forward(batch.tokens, batch.size, batch.seq_len, false, 0);
    const std::size_t H = config_.heads, Tn = batch.seq_len;
    for (std::size_t l = 0; l < f.layers.size(); ++l)
        for (std::size_t b = 0; b < batch.size; ++b)
            for (std::size_t h = 0; h < H; ++h) visit(b, l, h, f.layers[l].P.data() + (b * H + h) * Tn * Tn);
}

template class TinyTransformerT<float>;
template class TinyTransformerT<double>;
template TinyTransformerT<double>::TinyTransformerT(const TinyTransformerT<float>&);

// ---- Adam -------------------------------------------------------------------------------

namespace {
void check_lr(float lr) {
    if (!(lr > 0.0f) || !std::isfinite(lr) || lr > limits::max_lr)
        throw ValueError("adam: the learning rate must be in (0, " + std::to_string(int(limits::max_lr)) + "], got " +
                         std::to_string(lr));
}
}  // namespace

void Adam::set_lr(float lr) {
    check_lr(lr);
    config_.lr = lr;
}

Adam::Adam(const AdamConfig& c) : config_(c) {
    check_lr(c.lr);
    if (!(c.beta1 >= 0.0f && c.beta1 < 1.0f) || !(c.beta2 >= 0.0f && c.beta2 < 1.0f))
        throw ValueError("adam: beta1 and beta2 must be in [0, 1)");
    if (!(c.eps > 0.0f) || !std::isfinite(c.eps)) throw ValueError("adam: eps must be positive");
}

void Adam::step(std::vector<Param<float>>& params) {
    if (m_.empty())
        for (const auto& p : params) {
            m_.emplace_back(p.value.rows(), p.value.cols());
            v_.emplace_back(p.value.rows(), p.value.cols());
        }
    if (m_.size() != params.size())
        throw ShapeError("adam: " + std::to_string(params.size()) + " parameters but the optimiser state holds " +
                         std::to_string(m_.size()));
    ++t_;
    const double bc1 = 1.0 - std::pow(double(config_.beta1), double(t_));
    const double bc2 = 1.0 - std::pow(double(config_.beta2), double(t_));
    const float b1 = config_.beta1, b2 = config_.beta2;
    const float step = float(double(config_.lr) / bc1), inv_bc2 = float(1.0 / bc2);
    for (std::size_t k = 0; k < params.size(); ++k) {
        Param<float>& p = params[k];
        if (p.grad.rows() != p.value.rows() || p.grad.cols() != p.value.cols() || m_[k].rows() != p.value.rows() ||
            m_[k].cols() != p.value.cols())
            throw ShapeError("adam: parameter " + p.name + " is " + p.value.shape() + " but its gradient is " +
                             p.grad.shape());
        float* w = p.value.data();
        const float* g = p.grad.data();
        float* m = m_[k].data();
        float* v = v_[k].data();
        for (std::size_t i = 0; i < p.value.size(); ++i) {
            m[i] = b1 * m[i] + (1.0f - b1) * g[i];
            v[i] = b2 * v[i] + (1.0f - b2) * g[i] * g[i];
            w[i] -= step * m[i] / (std::sqrt(v[i] * inv_bc2) + config_.eps);
        }
    }
}

float scheduled_lr(const LrSchedule& s, std::size_t step) {
    check_lr(s.peak);
    check_lr(s.floor);
    if (s.floor > s.peak) throw ValueError("lr schedule: the floor must not exceed the peak");
    if (s.warmup > s.total) throw ValueError("lr schedule: the warm-up is longer than the schedule");
    if (step < s.warmup) return float(double(s.peak) * double(step + 1) / double(s.warmup));
    if (step >= s.total) return s.floor;
    constexpr double kPi = 3.141592653589793;
    const double x = double(step - s.warmup) / double(s.total - s.warmup);
    return float(double(s.floor) + (double(s.peak) - double(s.floor)) * 0.5 * (1.0 + std::cos(kPi * x)));
}

// ---- Trainer ----------------------------------------------------------------------------

namespace {
ModelConfig for_task(const TrainerConfig& c) {
    const TaskInfo info = task_info(c.task);
    ModelConfig m = c.model;
    m.vocab_in = info.vocab_in;
    m.vocab_out = info.vocab_out;
    m.max_len = info.max_len;
    return m;
}
const TrainerConfig& checked(const TrainerConfig& c) {
    check_range("trainer", "batch", c.batch, limits::batch);
    check_range("trainer", "eval_size", c.eval_size, limits::eval_size);
    return c;
}
}  // namespace

Trainer::Trainer(const TrainerConfig& config)
    : config_(checked(config)),
      info_(task_info(config.task)),
      model_(for_task(config)),
      adam_(config.adam),
      held_out_(held_out_batch(config.task, config.eval_size)) {
    config_.model = model_.config();
}

StepStats Trainer::step() {
    const std::uint64_t seed = config_.model.seed, t = adam_.steps();
    const Batch b = training_batch(config_.task, config_.batch, combine(seed, 2 * t));
    StepStats s;
    s.batch = model_.loss_and_grad(b, true, combine(seed, 2 * t + 1));
    adam_.step(model_.params());
    s.step = adam_.steps();
    return s;
}

LossStats Trainer::evaluate() const { return model_.evaluate(held_out_); }

Trainer::ProbeResult Trainer::probe(const std::vector<int>& tokens) const {
    if (tokens.size() < info_.min_len || tokens.size() > info_.max_len)
        throw ValueError(info_.name + ": give " + std::to_string(info_.min_len) + " to " +
                         std::to_string(info_.max_len) + " tokens, got " + std::to_string(tokens.size()));
    std::vector<int> seq = tokens;
    task_targets(config_.task, seq);  // validates
    if (config_.task == Task::Sort && seq.size() == info_.min_len) {
        // Greedy completion: the separator, then the model's own next sorted digit.
        seq.push_back(info_.separator);
        while (seq.size() < info_.seq_len) seq.push_back(model_.probe(seq).predictions.back());
    }
    ProbeResult r;
    r.targets = task_targets(config_.task, seq);
    r.parts = task_parts(config_.task, seq);
    const std::size_t first_row =
        info_.offsets.empty() ? 0 : std::size_t(*std::max_element(info_.offsets.begin(), info_.offsets.end()));
    r.probe = model_.probe(seq, first_row);
    return r;
}

}  // namespace attn

// GPT-2 and BERT forward passes, loss, ablation (pretrained.hpp).
#include <algorithm>
#include <cmath>

#include "attn/pretrained.hpp"
#include "kernels/gemm.hpp"
#include "kernels/softmax.hpp"

namespace attn::pretrained {

namespace {

[[noreturn]] void bad_input(const std::string& detail) { throw CheckpointError("input", "", "", detail); }

void check_tokens(const Config& c, const std::vector<int>& tokens, const std::vector<int>& types) {
    if (tokens.empty()) bad_input("the sequence is empty: give at least one token");
    if (tokens.size() > c.positions)
        bad_input("the sequence has " + std::to_string(tokens.size()) + " tokens, more than the model's " +
                  std::to_string(c.positions) + " positions");
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i] < 0 || std::size_t(tokens[i]) >= c.vocab)
            bad_input("token " + std::to_string(i) + " is the id " + std::to_string(tokens[i]) +
                      ", outside the vocabulary's 0.." + std::to_string(c.vocab - 1));
    if (c.arch == Architecture::BERT && !types.empty()) {
        if (types.size() != tokens.size())
            bad_input(std::to_string(types.size()) + " token types for " + std::to_string(tokens.size()) + " tokens");
        for (std::size_t i = 0; i < types.size(); ++i)
            if (types[i] < 0 || std::size_t(types[i]) >= c.type_vocab)
                bad_input("token type " + std::to_string(i) + " is " + std::to_string(types[i]) + ", outside 0.." +
                          std::to_string(c.type_vocab - 1));
    }
}

// y += b on every row.
void add_bias(Matrix& y, const Matrix& b) {
    for (std::size_t i = 0; i < y.rows(); ++i) kernels::add(y.row(i), b.data(), y.row(i), y.cols());
}

// X·W + b, W [in, out] (Conv1D).
Matrix linear_io(ConstMatrixView X, const Matrix& W, const Matrix& b) {
    Matrix y(X.rows(), W.cols());
    kernels::gemm_nn(X, W.view(), y.view());
    add_bias(y, b);
    return y;
}
// X·Wᵀ + b, W [out, in] (nn.Linear).
Matrix linear_oi(ConstMatrixView X, const Matrix& W, const Matrix& b) {
    Matrix y(X.rows(), W.rows());
    kernels::gemm_nt(X, W.view(), y.view());
    if (!b.empty()) add_bias(y, b);
    return y;
}

void layer_norm(const float* x, const Matrix& g, const Matrix& b, double eps, float* y, std::size_t d) {
    double mean = 0;
    for (std::size_t j = 0; j < d; ++j) mean += x[j];
    mean /= double(d);
    double var = 0;
    for (std::size_t j = 0; j < d; ++j) var += (x[j] - mean) * (x[j] - mean);
    var /= double(d);
    const double inv = 1.0 / std::sqrt(var + eps);
    const float* gp = g.data();
    const float* bp = b.data();
    for (std::size_t j = 0; j < d; ++j) y[j] = float((x[j] - mean) * inv) * gp[j] + bp[j];
}
Matrix layer_norm(const Matrix& X, const Matrix& g, const Matrix& b, double eps) {
    Matrix y(X.rows(), X.cols());
    for (std::size_t i = 0; i < X.rows(); ++i) layer_norm(X.row(i), g, b, eps, y.row(i), X.cols());
    return y;
}

// GELU and ReLU in place. The tanh and erf are xsimd's vector ones (in the build for engines
// without SIMD, the scalar stand-in has none: std::tanh and std::erf there).
void activate(Matrix& m, Activation a) {
    float* p = m.data();
    const std::size_t n = m.size();
    std::size_t k = 0;
    using kernels::batch;
    switch (a) {
    case Activation::GeluTanh: {
        const float c = std::sqrt(2.0f / 3.14159265358979323846f);
#if !defined(ATTN_SCALAR)
        const batch vc(c), vk(0.044715f), half(0.5f), one(1.0f);
        for (; k + kernels::kLanes <= n; k += kernels::kLanes) {
            const batch x = batch::load_unaligned(p + k);
            (half * x * (one + xsimd::tanh(vc * (x + vk * x * x * x)))).store_unaligned(p + k);
        }
#endif
        for (; k < n; ++k) {
            const float x = p[k];
            p[k] = 0.5f * x * (1.0f + std::tanh(c * (x + 0.044715f * x * x * x)));
        }
        return;
    }
    case Activation::GeluErf: {
        const float r = 0.70710678118654752f;
#if !defined(ATTN_SCALAR)
        const batch vr(r), half(0.5f), one(1.0f);
        for (; k + kernels::kLanes <= n; k += kernels::kLanes) {
            const batch x = batch::load_unaligned(p + k);
            (half * x * (one + xsimd::erf(x * vr))).store_unaligned(p + k);
        }
#endif
        for (; k < n; ++k) p[k] = 0.5f * p[k] * (1.0f + std::erf(p[k] * r));
        return;
    }
    case Activation::Relu:
        for (; k < n; ++k) p[k] = p[k] > 0.0f ? p[k] : 0.0f;
        return;
    }
}

// One run over a stack of S sequences of T tokens each (X: S·T rows): the products run on the
// whole stack, attention within each sequence; out (S results, or null) keeps the weights.
struct Run {
    const Model& model;
    const ForwardOptions& o;
    ForwardResult* out;  // out[s]: sequence s's weights and value norms (null: not kept)
    std::size_t T;       // tokens per sequence
    // Ablation of one layer's heads side by side: in layer zero_layer, sequence s has head
    // zero_first + s zeroed.
    std::size_t zero_layer = std::size_t(-1), zero_first = 0;
};

Matrix embed(const Model& m, const std::vector<int>& tokens, const std::vector<int>& types, std::size_t T) {
    const Config& c = m.config;
    const Weights& w = m.weights;
    const std::size_t N = tokens.size(), d = c.d_model;
    Matrix X(N, d);
    for (std::size_t t = 0; t < N; ++t) {
        float* x = X.row(t);
        kernels::add(w.tok_emb.row(std::size_t(tokens[t])), w.pos_emb.row(t % T), x, d);
        if (c.arch == Architecture::BERT)
            kernels::add(x, w.type_emb.row(types.empty() ? 0 : std::size_t(types[t])), x, d);
    }
    if (c.arch == Architecture::BERT) X = layer_norm(X, w.emb_ln_g, w.emb_ln_b, c.layer_norm_eps);
    return X;
}

// The attention of one layer: concat(O_i) (S·T x d), P kept in `out`, zeroed heads left 0.
Matrix heads(const Run& r, std::size_t l, ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V) {
    const Config& c = r.model.config;
    const std::size_t T = r.T, S = Q.rows() / T, H = c.heads, dk = c.d_k(), d = c.d_model;
    const bool causal = c.arch == Architecture::GPT2;
    const float scale = 1.0f / std::sqrt(float(dk));
    Matrix concat(Q.rows(), d);
    const bool keep = r.out && r.o.keep_weights;
    // Sequence s's rows of columns c0 .. c0 + d_k − 1.
    auto block = [&](ConstMatrixView M, std::size_t s, std::size_t c0) {
        return ConstMatrixView(M.row(s * T) + c0, T, dk, M.stride());
    };
    for (std::size_t s = 0; s < S; ++s) {
        if (keep) r.out[s].weights[l].resize(H);
        for (std::size_t h = 0; h < H; ++h) {
            const bool zero = (!r.o.zeroed.empty() && r.o.zeroed[l * H + h]) || (l == r.zero_layer && r.zero_first + s == h);
            if (zero && !keep) continue;
            Matrix Sc(T, T), P(T, T);
            kernels::gemm_nt(block(Q, s, h * dk), block(K, s, h * dk), Sc.view(), scale);
            kernels::masked_softmax_rows(Sc, P, static_cast<const Matrix*>(nullptr), causal);
            if (!zero) kernels::gemm_nn(P.view(), block(V, s, h * dk), MatrixView(concat.row(s * T) + h * dk, T, dk, d));
            if (keep) r.out[s].weights[l][h] = std::move(P);
        }
    }
    return concat;
}

// ‖v_j^i W_O^i‖ of layer l's heads.
// (forward() of one sequence only.)
void value_norms(const Run& r, std::size_t l, ConstMatrixView V) {
    const Config& c = r.model.config;
    const LayerWeights& L = r.model.weights.layers[l];
    const std::size_t T = V.rows(), H = c.heads, dk = c.d_k(), d = c.d_model;
    auto& dst = r.out[0].value_norm[l];
    dst.assign(H, std::vector<double>(T, 0.0));
    for (std::size_t h = 0; h < H; ++h) {
        Matrix f(T, d);
        if (c.arch == Architecture::GPT2)  // c_proj [in, out]: head h's input rows
            kernels::gemm_nn(V.cols_block(h * dk, dk), ConstMatrixView(L.proj.row(h * dk), dk, d, d), f.view());
        else  // dense [out, in]: head h's input columns
            kernels::gemm_nt(V.cols_block(h * dk, dk), L.proj.cols_block(h * dk, dk), f.view());
        for (std::size_t j = 0; j < T; ++j) {
            double s = 0;
            for (std::size_t k = 0; k < d; ++k) s += double(f(j, k)) * f(j, k);
            dst[h][j] = std::sqrt(s);
        }
    }
}

void layer(const Run& r, std::size_t l, Matrix& X) {
    const Config& c = r.model.config;
    const LayerWeights& L = r.model.weights.layers[l];
    const std::size_t d = c.d_model;
    const double eps = c.layer_norm_eps;
    if (c.arch == Architecture::GPT2) {
        const Matrix A = layer_norm(X, L.ln1_g, L.ln1_b, eps);
        const Matrix qkv = linear_io(A, L.qkv, L.qkv_b);
        const ConstMatrixView Q = qkv.cols_block(0, d), K = qkv.cols_block(d, d), V = qkv.cols_block(2 * d, d);
        const Matrix concat = heads(r, l, Q, K, V);
        if (r.out && r.o.value_norms) value_norms(r, l, V);
        Matrix a = linear_io(concat, L.proj, L.proj_b);
        kernels::add(X.data(), a.data(), X.data(), X.size());
        const Matrix M = layer_norm(X, L.ln2_g, L.ln2_b, eps);
        Matrix hdn = linear_io(M, L.fc, L.fc_b);
        activate(hdn, c.activation);
        const Matrix o = linear_io(hdn, L.out, L.out_b);
        kernels::add(X.data(), o.data(), X.data(), X.size());
    } else {
        const Matrix Q = linear_oi(X, L.q, L.q_b), K = linear_oi(X, L.k, L.k_b), V = linear_oi(X, L.v, L.v_b);
        const Matrix concat = heads(r, l, Q, K, V);
        if (r.out && r.o.value_norms) value_norms(r, l, V);
        Matrix a = linear_oi(concat, L.proj, L.proj_b);
        kernels::add(X.data(), a.data(), a.data(), X.size());
        X = layer_norm(a, L.ln1_g, L.ln1_b, eps);
        Matrix hdn = linear_oi(X, L.fc, L.fc_b);
        activate(hdn, c.activation);
        Matrix o = linear_oi(hdn, L.out, L.out_b);
        kernels::add(X.data(), o.data(), o.data(), X.size());
        X = layer_norm(o, L.ln2_g, L.ln2_b, eps);
    }
}

Matrix final_hidden(const Model& m, Matrix X) {
    if (m.config.arch == Architecture::GPT2) return layer_norm(X, m.weights.lnf_g, m.weights.lnf_b, m.config.layer_norm_eps);
    return X;
}

Matrix logits_of(const Model& m, const Matrix& hidden) {
    const Weights& w = m.weights;
    if (m.config.arch == Architecture::GPT2) return linear_oi(hidden, w.lm_head.empty() ? w.tok_emb : w.lm_head, Matrix());
    if (!w.has_mlm_head)
        throw CheckpointError("missing", "", "cls.predictions.transform.dense.weight",
                              "this BERT checkpoint has no masked-LM head (cls.predictions.*), so it predicts no tokens: "
                              "open the checkpoint saved from BertForMaskedLM / BertForPreTraining (bert-base-uncased's "
                              "model.safetensors has it)");
    Matrix t = linear_oi(hidden, w.mlm_dense, w.mlm_dense_b);
    activate(t, m.config.activation);
    t = layer_norm(t, w.mlm_ln_g, w.mlm_ln_b, m.config.layer_norm_eps);
    return linear_oi(t, w.mlm_decoder.empty() ? w.tok_emb : w.mlm_decoder, w.mlm_bias);
}

void check_zeroed(const Config& c, const std::vector<bool>& zeroed) {
    if (!zeroed.empty() && zeroed.size() != c.layers * c.heads)
        bad_input("zeroed has " + std::to_string(zeroed.size()) + " flags, not layers x heads = " +
                  std::to_string(c.layers * c.heads));
}

}  // namespace

std::vector<ForwardResult> forward_batch(const Model& model, const std::vector<std::vector<int>>& sequences,
                                         const ForwardOptions& o) {
    const Config& c = model.config;
    if (sequences.empty()) bad_input("forward_batch: no sequence");
    const std::size_t T = sequences[0].size(), S = sequences.size();
    std::vector<int> stack, types;
    for (const auto& seq : sequences) {
        if (seq.size() != T)
            bad_input("forward_batch: sequences of " + std::to_string(T) + " and " + std::to_string(seq.size()) +
                      " tokens (a batch is of one length)");
        check_tokens(c, seq, o.token_types);
        stack.insert(stack.end(), seq.begin(), seq.end());
        if (!o.token_types.empty()) types.insert(types.end(), o.token_types.begin(), o.token_types.end());
    }
    check_zeroed(c, o.zeroed);
    if (o.value_norms && S != 1) bad_input("forward_batch: value norms are computed for one sequence at a time");
    std::vector<ForwardResult> res(S);
    for (std::size_t s = 0; s < S; ++s) {
        res[s].tokens = sequences[s];
        if (o.keep_weights) res[s].weights.resize(c.layers);
        if (o.value_norms) res[s].value_norm.resize(c.layers);
    }
    const Run r{model, o, res.data(), T};
    Matrix X = embed(model, stack, types, T);
    for (std::size_t l = 0; l < c.layers; ++l) layer(r, l, X);
    const Matrix hidden = final_hidden(model, std::move(X));
    Matrix logits;
    if (o.logits) logits = logits_of(model, hidden);
    for (std::size_t s = 0; s < S; ++s) {
        res[s].hidden = Matrix(ConstMatrixView(hidden.row(s * T), T, hidden.cols(), hidden.cols()));
        if (o.logits) res[s].logits = Matrix(ConstMatrixView(logits.row(s * T), T, logits.cols(), logits.cols()));
    }
    return res;
}

ForwardResult forward(const Model& model, const std::vector<int>& tokens, const ForwardOptions& o) {
    check_tokens(model.config, tokens, o.token_types);
    return std::move(forward_batch(model, {tokens}, o)[0]);
}

Matrix rollout(const ForwardResult& result) {
    if (result.weights.empty() || result.weights[0].empty())
        throw ValueError("rollout: the forward kept no attention weights (keep_weights)");
    Probe p;
    p.weights = result.weights;
    return attention_rollout(p);
}

Loss token_loss(ConstMatrixView logits, const std::vector<int>& targets) {
    if (targets.size() != logits.rows())
        bad_input(std::to_string(targets.size()) + " targets for " + std::to_string(logits.rows()) + " rows of logits");
    Loss L;
    const std::size_t V = logits.cols();
    for (std::size_t i = 0; i < targets.size(); ++i) {
        if (targets[i] < 0) continue;
        if (std::size_t(targets[i]) >= V)
            bad_input("target " + std::to_string(i) + " is the id " + std::to_string(targets[i]) + ", outside 0.." +
                      std::to_string(V - 1));
        const float* z = logits.row(i);
        double m = z[0];
        for (std::size_t j = 1; j < V; ++j) m = std::max(m, double(z[j]));
        double s = 0;
        for (std::size_t j = 0; j < V; ++j) s += std::exp(double(z[j]) - m);
        L.nats += -(double(z[targets[i]]) - m - std::log(s));
        ++L.scored;
    }
    return L;
}

std::vector<int> next_token_targets(const std::vector<int>& tokens) {
    std::vector<int> t(tokens.size(), -1);
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) t[i] = tokens[i + 1];
    return t;
}

MaskedInput mask_tokens(const std::vector<int>& tokens, const std::vector<std::size_t>& positions, int mask_id) {
    MaskedInput m{tokens, std::vector<int>(tokens.size(), -1)};
    for (std::size_t p : positions) {
        if (p >= tokens.size())
            bad_input("masked position " + std::to_string(p) + " is outside the " + std::to_string(tokens.size()) + " tokens");
        if (m.targets[p] >= 0) bad_input("position " + std::to_string(p) + " is masked twice");
        m.targets[p] = tokens[p];
        m.tokens[p] = mask_id;
    }
    return m;
}

Loss loss(const Model& model, const std::vector<int>& tokens, const std::vector<int>& targets,
          const std::vector<bool>& zeroed, const std::vector<int>& token_types) {
    ForwardOptions o;
    o.keep_weights = false;
    o.logits = true;
    o.zeroed = zeroed;
    o.token_types = token_types;
    const ForwardResult r = forward(model, tokens, o);
    return token_loss(r.logits, targets);
}

AblationReport ablate_heads(const Model& model, const std::vector<int>& tokens, const std::vector<int>& targets,
                            const std::vector<int>& token_types,
                            const std::function<void(std::size_t, std::size_t)>& progress) {
    return ablate_range(model, tokens, targets, 0, model.config.layers * model.config.heads, nullptr, token_types,
                        progress);
}

AblationReport ablate_range(const Model& model, const std::vector<int>& tokens, const std::vector<int>& targets,
                            std::size_t first_head, std::size_t end_head, const Loss* base,
                            const std::vector<int>& token_types,
                            const std::function<void(std::size_t, std::size_t)>& progress) {
    const Config& c = model.config;
    check_tokens(c, tokens, token_types);
    if (targets.size() != tokens.size())
        bad_input(std::to_string(targets.size()) + " targets for " + std::to_string(tokens.size()) + " tokens");
    if (first_head > end_head || end_head > c.layers * c.heads)
        bad_input("heads " + std::to_string(first_head) + ".." + std::to_string(end_head) + " of a model of " +
                  std::to_string(c.layers * c.heads));
    const std::size_t first_layer = first_head / c.heads;
    const std::size_t end_layer = end_head == first_head ? first_layer : (end_head - 1) / c.heads + 1;
    // The clean run, the input of every layer up to end_layer − 1 kept (all the way up when
    // the base loss is to be computed).
    ForwardOptions o;
    o.keep_weights = false;
    o.token_types = token_types;
    std::vector<Matrix> inputs(c.layers);
    {
        const Run r{model, o, nullptr, tokens.size()};
        Matrix X = embed(model, tokens, token_types, tokens.size());
        const std::size_t clean = base ? end_layer : c.layers;
        for (std::size_t l = 0; l < clean; ++l) {
            inputs[l] = X;
            if (base && l + 1 == clean) break;  // its input is all the pieces need
            layer(r, l, X);
        }
        AblationReport rep;
        rep.base = base ? *base : token_loss(logits_of(model, final_hidden(model, std::move(X))), targets);
        const std::size_t T = tokens.size(), H = c.heads, d = c.d_model;
        const std::size_t total = end_head - first_head;
        // The heads of layer l side by side: copies of the layer's input, copy s with head
        // h0 + s zeroed, one stack through the layers above and the head (at most kAblationRows
        // rows at a time: the stack's logits are rows x V floats).
        constexpr std::size_t kAblationRows = 256;
        const std::size_t group = std::max<std::size_t>(1, std::min(H, kAblationRows / T));
        for (std::size_t l = first_layer; l < end_layer; ++l) {
            const std::size_t from = std::max(first_head, l * H) - l * H, to = std::min(end_head, (l + 1) * H) - l * H;
            for (std::size_t h0 = from; h0 < to; h0 += group) {
                const std::size_t g = std::min(group, to - h0);
                Run rz{model, o, nullptr, T};
                rz.zero_layer = l;
                rz.zero_first = h0;
                Matrix Y(g * T, d);
                for (std::size_t s = 0; s < g; ++s) std::copy_n(inputs[l].data(), T * d, Y.row(s * T));
                for (std::size_t k = l; k < c.layers; ++k) layer(rz, k, Y);
                const Matrix logits = logits_of(model, final_hidden(model, std::move(Y)));
                for (std::size_t s = 0; s < g; ++s) {
                    HeadAblation a;
                    a.layer = l;
                    a.head = h0 + s;
                    a.loss = token_loss(ConstMatrixView(logits.row(s * T), T, logits.cols(), logits.cols()), targets);
                    a.delta = a.loss.loss() - rep.base.loss();
                    rep.heads.push_back(a);
                }
                if (progress) progress(rep.heads.size(), total);
            }
        }
        return rep;
    }
}

}  // namespace attn::pretrained

// A tiny decoder-only Transformer that trains in seconds, for the live-training chapter,
// with the toy tasks it learns, the Adam optimiser and a Trainer that ties them together.
//
// Model (Vaswani et al. 2017, §3; layer normalisation optional, as pre-LN: Xiong et al.
// 2020, "On Layer Normalization in the Transformer Architecture"; the toy tasks' 1–2
// layer models train without it, the text model with it, see docs/text-model.md):
//
//   x⁰ = E[tokens] + PE                       E: V_in x d_model, PE sinusoidal (§3.5), optional
//   for each layer ℓ:
//     a = LN₁(x)  (a = x without LayerNorm)   LN(x) = g ⊙ (x − μ)/√(σ² + ε) + b per row (grad.hpp)
//     q = a Wq, k = a Wk, v = a Wv            Wq, Wk: d_model x (h·d_k), Wv: d_model x (h·d_v)
//     head i of sequence b: Oᵢ = dropout(softmax(s · qᵢ kᵢᵀ + M)) vᵢ
//                                             causal M; s = 1/√d_k, or 1 with the scale off
//     x ← x + Concat(O₁..O_h) Wo              Wo: (h·d_v) x d_model, d_v = d_model / h
//                                             unless ModelConfig::d_v sets it
//     x ← x + relu(LN₂(x) W1 + b1) W2 + b2    optional MLP, hidden width mlp_hidden
//   logits = LN_f(x) Wout + bout              Wout: d_model x V_out
//   L = mean cross-entropy over the scored positions (targets −1 are not scored)
//
// Shapes: a Batch holds B sequences of T tokens, row-major (row b·T + t is token t of
// sequence b); every activation is (B·T) x width. Attention never crosses sequences.
//
// Initialisation (seeded by ModelConfig::seed through attn::random_normal, so the same
// seed gives the same model natively and in WebAssembly): E ~ N(0, 1); Wq, Wk, Wv, Wo,
// Wout ~ N(0, 1/d_model) (so each entry of q and k has variance ≈ that of x, ≈ 1.5 with
// the positional encoding: the scores' spread then grows like √d_k, as in the document);
// W1 ~ N(0, 2/d_model), W2 ~ N(0, 1/mlp_hidden); biases 0; LayerNorm gains 1, biases 0.
//
// Adam (Kingma & Ba 2015, Algorithm 1, with bias correction):
//   m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  θ ← θ − lr · m̂ / (√v̂ + ε),
//   m̂ = m / (1−β₁ᵗ), v̂ = v / (1−β₂ᵗ).
//
// Determinism: batches, dropout masks and initial weights all come from counter-based
// hashes of (seed, step, ...), so a seed names one training run on every platform up to
// floating-point differences between instruction sets (FMA vs not).
//
// Errors: ValueError for a zero width, heads not dividing d_model, layers outside 1..4,
// a dropout rate outside [0, 1), a sequence longer than the model's max_len, a token
// outside the vocabulary, a malformed task input (with a message saying what is wrong);
// ShapeError for mismatched batches.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "attn/grad.hpp"

namespace attn {

// ---- tasks --------------------------------------------------------------------------------

enum class Task {
    PreviousToken,  // target at position i is the token at i−1 (10 digits, T = 8)
    TwoRelations,   // target at i is the pair (token at i−3, token at i−1) read as a
                    // two-digit number 0..99, e.g. 4 x 7 -> 47 (T = 8; the token at i−2
                    // does not count: two offsets that are not neighbours, see docs/training.md)
    Sort,           // 5 distinct digits, a separator, then the same digits sorted; at the
                    // separator and at each sorted digit the target is the next sorted digit
                    // (T = 11, vocabulary 10 digits + separator)
    Induction,      // p + L random letters of 26, drawn independently (L uniform in 3..11, a
                    // prefix of p uniform in 0..22 − 2L), the last L of them again, then padding
                    // "·" (token 26, the `separator`) up to T = 22; the target at i is the token at
                    // i + 1, up to the padding. Only content finds the answer in the repeated
                    // half: where the repeat starts and its offset L change from sequence to
                    // sequence, so no fixed position does (a one-layer model cannot solve it;
                    // two layers can: a first-layer previous-token head writes each token's
                    // predecessor into its position, and a second-layer induction head whose
                    // keys read it (K-composition) attends to the position after the current
                    // token's earlier occurrence: Olsson et al. 2022, Elhage et al. 2021; with
                    // distinct letters layer 1 learns a duplicate-token head instead, see
                    // docs/training.md). Parts: "first" and
                    // "repeated" (task_parts).
};

struct TaskInfo {
    Task task{};
    std::string name;                       // "previous-token", "two-relations", "sort"
    std::size_t vocab_in = 0, vocab_out = 0, seq_len = 0;
    std::size_t min_len = 0, max_len = 0;   // lengths accepted by Trainer::probe
    int separator = -1;                     // sort: token id of the separator; induction: of the padding
    // The positions the answer at i is read from, as offsets i − j: {1} for previous-token,
    // {1, 3} for two-relations; empty for sort (its answer is found by content).
    std::vector<int> offsets;
    std::vector<int> probe;                 // the fixed probe sequence shown while training
    std::vector<std::string> token_labels;  // one per input token id ("0".."9", "|")
    std::vector<std::string> output_labels; // one per class
    // The parts scored positions fall in (LossStats::parts), empty for a task without:
    // induction {"first", "repeated"}.
    std::vector<std::string> parts;
};

TaskInfo task_info(Task task);
// "previous-token" | "two-relations" | "sort" | "induction"; ValueError naming the choices otherwise.
Task task_from_name(const std::string& name);

struct Batch {
    std::size_t size = 0, seq_len = 0;  // B sequences of T tokens
    std::vector<int> tokens;            // B·T, row-major
    std::vector<int> targets;           // B·T class ids, −1 where the position is not scored
    // Empty, or B·T part ids (TaskInfo::parts; −1 for unscored positions): LossStats::parts
    // then holds the loss of each part (induction: the first and the repeated half).
    std::vector<int> parts;
};

// The targets of one sequence (−1 where there is nothing to predict). ValueError when the
// sequence is not an input of the task (token outside the vocabulary; for sort: not 5
// distinct digits, optionally followed by the separator and a prefix of the sorted digits).
std::vector<int> task_targets(Task task, const std::vector<int>& tokens);
// The part of each position (TaskInfo::parts), −1 where nothing is scored; empty for a
// task without parts. Induction: "repeated" (1) where the token at i occurred before, first
// at j with j + 1 < i, and the token after that occurrence is the target (what an induction
// head predicts), "first" (0) at every other scored position.
std::vector<int> task_parts(Task task, const std::vector<int>& tokens);
// Held-out split: a fixed hash of the sequence's free tokens picks about 1 sequence in 8.
// Training batches never contain a held-out sequence; the evaluation set holds only them.
bool is_held_out(Task task, const std::vector<int>& tokens);
// `size` training sequences drawn from the counter stream `seed`.
Batch training_batch(Task task, std::size_t size, std::uint64_t seed);
// `size` held-out sequences (the same for every model of the task).
Batch held_out_batch(Task task, std::size_t size);

// ---- the model ------------------------------------------------------------------------------

struct ModelConfig {
    std::size_t vocab_in = 10, vocab_out = 10;
    std::size_t max_len = 8;      // longest sequence (rows of the positional encoding)
    std::size_t d_model = 32;
    std::size_t heads = 1;
    std::size_t d_k = 64;         // per-head width of Q and K
    std::size_t d_v = 0;          // per-head width of V; 0: d_model / heads
    std::size_t layers = 1;       // 1..4
    std::size_t mlp_hidden = 0;   // 0: no MLP block
    bool positional = true;       // add the sinusoidal positional encoding
    bool scale = true;            // multiply the scores by 1/√d_k
    // Pre-LayerNorm (Xiong et al. 2020): LN before the attention and the MLP of every layer
    // and before the read-out (gain 1 and bias 0 at initialisation, ε = 1e-5); see the header.
    bool layer_norm = false;
    float dropout = 0.0f;         // attention dropout while training, in [0, 1)
    std::uint64_t seed = 1;
};

// The ranges a configuration may take (check_config, Trainer, Adam). The WebAssembly module
// exports them (wasm/model.cpp) and attn.mjs checks createModel's arguments against them.
struct Range {
    std::size_t min, max;
};
namespace limits {
inline constexpr Range vocab{1, 4096}, max_len{1, 256}, d_model{1, 512}, heads{1, 16}, d_k{1, 512}, d_v{0, 512},
    layers{1, 4}, mlp_hidden{0, 2048}, batch{1, 1024}, eval_size{1, 4096};
inline constexpr float max_lr = 10.0f;  // Adam's learning rate is in (0, max_lr]
}  // namespace limits

// Throws ValueError when the configuration is not usable (see the header comment).
void check_config(const ModelConfig& c);

template <class T>
using Mat = std::conditional_t<std::is_same_v<T, float>, Matrix, f64::MatrixD>;

template <class T>
struct Param {
    std::string name;  // "E", "layer1.Wq", ..., "Wout", "bout"
    Mat<T> value, grad;
};

struct PartStats {
    double loss = 0;          // mean cross-entropy over the part's scored positions (0 if none)
    std::size_t count = 0;    // scored positions in the part
    std::size_t correct = 0;  // of which the largest logit is the target
};

struct LossStats {
    double loss = 0;            // mean cross-entropy over the scored positions
    std::size_t count = 0;      // scored positions
    std::size_t correct = 0;    // scored positions whose largest logit is the target
    std::size_t sequences = 0;  // sequences
    std::size_t sequences_correct = 0;  // sequences with every scored position correct
    // Filled by loss_and_grad: the gradient that reaches the attention scores, summed
    // (in squares) over every head, layer and sequence of the batch.
    double grad_logits_norm = 0;  // ‖∂L/∂Z‖, Z = s·QKᵀ + M, the softmax input
    double grad_scores_norm = 0;  // ‖∂L/∂S‖, S = QKᵀ (= s·‖∂L/∂Z‖)
    std::vector<PartStats> parts;  // one per part when the batch has parts (Batch::parts)
};

// What the page shows of one sequence: every head's weights and the prediction.
template <class T>
struct ProbeT {
    std::vector<int> tokens;
    std::vector<std::vector<Mat<T>>> weights;  // [layer][head], T x T (rows = queries)
    // [layer][head]: how saturated each head is on this sequence (rows with >= 2 visible keys)
    std::vector<std::vector<double>> logit_std;        // std of the softmax inputs (visible entries)
    std::vector<std::vector<double>> mean_max_weight;  // mean over rows of the row's largest weight
    // [layer][head][o], o = 0..T−1: the mean over rows i >= max(o, first_row) of W(i, i−o),
    // the weight a head puts on the token o places back (which offset a head has taken);
    // 0 where no row qualifies. Trainer::probe sets first_row to the task's largest offset,
    // so the rows are those where every position the answer needs exists.
    std::vector<std::vector<std::vector<double>>> offset_weight;
    // [layer][head][j]: ‖v_j^h W_O^h‖, the norm of what token j hands on through head h (its
    // value row times the head's rows of W_O): attention weight × this norm is the "attention
    // × value norm" view of Kobayashi et al. 2020 (attribution.hpp, norm_weights).
    std::vector<std::vector<std::vector<double>>> value_norm;
    Mat<T> probabilities;                      // T x V_out, softmax of the logits
    std::vector<int> predictions;              // argmax per position
};

template <class T>
class TinyTransformerT {
public:
    explicit TinyTransformerT(const ModelConfig& config);
    // The same model in another precision (the gradient checks run the float model's
    // weights in double).
    template <class U>
    explicit TinyTransformerT(const TinyTransformerT<U>& other);

    const ModelConfig& config() const { return config_; }
    std::vector<Param<T>>& params() { return params_; }
    const std::vector<Param<T>>& params() const { return params_; }
    std::size_t parameter_count() const;

    // Forward in evaluation mode (no dropout): loss and accuracy on the batch. zeroed:
    // empty, or layers·heads flags (index layer·heads + head): a flagged head's output is
    // replaced by zeros before W_O (ablation: what the model loses without that head).
    LossStats evaluate(const Batch& batch, const std::vector<bool>& zeroed = {}) const;
    // Forward and backward: overwrites every parameter's grad with ∂L/∂θ for this batch.
    // training = true applies attention dropout with masks drawn from dropout_seed.
    LossStats loss_and_grad(const Batch& batch, bool training, std::uint64_t dropout_seed);
    // The loss alone, in the same mode (used by the finite-difference checks).
    double loss(const Batch& batch, bool training, std::uint64_t dropout_seed) const;
    // One sequence in evaluation mode (first_row: see ProbeT::offset_weight). zeroed: as for
    // evaluate, heads whose output is replaced by zeros before W_O; the weights of later
    // layers then show the model without them (a zeroed head's own weights are unchanged).
    ProbeT<T> probe(const std::vector<int>& tokens, std::size_t first_row = 0,
                    const std::vector<bool>& zeroed = {}) const;
    // Runs the batch once in evaluation mode and hands every head's weights to visit(b, l, h, P):
    // sequence b, layer l, head h, P the T x T weights row-major (rows = queries; 0 above
    // the diagonal). What head_roles.hpp measures head roles with.
    template <class Visit>
    void visit_weights(const Batch& batch, Visit&& visit) const {
        visit_weights_impl(batch, [&](std::size_t b, std::size_t l, std::size_t h, const T* P) { visit(b, l, h, P); });
    }

private:
    void visit_weights_impl(const Batch& batch,
                            const std::function<void(std::size_t, std::size_t, std::size_t, const T*)>& visit) const;
    struct Forward;
    Forward forward(const std::vector<int>& tokens, std::size_t B, std::size_t Tn, bool training,
                    std::uint64_t dropout_seed, const std::vector<bool>& zeroed = {}) const;
    Mat<T>& param(std::size_t i) { return params_[i].value; }
    const Mat<T>& param(std::size_t i) const { return params_[i].value; }

    ModelConfig config_;
    std::vector<Param<T>> params_;
    Mat<T> pe_;  // max_len x d_model
};

using TinyTransformer = TinyTransformerT<float>;
using TinyTransformerD = TinyTransformerT<double>;
using Probe = ProbeT<float>;

struct AdamConfig {
    float lr = 3e-3f;
    float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
};

class Adam {
public:
    explicit Adam(const AdamConfig& config);
    // One update of every parameter from its grad.
    void step(std::vector<Param<float>>& params);
    std::size_t steps() const { return t_; }
    float lr() const { return config_.lr; }
    // Changes the learning rate for the next steps (a schedule); ValueError outside (0, max_lr].
    void set_lr(float lr);

private:
    AdamConfig config_;
    std::vector<Matrix> m_, v_;
    std::size_t t_ = 0;
};

// A learning-rate schedule: linear warm-up (Goyal et al. 2017, §2.2), then a cosine decay
// to `floor` (Loshchilov & Hutter 2017, SGDR, one cycle without restarts):
//   lr(t) = peak · (t + 1) / warmup                                           t < warmup
//   lr(t) = floor + (peak − floor) · (1 + cos(π (t − warmup) / (total − warmup))) / 2
//                                                                             warmup ≤ t < total
//   lr(t) = floor                                                             t ≥ total
// t counts steps from 0. ValueError when peak or floor is outside (0, max_lr], floor > peak
// or warmup > total.
struct LrSchedule {
    float peak = 3e-3f, floor = 3e-4f;
    std::size_t warmup = 0, total = 1;
};
float scheduled_lr(const LrSchedule& schedule, std::size_t step);

// ---- training a model on a task -----------------------------------------------------------

struct TrainerConfig {
    Task task = Task::PreviousToken;
    // vocab_in, vocab_out and max_len are taken from the task.
    ModelConfig model;
    AdamConfig adam;
    std::size_t batch = 32;      // sequences per step, 1..1024
    std::size_t eval_size = 256; // held-out sequences, 1..4096
};

struct StepStats {
    std::size_t step = 0;  // steps done after this one
    LossStats batch;       // on this step's training batch, before the update
};

class Trainer {
public:
    explicit Trainer(const TrainerConfig& config);
    const TrainerConfig& config() const { return config_; }
    const TaskInfo& task() const { return info_; }
    const TinyTransformer& model() const { return model_; }
    std::size_t steps() const { return adam_.steps(); }

    // One Adam step on a fresh training batch (batch seed and dropout seed derived from
    // the model's seed and the step number).
    StepStats step();
    // Loss and accuracy on the held-out set.
    LossStats evaluate() const;
    // The model on one sequence of the task, with the task's targets. For sort, five
    // digits alone are completed greedily: the separator is appended, then the model's
    // own prediction, one token at a time.
    struct ProbeResult {
        Probe probe;
        std::vector<int> targets;
        std::vector<int> parts;  // task_parts (empty for a task without parts)
    };
    ProbeResult probe(const std::vector<int>& tokens) const;

private:
    TrainerConfig config_;
    TaskInfo info_;
    TinyTransformer model_;
    Adam adam_;
    Batch held_out_;
};

}  // namespace attn

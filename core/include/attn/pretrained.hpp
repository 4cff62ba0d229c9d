// The forward passes of a pretrained GPT-2 or BERT checkpoint (checkpoint.hpp loads it), on
// the core's kernels (the packed GEMM, the row softmax and its causal rule), every head's
// attention weights kept; the next-token (GPT-2) and masked-token (BERT) loss; ablation of
// every head; measured head roles.
//
// GPT-2 (Radford et al. 2019, the code of openai/gpt-2 `model.py`; pre-LayerNorm as in §2.3),
// tokens x_0..x_{T−1}, d = d_model, h heads of d_k = d / h:
//   X = wte[x] + wpe[0..T−1]                                            T x d
//   per layer: A = LN_1(X); [Q K V] = A·W_attn + b_attn (W_attn [d, 3d], Conv1D [in, out])
//              head i: P_i = softmax(Q_i K_iᵀ / √d_k + causal mask)     T x T (rows = queries)
//                      O_i = P_i V_i                                    T x d_k
//              X += concat(O_1..O_h)·W_proj + b_proj
//              X += GELU_tanh(LN_2(X)·W_fc + b_fc)·W_out + b_out
//   hidden = LN_f(X)                        T x d   (Hugging Face's last_hidden_state)
//   logits = hidden · wteᵀ (lm_head.weight when stored)                 T x V
//   GELU_tanh(x) = ½x(1 + tanh(√(2/π)(x + 0.044715x³))) (Hendrycks & Gimpel 2016).
// BERT (Devlin et al. 2019, post-LayerNorm as Vaswani et al. 2017):
//   X = LN_emb(word[x] + position[0..T−1] + token_type[types])
//   per layer: Q = X W_qᵀ + b_q, K, V likewise (nn.Linear [out, in]); P_i = softmax(Q_i K_iᵀ / √d_k)
//              (bidirectional: no mask, one sequence, no padding)
//              X = LN_1(X + concat(O)·W_oᵀ + b_o);  X = LN_2(X + GELU(X W_fcᵀ + b_fc) W_outᵀ + b_out)
//   hidden = X; masked-LM logits = LN_mlm(GELU(X W_dᵀ + b_d)) · decoderᵀ + bias (decoder = the
//   word embeddings when not stored), GELU(x) = ½x(1 + erf(x/√2)) (or what hidden_act says).
// LN(x) = (x − mean) / √(var + ε) · γ + β over each row's d entries (var: the biased variance).
//
// Ablation (Michel et al. 2019, "Are Sixteen Heads Really Better than One?"; the "zero
// ablation" of head i): O_i is set to 0 before the output projection, nothing else changes.
// Head roles: head_roles.hpp's scores and thresholds (add_pattern_scores, add_induction_score,
// RoleOptions), on the learner's text (patterns) and on repeated random tokens of the model's
// own vocabulary (induction, Olsson et al. 2022; duplicate-token, Wang et al. 2022,
// "Interpretability in the Wild", §3), see RealRoleOptions.
//
// Errors: CheckpointError "input" for an empty sequence, a token id outside 0..vocab−1, a
// token type outside 0..type_vocab−1, more tokens than the model's positions, a `zeroed`
// list of the wrong size; "missing" for a loss that needs a head the checkpoint lacks
// (BERT without cls.predictions.*).
//
// Cost of one forward, T tokens: per layer the four projections and the MLP, 2·T·(4d² + 2d·f)
// FLOPs, and the heads' 4·T²·d; 2·T·V·d more for the logits (computed only when asked: the
// heads' view does not need them). GPT-2 small, T = 16: 2.7 GFLOP, +1.2 with logits.
// Memory: the weights, T x 3d and T x f activations, and with keep_weights layers·heads·T²
// floats (GPT-2 small: 147 KB at T = 16, 604 MB at T = 1024).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attn/checkpoint.hpp"
#include "attn/attribution.hpp"
#include "attn/head_roles.hpp"
#include "attn/matrix.hpp"

namespace attn::pretrained {

struct ForwardOptions {
    bool keep_weights = true;   // every layer x head P (T x T)
    bool logits = false;        // the LM / masked-LM head's T x V logits
    bool value_norms = false;   // ‖v_j^i W_O^i‖ per layer, head, token (Kobayashi et al. 2020)
    // layers·heads flags (head i of layer l at l·heads + i): O_i zeroed. Empty: none.
    std::vector<bool> zeroed;
    // BERT's token types (T entries), empty: all 0. Ignored by GPT-2.
    std::vector<int> token_types;
};

struct ForwardResult {
    std::vector<int> tokens;
    std::vector<std::vector<Matrix>> weights;                    // [layer][head], T x T
    std::vector<std::vector<std::vector<double>>> value_norm;    // [layer][head][j]
    Matrix hidden;                                               // T x d_model
    Matrix logits;                                               // T x vocab (when asked)
};

ForwardResult forward(const Model& model, const std::vector<int>& tokens, const ForwardOptions& options = {});
// Several sequences of one length at once: their rows stacked, so every weight product runs
// once for all of them (faster per token than one forward each: the products read and pack
// each weight once per call); attention stays within each sequence, and each result is what
// forward() gives it, up to rounding. value_norms only for one sequence; token_types, when
// given, apply to every sequence. CheckpointError "input" for sequences of different lengths.
std::vector<ForwardResult> forward_batch(const Model& model, const std::vector<std::vector<int>>& sequences,
                                         const ForwardOptions& options = {});

// Attention rollout (attribution.hpp's attention_rollout, Abnar & Zuidema 2020) of a result's
// weights: T x T. ValueError without weights.
Matrix rollout(const ForwardResult& result);

struct Loss {
    double nats = 0;          // Σ −ln p(target) over the scored positions
    std::size_t scored = 0;   // positions scored
    double loss() const { return scored ? nats / double(scored) : 0.0; }  // nats per token
};
// The loss of logits (T x V) against targets (T entries; −1: not scored), log-softmax in double.
Loss token_loss(ConstMatrixView logits, const std::vector<int>& targets);
// GPT-2's next-token targets: targets[i] = tokens[i + 1], −1 at the last position.
std::vector<int> next_token_targets(const std::vector<int>& tokens);
// BERT's masked input: the tokens with mask_id at `positions` (each in 0..T−1, once), and
// targets holding the original token there, −1 elsewhere.
struct MaskedInput {
    std::vector<int> tokens, targets;
};
MaskedInput mask_tokens(const std::vector<int>& tokens, const std::vector<std::size_t>& positions, int mask_id);
// One forward, its loss (targets as token_loss; zeroed and token types as ForwardOptions).
Loss loss(const Model& model, const std::vector<int>& tokens, const std::vector<int>& targets,
          const std::vector<bool>& zeroed = {}, const std::vector<int>& token_types = {});

struct HeadAblation {
    std::size_t layer = 0, head = 0;
    Loss loss;
    double delta = 0;  // loss.loss() − the base loss (nats per token; > 0: the head helped)
};
struct AblationReport {
    Loss base;
    std::vector<HeadAblation> heads;  // layer-major
};
// Every head zeroed in turn. The layers before the ablated one are computed once (their
// output is the same), and the heads of one layer run side by side, as one stack of rows
// (as forward_batch; at most 256 rows at a time). progress (optional): called with
// (heads done, heads total) after each stack.
AblationReport ablate_heads(const Model& model, const std::vector<int>& tokens, const std::vector<int>& targets,
                            const std::vector<int>& token_types = {},
                            const std::function<void(std::size_t, std::size_t)>& progress = {});
// The same for heads first_head..end_head−1 only (layer-major: head h of layer l is l·heads + h;
// progress counts them), so that a caller can run the ablation in pieces and stop between them
// (the page's worker: a few heads at a time, a "Stop" seen between pieces). `base`: the whole
// model's loss from an earlier piece (then the clean run stops below the last piece's layer), or
// null (computed, as above). The pieces' heads are those of one whole call, bit for bit.
AblationReport ablate_range(const Model& model, const std::vector<int>& tokens, const std::vector<int>& targets,
                            std::size_t first_head, std::size_t end_head, const Loss* base = nullptr,
                            const std::vector<int>& token_types = {},
                            const std::function<void(std::size_t, std::size_t)>& progress = {});

struct RealRoleOptions {
    // first_row, window, the four thresholds and the seed, as for the project's own model
    // (head_roles.hpp). `sequences` random sequences of `repeat_length` distinct tokens, twice:
    // [bos, r_1..r_L, r_1..r_L (, eos)].
    RoleOptions roles;
    std::size_t sequences = 4;
    std::size_t repeat_length = 16;
    // duplicate-token score: mean over the rows i whose token occurred before, first at j,
    // of P(i, j) (the head looks at the earlier copy of its own token).
    double duplicate_token = 0.3;
    // The first (and, for BERT, last) token of the random sequences: GPT-2's default is the
    // config's bos_token_id (eos_token_id, <|endoftext|>), BERT needs them given ([CLS], [SEP]).
    int bos = -1, eos = -1;
    // The ids the random tokens are drawn from (the caller leaves out special tokens);
    // empty: every id but bos, eos and the config's pad and eos ids.
    std::vector<int> pool;
};

struct RealHeadRoles {
    double previous_token = 0, first_token = 0, local = 0, induction = 0, duplicate_token = 0;
    std::vector<std::string> roles;  // every role reached, as head_roles.hpp plus "duplicate-token"
    std::string role;                // the strongest (score / threshold), "" for none
};
struct RealRoleReport {
    std::vector<std::vector<RealHeadRoles>> layers;  // [layer][head]
    std::size_t rows = 0;             // query rows of the texts the pattern scores average
    std::size_t repeat_rows = 0;      // query rows the induction score averages
    std::size_t unnamed = 0;          // heads with no nameable role
    std::vector<std::vector<int>> random_sequences;  // the sequences the induction score ran on
};
// Pattern scores on `texts` (token sequences, each ≥ first_row + 1 tokens to count), induction
// and duplicate-token scores on the random sequences. ValueError when no text row qualifies,
// the pool is smaller than repeat_length, or 2·repeat_length + 2 passes the positions.
RealRoleReport head_roles(const Model& model, const std::vector<std::vector<int>>& texts,
                          const RealRoleOptions& options = {});

}  // namespace attn::pretrained

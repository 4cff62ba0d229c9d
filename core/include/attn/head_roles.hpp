// Measured head roles and ablation: what a trained head does, measured rather than labelled
// by hand (docs/text-model.md, "Head roles"): pattern scores, the induction score, the
// roles they reach, and the loss with each head zeroed. (The attention × value norm view and
// attention rollout are attribution.hpp.)
//
// Pattern scores of one head, averaged over the query rows i ≥ first_row of every sequence
// (rows with fewer visible keys are left out: on them any head looks local, or like a sink):
//   previous_token = mean_i P(i, i−1)                          the token just before
//   first_token    = mean_i P(i, 0)                            the first token (the text
//                                                              model's <s>): an attention sink
//   local          = mean_i Σ_{j = max(0, i−w)}^{i} P(i, j)    the last w + 1 tokens, itself included
// Induction score (Olsson et al. 2022, "In-context Learning and Induction Heads", §2 and
// appendix; Elhage et al. 2021 for the two-layer circuit): on sequences whose tokens repeat,
// the mean over query rows i whose token occurred before, first at j with j + 1 < i, of
// P(i, j + 1): the weight on the token that followed the earlier occurrence. Measured on
// sequences [<s>, r_1..r_L, r_1..r_L] of L distinct random tokens (repeated_random), it is
// the mean weight from the second copy's r_k to the first copy's r_{k+1}.
//
// Roles: a head has every role whose score reaches its threshold (RoleOptions), and its
// role is the one with the largest score / threshold; a head with none has no nameable role
// (role = ""). The thresholds are set against the baseline of a head that spreads its weight
// evenly over the keys it sees: on rows 4..63 that baseline is about 0.05 on i−1 and on the
// first token and about 0.18 on the last four tokens (see docs/text-model.md).
//
// Errors: ValueError for first_row = 0, an empty batch, or a layer or head out of range in
// ablate_head.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/model.hpp"
#include "attn/text_model.hpp"

namespace attn {

struct RoleOptions {
    std::size_t first_row = 4;   // rows i ≥ first_row are averaged
    std::size_t window = 3;      // local: keys i − window .. i
    // Induction score of the text model: `sequences` sequences [<s>, L distinct random
    // tokens, the same again], L = (max_len − 1) / 2, drawn from `seed`.
    std::size_t sequences = 32;
    std::uint64_t seed = 1;
    // Thresholds of the roles.
    double previous_token = 0.4, first_token = 0.5, local = 0.7, induction = 0.3;
};

struct PatternScores {
    double previous_token = 0, first_token = 0, local = 0;
    std::size_t rows = 0;  // query rows averaged
};

struct HeadRoles {
    double previous_token = 0, first_token = 0, local = 0, induction = 0;
    std::vector<std::string> roles;  // every role reached: "previous-token", "first-token", "local", "induction"
    std::string role;                // the strongest of them, "" for none
};

struct HeadReport {
    std::vector<std::vector<HeadRoles>> layers;  // [layer][head]
    std::size_t rows = 0;                        // query rows the pattern scores average
    std::size_t induction_rows = 0;              // query rows the induction score averages
};

// One head's pattern scores on one T x T weight matrix (row-major, rows = queries): sums,
// added into `into` (divide by rows for the means: pattern_means). targets (T entries, or
// null): rows whose target is −1 (padding, nothing scored) are left out.
void add_pattern_scores(const float* P, std::size_t T, const RoleOptions& options, PatternScores& into,
                        const int* targets = nullptr);
PatternScores pattern_means(PatternScores sums);
// One head's induction sums on one sequence: adds Σ P(i, j + 1) over the qualifying rows
// to *sum and their number to *rows (P null: only counts the rows; targets as above).
void add_induction_score(const float* P, const std::vector<int>& tokens, double* sum, std::size_t* rows,
                         const int* targets = nullptr);

// [layer][head] pattern scores of a model on a batch (every sequence, evaluation mode; the
// rows whose target is scored).
std::vector<std::vector<PatternScores>> pattern_scores(const TinyTransformer& model, const Batch& batch,
                                                       const RoleOptions& options = {});
// [layer][head] induction scores of a model on a batch (rows as above; 0 where none qualifies).
std::vector<std::vector<double>> induction_scores(const TinyTransformer& model, const Batch& batch);
// Roles from the four scores and the thresholds.
void name_roles(HeadRoles& head, const RoleOptions& options);
// `count` sequences [<s>, r_1..r_L, r_1..r_L], r distinct, uniform over the ids lo..hi−1;
// targets: the next token (none at the last position).
Batch repeated_random(std::size_t count, std::size_t L, int lo, int hi, std::uint64_t seed);

// The text model's report: pattern scores on the evaluation windows of a token stream
// (text_windows), the induction score on repeated_random over the vocabulary's symbols.
HeadReport head_report(const TinyTransformer& model, const std::vector<int>& ids, const RoleOptions& options = {});
// A task model's report: pattern and induction scores on one batch of the task.
HeadReport head_report(const TinyTransformer& model, const Batch& batch, const RoleOptions& options = {});

// The text model's loss with each head zeroed in turn (layer-major: index l·heads + h).
struct AblationResult {
    std::size_t layer = 0, head = 0;  // from 0
    TextLoss loss;
};
std::vector<AblationResult> ablate_heads(const TinyTransformer& model, const text::Tokens& tokens);
// One of them: head `head` of layer `layer` (from 0) zeroed. Throws ValueError out of range.
AblationResult ablate_head(const TinyTransformer& model, const text::Tokens& tokens, std::size_t layer, std::size_t head);

}  // namespace attn

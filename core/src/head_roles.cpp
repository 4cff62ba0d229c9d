// Measured head roles and ablation (head_roles.hpp).
#include "attn/head_roles.hpp"

#include <algorithm>
#include <cmath>

#include "attn/errors.hpp"
#include "attn/random.hpp"

namespace attn {

void add_pattern_scores(const float* P, std::size_t T, const RoleOptions& o, PatternScores& into, const int* targets) {
    if (o.first_row == 0) throw ValueError("head roles: first_row must be at least 1 (row 0 sees only itself)");
    for (std::size_t i = o.first_row; i < T; ++i) {
        if (targets && targets[i] < 0) continue;
        const float* row = P + i * T;
        into.previous_token += double(row[i - 1]);
        into.first_token += double(row[0]);
        double local = 0;
        for (std::size_t j = i >= o.window ? i - o.window : 0; j <= i; ++j) local += double(row[j]);
        into.local += local;
        ++into.rows;
    }
}

PatternScores pattern_means(PatternScores s) {
    if (s.rows == 0) return s;
    const double n = double(s.rows);
    s.previous_token /= n;
    s.first_token /= n;
    s.local /= n;
    return s;
}

void add_induction_score(const float* P, const std::vector<int>& tokens, double* sum, std::size_t* rows,
                         const int* targets) {
    const std::size_t T = tokens.size();
    for (std::size_t i = 2; i < T; ++i) {
        if (targets && targets[i] < 0) continue;
        std::size_t j = 0;
        while (j < i && tokens[j] != tokens[i]) ++j;  // the first occurrence
        if (j + 1 >= i) continue;                      // none before, or just before (that is i − 1)
        if (P) *sum += double(P[i * T + j + 1]);
        ++*rows;
    }
}

namespace {
void check_nonempty(const Batch& b) {
    if (b.size == 0 || b.seq_len == 0) throw ValueError("head roles: the batch is empty");
}
}  // namespace

std::vector<std::vector<PatternScores>> pattern_scores(const TinyTransformer& model, const Batch& batch,
                                                       const RoleOptions& o) {
    check_nonempty(batch);
    const ModelConfig& c = model.config();
    std::vector<std::vector<PatternScores>> out(c.layers, std::vector<PatternScores>(c.heads));
    model.visit_weights(batch, [&](std::size_t b, std::size_t l, std::size_t h, const float* P) {
        add_pattern_scores(P, batch.seq_len, o, out[l][h], batch.targets.data() + b * batch.seq_len);
    });
    for (auto& layer : out)
        for (auto& s : layer) s = pattern_means(s);
    return out;
}

std::vector<std::vector<double>> induction_scores(const TinyTransformer& model, const Batch& batch) {
    check_nonempty(batch);
    const ModelConfig& c = model.config();
    std::vector<std::vector<double>> sum(c.layers, std::vector<double>(c.heads, 0.0));
    std::vector<std::vector<std::size_t>> rows(c.layers, std::vector<std::size_t>(c.heads, 0));
    std::vector<int> seq(batch.seq_len);
    model.visit_weights(batch, [&](std::size_t b, std::size_t l, std::size_t h, const float* P) {
        std::copy_n(batch.tokens.begin() + std::ptrdiff_t(b * batch.seq_len), batch.seq_len, seq.begin());
        add_induction_score(P, seq, &sum[l][h], &rows[l][h], batch.targets.data() + b * batch.seq_len);
    });
    for (std::size_t l = 0; l < c.layers; ++l)
        for (std::size_t h = 0; h < c.heads; ++h) sum[l][h] = rows[l][h] ? sum[l][h] / double(rows[l][h]) : 0.0;
    return sum;
}

void name_roles(HeadRoles& head, const RoleOptions& o) {
    head.roles.clear();
    head.role.clear();
    const std::pair<const char*, std::pair<double, double>> scores[] = {
        {"previous-token", {head.previous_token, o.previous_token}},
        {"first-token", {head.first_token, o.first_token}},
        {"local", {head.local, o.local}},
        {"induction", {head.induction, o.induction}},
    };
    double best = 0;
    for (const auto& [name, st] : scores) {
        const auto [score, threshold] = st;
        if (!(score >= threshold)) continue;
        head.roles.push_back(name);
        if (score / threshold > best) {
            best = score / threshold;
            head.role = name;
        }
    }
}

Batch repeated_random(std::size_t count, std::size_t L, int lo, int hi, std::uint64_t seed) {
    if (L == 0 || count == 0) throw ValueError("repeated_random: need at least one sequence of at least one token");
    if (lo < 0 || hi - lo < int(L))
        throw ValueError("repeated_random: " + std::to_string(L) + " distinct tokens do not fit in the ids " +
                         std::to_string(lo) + ".." + std::to_string(hi - 1));
    const std::size_t T = 2 * L + 1;
    check_size(count, T, "repeated_random");
    Batch b;
    b.size = count;
    b.seq_len = T;
    std::vector<int> pool(std::size_t(hi - lo));
    std::uint64_t n = 0;
    for (std::size_t s = 0; s < count; ++s) {
        for (std::size_t k = 0; k < pool.size(); ++k) pool[k] = lo + int(k);
        // partial Fisher–Yates: the first L of a uniformly random permutation
        for (std::size_t k = 0; k < L; ++k) {
            const std::size_t j = k + std::min(pool.size() - k - 1, std::size_t(uniform01(seed, n++) * double(pool.size() - k)));
            std::swap(pool[k], pool[j]);
        }
        b.tokens.push_back(text::kBegin);
        b.tokens.insert(b.tokens.end(), pool.begin(), pool.begin() + std::ptrdiff_t(L));
        b.tokens.insert(b.tokens.end(), pool.begin(), pool.begin() + std::ptrdiff_t(L));
        // the next token; nothing after the last
        b.targets.insert(b.targets.end(), b.tokens.end() - std::ptrdiff_t(T - 1), b.tokens.end());
        b.targets.push_back(-1);
    }
    return b;
}

namespace {
HeadReport report(const TinyTransformer& model, const Batch& patterns, const Batch& repeats, const RoleOptions& o) {
    const auto ps = pattern_scores(model, patterns, o);
    const auto ind = induction_scores(model, repeats);
    HeadReport r;
    r.layers.resize(ps.size());
    for (std::size_t l = 0; l < ps.size(); ++l)
        for (std::size_t h = 0; h < ps[l].size(); ++h) {
            HeadRoles hr;
            hr.previous_token = ps[l][h].previous_token;
            hr.first_token = ps[l][h].first_token;
            hr.local = ps[l][h].local;
            hr.induction = ind[l][h];
            name_roles(hr, o);
            r.layers[l].push_back(std::move(hr));
            r.rows = ps[l][h].rows;
        }
    // the rows the induction score averaged (the same for every head)
    std::vector<int> seq(repeats.seq_len);
    for (std::size_t b = 0; b < repeats.size; ++b) {
        std::copy_n(repeats.tokens.begin() + std::ptrdiff_t(b * repeats.seq_len), repeats.seq_len, seq.begin());
        add_induction_score(nullptr, seq, nullptr, &r.induction_rows,
                            repeats.targets.data() + b * repeats.seq_len);
    }
    return r;
}
}  // namespace

HeadReport head_report(const TinyTransformer& model, const std::vector<int>& ids, const RoleOptions& o) {
    const ModelConfig& c = model.config();
    if (ids.empty()) throw ValueError("head roles: the text is empty");
    const Batch windows = text_windows(ids, c.max_len);
    const std::size_t L = (c.max_len - 1) / 2;
    const Batch repeats = repeated_random(o.sequences, L, int(text::kSpecials), int(c.vocab_in), o.seed);
    return report(model, windows, repeats, o);
}

HeadReport head_report(const TinyTransformer& model, const Batch& batch, const RoleOptions& o) {
    return report(model, batch, batch, o);
}

AblationResult ablate_head(const TinyTransformer& model, const text::Tokens& tokens, std::size_t layer, std::size_t head) {
    const ModelConfig& c = model.config();
    if (layer >= c.layers || head >= c.heads)
        throw ValueError("ablate_head: layer " + std::to_string(layer) + " head " + std::to_string(head) +
                         " is outside " + std::to_string(c.layers) + " layers x " + std::to_string(c.heads) + " heads");
    std::vector<bool> zeroed(c.layers * c.heads, false);
    zeroed[layer * c.heads + head] = true;
    return {layer, head, text_loss(model, tokens, zeroed)};
}

std::vector<AblationResult> ablate_heads(const TinyTransformer& model, const text::Tokens& tokens) {
    const ModelConfig& c = model.config();
    std::vector<AblationResult> out;
    for (std::size_t l = 0; l < c.layers; ++l)
        for (std::size_t h = 0; h < c.heads; ++h) out.push_back(ablate_head(model, tokens, l, h));
    return out;
}

}  // namespace attn

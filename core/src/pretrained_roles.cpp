// Measured head roles of a pretrained model (pretrained.hpp: head_roles), on head_roles.hpp's
// scores and thresholds.
#include <algorithm>
#include <set>

#include "attn/pretrained.hpp"

namespace attn::pretrained {

RealRoleReport head_roles(const Model& model, const std::vector<std::vector<int>>& texts, const RealRoleOptions& o) {
    const Config& c = model.config;
    const std::size_t Lr = o.repeat_length;
    if (o.sequences == 0 || Lr == 0) throw ValueError("head roles: need at least one random sequence of at least one token");
    int bos = o.bos, eos = o.eos;
    if (bos < 0 && c.arch == Architecture::GPT2) bos = c.bos_token_id >= 0 ? c.bos_token_id : c.eos_token_id;
    if (bos < 0)
        throw ValueError("head roles: the random sequences need a first token (bos: GPT-2's <|endoftext|>, BERT's [CLS])");
    const std::size_t T = 1 + 2 * Lr + (eos >= 0 ? 1 : 0);
    if (T > c.positions)
        throw ValueError("head roles: random sequences of " + std::to_string(T) + " tokens pass the model's " +
                         std::to_string(c.positions) + " positions (make repeat_length smaller)");
    std::vector<int> pool = o.pool;
    if (pool.empty()) {
        const std::set<int> special = {bos, eos, c.pad_token_id, c.eos_token_id, c.bos_token_id};
        for (std::size_t id = 0; id < c.vocab; ++id)
            if (!special.count(int(id))) pool.push_back(int(id));
    }
    for (int id : pool)
        if (id < 0 || std::size_t(id) >= c.vocab)
            throw ValueError("head roles: the pool holds the id " + std::to_string(id) + ", outside the vocabulary");
    if (pool.size() < Lr)
        throw ValueError("head roles: " + std::to_string(Lr) + " distinct random tokens do not fit in a pool of " +
                         std::to_string(pool.size()) + " ids");

    const std::size_t layers = c.layers, H = c.heads;
    std::vector<std::vector<PatternScores>> pat(layers, std::vector<PatternScores>(H));
    std::vector<std::vector<double>> ind(layers, std::vector<double>(H, 0.0)), dup = ind;
    std::size_t ind_rows = 0, dup_rows = 0;

    ForwardOptions fo;
    fo.keep_weights = true;
    for (const auto& text : texts) {
        if (text.size() <= o.roles.first_row) continue;
        const ForwardResult r = forward(model, text, fo);
        for (std::size_t l = 0; l < layers; ++l)
            for (std::size_t h = 0; h < H; ++h) add_pattern_scores(r.weights[l][h].data(), text.size(), o.roles, pat[l][h]);
    }
    RealRoleReport rep;
    rep.rows = layers ? pat[0][0].rows : 0;
    if (rep.rows == 0)
        throw ValueError("head roles: no text has more than first_row = " + std::to_string(o.roles.first_row) +
                         " tokens, so no row is scored");

    // Repeated random tokens: head_roles.hpp's repeated_random over indices into the pool.
    const Batch b = repeated_random(o.sequences, Lr, 0, int(pool.size()), o.roles.seed);
    std::vector<std::vector<int>> seqs;
    for (std::size_t s = 0; s < b.size; ++s) {
        std::vector<int> seq(b.tokens.begin() + std::ptrdiff_t(s * b.seq_len), b.tokens.begin() + std::ptrdiff_t((s + 1) * b.seq_len));
        seq[0] = bos;
        for (std::size_t i = 1; i < seq.size(); ++i) seq[i] = pool[std::size_t(seq[i])];
        if (eos >= 0) seq.push_back(eos);
        seqs.push_back(std::move(seq));
    }
    // One stack of rows for all of them (forward_batch: the weight products once).
    const std::vector<ForwardResult> runs = forward_batch(model, seqs, fo);
    for (std::size_t s = 0; s < seqs.size(); ++s) {
        const std::vector<int>& seq = seqs[s];
        const ForwardResult& r = runs[s];
        std::size_t rows_i = 0, rows_d = 0;
        for (std::size_t l = 0; l < layers; ++l)
            for (std::size_t h = 0; h < H; ++h) {
                const float* P = r.weights[l][h].data();
                std::size_t ri = 0;
                add_induction_score(P, seq, &ind[l][h], &ri, nullptr);
                rows_i = ri;
                // duplicate-token: rows whose token occurred before, weight on its first occurrence
                std::size_t rd = 0;
                for (std::size_t i = 1; i < seq.size(); ++i) {
                    std::size_t j = 0;
                    while (j < i && seq[j] != seq[i]) ++j;
                    if (j == i) continue;
                    dup[l][h] += double(P[i * seq.size() + j]);
                    ++rd;
                }
                rows_d = rd;
            }
        ind_rows += rows_i;
        dup_rows += rows_d;
    }
    rep.random_sequences = seqs;
    rep.repeat_rows = ind_rows;

    rep.layers.assign(layers, std::vector<RealHeadRoles>(H));
    for (std::size_t l = 0; l < layers; ++l)
        for (std::size_t h = 0; h < H; ++h) {
            const PatternScores m = pattern_means(pat[l][h]);
            HeadRoles base;
            base.previous_token = m.previous_token;
            base.first_token = m.first_token;
            base.local = m.local;
            base.induction = ind_rows ? ind[l][h] / double(ind_rows) : 0.0;
            name_roles(base, o.roles);
            RealHeadRoles& out = rep.layers[l][h];
            out.previous_token = base.previous_token;
            out.first_token = base.first_token;
            out.local = base.local;
            out.induction = base.induction;
            out.duplicate_token = dup_rows ? dup[l][h] / double(dup_rows) : 0.0;
            out.roles = base.roles;
            out.role = base.role;
            // duplicate-token by the same rule as head_roles.hpp's name_roles: reached, and the
            // strongest when its score / threshold is the largest.
            if (out.duplicate_token >= o.duplicate_token) {
                out.roles.push_back("duplicate-token");
                double best = 0;
                const std::pair<double, double> others[] = {{out.previous_token, o.roles.previous_token},
                                                            {out.first_token, o.roles.first_token},
                                                            {out.local, o.roles.local},
                                                            {out.induction, o.roles.induction}};
                for (const auto& [score, threshold] : others)
                    if (score >= threshold) best = std::max(best, score / threshold);
                if (out.duplicate_token / o.duplicate_token > best) out.role = "duplicate-token";
            }
            if (out.role.empty()) ++rep.unnamed;
        }
    return rep;
}

}  // namespace attn::pretrained

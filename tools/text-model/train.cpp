// Trains the text model (docs/text-model.md) natively: `make train-text-model` runs
// tools/text-model/corpus.mjs, then this.
//
//   attn_train_text --corpus build/text-model/corpus --eval models/text-model/eval.txt
//                   --out models/text-model [--steps N] [--threads 2] [--parts 2] [--seed 1] ...
//
// Data-parallel: each step's batch is cut into --parts equal parts in a fixed order, the
// gradient of each part is computed on its own copy of the weights, and the parts'
// gradients are added in part order, weighted by their scored tokens. --threads (1 up to
// --parts) only says how many threads compute the parts: the partition and the order of
// the sums are fixed, so the same seed and --parts give the same bits on one instruction
// set whatever the thread count or the scheduling. The final evaluation (held-out loss,
// roles, ablation) runs its independent measurements on the same threads, each one
// computed whole by one thread, so its figures do not depend on the threads either.
//
// Writes into --out: model.bin (text_model.hpp's format, binary16), results.json (the run
// and its measurements: held-out loss in nats per token and bits per character with the
// weights as stored, per language, on the committed evaluation slice, head roles, ablation).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "attn/head_roles.hpp"
#include "attn/linalg.hpp"
#include "attn/model.hpp"
#include "attn/random.hpp"
#include "attn/text.hpp"
#include "attn/text_model.hpp"

using namespace attn;

namespace {

struct Options {
    std::string corpus = "build/text-model/corpus", eval = "models/text-model/eval.txt", out = "models/text-model";
    std::size_t steps = 3000, batch = 32, seq = 64, d_model = 64, heads = 4, layers = 2, mlp = 256, threads = 2, parts = 2;
    std::size_t warmup = 200, eval_every = 250, min_count = 10, eval_windows = 256;
    float lr = 3e-3f, lr_floor = 3e-4f, ko_share = 0.3f;
    std::uint64_t seed = 1;
    bool write = true, layer_norm = true;
};

Options parse(int argc, char** argv) {
    Options o;
    std::map<std::string, std::function<void(const char*)>> set = {
        {"--corpus", [&](const char* v) { o.corpus = v; }},
        {"--eval", [&](const char* v) { o.eval = v; }},
        {"--out", [&](const char* v) { o.out = v; }},
        {"--steps", [&](const char* v) { o.steps = std::stoul(v); }},
        {"--batch", [&](const char* v) { o.batch = std::stoul(v); }},
        {"--seq", [&](const char* v) { o.seq = std::stoul(v); }},
        {"--d-model", [&](const char* v) { o.d_model = std::stoul(v); }},
        {"--heads", [&](const char* v) { o.heads = std::stoul(v); }},
        {"--layers", [&](const char* v) { o.layers = std::stoul(v); }},
        {"--mlp", [&](const char* v) { o.mlp = std::stoul(v); }},
        {"--threads", [&](const char* v) { o.threads = std::stoul(v); }},
        {"--parts", [&](const char* v) { o.parts = std::stoul(v); }},
        {"--warmup", [&](const char* v) { o.warmup = std::stoul(v); }},
        {"--eval-every", [&](const char* v) { o.eval_every = std::stoul(v); }},
        {"--min-count", [&](const char* v) { o.min_count = std::stoul(v); }},
        {"--lr", [&](const char* v) { o.lr = std::stof(v); }},
        {"--lr-floor", [&](const char* v) { o.lr_floor = std::stof(v); }},
        {"--ko-share", [&](const char* v) { o.ko_share = std::stof(v); }},
        {"--seed", [&](const char* v) { o.seed = std::stoull(v); }},
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--no-write" || a == "--no-layer-norm") {
            (a == "--no-write" ? o.write : o.layer_norm) = false;
            continue;
        }
        const auto it = set.find(a);
        if (it == set.end() || i + 1 >= argc) {
            std::cerr << "usage: attn_train_text [--corpus DIR] [--eval FILE] [--out DIR] [--steps N] ... (see the source)\n";
            std::exit(2);
        }
        it->second(argv[++i]);
    }
    if (o.parts < 1 || o.batch % o.parts != 0) {
        std::cerr << "--batch must be a multiple of --parts\n";
        std::exit(2);
    }
    if (o.threads < 1 || o.threads > o.parts) {
        std::cerr << "--threads must be 1 up to --parts\n";
        std::exit(2);
    }
    return o;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t nl = text.find('\n', at);
        const std::size_t end = nl == std::string::npos ? text.size() : nl;
        if (end > at) out.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

// A paragraph is Korean when at least a fifth of its non-space characters are Hangul syllables.
bool is_korean(const std::string& p) {
    std::size_t n = 0, h = 0;
    for (char32_t c : text::decode_utf8(p)) {
        if (c == U' ') continue;
        ++n;
        h += text::is_hangul_syllable(c);
    }
    return n > 0 && 5 * h >= n;
}

// The paragraphs of one language as one token stream ("\n" after each paragraph), with the
// positions where a character starts (windows start there, never inside a syllable).
struct Pool {
    std::vector<int> ids;
    std::vector<std::size_t> starts;
    std::size_t chars = 0;
};

void add(Pool& pool, const text::Tokens& t) {
    const std::size_t base = pool.ids.size();
    pool.ids.insert(pool.ids.end(), t.ids.begin(), t.ids.end());
    for (std::size_t k = 0; k < t.ids.size(); ++k)
        if (k == 0 || t.char_index[k] != t.char_index[k - 1]) pool.starts.push_back(base + k);
    pool.chars += t.chars.size();
}

// Runs jobs[0..n) on `threads` threads (the calling one included), each job whole on one
// thread; a job writes only its own results, so they do not depend on which thread ran it.
void run_jobs(const std::vector<std::function<void()>>& jobs, std::size_t threads) {
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t k; (k = next.fetch_add(1)) < jobs.size();) jobs[k]();
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
}

std::string json_number(double x) {
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", x);
    return b;
}

std::string json_string(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\', o += c;
        else if (c == '\n') o += "\\n";
        else if (std::uint8_t(c) < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", unsigned(c));
            o += b;
        } else o += c;
    }
    return o + "\"";
}

// The loss, its bits per character and the counts, as JSON.
std::string json_loss(const TextLoss& l) {
    return "{\"natsPerToken\": " + json_number(l.loss()) + ", \"bitsPerChar\": " + json_number(l.bits_per_char()) +
           ", \"tokens\": " + std::to_string(l.tokens) + ", \"chars\": " + std::to_string(l.chars) + "}";
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const auto seconds = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };

    const std::string train_text = read_file(o.corpus + "/train.txt"), test_text = read_file(o.corpus + "/test.txt");
    const text::Tokenizer tok = text::Tokenizer::from_text(train_text, o.min_count);
    std::printf("vocabulary: %zu symbols (2 specials)\n", tok.size());

    Pool pools[2];  // 0: English (and everything not Korean), 1: Korean
    for (const std::string& p : lines(train_text)) add(pools[is_korean(p)], tok.encode(p + "\n"));
    for (int k = 0; k < 2; ++k)
        std::printf("training pool %s: %zu tokens, %zu characters\n", k ? "ko" : "en", pools[k].ids.size(), pools[k].chars);
    // Held-out text by language, and a fixed sample of its windows for the evaluation while training.
    std::string test_by_lang[2];
    for (const std::string& p : lines(test_text)) test_by_lang[is_korean(p)] += p + "\n";
    const text::Tokens test_tokens = tok.encode(test_text);
    Batch probe_set = text_windows(test_tokens.ids, o.seq);
    {
        // every k-th window, up to eval_windows of them
        const std::size_t every = std::max<std::size_t>(1, probe_set.size / o.eval_windows);
        Batch b;
        b.seq_len = o.seq;
        for (std::size_t w = 0; w < probe_set.size && b.size < o.eval_windows; w += every, ++b.size) {
            b.tokens.insert(b.tokens.end(), probe_set.tokens.begin() + std::ptrdiff_t(w * o.seq),
                            probe_set.tokens.begin() + std::ptrdiff_t((w + 1) * o.seq));
            b.targets.insert(b.targets.end(), probe_set.targets.begin() + std::ptrdiff_t(w * o.seq),
                             probe_set.targets.begin() + std::ptrdiff_t((w + 1) * o.seq));
        }
        probe_set = b;
    }

    ModelConfig mc;
    mc.vocab_in = mc.vocab_out = tok.size();
    mc.max_len = o.seq;
    mc.d_model = o.d_model;
    mc.heads = o.heads;
    mc.d_k = o.d_model / o.heads;
    mc.layers = o.layers;
    mc.mlp_hidden = o.mlp;
    mc.layer_norm = o.layer_norm;
    mc.seed = o.seed;
    TinyTransformer master(mc);
    std::vector<TinyTransformer> replicas(o.parts - 1, master);
    Adam adam(AdamConfig{o.lr});
    const LrSchedule schedule{o.lr, o.lr_floor, o.warmup, o.steps};
    std::printf("model: d_model %zu, %zu layers x %zu heads (d_k %zu), MLP %zu, T %zu, LayerNorm %s: %zu parameters; "
                "batch %zu in %zu parts, %zu steps, %zu threads\n",
                mc.d_model, mc.layers, mc.heads, mc.d_k, mc.mlp_hidden, mc.max_len, mc.layer_norm ? "on" : "off",
                master.parameter_count(), o.batch, o.parts, o.steps, o.threads);

    const std::size_t part = o.batch / o.parts;
    double recent = 0;
    std::size_t recent_n = 0;
    std::string curve;
    for (std::size_t step = 0; step < o.steps; ++step) {
        adam.set_lr(scheduled_lr(schedule, step));
        // The batch: window b from the Korean pool with probability ko_share, at a character
        // start drawn uniformly among those from which a whole window fits.
        std::vector<Batch> parts;
        for (std::size_t th = 0; th < o.parts; ++th) {
            Batch b;
            b.seq_len = o.seq;
            for (std::size_t i = th * part; i < (th + 1) * part; ++i) {
                const std::uint64_t n = 2 * (std::uint64_t(step) * o.batch + i);
                const Pool& pool = pools[uniform01(o.seed, n) < o.ko_share ? 1 : 0];
                const std::size_t fit = std::size_t(
                    std::upper_bound(pool.starts.begin(), pool.starts.end(), pool.ids.size() - o.seq) - pool.starts.begin());
                const std::size_t k = std::min(fit - 1, std::size_t(uniform01(o.seed, n + 1) * double(fit)));
                const Batch w = text_window_batch(pool.ids, {pool.starts[k]}, o.seq);
                b.tokens.insert(b.tokens.end(), w.tokens.begin(), w.tokens.end());
                b.targets.insert(b.targets.end(), w.targets.begin(), w.targets.end());
                ++b.size;
            }
            parts.push_back(std::move(b));
        }
        std::vector<LossStats> stats(o.parts);
        std::vector<std::function<void()>> grads;
        for (std::size_t th = 0; th < o.parts; ++th)
            grads.push_back([&, th] { stats[th] = (th ? replicas[th - 1] : master).loss_and_grad(parts[th], false, 0); });
        run_jobs(grads, o.threads);
        // gradient of the whole batch: Σ_th count_th · g_th / Σ count, added in part order
        double total = 0;
        for (const auto& s : stats) total += double(s.count);
        auto& mp = master.params();
        for (std::size_t k = 0; k < mp.size(); ++k) {
            float* g = mp[k].grad.data();
            const float w0 = float(double(stats[0].count) / total);
            for (std::size_t i = 0; i < mp[k].grad.size(); ++i) g[i] *= w0;
            for (std::size_t th = 1; th < o.parts; ++th) {
                const float w = float(double(stats[th].count) / total);
                const float* r = replicas[th - 1].params()[k].grad.data();
                for (std::size_t i = 0; i < mp[k].grad.size(); ++i) g[i] += w * r[i];
            }
        }
        adam.step(mp);
        for (auto& r : replicas)
            for (std::size_t k = 0; k < mp.size(); ++k) r.params()[k].value = mp[k].value;
        double loss = 0;
        for (const auto& s : stats) loss += s.loss * double(s.count) / total;
        recent += loss;
        ++recent_n;
        if ((step + 1) % o.eval_every == 0 || step + 1 == o.steps) {
            const LossStats ev = master.evaluate(probe_set);
            std::printf("step %5zu  lr %.2e  train %.4f  held-out sample %.4f nats/token  %.0f s\n", step + 1,
                        double(adam.lr()), recent / double(recent_n), ev.loss, seconds());
            std::fflush(stdout);
            curve += std::string(curve.empty() ? "" : ", ") + "[" + std::to_string(step + 1) + ", " +
                     json_number(recent / double(recent_n)) + ", " + json_number(ev.loss) + "]";
            recent = 0;
            recent_n = 0;
        }
    }
    const double train_seconds = seconds();
    std::printf("training: %.1f s, %.1f ms per step\n", train_seconds, 1000.0 * train_seconds / double(o.steps));
    if (!o.write) return 0;  // a trial run: no measurements, nothing written

    // The weights as stored (binary16), read back through the loader the page uses.
    const std::vector<std::uint8_t> file = save_text_model(master, tok);
    const TextModel stored = load_text_model(file.data(), file.size());
    std::string eval_text;
    try {
        eval_text = read_file(o.eval);
    } catch (const std::exception&) {
    }
    const text::Tokens eval_tokens = tok.encode(eval_text);
    const text::Tokens test_lang_tokens[2] = {tok.encode(test_by_lang[0]), tok.encode(test_by_lang[1])};
    // Every measurement below is independent of the others: one job each, on the training's threads.
    TextLoss held, held_float, by_lang[2], eval_loss;
    HeadReport report;
    std::vector<AblationResult> ablation(mc.layers * mc.heads);
    std::vector<std::function<void()>> jobs = {
        [&] { held = text_loss(stored.model, test_tokens); },
        [&] { held_float = text_loss(master, test_tokens); },
        [&] { by_lang[0] = text_loss(stored.model, test_lang_tokens[0]); },
        [&] { by_lang[1] = text_loss(stored.model, test_lang_tokens[1]); },
        [&] { eval_loss = text_loss(stored.model, eval_tokens); },
        [&] { report = head_report(stored.model, test_tokens.ids, RoleOptions{}); },
    };
    for (std::size_t k = 0; k < ablation.size(); ++k)
        jobs.push_back([&, k] { ablation[k] = ablate_head(stored.model, test_tokens, k / mc.heads, k % mc.heads); });
    const double eval_start = seconds();
    run_jobs(jobs, o.threads);
    std::printf("held-out: %.4f nats/token, %.4f bits/char (float weights: %.4f bits/char); en %.4f, ko %.4f bits/char\n",
                held.loss(), held.bits_per_char(), held_float.bits_per_char(), by_lang[0].bits_per_char(),
                by_lang[1].bits_per_char());
    std::printf("evaluation slice (%s): %.4f nats/token, %.4f bits/char\n", o.eval.c_str(), eval_loss.loss(),
                eval_loss.bits_per_char());
    std::printf("evaluation (losses, roles, ablation): %.1f s\n", seconds() - eval_start);

    std::string heads_json;
    for (std::size_t l = 0; l < report.layers.size(); ++l)
        for (std::size_t h = 0; h < report.layers[l].size(); ++h) {
            const HeadRoles& r = report.layers[l][h];
            const AblationResult& a = ablation[l * mc.heads + h];
            std::printf("layer %zu head %zu: previous %.3f first %.3f local %.3f induction %.3f -> %s; ablated: %+.4f bits/char\n",
                        l + 1, h + 1, r.previous_token, r.first_token, r.local, r.induction,
                        r.role.empty() ? "(no nameable role)" : r.role.c_str(),
                        a.loss.bits_per_char() - held.bits_per_char());
            heads_json += std::string(heads_json.empty() ? "" : ",\n    ") + "{\"layer\": " + std::to_string(l + 1) +
                          ", \"head\": " + std::to_string(h + 1) + ", \"previousToken\": " + json_number(r.previous_token) +
                          ", \"firstToken\": " + json_number(r.first_token) + ", \"local\": " + json_number(r.local) +
                          ", \"induction\": " + json_number(r.induction) + ", \"role\": " + json_string(r.role) +
                          ", \"ablatedBitsPerChar\": " + json_number(a.loss.bits_per_char()) + "}";
        }
    std::map<std::string, int> counts;
    for (const auto& layer : report.layers)
        for (const auto& r : layer) ++counts[r.role.empty() ? "none" : r.role];
    std::string counts_json;
    for (const auto& [role, n] : counts)
        counts_json += std::string(counts_json.empty() ? "" : ", ") + json_string(role) + ": " + std::to_string(n);

    {
        std::ofstream f(o.out + "/model.bin", std::ios::binary);
        f.write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
        if (!f) throw std::runtime_error("cannot write " + o.out + "/model.bin");
    }
    std::ofstream j(o.out + "/results.json");
    j << "{\n"
      << "  \"description\": \"The text model's training run and measurements, written by tools/text-model/train.cpp "
         "(make train-text-model); every loss is with the weights as stored in model.bin (binary16)\",\n"
      << "  \"model\": {\"file\": \"model.bin\", \"bytes\": " << file.size() << ", \"crc32\": \"" << [&] {
             char b[16];
             std::snprintf(b, sizeof b, "%08x", unsigned(crc32(file.data(), file.size() - 4)));
             return std::string(b);
         }() << "\", \"parameters\": " << master.parameter_count()
      << ", \"vocab\": " << tok.size() << ", \"maxLen\": " << mc.max_len << ", \"dModel\": " << mc.d_model
      << ", \"heads\": " << mc.heads << ", \"dK\": " << mc.d_k << ", \"layers\": " << mc.layers
      << ", \"mlpHidden\": " << mc.mlp_hidden << ", \"layerNorm\": " << (mc.layer_norm ? "true" : "false") << "},\n"
      << "  \"training\": {\"seed\": " << o.seed << ", \"steps\": " << o.steps << ", \"batch\": " << o.batch
      << ", \"parts\": " << o.parts << ", \"threads\": " << o.threads << ", \"adam\": {\"peakLr\": " << json_number(o.lr) << ", \"floorLr\": "
      << json_number(o.lr_floor) << ", \"warmup\": " << o.warmup << ", \"schedule\": \"linear warm-up, cosine decay\"}"
      << ", \"koreanShare\": " << json_number(o.ko_share) << ", \"minCount\": " << o.min_count
      << ", \"seconds\": " << json_number(train_seconds) << ", \"simd\": \"" << simd_name() << "\"},\n"
      << "  \"curve\": {\"columns\": [\"step\", \"mean training loss since the last row (nats/token)\", \"held-out sample loss (nats/token)\"], \"rows\": ["
      << curve << "]},\n"
      << "  \"heldOut\": " << json_loss(held) << ",\n"
      << "  \"heldOutFloat32\": " << json_loss(held_float) << ",\n"
      << "  \"heldOutEnglish\": " << json_loss(by_lang[0]) << ",\n"
      << "  \"heldOutKorean\": " << json_loss(by_lang[1]) << ",\n"
      << "  \"evalSlice\": " << json_loss(eval_loss) << ",\n"
      << "  \"roles\": {" << counts_json << "},\n"
      << "  \"heads\": [\n    " << heads_json << "\n  ]\n"
      << "}\n";
    std::printf("wrote %s/model.bin (%zu bytes) and %s/results.json\n", o.out.c_str(), file.size(), o.out.c_str());
    return 0;
}

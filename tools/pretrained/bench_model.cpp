// The real-model benchmark, natively (make bench-model-native; docs/real-models.md):
// writes a GPT-2-small-shaped checkpoint with random weights (12 layers x 12 heads, d_model 768,
// vocabulary 50,257, 1,024 positions; the tensors, names, order and buffers of gpt2's
// model.safetensors, ~548 MB in F32) into a folder under build/ (never committed), then times
//   load      header + plan + every chunk from the file (FileSource), peak memory
//   forward   all 144 heads of a 16-token sentence (weights kept, no logits), and with logits
//   roles     head_roles: the sentence's patterns and 4 x [bos, 16 random, the same 16]
//   ablation  every head zeroed in turn, next-token loss on the 16 tokens
// Each timed step runs --repeats times; the table gives the median and the range.
// Built with Emscripten (make bench-model-native builds it for Node too), the checkpoint is
// generated into memory and read through a MemorySource: the core's WebAssembly speed.
//   attn_bench_model [--dir build/bench/gpt2-small-random] [--dtype F32|F16|BF16] [--repeats 5]
//                    [--tokens 16] [--json out.json] [--keep]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/checkpoint.hpp"
#include "attn/linalg.hpp"
#include "attn/memory.hpp"
#include "attn/pretrained.hpp"
#if !defined(__EMSCRIPTEN__)
#include "file_source.hpp"
#endif

using namespace attn;
namespace fs = std::filesystem;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Resident memory high-water mark of this process (VmHWM), bytes.
std::uint64_t peak_rss() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 2685821657736338717ull;
    }
    double uniform() { return double((next() >> 11) + 1) * 0x1.0p-53; }
    float normal(float std) { return float(std * std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform())); }
};

// Where the checkpoint's bytes go: a file natively, memory in the WebAssembly build (no files).
struct Sink {
    std::ofstream* file = nullptr;
    std::vector<std::uint8_t>* memory = nullptr;
    void write(const void* p, std::size_t n) {
        if (file) file->write(static_cast<const char*>(p), std::streamsize(n));
        else memory->insert(memory->end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n);
    }
};

void put_values(Sink& out, const std::string& dtype, const std::vector<float>& v) {
    if (dtype == "F32") {
        out.write(v.data(), v.size() * 4);
        return;
    }
    std::vector<std::uint16_t> h(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        std::uint32_t b;
        std::memcpy(&b, &v[i], 4);
        if (dtype == "BF16") h[i] = std::uint16_t((b + 0x7fff + ((b >> 16) & 1)) >> 16);
        else h[i] = to_half(v[i]);
    }
    out.write(h.data(), h.size() * 2);
}

struct Spec {
    std::string name, dtype;
    std::vector<std::uint64_t> shape;
    int kind;  // 0 normal(0.02), 1 ones, 2 zeros, 3 causal buffer, 4 scalar −1e4
};

// config.json's text; the weights into `memory` when given, else into dir/model.safetensors.
std::string write_checkpoint(const fs::path& dir, const std::string& dtype, std::vector<std::uint8_t>* memory) {
    const std::uint64_t L = 12, d = 768, V = 50257, P = 1024;
    nlohmann::json cfg = {{"model_type", "gpt2"}, {"architectures", {"GPT2LMHeadModel"}}, {"n_layer", L}, {"n_head", 12},
                          {"n_embd", d}, {"n_positions", P}, {"n_ctx", P}, {"vocab_size", V},
                          {"layer_norm_epsilon", 1e-5}, {"activation_function", "gelu_new"}, {"bos_token_id", 50256},
                          {"eos_token_id", 50256}};
    std::vector<Spec> specs;
    for (std::uint64_t l = 0; l < L; ++l) {
        const std::string h = "h." + std::to_string(l) + ".";
        specs.push_back({h + "attn.bias", "F32", {1, 1, P, P}, 3});
        specs.push_back({h + "attn.c_attn.bias", dtype, {3 * d}, 2});
        specs.push_back({h + "attn.c_attn.weight", dtype, {d, 3 * d}, 0});
        specs.push_back({h + "attn.c_proj.bias", dtype, {d}, 2});
        specs.push_back({h + "attn.c_proj.weight", dtype, {d, d}, 0});
        specs.push_back({h + "ln_1.bias", dtype, {d}, 2});
        specs.push_back({h + "ln_1.weight", dtype, {d}, 1});
        specs.push_back({h + "ln_2.bias", dtype, {d}, 2});
        specs.push_back({h + "ln_2.weight", dtype, {d}, 1});
        specs.push_back({h + "mlp.c_fc.bias", dtype, {4 * d}, 2});
        specs.push_back({h + "mlp.c_fc.weight", dtype, {d, 4 * d}, 0});
        specs.push_back({h + "mlp.c_proj.bias", dtype, {d}, 2});
        specs.push_back({h + "mlp.c_proj.weight", dtype, {4 * d, d}, 0});
    }
    specs.push_back({"ln_f.bias", dtype, {d}, 2});
    specs.push_back({"ln_f.weight", dtype, {d}, 1});
    specs.push_back({"wpe.weight", dtype, {P, d}, 0});
    specs.push_back({"wte.weight", dtype, {V, d}, 0});
    nlohmann::ordered_json h = nlohmann::ordered_json::object();
    h["__metadata__"] = {{"format", "pt"}};
    std::uint64_t at = 0;
    for (const auto& s : specs) {
        std::uint64_t n = 1;
        for (auto x : s.shape) n *= x;
        const std::uint64_t bytes = n * (s.dtype == "F32" ? 4 : 2);
        h[s.name] = {{"dtype", s.dtype}, {"shape", s.shape}, {"data_offsets", {at, at + bytes}}};
        at += bytes;
    }
    std::string text = h.dump();
    while (text.size() % 8) text += ' ';
    std::ofstream file;
    Sink out;
    if (memory) {
        memory->clear();
        memory->reserve(std::size_t(8 + text.size() + at));
        out.memory = memory;
    } else {
        fs::create_directories(dir);
        std::ofstream(dir / "config.json") << cfg.dump(2) << "\n";
        file.open(dir / "model.safetensors", std::ios::binary);
        out.file = &file;
    }
    const std::uint64_t N = text.size();
    out.write(&N, 8);
    out.write(text.data(), text.size());
    Rng rng{0x9E3779B97F4A7C15ull};
    for (const auto& s : specs) {
        std::uint64_t n = 1;
        for (auto x : s.shape) n *= x;
        std::vector<float> v(n);
        if (s.kind == 0)
            for (auto& x : v) x = rng.normal(0.02f);
        else if (s.kind == 1)
            std::fill(v.begin(), v.end(), 1.0f);
        else if (s.kind == 3)
            for (std::uint64_t i = 0; i < P; ++i)
                for (std::uint64_t j = 0; j <= i; ++j) v[i * P + j] = 1.0f;
        put_values(out, s.dtype, v);
    }
    return cfg.dump();
}

struct Timing {
    std::string name;
    std::vector<double> s;
    double median() const {
        auto v = s;
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    }
};

}  // namespace

int main(int argc, char** argv) {
    std::string dir = "build/bench/gpt2-small-random", dtype = "F32", json_out;
    int repeats = 5, T = 16;
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--dir") dir = next();
        else if (a == "--dtype") dtype = next();
        else if (a == "--repeats") repeats = std::stoi(next());
        else if (a == "--tokens") T = std::stoi(next());
        else if (a == "--json") json_out = next();
        else if (a == "--keep") keep = true;
        else {
            std::fprintf(stderr, "unknown argument %s\n", a.c_str());
            return 2;
        }
    }
    const fs::path d = fs::path(dir) / dtype;
#if defined(__EMSCRIPTEN__)
    const bool in_memory = true;  // no file system: the checkpoint is generated into memory
#else
    const bool in_memory = false;
#endif
    std::vector<std::uint8_t> bytes;
    double t0 = now();
    const std::string cj = write_checkpoint(d, dtype, in_memory ? &bytes : nullptr);
    const double t_write = now() - t0;
    const std::uint64_t file_bytes = in_memory ? bytes.size() : fs::file_size(d / "model.safetensors");
    std::printf("wrote %s (%.1f MB, %s) in %.1f s; core: %s\n", in_memory ? "the checkpoint into memory" : (d / "model.safetensors").c_str(),
                file_bytes / 1e6, dtype.c_str(), t_write, simd_name().c_str());

    const auto config = pretrained::parse_config(cj);
    std::vector<Timing> timings;
    Timing load{"load (header, plan, every chunk)", {}};
    std::uint64_t peak_core = 0;
    pretrained::Model model;
    for (int r = 0; r < std::max(1, repeats / 2); ++r) {
        model = pretrained::Model();
        reset_peak_memory();
        std::unique_ptr<safetensors::ByteSource> src;
        if (in_memory) src = std::make_unique<safetensors::MemorySource>(bytes.data(), bytes.size());
#if !defined(__EMSCRIPTEN__)
        else src = std::make_unique<tools::FileSource>((d / "model.safetensors").string());
#endif
        t0 = now();
        model = pretrained::load_checkpoint(config, {"model.safetensors"}, [&](const std::string&) { return src.get(); });
        load.s.push_back(now() - t0);
        peak_core = std::max<std::uint64_t>(peak_core, memory_stats().peak_bytes);
    }
    timings.push_back(load);
    bytes = {};

    std::vector<int> tokens;
    Rng rng{42};
    for (int i = 0; i < T; ++i) tokens.push_back(int(rng.next() % 50256));
    auto time = [&](const std::string& name, int n, auto&& f) {
        Timing t{name, {}};
        for (int r = 0; r < n; ++r) {
            const double a = now();
            f();
            t.s.push_back(now() - a);
        }
        timings.push_back(t);
    };
    time("forward: 144 heads of " + std::to_string(T) + " tokens, weights kept", repeats, [&] {
        const auto res = pretrained::forward(model, tokens);
        if (res.weights.size() != 12) std::abort();
    });
    pretrained::ForwardOptions lo;
    lo.logits = true;
    time("forward with logits (T x 50257)", repeats, [&] { pretrained::forward(model, tokens, lo); });
    time("head roles (the sentence; 4 x 33 random tokens)", std::max(1, repeats / 2),
         [&] { pretrained::head_roles(model, {tokens}); });
    time("ablation: 144 heads, next-token loss", 1,
         [&] { pretrained::ablate_heads(model, tokens, pretrained::next_token_targets(tokens)); });

    std::printf("\n| step | median | min | max | runs |\n| --- | --- | --- | --- | --- |\n");
    nlohmann::json j = {{"dtype", dtype}, {"file_bytes", file_bytes}, {"simd", simd_name()}, {"tokens", T}, {"steps", nlohmann::json::array()}};
    for (const auto& t : timings) {
        const auto [mn, mx] = std::minmax_element(t.s.begin(), t.s.end());
        std::printf("| %s | %.3f s | %.3f s | %.3f s | %zu |\n", t.name.c_str(), t.median(), *mn, *mx, t.s.size());
        j["steps"].push_back({{"name", t.name}, {"seconds", t.s}});
    }
    const std::uint64_t rss = peak_rss();
    std::printf("\nweights held: %.1f MB; the core's peak while loading: %.1f MB (%.2f x the file); process peak RSS: %.1f MB\n",
                model.weight_bytes() / 1e6, peak_core / 1e6, double(peak_core) / double(file_bytes), rss / 1e6);
    j["weight_bytes"] = model.weight_bytes();
    j["core_peak_bytes_loading"] = peak_core;
    j["peak_rss_bytes"] = rss;
    if (!json_out.empty()) std::ofstream(json_out) << j.dump(1) << "\n";
    if (!keep && !in_memory) fs::remove_all(d);
    return 0;
}

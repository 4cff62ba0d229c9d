// The real-model worker's own WebAssembly module (attn-pretrained.mjs/.wasm): the learner's
// GPT-2 or BERT checkpoint loaded tensor by tensor (checkpoint.hpp's Loader, the worker
// filling each chunk from File slices or Range requests), every head of a sentence, the head
// roles, ablation, value norms and rollout (pretrained.hpp). Bound with Embind; the JS side is
// wasm/pretrained/pretrained.mjs (docs/real-models.md).
//
// Conventions (DESIGN.md, "WebAssembly boundary"): no C++ exception crosses the boundary.
// Every binding that can fail returns a status (0: done; 1: failed) and leaves the error in
// memory, which lastError() gives as {kind, file, tensor, detail, message, what, expected,
// got, line, column} (kind: the CheckpointError kinds of safetensors.hpp, plus "value" for
// another ValueError, "memory" for an allocation that failed, "error" for anything else;
// what/expected/got/line/column: the error's numbers as safetensors.hpp's CheckpointValues set
// them where it was thrown, "" and 0 where none); the JS wrapper throws a real Error from
// it, and the module stays usable. The hot path (forward: the heads of a sentence)
// takes numbers and addresses only and leaves its results in buffers the wrapper copies out
// as fresh typed arrays; strings and `val` only on cold paths (the config, the loading steps,
// the roles and the ablation, each run once per sentence).
//
// 64-bit sizes and offsets (a file may pass 4 GB in principle) cross as doubles: exact up to
// 2^53 bytes.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <functional>
#include <string>
#include <vector>

#include "attn/checkpoint.hpp"
#include "attn/pretrained.hpp"
#include "attn/safetensors.hpp"

using emscripten::val;
namespace pt = attn::pretrained;
namespace st = attn::safetensors;

namespace {

struct LastError {
    std::string kind, file, tensor, detail, message;
    st::CheckpointValues values;
};
LastError g_error;

template <class F>
int guard(F&& f) {
    try {
        f();
        return 0;
    } catch (const st::CheckpointError& e) {
        g_error = {e.kind, e.file, e.tensor, e.detail, e.what(), e.values};
    } catch (const std::bad_alloc&) {
        g_error = {"memory", "", "", "out of memory", "out of memory: the weights do not fit in the memory this tab can give", {}};
    } catch (const attn::ValueError& e) {
        g_error = {"value", "", "", e.what(), e.what(), {}};
    } catch (const std::exception& e) {
        g_error = {"error", "", "", e.what(), e.what(), {}};
    } catch (...) {
        g_error = {"error", "", "", "unknown error", "unknown error", {}};
    }
    return 1;
}

val lastError() {
    val o = val::object();
    o.set("kind", g_error.kind);
    o.set("file", g_error.file);
    o.set("tensor", g_error.tensor);
    o.set("detail", g_error.detail);
    o.set("message", g_error.message);
    o.set("what", g_error.values.what);
    o.set("expected", g_error.values.expected);
    o.set("got", g_error.values.got);
    o.set("line", double(g_error.values.line));
    o.set("column", double(g_error.values.column));
    return o;
}

// ---- memory the wrapper writes into (token ids, header bytes) ----------------------------------
std::uintptr_t allocate(double bytes) {
    void* p = std::malloc(bytes > 0 ? std::size_t(bytes) : 1);
    return reinterpret_cast<std::uintptr_t>(p);
}
void release(std::uintptr_t p) { std::free(reinterpret_cast<void*>(p)); }

// ---- loading ----------------------------------------------------------------------------------
std::unique_ptr<pt::Loader> g_loader;
pt::Config g_config;

const char* activation_name(pt::Activation a) {
    switch (a) {
        case pt::Activation::GeluErf: return "gelu";
        case pt::Activation::GeluTanh: return "gelu_tanh";
        case pt::Activation::Relu: return "relu";
    }
    return "";
}

val config_object(const pt::Config& c) {
    val o = val::object();
    o.set("modelType", c.model_type);
    o.set("layers", double(c.layers));
    o.set("heads", double(c.heads));
    o.set("dModel", double(c.d_model));
    o.set("dFf", double(c.d_ff));
    o.set("positions", double(c.positions));
    o.set("vocab", double(c.vocab));
    o.set("typeVocab", double(c.type_vocab));
    o.set("layerNormEps", c.layer_norm_eps);
    o.set("activation", std::string(activation_name(c.activation)));
    o.set("activationName", c.activation_name);
    o.set("bos", c.bos_token_id);
    o.set("eos", c.eos_token_id);
    o.set("pad", c.pad_token_id);
    return o;
}

// config.json's text: the config (checked) and a fresh Loader for it.
int loadBegin(const std::string& json) {
    return guard([&] {
        g_loader.reset();
        g_config = pt::parse_config(json);
        g_loader = std::make_unique<pt::Loader>(g_config);
    });
}
val loadConfig() { return config_object(g_config); }
int loadIndex(const std::string& json) {
    return guard([&] {
        if (!g_loader) throw st::CheckpointError("state", "", "", "no load begun");
        g_loader->set_index(json);
    });
}
// N of a file's first bytes (at addr, n of them), or −1 (lastError).
double headerLength(std::uintptr_t addr, double n, double file_size, const std::string& name) {
    double out = -1;
    guard([&] {
        out = double(st::header_length(reinterpret_cast<const std::uint8_t*>(addr), std::size_t(n),
                                       std::uint64_t(file_size), name));
    });
    return out;
}
int loadAddFile(const std::string& name, double file_size, std::uintptr_t header, double n) {
    return guard([&] {
        if (!g_loader) throw st::CheckpointError("state", "", "", "no load begun");
        g_loader->add_file(name, std::uint64_t(file_size), reinterpret_cast<const std::uint8_t*>(header), std::size_t(n));
    });
}
int loadPlan() {
    return guard([&] {
        if (!g_loader) throw st::CheckpointError("state", "", "", "no load begun");
        g_loader->plan();
    });
}
double loadChunks() { return g_loader ? double(g_loader->chunks()) : 0; }
val loadChunk(double i) {
    const pt::Loader::Chunk& c = g_loader->chunk(std::size_t(i));
    val o = val::object();
    o.set("file", double(c.file));
    o.set("fileName", c.file_name);
    o.set("tensor", c.tensor);
    o.set("offset", double(c.offset));
    o.set("bytes", double(c.bytes));
    return o;
}
// Where chunk i's bytes go (0 and lastError when it cannot be given).
std::uintptr_t loadDestination(double i) {
    std::uintptr_t out = 0;
    guard([&] { out = reinterpret_cast<std::uintptr_t>(g_loader->destination(std::size_t(i))); });
    return out;
}
int loadCommit(double i) {
    return guard([&] { g_loader->commit(std::size_t(i)); });
}
val loadProgress() {
    val o = val::object();
    if (!g_loader) return o;
    o.set("bytesDone", double(g_loader->bytes_done()));
    o.set("bytesTotal", double(g_loader->bytes_total()));
    o.set("tensorsDone", double(g_loader->tensors_done()));
    o.set("tensorsTotal", double(g_loader->tensors_total()));
    return o;
}

std::map<int, std::unique_ptr<pt::Model>> g_models;
int g_next_model = 1;

const pt::Model& model_of(int id) {
    auto it = g_models.find(id);
    if (it == g_models.end()) throw st::CheckpointError("state", "", "", "no model " + std::to_string(id));
    return *it->second;
}

// The loaded model's handle (> 0), or −1 (lastError). The loader is spent either way.
int loadFinish() {
    int id = -1;
    guard([&] {
        if (!g_loader) throw st::CheckpointError("state", "", "", "no load begun");
        auto m = std::make_unique<pt::Model>(g_loader->finish());
        id = g_next_model++;
        g_models[id] = std::move(m);
    });
    g_loader.reset();
    return id;
}
// A load cancelled or failed: its weights freed.
void loadAbort() { g_loader.reset(); }

int weightsFileName(const std::string& name) {
    return guard([&] { st::check_weights_file_name(name); });
}

val modelInfo(int id) {
    val o = val::null();
    guard([&] {
        const pt::Model& m = model_of(id);
        o = config_object(m.config);
        o.set("prefix", m.prefix);
        val ignored = val::array();
        for (const std::string& s : m.ignored) ignored.call<void>("push", s);
        o.set("ignored", ignored);
        o.set("weightBytes", double(m.weight_bytes()));
        o.set("parameters", double(m.weight_bytes() / 4));
        o.set("hasMlmHead", m.weights.has_mlm_head);
        o.set("untiedLmHead", m.weights.lm_head.rows() > 0);
    });
    return o;
}
int modelFree(int id) {
    return guard([&] {
        if (!g_models.erase(id)) throw st::CheckpointError("state", "", "", "no model " + std::to_string(id));
    });
}
double modelCount() { return double(g_models.size()); }

// ---- the heads of a sentence (hot path) ---------------------------------------------------------
std::vector<int> ints(std::uintptr_t addr, double n) {
    const std::int32_t* p = reinterpret_cast<const std::int32_t*>(addr);
    return addr && n > 0 ? std::vector<int>(p, p + std::size_t(n)) : std::vector<int>{};
}

// The last forward's results, packed: weights [layer][head][i][j], value norms
// [layer][head][j], rollout [i][j].
std::vector<float> g_weights, g_norms, g_rollout;

// tokens: T int32 at addr; types: T int32 or 0 (BERT's token types; none: all 0); zeroed: the
// head (layer·heads + head) switched off, −1 for none; flags: 1 value norms, 2 rollout.
int forward(int id, std::uintptr_t tokens, double T, std::uintptr_t types, int zeroed, int flags) {
    return guard([&] {
        const pt::Model& m = model_of(id);
        pt::ForwardOptions o;
        o.keep_weights = true;
        o.value_norms = flags & 1;
        if (types) o.token_types = ints(types, T);
        const std::size_t L = m.config.layers, H = m.config.heads;
        if (zeroed >= 0) {
            if (std::size_t(zeroed) >= L * H)
                throw st::CheckpointError("input", "", "", "no head " + std::to_string(zeroed) + " to switch off");
            o.zeroed.assign(L * H, false);
            o.zeroed[std::size_t(zeroed)] = true;
        }
        pt::ForwardResult r = pt::forward(m, ints(tokens, T), o);
        const std::size_t n = r.tokens.size();
        g_weights.resize(L * H * n * n);
        float* w = g_weights.data();
        for (std::size_t l = 0; l < L; ++l)
            for (std::size_t h = 0; h < H; ++h) {
                const attn::Matrix& P = r.weights[l][h];
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t j = 0; j < n; ++j) *w++ = P(i, j);
            }
        g_norms.clear();
        if (o.value_norms) {
            g_norms.reserve(L * H * n);
            for (std::size_t l = 0; l < L; ++l)
                for (std::size_t h = 0; h < H; ++h)
                    for (double x : r.value_norm[l][h]) g_norms.push_back(float(x));
        }
        g_rollout.clear();
        if (flags & 2) {
            attn::Matrix R = pt::rollout(r);
            g_rollout.resize(n * n);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j) g_rollout[i * n + j] = R(i, j);
        }
    });
}
std::uintptr_t resultWeights() { return reinterpret_cast<std::uintptr_t>(g_weights.data()); }
double resultWeightsLength() { return double(g_weights.size()); }
std::uintptr_t resultNorms() { return reinterpret_cast<std::uintptr_t>(g_norms.data()); }
double resultNormsLength() { return double(g_norms.size()); }
std::uintptr_t resultRollout() { return reinterpret_cast<std::uintptr_t>(g_rollout.data()); }
double resultRolloutLength() { return double(g_rollout.size()); }

// ---- losses, ablation, roles (once per sentence) ------------------------------------------------
val loss_object(const pt::Loss& l) {
    val o = val::object();
    o.set("nats", l.nats);
    o.set("scored", double(l.scored));
    o.set("loss", l.loss());
    return o;
}

// The last cold call's result (read once by lastResult()).
std::optional<val> g_result;
val lastResult() {
    val r = g_result ? *g_result : val::null();
    g_result.reset();
    return r;
}

int loss(int id, std::uintptr_t tokens, double T, std::uintptr_t targets, std::uintptr_t types, int zeroed) {
    return guard([&] {
        const pt::Model& m = model_of(id);
        std::vector<bool> z;
        if (zeroed >= 0) {
            z.assign(m.config.layers * m.config.heads, false);
            if (std::size_t(zeroed) >= z.size())
                throw st::CheckpointError("input", "", "", "no head " + std::to_string(zeroed) + " to switch off");
            z[std::size_t(zeroed)] = true;
        }
        g_result = loss_object(pt::loss(m, ints(tokens, T), ints(targets, T), z, types ? ints(types, T) : std::vector<int>{}));
    });
}

// Heads first..end−1 (layer-major; end < 0: every head) switched off in turn; progress(done,
// total) after each stack of heads. baseScored ≥ 0: the base loss of an earlier piece
// (ablate_range), not computed again.
int ablate(int id, std::uintptr_t tokens, double T, std::uintptr_t targets, std::uintptr_t types, double first,
           double end, double baseNats, double baseScored, val progress) {
    return guard([&] {
        const pt::Model& m = model_of(id);
        std::function<void(std::size_t, std::size_t)> cb;
        if (progress.typeOf().as<std::string>() == "function")
            cb = [&](std::size_t done, std::size_t total) { progress(double(done), double(total)); };
        const double all = double(m.config.layers * m.config.heads);
        if (first < 0 || end > all || (end >= 0 && first > end))
            throw st::CheckpointError("input", "", "", "no heads " + std::to_string(first) + ".." + std::to_string(end));
        pt::Loss given;
        given.nats = baseNats;
        given.scored = baseScored >= 0 ? std::size_t(baseScored) : 0;
        pt::AblationReport rep = pt::ablate_range(m, ints(tokens, T), ints(targets, T), std::size_t(first),
                                                  std::size_t(end < 0 ? all : end), baseScored >= 0 ? &given : nullptr,
                                                  types ? ints(types, T) : std::vector<int>{}, cb);
        const std::size_t n = rep.heads.size();
        std::vector<double> delta(n), nats(n);
        for (std::size_t k = 0; k < n; ++k) {
            delta[k] = rep.heads[k].delta;
            nats[k] = rep.heads[k].loss.loss();
        }
        val o = val::object();
        o.set("base", loss_object(rep.base));
        o.set("delta", val::global("Float64Array").new_(emscripten::typed_memory_view(n, delta.data())));
        o.set("loss", val::global("Float64Array").new_(emscripten::typed_memory_view(n, nats.data())));
        g_result = o;
    });
}

// Roles: pattern scores on the sentence (tokens), induction and duplicate-token on
// `sequences` random sequences of `repeat` distinct ids of the pool (n ids at pool; 0: every
// id but the special ones), bos/eos as RealRoleOptions (−1: the config's).
int roles(int id, std::uintptr_t tokens, double T, std::uintptr_t pool, double n, int bos, int eos, double sequences,
          double repeat, double seed) {
    return guard([&] {
        const pt::Model& m = model_of(id);
        pt::RealRoleOptions o;
        o.bos = bos;
        o.eos = eos;
        o.pool = ints(pool, n);
        if (sequences > 0) o.sequences = std::size_t(sequences);
        if (repeat > 0) o.repeat_length = std::size_t(repeat);
        o.roles.seed = std::uint64_t(seed);
        pt::RealRoleReport rep = pt::head_roles(m, {ints(tokens, T)}, o);
        val layers = val::array();
        for (const auto& L : rep.layers) {
            val hs = val::array();
            for (const pt::RealHeadRoles& h : L) {
                val x = val::object();
                x.set("previousToken", h.previous_token);
                x.set("firstToken", h.first_token);
                x.set("local", h.local);
                x.set("induction", h.induction);
                x.set("duplicateToken", h.duplicate_token);
                x.set("role", h.role);
                val all = val::array();
                for (const std::string& r : h.roles) all.call<void>("push", r);
                x.set("roles", all);
                hs.call<void>("push", x);
            }
            layers.call<void>("push", hs);
        }
        val o2 = val::object();
        o2.set("layers", layers);
        o2.set("rows", double(rep.rows));
        o2.set("repeatRows", double(rep.repeat_rows));
        o2.set("unnamed", double(rep.unnamed));
        o2.set("thresholds", [&] {
            val t = val::object();
            t.set("previousToken", o.roles.previous_token);
            t.set("firstToken", o.roles.first_token);
            t.set("local", o.roles.local);
            t.set("induction", o.roles.induction);
            t.set("duplicateToken", o.duplicate_token);
            t.set("firstRow", double(o.roles.first_row));
            t.set("window", double(o.roles.window));
            return t;
        }());
        o2.set("sequences", double(rep.random_sequences.size()));
        o2.set("repeatLength", double(o.repeat_length));
        g_result = o2;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_pretrained) {
    using emscripten::function;
    function("lastError", &lastError);
    function("allocate", &allocate);
    function("release", &release);
    function("loadBegin", &loadBegin);
    function("loadConfig", &loadConfig);
    function("loadIndex", &loadIndex);
    function("headerLength", &headerLength);
    function("loadAddFile", &loadAddFile);
    function("loadPlan", &loadPlan);
    function("loadChunks", &loadChunks);
    function("loadChunk", &loadChunk);
    function("loadDestination", &loadDestination);
    function("loadCommit", &loadCommit);
    function("loadProgress", &loadProgress);
    function("loadFinish", &loadFinish);
    function("loadAbort", &loadAbort);
    function("weightsFileName", &weightsFileName);
    function("modelInfo", &modelInfo);
    function("modelFree", &modelFree);
    function("modelCount", &modelCount);
    function("forward", &forward);
    function("resultWeights", &resultWeights);
    function("resultWeightsLength", &resultWeightsLength);
    function("resultNorms", &resultNorms);
    function("resultNormsLength", &resultNormsLength);
    function("resultRollout", &resultRollout);
    function("resultRolloutLength", &resultRolloutLength);
    function("loss", &loss);
    function("ablate", &ablate);
    function("roles", &roles);
    function("lastResult", &lastResult);
}

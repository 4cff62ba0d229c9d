// Loading a GPT-2 or BERT checkpoint tensor by tensor (checkpoint.hpp: Loader).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <new>
#include <optional>
#include <set>

#include "attn/checkpoint.hpp"

namespace attn::pretrained {

using safetensors::DType;
using safetensors::Header;
using safetensors::TensorInfo;

namespace {

[[noreturn]] void fail(const char* kind, const std::string& file, const std::string& tensor, const std::string& detail,
                       CheckpointValues values = {}) {
    throw CheckpointError(kind, file, tensor, detail, std::move(values));
}

std::string shape_text(const std::vector<std::uint64_t>& s) {
    std::string t = "[";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
}

// One tensor the model needs: its names (alternatives, e.g. LayerNorm weight or gamma), its
// shape, where it goes.
struct Need {
    std::vector<std::string> names;  // full names, prefix included
    std::vector<std::uint64_t> shape;
    Matrix* dest = nullptr;
    bool optional = false;
    std::string group;  // optional tensors loaded all together or not at all ("mlm")
};

struct Planned {
    std::size_t file = 0;
    const TensorInfo* info = nullptr;
    Matrix* dest = nullptr;
    std::uint64_t committed = 0;  // bytes
};

}  // namespace

struct Loader::State {
    Config config;
    std::optional<safetensors::ShardIndex> index;
    std::string index_file;
    std::vector<Header> files;
    Model model;
    std::vector<Planned> planned;
    std::vector<Chunk> chunks;
    std::vector<std::size_t> chunk_tensor;  // chunk -> planned index
    std::vector<bool> chunk_done;
    std::vector<std::uint8_t> scratch;
    std::uint64_t bytes_total = 0, bytes_done = 0;
    std::size_t tensors_done = 0;
    enum class Step { Files, Chunks, Finished } step = Step::Files;
    bool broken = false;
};

std::uint64_t Model::weight_bytes() const {
    std::uint64_t n = 0;
    auto add = [&](const Matrix& m) { n += std::uint64_t(m.size()) * 4; };
    const Weights& w = weights;
    for (const Matrix* m : {&w.tok_emb, &w.pos_emb, &w.type_emb, &w.emb_ln_g, &w.emb_ln_b, &w.lnf_g, &w.lnf_b, &w.lm_head,
                            &w.mlm_dense, &w.mlm_dense_b, &w.mlm_ln_g, &w.mlm_ln_b, &w.mlm_decoder, &w.mlm_bias})
        add(*m);
    for (const auto& l : w.layers)
        for (const Matrix* m : {&l.ln1_g, &l.ln1_b, &l.ln2_g, &l.ln2_b, &l.qkv, &l.qkv_b, &l.q, &l.q_b, &l.k, &l.k_b,
                                &l.v, &l.v_b, &l.proj, &l.proj_b, &l.fc, &l.fc_b, &l.out, &l.out_b})
            add(*m);
    return n;
}

Loader::Loader(Config config) : s_(std::make_unique<State>()) {
    s_->config = std::move(config);
    s_->model.config = s_->config;
}
Loader::~Loader() = default;
Loader::Loader(Loader&&) noexcept = default;
Loader& Loader::operator=(Loader&&) noexcept = default;

namespace {
void check_state(bool broken, bool ok, const char* what) {
    if (broken) fail("state", "", "", std::string("the loader stopped at an error before; make a new one (") + what + ")");
    if (!ok) fail("state", "", "", std::string(what) + " called out of order");
}
}  // namespace

void Loader::set_index(std::string_view json, const std::string& file) {
    check_state(s_->broken, s_->step == State::Step::Files && !s_->index, "set_index");
    try {
        s_->index = safetensors::parse_index(json, file);
        s_->index_file = file;
    } catch (...) {
        s_->broken = true;
        throw;
    }
}

void Loader::add_file(const std::string& name, std::uint64_t file_size, const std::uint8_t* header_json, std::size_t n) {
    check_state(s_->broken, s_->step == State::Step::Files, "add_file");
    try {
        for (const auto& f : s_->files)
            if (f.file == name) fail("state", name, "", "the file was given twice");
        s_->files.push_back(safetensors::parse_header(header_json, n, file_size, name));
    } catch (...) {
        s_->broken = true;
        throw;
    }
}

namespace {

// The tensors a configuration needs, the prefix chosen from the names the files hold.
std::vector<Need> needs(const Config& c, Weights& w, const std::string& p) {
    std::vector<Need> out;
    const std::uint64_t d = c.d_model, f = c.d_ff, V = c.vocab;
    auto need = [&](std::vector<std::string> names, std::vector<std::uint64_t> shape, Matrix* dest, bool optional = false,
                    std::string group = {}) {
        out.push_back({std::move(names), std::move(shape), dest, optional, std::move(group)});
    };
    auto ln = [&](const std::string& base, Matrix* g, Matrix* b, bool optional = false, const std::string& group = {}) {
        need({base + ".weight", base + ".gamma"}, {d}, g, optional, group);
        need({base + ".bias", base + ".beta"}, {d}, b, optional, group);
    };
    w.layers.resize(c.layers);
    if (c.arch == Architecture::GPT2) {
        need({p + "wte.weight"}, {V, d}, &w.tok_emb);
        need({p + "wpe.weight"}, {c.positions, d}, &w.pos_emb);
        for (std::size_t l = 0; l < c.layers; ++l) {
            const std::string h = p + "h." + std::to_string(l) + ".";
            LayerWeights& L = w.layers[l];
            need({h + "ln_1.weight"}, {d}, &L.ln1_g);
            need({h + "ln_1.bias"}, {d}, &L.ln1_b);
            need({h + "attn.c_attn.weight"}, {d, 3 * d}, &L.qkv);
            need({h + "attn.c_attn.bias"}, {3 * d}, &L.qkv_b);
            need({h + "attn.c_proj.weight"}, {d, d}, &L.proj);
            need({h + "attn.c_proj.bias"}, {d}, &L.proj_b);
            need({h + "ln_2.weight"}, {d}, &L.ln2_g);
            need({h + "ln_2.bias"}, {d}, &L.ln2_b);
            need({h + "mlp.c_fc.weight"}, {d, f}, &L.fc);
            need({h + "mlp.c_fc.bias"}, {f}, &L.fc_b);
            need({h + "mlp.c_proj.weight"}, {f, d}, &L.out);
            need({h + "mlp.c_proj.bias"}, {d}, &L.out_b);
        }
        need({p + "ln_f.weight"}, {d}, &w.lnf_g);
        need({p + "ln_f.bias"}, {d}, &w.lnf_b);
        need({"lm_head.weight"}, {V, d}, &w.lm_head, true, "lm_head");
    } else {
        const std::string e = p + "embeddings.";
        need({e + "word_embeddings.weight"}, {V, d}, &w.tok_emb);
        need({e + "position_embeddings.weight"}, {c.positions, d}, &w.pos_emb);
        need({e + "token_type_embeddings.weight"}, {c.type_vocab, d}, &w.type_emb);
        ln(e + "LayerNorm", &w.emb_ln_g, &w.emb_ln_b);
        for (std::size_t l = 0; l < c.layers; ++l) {
            const std::string h = p + "encoder.layer." + std::to_string(l) + ".";
            LayerWeights& L = w.layers[l];
            need({h + "attention.self.query.weight"}, {d, d}, &L.q);
            need({h + "attention.self.query.bias"}, {d}, &L.q_b);
            need({h + "attention.self.key.weight"}, {d, d}, &L.k);
            need({h + "attention.self.key.bias"}, {d}, &L.k_b);
            need({h + "attention.self.value.weight"}, {d, d}, &L.v);
            need({h + "attention.self.value.bias"}, {d}, &L.v_b);
            need({h + "attention.output.dense.weight"}, {d, d}, &L.proj);
            need({h + "attention.output.dense.bias"}, {d}, &L.proj_b);
            ln(h + "attention.output.LayerNorm", &L.ln1_g, &L.ln1_b);
            need({h + "intermediate.dense.weight"}, {f, d}, &L.fc);
            need({h + "intermediate.dense.bias"}, {f}, &L.fc_b);
            need({h + "output.dense.weight"}, {d, f}, &L.out);
            need({h + "output.dense.bias"}, {d}, &L.out_b);
            ln(h + "output.LayerNorm", &L.ln2_g, &L.ln2_b);
        }
        need({"cls.predictions.transform.dense.weight"}, {d, d}, &w.mlm_dense, true, "mlm");
        need({"cls.predictions.transform.dense.bias"}, {d}, &w.mlm_dense_b, true, "mlm");
        ln("cls.predictions.transform.LayerNorm", &w.mlm_ln_g, &w.mlm_ln_b, true, "mlm");
        need({"cls.predictions.bias"}, {V}, &w.mlm_bias, true, "mlm");
        need({"cls.predictions.decoder.weight"}, {V, d}, &w.mlm_decoder, true, "decoder");
    }
    return out;
}

// Where each name sits: (file index, tensor) for every tensor of every file.
using NameMap = std::map<std::string, std::pair<std::size_t, const TensorInfo*>>;

// The largest layer index among names "<prefix><infix><l>." (−1 for none).
long max_layer(const NameMap& names, const std::string& stem) {
    long best = -1;
    for (const auto& [name, where] : names) {
        if (name.compare(0, stem.size(), stem) != 0) continue;
        std::size_t i = stem.size();
        long v = 0;
        bool digits = false;
        while (i < name.size() && name[i] >= '0' && name[i] <= '9' && v < 1000000) v = v * 10 + (name[i++] - '0'), digits = true;
        if (digits && i < name.size() && name[i] == '.') best = std::max(best, v);
    }
    return best;
}

}  // namespace

void Loader::plan() {
    check_state(s_->broken, s_->step == State::Step::Files, "plan");
    State& s = *s_;
    try {
        if (s.files.empty()) fail("missing", "model.safetensors", "", "no safetensors file was given");
        // Every name once, in the file the index says.
        NameMap names;
        for (std::size_t fi = 0; fi < s.files.size(); ++fi)
            for (const auto& t : s.files[fi].tensors) {
                auto [it, fresh] = names.emplace(t.name, std::make_pair(fi, &t));
                if (!fresh)
                    fail(s.index ? "index" : "layout", s.files[fi].file, t.name,
                         "the tensor is also in " + s.files[it->second.first].file + " (a tensor belongs to one file)");
            }
        if (s.index) {
            for (const auto& f : s.index->files) {
                bool given = false;
                for (const auto& h : s.files) given = given || h.file == f;
                if (!given) fail("missing", f, "", s.index_file + " lists this shard, but it was not given");
            }
            for (const auto& [name, file] : s.index->weight_map) {
                const auto it = names.find(name);
                if (it == names.end()) fail("index", file, name, s.index_file + " puts the tensor in this file, which does not hold it");
                if (s.files[it->second.first].file != file)
                    fail("index", s.files[it->second.first].file, name,
                         s.index_file + " puts the tensor in " + file + ", but it is in this file");
            }
        }
        const Config& c = s.config;
        const std::string& first_file = s.files[0].file;
        auto has = [&](const std::string& n) { return names.count(n) != 0; };
        // Prefix, and weights of the other architecture.
        std::string p;
        if (c.arch == Architecture::GPT2) {
            if (has("transformer.wte.weight")) p = "transformer.";
            else if (!has("wte.weight")) {
                if (has("bert.embeddings.word_embeddings.weight") || has("embeddings.word_embeddings.weight"))
                    fail("config", first_file, "", "config.json says gpt2, but these weights are a BERT model's (embeddings.word_embeddings.weight)",
                         {"model_type", "gpt2", "bert"});
                fail("missing", first_file, "wte.weight", "GPT-2's token embedding (wte.weight or transformer.wte.weight) is not in the weights");
            }
        } else {
            if (has("bert.embeddings.word_embeddings.weight")) p = "bert.";
            else if (!has("embeddings.word_embeddings.weight")) {
                if (has("transformer.wte.weight") || has("wte.weight"))
                    fail("config", first_file, "", "config.json says bert, but these weights are a GPT-2 model's (wte.weight)",
                         {"model_type", "bert", "gpt2"});
                fail("missing", first_file, "embeddings.word_embeddings.weight",
                     "BERT's word embedding (embeddings.word_embeddings.weight, with or without bert.) is not in the weights");
            }
        }
        s.model.prefix = p;
        // Layer count against config.json.
        const std::string stem = c.arch == Architecture::GPT2 ? p + "h." : p + "encoder.layer.";
        const long top = max_layer(names, stem);
        if (top + 1 != long(c.layers))
            fail("config", first_file, "",
                 "config.json says " + std::to_string(c.layers) + " layers, but the weights have " + std::to_string(top + 1) +
                     (top >= 0 ? " (" + stem + "0 .. " + stem + std::to_string(top) + ")" : std::string()),
                 {"layers", std::to_string(c.layers), std::to_string(top + 1)});
        // Vocabulary against config.json (before any other shape).
        {
            const std::string emb = c.arch == Architecture::GPT2 ? p + "wte.weight" : p + "embeddings.word_embeddings.weight";
            const auto& [fi, t] = names.at(emb);
            if (t->shape.size() == 2 && t->shape[0] != c.vocab)
                fail("vocab", s.files[fi].file, emb,
                     "config.json's vocab_size is " + std::to_string(c.vocab) + ", but the embedding has " +
                         std::to_string(t->shape[0]) + " rows",
                     {"vocab_size", std::to_string(c.vocab), std::to_string(t->shape[0])});
            if (t->shape.size() == 2 && t->shape[1] != c.d_model)
                fail("config", s.files[fi].file, emb,
                     "config.json's d_model is " + std::to_string(c.d_model) + ", but the embedding has " +
                         std::to_string(t->shape[1]) + " columns",
                     {"d_model", std::to_string(c.d_model), std::to_string(t->shape[1])});
        }
        std::vector<Need> list = needs(c, s.model.weights, p);
        // Optional groups: present only if all of them are (names resolved below).
        std::map<std::string, bool> group_ok;
        auto resolve = [&](const Need& n) -> const std::string* {
            for (const auto& name : n.names)
                if (has(name)) return &name;
            return nullptr;
        };
        for (const Need& n : list)
            if (n.optional) {
                auto it = group_ok.emplace(n.group, true).first;
                it->second = it->second && resolve(n) != nullptr;
            }
        if (c.arch == Architecture::BERT) {
            s.model.weights.has_mlm_head = group_ok["mlm"];
            if (!group_ok["mlm"]) group_ok["decoder"] = false;
        }
        std::set<std::string> used;
        for (const Need& n : list) {
            if (n.optional && !group_ok[n.group]) continue;
            const std::string* name = resolve(n);
            if (!name) {
                std::string alt;
                for (std::size_t i = 1; i < n.names.size(); ++i) alt += " or " + n.names[i];
                fail("missing", first_file, n.names[0], "the tensor" + alt + " is not in the weights (" + c.model_type + " needs it)");
            }
            const auto& [fi, t] = names.at(*name);
            const std::string& file = s.files[fi].file;
            if (!safetensors::is_float_dtype(t->dtype))
                fail("dtype", file, *name,
                     std::string("its dtype is ") + safetensors::dtype_name(t->dtype) +
                         "; this core reads weights in F32, F16 or BF16",
                     {"dtype", "", safetensors::dtype_name(t->dtype)});
            if (t->shape != n.shape)
                fail("shape", file, *name,
                     "its shape is " + t->shape_text() + ", but config.json implies " + shape_text(n.shape),
                     {"shape", shape_text(n.shape), t->shape_text()});
            used.insert(*name);
            s.planned.push_back({fi, t, n.dest, 0});
        }
        for (const auto& [name, where] : names)
            if (!used.count(name)) s.model.ignored.push_back(name);
        // Allocate every tensor once (rows x cols; a vector is 1 x n).
        try {
            for (Planned& pl : s.planned) {
                const auto& sh = pl.info->shape;
                const std::size_t rows = sh.size() == 2 ? std::size_t(sh[0]) : 1;
                const std::size_t cols = std::size_t(sh.size() == 2 ? sh[1] : sh[0]);
                *pl.dest = Matrix(rows, cols);
            }
        } catch (const std::bad_alloc&) {
            fail("memory", first_file, "",
                 "not enough memory for the model's " + std::to_string(c.parameters() * 4 / 1000000) + " MB of f32 weights");
        } catch (const SizeError& e) {
            fail("memory", first_file, "", e.what());
        }
        // Chunks, file by file in offset order.
        std::vector<std::size_t> order(s.planned.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const Planned &x = s.planned[a], &y = s.planned[b];
            return x.file != y.file ? x.file < y.file : x.info->begin < y.info->begin;
        });
        for (std::size_t pi : order) {
            const Planned& pl = s.planned[pi];
            const std::uint64_t total = pl.info->bytes();
            for (std::uint64_t at = 0; at < total; at += kChunkBytes) {
                Chunk ch;
                ch.file = pl.file;
                ch.file_name = s.files[pl.file].file;
                ch.tensor = pl.info->name;
                ch.offset = pl.info->begin + at;
                ch.bytes = std::min(kChunkBytes, total - at);
                s.chunks.push_back(std::move(ch));
                s.chunk_tensor.push_back(pi);
            }
            s.bytes_total += total;
        }
        s.chunk_done.assign(s.chunks.size(), false);
        s.step = State::Step::Chunks;
    } catch (...) {
        s.broken = true;
        throw;
    }
}

std::size_t Loader::chunks() const { return s_->chunks.size(); }

const Loader::Chunk& Loader::chunk(std::size_t i) const {
    if (i >= s_->chunks.size()) fail("state", "", "", "chunk " + std::to_string(i) + " of " + std::to_string(s_->chunks.size()));
    return s_->chunks[i];
}

std::uint8_t* Loader::destination(std::size_t i) {
    check_state(s_->broken, s_->step == State::Step::Chunks, "destination");
    const Chunk& ch = chunk(i);
    const Planned& pl = s_->planned[s_->chunk_tensor[i]];
    if (pl.info->dtype == DType::F32)
        return reinterpret_cast<std::uint8_t*>(pl.dest->data()) + (ch.offset - pl.info->begin);
    if (s_->scratch.size() < ch.bytes) s_->scratch.resize(std::size_t(kChunkBytes));
    return s_->scratch.data();
}

void Loader::commit(std::size_t i) {
    check_state(s_->broken, s_->step == State::Step::Chunks, "commit");
    State& s = *s_;
    const Chunk& ch = chunk(i);
    if (s.chunk_done[i]) fail("state", ch.file_name, ch.tensor, "chunk " + std::to_string(i) + " was committed twice");
    Planned& pl = s.planned[s.chunk_tensor[i]];
    const std::size_t esize = safetensors::dtype_size(pl.info->dtype);
    const std::size_t first = std::size_t((ch.offset - pl.info->begin) / esize), n = std::size_t(ch.bytes / esize);
    float* dst = pl.dest->data() + first;
    if (pl.info->dtype != DType::F32) {
        if (s.scratch.size() < ch.bytes) {
            s.broken = true;
            fail("state", ch.file_name, ch.tensor, "commit before destination");
        }
        safetensors::to_f32(pl.info->dtype, s.scratch.data(), n, dst);
    }
    for (std::size_t k = 0; k < n; ++k)
        if (!std::isfinite(dst[k])) {
            s.broken = true;
            const std::uint64_t e = first + k;
            const std::uint64_t cols = pl.dest->cols();
            fail("nonfinite", ch.file_name, ch.tensor,
                 "element [" + (pl.dest->rows() > 1 ? std::to_string(e / cols) + ", " : std::string()) +
                     std::to_string(e % cols) + "] is " + (std::isnan(dst[k]) ? "NaN" : "infinite") +
                     " (a corrupt file, or one saved from a diverged run)");
        }
    s.chunk_done[i] = true;
    pl.committed += ch.bytes;
    s.bytes_done += ch.bytes;
    if (pl.committed == pl.info->bytes()) ++s.tensors_done;
}

std::uint64_t Loader::bytes_total() const { return s_->bytes_total; }
std::uint64_t Loader::bytes_done() const { return s_->bytes_done; }
std::size_t Loader::tensors_total() const { return s_->planned.size(); }
std::size_t Loader::tensors_done() const { return s_->tensors_done; }

Model Loader::finish() {
    check_state(s_->broken, s_->step == State::Step::Chunks, "finish");
    for (std::size_t i = 0; i < s_->chunks.size(); ++i)
        if (!s_->chunk_done[i])
            fail("state", s_->chunks[i].file_name, s_->chunks[i].tensor, "chunk " + std::to_string(i) + " was never committed");
    s_->step = State::Step::Finished;
    s_->scratch = {};
    return std::move(s_->model);
}

// A source's read; a failure without a file or tensor (a source that knows neither) gets the
// ones being read, so every error names both.
static void read_named(safetensors::ByteSource& src, std::uint64_t offset, std::uint8_t* dst, std::size_t n,
                       const std::string& file, const std::string& tensor) {
    try {
        src.read(offset, dst, n);
    } catch (const CheckpointError& e) {
        if (!e.file.empty() && (!e.tensor.empty() || tensor.empty())) throw;
        fail(e.kind.c_str(), e.file.empty() ? file : e.file, e.tensor.empty() ? tensor : e.tensor, e.detail, e.values);
    }
}

Model load_checkpoint(const Config& config, const std::vector<std::string>& files,
                      const std::function<safetensors::ByteSource*(const std::string&)>& open, std::string_view index_json,
                      const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
    Loader L(config);
    if (!index_json.empty()) L.set_index(index_json);
    std::vector<safetensors::ByteSource*> sources;
    for (const auto& f : files) {
        safetensors::check_weights_file_name(f);
        safetensors::ByteSource* src = open(f);
        if (!src) fail("missing", f, "", "the file is not there");
        sources.push_back(src);
        const std::uint64_t size = src->size();
        std::uint8_t first[8] = {};
        const std::size_t n = std::size_t(std::min<std::uint64_t>(size, 8));
        read_named(*src, 0, first, n, f, "");
        const std::uint64_t N = safetensors::header_length(first, n, size, f);
        std::vector<std::uint8_t> json(static_cast<std::size_t>(N));
        read_named(*src, 8, json.data(), json.size(), f, "");
        L.add_file(f, size, json.data(), json.size());
    }
    L.plan();
    for (std::size_t i = 0; i < L.chunks(); ++i) {
        const Loader::Chunk& ch = L.chunk(i);
        read_named(*sources[ch.file], ch.offset, L.destination(i), std::size_t(ch.bytes), ch.file_name, ch.tensor);
        L.commit(i);
        if (progress) progress(L.bytes_done(), L.bytes_total());
    }
    return L.finish();
}

}  // namespace attn::pretrained

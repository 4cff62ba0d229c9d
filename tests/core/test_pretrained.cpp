// Stage: pretrained checkpoints (checkpoint.hpp, pretrained.hpp). The tiny GPT-2 and BERT
// checkpoints of tests/core/data/pretrained/ against what an independent PyTorch reference
// (tools/pretrained/reference.py, float64) computed on them: every layer's attention weights,
// the value norms, the last hidden state, the logits, the loss and every head's ablation, within
// 1e-5 relative (max |ours − torch| / max |torch| per tensor) for F32, F16 and BF16 alike (F16
// and BF16 weights are widened exactly, so the arithmetic is the same f32 arithmetic); then the
// loader's steps, sharding, and every error the issue lists.
#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "helpers.hpp"
#include "pretrained_helpers.hpp"

using namespace attn;
using namespace attn::test;
using attn::pretrained::Architecture;
using attn::safetensors::CheckpointError;

namespace {

constexpr double kTolerance = 1e-5;

nlohmann::json manifest() { return nlohmann::json::parse(read_text(pretrained_dir() + "/manifest.json")); }

std::vector<int> ints(const nlohmann::json& j) { return j.get<std::vector<int>>(); }

// The CheckpointError a call throws (its kind and message), or "" when it throws none.
template <class F>
CheckpointError error_of(F&& f) {
    try {
        f();
    } catch (const CheckpointError& e) {
        return e;
    }
    return CheckpointError("", "", "", "");
}

Folder with_config(Folder f, const std::function<void(nlohmann::json&)>& edit) {
    auto j = nlohmann::json::parse(std::string(f["config.json"].begin(), f["config.json"].end()));
    edit(j);
    const std::string s = j.dump();
    f["config.json"].assign(s.begin(), s.end());
    return f;
}

Folder with_weights(Folder f, const std::function<void(std::vector<Blob>&)>& edit) {
    auto blobs = read_blobs(f["model.safetensors"]);
    edit(blobs);
    f["model.safetensors"] = write_safetensors(blobs);
    return f;
}

}  // namespace

TEST_CASE("every case matches the PyTorch reference: attention, value norms, hidden state, logits, loss, ablation", "[pretrained]") {
    const auto m = manifest();
    REQUIRE(m["cases"].size() == 6);
    for (const auto& c : m["cases"]) {
        const std::string name = c["name"];
        INFO("case " << name);
        const Folder folder = read_case(name);
        const pretrained::Model model = load_folder(folder);
        const auto tokens = ints(c["tokens"]);
        const auto types = ints(c["token_types"]);
        const auto targets = ints(c["targets"]);
        pretrained::ForwardOptions o;
        o.value_norms = true;
        o.logits = !targets.empty();
        o.token_types = types;
        const auto r = pretrained::forward(model, tokens, o);
        const std::size_t T = tokens.size(), H = model.config.heads;
        REQUIRE(r.weights.size() == model.config.layers);
        for (std::size_t l = 0; l < model.config.layers; ++l) {
            std::vector<std::uint64_t> shape;
            const auto want = expected_tensor(folder, "attn." + std::to_string(l), &shape);
            REQUIRE(shape == std::vector<std::uint64_t>{H, T, T});
            std::vector<float> got;
            for (std::size_t h = 0; h < H; ++h) {
                REQUIRE(r.weights[l][h].rows() == T);
                got.insert(got.end(), r.weights[l][h].data(), r.weights[l][h].data() + T * T);
            }
            INFO("layer " << l << " attention");
            CHECK(relative_error(got.data(), want.data(), got.size()) <= kTolerance);
            // causal: GPT-2's weights above the diagonal are exactly 0; BERT's are not
            bool upper_zero = true;
            for (std::size_t h = 0; h < H; ++h)
                for (std::size_t i = 0; i < T; ++i)
                    for (std::size_t j = i + 1; j < T; ++j) upper_zero = upper_zero && r.weights[l][h](i, j) == 0.0f;
            CHECK(upper_zero == (model.config.arch == Architecture::GPT2));
            const auto vn = expected_tensor(folder, "value_norm." + std::to_string(l));
            std::vector<float> gv;
            for (std::size_t h = 0; h < H; ++h)
                for (std::size_t j = 0; j < T; ++j) gv.push_back(float(r.value_norm[l][h][j]));
            INFO("layer " << l << " value norms");
            CHECK(relative_error(gv.data(), vn.data(), gv.size()) <= kTolerance);
        }
        const auto hidden = expected_tensor(folder, "hidden");
        REQUIRE(hidden.size() == r.hidden.size());
        CHECK(relative_error(r.hidden.data(), hidden.data(), hidden.size()) <= kTolerance);
        if (targets.empty()) {
            CHECK(expected_tensor(folder, "logits").empty());
            continue;
        }
        const auto logits = expected_tensor(folder, "logits");
        REQUIRE(logits.size() == r.logits.size());
        CHECK(relative_error(r.logits.data(), logits.data(), logits.size()) <= kTolerance);
        const double want_loss = expected_tensor(folder, "loss").at(0);
        const auto L = pretrained::loss(model, tokens, targets, {}, types);
        CHECK(std::fabs(L.loss() - want_loss) <= kTolerance * std::fabs(want_loss));
        const auto abl = expected_tensor(folder, "ablation");
        const auto rep = pretrained::ablate_heads(model, tokens, targets, types);
        REQUIRE(rep.heads.size() == abl.size());
        CHECK(rep.base.loss() == L.loss());
        for (std::size_t k = 0; k < abl.size(); ++k) {
            INFO("ablation of layer " << rep.heads[k].layer << " head " << rep.heads[k].head);
            CHECK(std::fabs(rep.heads[k].loss.loss() - abl[k]) <= kTolerance * std::fabs(abl[k]));
            // the shortcut (layers before the ablated one computed once) is the full run's loss
            std::vector<bool> z(abl.size(), false);
            z[k] = true;
            CHECK(pretrained::loss(model, tokens, targets, z, types).loss() == rep.heads[k].loss.loss());
        }
        // in pieces of 3 heads (across layer boundaries too), the base given: the same heads, bit for bit
        std::vector<pretrained::HeadAblation> pieces;
        const std::size_t n = model.config.layers * model.config.heads;
        for (std::size_t k = 0; k < n; k += 3) {
            const auto part = pretrained::ablate_range(model, tokens, targets, k, std::min(n, k + 3), k ? &rep.base : nullptr, types);
            CHECK(part.base.loss() == rep.base.loss());
            pieces.insert(pieces.end(), part.heads.begin(), part.heads.end());
        }
        REQUIRE(pieces.size() == rep.heads.size());
        for (std::size_t k = 0; k < pieces.size(); ++k) {
            CHECK(pieces[k].layer == rep.heads[k].layer);
            CHECK(pieces[k].head == rep.heads[k].head);
            CHECK(pieces[k].loss.loss() == rep.heads[k].loss.loss());
        }
        CHECK_THROWS_AS(pretrained::ablate_range(model, tokens, targets, 1, n + 1), CheckpointError);
        // the ablation moves the loss (the reference's losses differ from the base)
        CHECK(std::any_of(rep.heads.begin(), rep.heads.end(), [](const auto& a) { return std::fabs(a.delta) > 1e-4; }));
    }
}

TEST_CASE("names: with and without the transformer./bert. prefix, gamma/beta, buffers ignored, heads tied or stored", "[pretrained]") {
    const auto a = load_folder(read_case("gpt2-f32"));
    CHECK(a.prefix == "transformer.");
    CHECK(a.weights.lm_head.empty());
    const std::set<std::string> ig(a.ignored.begin(), a.ignored.end());
    CHECK(ig.count("transformer.h.0.attn.bias") == 1);
    CHECK(ig.count("transformer.h.1.attn.masked_bias") == 1);
    CHECK(load_folder(read_case("gpt2-f16")).prefix == "");
    CHECK(!load_folder(read_case("gpt2-bf16-untied")).weights.lm_head.empty());
    const auto b = load_folder(read_case("bert-f32"));
    CHECK(b.prefix == "bert.");
    CHECK(b.weights.has_mlm_head);
    CHECK(b.weights.mlm_decoder.empty());  // tied to the word embeddings
    const std::set<std::string> bi(b.ignored.begin(), b.ignored.end());
    CHECK(bi.count("bert.embeddings.position_ids") == 1);  // I64: listed, not refused
    CHECK(bi.count("cls.seq_relationship.weight") == 1);
    CHECK(!load_folder(read_case("bert-f16")).weights.mlm_decoder.empty());
    const auto e = load_folder(read_case("bert-bf16-encoder"));
    CHECK(e.prefix == "");
    CHECK(!e.weights.has_mlm_head);
    CHECK(e.weight_bytes() == e.config.parameters() * 4);
    CHECK(a.weight_bytes() == a.config.parameters() * 4);
}

TEST_CASE("a sharded checkpoint (model.safetensors.index.json) loads to the same weights", "[pretrained]") {
    Folder f = read_case("gpt2-f32");
    const auto blobs = read_blobs(f["model.safetensors"]);
    std::vector<Blob> one(blobs.begin(), blobs.begin() + std::ptrdiff_t(blobs.size() / 2)),
        two(blobs.begin() + std::ptrdiff_t(blobs.size() / 2), blobs.end());
    f["model-00001-of-00002.safetensors"] = write_safetensors(one);
    f["model-00002-of-00002.safetensors"] = write_safetensors(two);
    nlohmann::json idx = {{"metadata", {{"total_size", 0}}}, {"weight_map", nlohmann::json::object()}};
    for (const auto& b : one) idx["weight_map"][b.name] = "model-00001-of-00002.safetensors";
    for (const auto& b : two) idx["weight_map"][b.name] = "model-00002-of-00002.safetensors";
    auto put = [&](const nlohmann::json& j) {
        const std::string s = j.dump();
        f["model.safetensors.index.json"].assign(s.begin(), s.end());
    };
    put(idx);
    const std::vector<std::string> shards = {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"};
    const auto sharded = load_folder(f, shards, "model.safetensors.index.json");
    const auto whole = load_folder(f);
    const std::vector<int> tokens = {1, 2, 3, 4, 5};
    const auto x = pretrained::forward(sharded, tokens), y = pretrained::forward(whole, tokens);
    CHECK(std::memcmp(x.hidden.data(), y.hidden.data(), x.hidden.size() * 4) == 0);

    // a shard the index lists but nobody gave
    CHECK(error_of([&] { load_folder(f, {shards[0]}, "model.safetensors.index.json"); }).kind == "missing");
    // the index puts a tensor in the other shard
    idx["weight_map"][one[0].name] = shards[1];
    put(idx);
    const auto e = error_of([&] { load_folder(f, shards, "model.safetensors.index.json"); });
    CHECK(e.kind == "index");
    CHECK(e.tensor == one[0].name);
    // the same tensor in both shards
    auto dup = two;
    dup.push_back(one[0]);
    f["model-00002-of-00002.safetensors"] = write_safetensors(dup);
    idx["weight_map"][one[0].name] = shards[0];
    put(idx);
    CHECK(error_of([&] { load_folder(f, shards, "model.safetensors.index.json"); }).kind == "index");
    // a malformed index
    f["model.safetensors.index.json"] = {'{', '}'};
    CHECK(error_of([&] { load_folder(f, shards, "model.safetensors.index.json"); }).kind == "index");
}

TEST_CASE("the loader's steps: chunks into the tensors' own storage, progress, order", "[pretrained]") {
    const Folder f = read_case("gpt2-f16");
    const auto& cj = f.at("config.json");
    const auto config = pretrained::parse_config(std::string(cj.begin(), cj.end()));
    const auto& file = f.at("model.safetensors");
    pretrained::Loader L(config);
    CHECK(error_of([&] { L.commit(0); }).kind == "state");  // before plan
    pretrained::Loader L2(config);
    const std::uint64_t N = safetensors::header_length(file.data(), 8, file.size(), "model.safetensors");
    L2.add_file("model.safetensors", file.size(), file.data() + 8, std::size_t(N));
    L2.plan();
    REQUIRE(L2.chunks() == L2.tensors_total());  // tiny tensors: one chunk each
    CHECK(L2.bytes_total() == config.parameters() * 2);  // F16
    // commit in reverse order (any order works); finish before the last is refused
    for (std::size_t i = L2.chunks(); i-- > 1;) {
        const auto& ch = L2.chunk(i);
        std::memcpy(L2.destination(i), file.data() + ch.offset, std::size_t(ch.bytes));
        L2.commit(i);
    }
    CHECK(L2.tensors_done() == L2.tensors_total() - 1);
    CHECK(error_of([&] { L2.commit(1); }).kind == "state");  // twice
    pretrained::Loader L3(config);
    L3.add_file("model.safetensors", file.size(), file.data() + 8, std::size_t(N));
    L3.plan();
    CHECK(error_of([&] { L3.finish(); }).kind == "state");
    // a whole run through load_checkpoint with progress
    std::uint64_t last = 0, calls = 0;
    safetensors::MemorySource src(file.data(), file.size());
    const auto m = pretrained::load_checkpoint(
        config, {"model.safetensors"}, [&](const std::string&) { return &src; }, {},
        [&](std::uint64_t done, std::uint64_t total) {
            CHECK(done > last);
            CHECK(done <= total);
            last = done;
            ++calls;
        });
    CHECK(calls == L2.chunks());
    CHECK(last == L2.bytes_total());
    CHECK(m.weights.layers.size() == 2);
}

TEST_CASE("config.json: gpt2 and bert keys, unsupported architectures named with the supported ones", "[pretrained]") {
    const auto g = pretrained::parse_config(R"({"model_type":"gpt2","n_layer":12,"n_head":12,"n_embd":768,
        "n_ctx":1024,"vocab_size":50257,"layer_norm_epsilon":1e-05,"n_inner":null,"bos_token_id":50256,"eos_token_id":50256})");
    CHECK(g.arch == Architecture::GPT2);
    CHECK(g.positions == 1024);
    CHECK(g.d_ff == 3072);
    CHECK(g.d_k() == 64);
    CHECK(g.activation == pretrained::Activation::GeluTanh);
    CHECK(g.parameters() == 124439808);  // GPT-2 small, as published (Radford et al. 2019: 117M by their count)
    const auto b = pretrained::parse_config(R"({"model_type":"bert","hidden_size":768,"num_hidden_layers":12,
        "num_attention_heads":12,"intermediate_size":3072,"max_position_embeddings":512,"vocab_size":30522,
        "type_vocab_size":2,"layer_norm_eps":1e-12,"hidden_act":"gelu"})");
    CHECK(b.arch == Architecture::BERT);
    CHECK(b.activation == pretrained::Activation::GeluErf);
    // BERT-base without pooler and MLM head: 108.9 M (Devlin et al. 2019 report 110 M with the pooler)
    CHECK(b.parameters() == 108891648);

    const auto llama = error_of([] { pretrained::parse_config(R"({"model_type":"llama"})"); });
    CHECK(llama.kind == "architecture");
    CHECK_THAT(llama.what(), Catch::Contains("llama") && Catch::Contains("gpt2") && Catch::Contains("bert"));
    CHECK(error_of([] { pretrained::parse_config("{}"); }).kind == "architecture");
    CHECK(error_of([] { pretrained::parse_config("not json"); }).kind == "config");
    CHECK(error_of([] { pretrained::parse_config(R"({"model_type":"gpt2","n_layer":2,"n_head":3,"n_embd":32,"n_positions":8,"vocab_size":9})"); }).kind == "config");
    CHECK(error_of([] { pretrained::parse_config(R"({"model_type":"gpt2","n_layer":-2,"n_head":4,"n_embd":32,"n_positions":8,"vocab_size":9})"); }).kind == "config");
    CHECK(error_of([] { pretrained::parse_config(R"({"model_type":"gpt2","n_layer":2,"n_head":4,"n_embd":32,"n_positions":8})"); }).kind == "config");
    const auto act = error_of([] { pretrained::parse_config(R"({"model_type":"bert","hidden_size":8,"num_hidden_layers":1,"num_attention_heads":2,"intermediate_size":8,"max_position_embeddings":8,"vocab_size":9,"hidden_act":"swish"})"); });
    CHECK(act.kind == "config");
    CHECK_THAT(act.what(), Catch::Contains("swish"));
}

TEST_CASE("config and weights that disagree, missing and mistyped tensors, each a clear error naming file and tensor", "[pretrained]") {
    const Folder g = read_case("gpt2-f32");
    // vocabulary
    auto e = error_of([&] { load_folder(with_config(g, [](auto& j) { j["vocab_size"] = 400; })); });
    CHECK(e.kind == "vocab");
    CHECK(e.file == "model.safetensors");
    CHECK(e.tensor == "transformer.wte.weight");
    CHECK_THAT(e.what(), Catch::Contains("400") && Catch::Contains("321"));
    // layers
    e = error_of([&] { load_folder(with_config(g, [](auto& j) { j["n_layer"] = 3; })); });
    CHECK(e.kind == "config");
    CHECK_THAT(e.what(), Catch::Contains("3 layers") && Catch::Contains("have 2"));
    // d_model
    e = error_of([&] { load_folder(with_config(g, [](auto& j) { j["n_embd"] = 16; })); });
    CHECK(e.kind == "config");
    // positions: a shape error naming both shapes
    e = error_of([&] { load_folder(with_config(g, [](auto& j) { j["n_positions"] = 32; })); });
    CHECK(e.kind == "shape");
    CHECK(e.tensor == "transformer.wpe.weight");
    CHECK_THAT(e.what(), Catch::Contains("[24, 32]") && Catch::Contains("[32, 32]"));
    // the other architecture's weights
    e = error_of([&] { load_folder(with_config(read_case("bert-f32"), [&](auto& j) {
        j = nlohmann::json::parse(std::string(g.at("config.json").begin(), g.at("config.json").end()));
    })); });
    CHECK(e.kind == "config");
    CHECK_THAT(e.what(), Catch::Contains("BERT"));
    // a missing tensor
    e = error_of([&] { load_folder(with_weights(g, [](auto& b) {
        b.erase(std::remove_if(b.begin(), b.end(), [](const Blob& x) { return x.name == "transformer.h.1.mlp.c_fc.bias"; }), b.end());
    })); });
    CHECK(e.kind == "missing");
    CHECK(e.tensor == "transformer.h.1.mlp.c_fc.bias");
    // a needed tensor in a dtype this core does not read
    e = error_of([&] { load_folder(with_weights(g, [](auto& b) {
        for (auto& x : b)
            if (x.name == "transformer.ln_f.bias") x.dtype = "I32";
    })); });
    CHECK(e.kind == "dtype");
    CHECK(e.tensor == "transformer.ln_f.bias");
    CHECK_THAT(e.what(), Catch::Contains("I32"));
    // a NaN weight
    e = error_of([&] { load_folder(with_weights(g, [](auto& b) {
        for (auto& x : b)
            if (x.name == "transformer.h.0.ln_1.weight") {
                const float nan = std::nanf("");
                std::memcpy(x.bytes.data() + 4 * 5, &nan, 4);
            }
    })); });
    CHECK(e.kind == "nonfinite");
    CHECK_THAT(e.what(), Catch::Contains("transformer.h.0.ln_1.weight") && Catch::Contains("[5]"));
    // the file named in the list is not there; pytorch_model.bin refused with how to get safetensors
    CHECK(error_of([&] { load_folder(g, {"model-2.safetensors"}); }).kind == "missing");
    e = error_of([&] { load_folder(g, {"pytorch_model.bin"}); });
    CHECK(e.kind == "pickle");
    CHECK_THAT(e.what(), Catch::Contains("model.safetensors") && Catch::Contains("safe_serialization=True"));
}

TEST_CASE("a file that shrinks while it is read: the error names the file and the tensor being read", "[pretrained]") {
    // A source whose size() is the file's size when it was opened, whose bytes end earlier (a
    // file rewritten on disk between the header and the tensors). The header validates; the
    // first chunk past the cut is the one that fails.
    const Folder g = read_case("gpt2-f32");
    const auto& bytes = g.at("model.safetensors");
    const std::size_t cut = bytes.size() - 100;
    struct Shrunk : safetensors::ByteSource {
        safetensors::MemorySource inner;
        std::uint64_t claimed;
        Shrunk(const std::vector<std::uint8_t>& b, std::size_t cut)
            : inner(b.data(), cut, "model.safetensors"), claimed(b.size()) {}
        std::uint64_t size() const override { return claimed; }
        void read(std::uint64_t o, std::uint8_t* d, std::size_t n) override { inner.read(o, d, n); }
    } src(bytes, cut);
    const auto& cj = g.at("config.json");
    const auto config = pretrained::parse_config(std::string(cj.begin(), cj.end()));
    const auto h = [&] {
        safetensors::MemorySource whole(bytes.data(), bytes.size());
        return safetensors::read_header(whole, "model.safetensors");
    }();
    const auto e = error_of([&] {
        pretrained::load_checkpoint(config, {"model.safetensors"}, [&](const std::string&) -> safetensors::ByteSource* { return &src; }, "");
    });
    CHECK(e.kind == "truncated");
    CHECK(e.file == "model.safetensors");
    const auto* t = h.find(e.tensor);  // a tensor of the file whose bytes reach past the cut
    REQUIRE(t != nullptr);
    CHECK(t->end > cut);
    CHECK_THAT(e.what(), Catch::Contains(e.tensor) && Catch::Contains("passes the end"));
    // A MemorySource read directly names its file.
    std::uint8_t buf[8];
    safetensors::MemorySource named(bytes.data(), 4, "x.safetensors");
    const auto d = error_of([&] { named.read(0, buf, 8); });
    CHECK(d.kind == "truncated");
    CHECK(d.file == "x.safetensors");
}

TEST_CASE("bad input to a loaded model: too long, unknown ids, token types, no masked-LM head", "[pretrained]") {
    const auto g = load_folder(read_case("gpt2-f16"));
    auto e = error_of([&] { pretrained::forward(g, std::vector<int>(25, 1)); });
    CHECK(e.kind == "input");
    CHECK_THAT(e.what(), Catch::Contains("25 tokens") && Catch::Contains("24 positions"));
    CHECK_NOTHROW(pretrained::forward(g, std::vector<int>(24, 1)));
    CHECK(error_of([&] { pretrained::forward(g, {}); }).kind == "input");
    CHECK(error_of([&] { pretrained::forward(g, {1, 321}); }).kind == "input");
    CHECK(error_of([&] { pretrained::forward(g, {-1}); }).kind == "input");
    pretrained::ForwardOptions z;
    z.zeroed = {true};
    CHECK(error_of([&] { pretrained::forward(g, {1}, z); }).kind == "input");
    const auto b = load_folder(read_case("bert-bf16-encoder"));
    pretrained::ForwardOptions t;
    t.token_types = {0, 2};
    CHECK(error_of([&] { pretrained::forward(b, {3, 4}, t); }).kind == "input");
    e = error_of([&] { pretrained::loss(b, {3, 5, 4}, {-1, 7, -1}); });
    CHECK(e.kind == "missing");
    CHECK_THAT(e.what(), Catch::Contains("cls.predictions"));
    // the model keeps working after the errors
    CHECK(pretrained::forward(b, {3, 4}).hidden.rows() == 2);
    const auto mi = pretrained::mask_tokens({3, 10, 11, 4}, {1, 2}, 5);
    CHECK(mi.tokens == std::vector<int>{3, 5, 5, 4});
    CHECK(mi.targets == std::vector<int>{-1, 10, 11, -1});
    CHECK(error_of([&] { pretrained::mask_tokens({3, 4}, {1, 1}, 5); }).kind == "input");
    CHECK(pretrained::next_token_targets({7, 8, 9}) == std::vector<int>{8, 9, -1});
}

TEST_CASE("head roles: head_roles.hpp's scores on the text and on repeated random tokens of the model's vocabulary", "[pretrained]") {
    const auto g = load_folder(read_case("gpt2-f32"));
    pretrained::RealRoleOptions o;
    o.sequences = 3;
    o.repeat_length = 8;
    const std::vector<std::vector<int>> texts = {{320, 5, 6, 7, 8, 9, 10, 11, 12, 13}, {320, 40, 41, 42, 43, 44, 45}};
    const auto rep = pretrained::head_roles(g, texts, o);
    REQUIRE(rep.random_sequences.size() == 3);
    CHECK(rep.rows == (10 - 4) + (7 - 4));
    for (const auto& s : rep.random_sequences) {
        REQUIRE(s.size() == 17);
        CHECK(s[0] == 320);  // bos: <|endoftext|> from config.json
        CHECK(std::equal(s.begin() + 1, s.begin() + 9, s.begin() + 9));
        CHECK(std::set<int>(s.begin() + 1, s.begin() + 9).size() == 8);  // distinct
        for (int id : s) CHECK((id >= 0 && id <= 320));
        CHECK(std::count(s.begin() + 1, s.end(), 320) == 0);  // the pool leaves bos out
    }
    // the scores again, from forward()'s weights, by their definitions
    std::size_t named = 0;
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t h = 0; h < 4; ++h) {
            double prev = 0, first = 0, local = 0, ind = 0, dup = 0;
            std::size_t rows = 0, irows = 0, drows = 0;
            for (const auto& t : texts) {
                const auto r = pretrained::forward(g, t);
                const Matrix& P = r.weights[l][h];
                for (std::size_t i = 4; i < t.size(); ++i, ++rows) {
                    prev += P(i, i - 1);
                    first += P(i, 0);
                    for (std::size_t j = i - 3; j <= i; ++j) local += P(i, j);
                }
            }
            for (const auto& s : rep.random_sequences) {
                const auto r = pretrained::forward(g, s);
                const Matrix& P = r.weights[l][h];
                for (std::size_t i = 9; i < 17; ++i) {  // the second copy: token i − 8 came before
                    dup += P(i, i - 8), ++drows;
                    ind += P(i, i - 7), ++irows;  // the token after the earlier copy
                }
            }
            const auto& hr = rep.layers[l][h];
            CHECK(hr.previous_token == Approx(prev / double(rows)).epsilon(1e-12));
            CHECK(hr.first_token == Approx(first / double(rows)).epsilon(1e-12));
            CHECK(hr.local == Approx(local / double(rows)).epsilon(1e-12));
            CHECK(hr.induction == Approx(ind / double(irows)).epsilon(1e-12));
            CHECK(hr.duplicate_token == Approx(dup / double(drows)).epsilon(1e-12));
            named += hr.role.empty() ? 0 : 1;
            for (const auto& role : hr.roles) CHECK((role == hr.role || !hr.role.empty()));
        }
    CHECK(rep.unnamed == 8 - named);
    CHECK(rep.repeat_rows == 3 * 8);
    // BERT needs its [CLS]; the pool is checked
    const auto b = load_folder(read_case("bert-f32"));
    CHECK_THROWS_AS(pretrained::head_roles(b, texts, {}), ValueError);
    pretrained::RealRoleOptions ob = o;
    ob.bos = 3;
    ob.eos = 4;
    ob.pool = {10, 11, 12};
    CHECK_THROWS_AS(pretrained::head_roles(b, {{3, 10, 11, 12, 13, 14, 4}}, ob), ValueError);  // pool < 8
    ob.pool.clear();
    for (int i = 6; i < 89; ++i) ob.pool.push_back(i);
    const auto rb = pretrained::head_roles(b, {{3, 10, 11, 12, 13, 14, 4}}, ob);
    CHECK(rb.random_sequences[0].front() == 3);
    CHECK(rb.random_sequences[0].back() == 4);
}

TEST_CASE("rollout of a real model's weights: rows sum to 1", "[pretrained]") {
    const auto g = load_folder(read_case("bert-f32"));
    const auto r = pretrained::forward(g, {3, 10, 20, 30, 4});
    const Matrix R = pretrained::rollout(r);
    REQUIRE(R.rows() == 5);
    for (std::size_t i = 0; i < 5; ++i) {
        double s = 0;
        for (std::size_t j = 0; j < 5; ++j) s += R(i, j);
        CHECK(s == Approx(1.0).epsilon(1e-5));
    }
    pretrained::ForwardOptions o;
    o.keep_weights = false;
    CHECK_THROWS_AS(pretrained::rollout(pretrained::forward(g, {3, 4}, o)), ValueError);
}

TEST_CASE("forward_batch: sequences of one length stacked give what forward gives each", "[pretrained]") {
    for (const char* name : {"gpt2-f16", "bert-f32"}) {
        INFO(name);
        const auto m = load_folder(read_case(name));
        const std::vector<std::vector<int>> seqs = {{3, 10, 11, 12, 4}, {3, 20, 21, 22, 4}, {3, 30, 31, 32, 4}};
        pretrained::ForwardOptions o;
        o.logits = m.config.arch == Architecture::GPT2;
        const auto batch = pretrained::forward_batch(m, seqs, o);
        REQUIRE(batch.size() == 3);
        for (std::size_t s = 0; s < 3; ++s) {
            const auto one = pretrained::forward(m, seqs[s], o);
            CHECK(batch[s].tokens == seqs[s]);
            CHECK(relative_error(batch[s].hidden.data(), one.hidden.data(), one.hidden.size()) <= 1e-6);
            if (o.logits) CHECK(relative_error(batch[s].logits.data(), one.logits.data(), one.logits.size()) <= 1e-6);
            for (std::size_t l = 0; l < 2; ++l)
                for (std::size_t h = 0; h < 4; ++h)
                    CHECK(relative_error(batch[s].weights[l][h].data(), one.weights[l][h].data(), 25) <= 1e-6);
        }
        CHECK(error_of([&] { pretrained::forward_batch(m, {{3, 4}, {3, 5, 4}}); }).kind == "input");
        CHECK(error_of([&] { pretrained::forward_batch(m, {}); }).kind == "input");
    }
}

// The numbers of each error as fields set where it is thrown (a page words them in its own
// language and never parses the English detail): asserted on the fields, not the text.
TEST_CASE("checkpoint errors carry their numbers as fields: what, expected, got, line, column", "[pretrained]") {
    using V = std::tuple<std::string, std::string, std::string, std::size_t, std::size_t>;
    const auto fields = [](const CheckpointError& e) {
        return V{e.values.what, e.values.expected, e.values.got, e.values.line, e.values.column};
    };
    const Folder g = read_case("gpt2-f32");
    const Folder b = read_case("bert-f32");
    const auto loads = [](const Folder& f) { return error_of([&] { load_folder(f); }); };
    // config against the weights
    auto e = loads(with_config(g, [](auto& j) { j["vocab_size"] = 400; }));
    CHECK(e.kind == "vocab");
    CHECK(fields(e) == V{"vocab_size", "400", "321", 0, 0});
    e = loads(with_config(g, [](auto& j) { j["n_layer"] = 3; }));
    CHECK(e.kind == "config");
    CHECK(fields(e) == V{"layers", "3", "2", 0, 0});
    e = loads(with_config(g, [](auto& j) { j["n_embd"] = 16; }));
    CHECK(e.kind == "config");
    CHECK(fields(e) == V{"d_model", "16", "32", 0, 0});
    e = loads(with_config(g, [](auto& j) { j["n_positions"] = 32; }));
    CHECK(e.kind == "shape");
    CHECK(fields(e) == V{"shape", "[32, 32]", "[24, 32]", 0, 0});
    e = loads(with_weights(g, [](auto& w) {
        for (auto& x : w)
            if (x.name == "transformer.ln_f.bias") x.dtype = "I32";
    }));
    CHECK(e.kind == "dtype");
    CHECK(fields(e) == V{"dtype", "", "I32", 0, 0});
    // the other architecture's weights, both ways
    const auto config_of = [](const Folder& f) {
        return nlohmann::json::parse(std::string(f.at("config.json").begin(), f.at("config.json").end()));
    };
    e = loads(with_config(b, [&](auto& j) { j = config_of(g); }));
    CHECK(e.kind == "config");
    CHECK(fields(e) == V{"model_type", "gpt2", "bert", 0, 0});
    e = loads(with_config(g, [&](auto& j) { j = config_of(b); }));
    CHECK(e.kind == "config");
    CHECK(fields(e) == V{"model_type", "bert", "gpt2", 0, 0});
    // an architecture this core does not compute; none named
    e = error_of([] { pretrained::parse_config(R"({"model_type":"llama"})"); });
    CHECK(e.kind == "architecture");
    CHECK(fields(e) == V{"model_type", "", "llama", 0, 0});
    e = error_of([] { pretrained::parse_config("{}"); });
    CHECK(fields(e) == V{"model_type", "", "", 0, 0});
    // JSON syntax errors: line and column as nlohmann::json counts them (its message quotes them)
    for (const std::string text : {"not json", "{\n  \"model_type\": \"gpt2\",\n  \"n_layer\": 2,,\n}", "{\"a\": 1", "{\n\n"}) {
        e = error_of([&] { pretrained::parse_config(text); });
        CHECK(e.kind == "config");
        CHECK(e.values.what == "json");
        REQUIRE(e.values.line > 0);
        const std::string at = "line " + std::to_string(e.values.line) + ", column " + std::to_string(e.values.column) + ":";
        CHECK_THAT(e.detail, Catch::Contains(at));
    }
    e = error_of([] { pretrained::parse_config("{\n  \"model_type\": \"gpt2\",\n  \"n_layer\": 2,,\n}"); });
    CHECK(fields(e) == V{"json", "", "", 3, 16});
    e = error_of([] { safetensors::parse_index("{\n\"weight_map\": [}"); });
    CHECK(e.kind == "index");
    CHECK(fields(e) == V{"json", "", "", 2, 16});
    CHECK_THAT(e.detail, Catch::Contains("line 2, column 16:"));
    const std::string header = "{\"a\": tru}";
    e = error_of([&] {
        safetensors::parse_header(reinterpret_cast<const std::uint8_t*>(header.data()), header.size(), header.size() + 8, "x.safetensors");
    });
    CHECK(e.kind == "header");
    CHECK(fields(e) == V{"json", "", "", 1, 10});
    CHECK_THAT(e.detail, Catch::Contains("line 1, column 10:"));
}

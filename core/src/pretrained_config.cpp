// config.json of a GPT-2 or BERT checkpoint (checkpoint.hpp).
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "attn/checkpoint.hpp"

namespace attn::pretrained {

namespace {

[[noreturn]] void fail(const char* kind, const std::string& file, const std::string& detail, CheckpointValues values = {}) {
    throw CheckpointError(kind, file, "", detail, std::move(values));
}

struct Reader {
    const nlohmann::json& j;
    const std::string& file;

    bool has(const char* key) const { return j.contains(key) && !j[key].is_null(); }

    std::size_t size(const char* key, std::size_t max, const char* alt = nullptr) const {
        const char* k = has(key) ? key : (alt && has(alt) ? alt : nullptr);
        if (!k) fail("config", file, std::string("no \"") + key + "\" (" + (alt ? std::string("nor \"") + alt + "\", " : "") +
                                         "a size this model type needs)");
        const auto& v = j[k];
        if (!v.is_number_unsigned() || v.get<std::uint64_t>() == 0)
            fail("config", file, std::string("\"") + k + "\" is " + v.dump() + ", not a positive integer");
        const std::uint64_t x = v.get<std::uint64_t>();
        if (x > max)
            fail("config", file, std::string("\"") + k + "\" is " + std::to_string(x) + ", more than the " +
                                     std::to_string(max) + " this core computes");
        return std::size_t(x);
    }
    std::size_t size_or(const char* key, std::size_t fallback, std::size_t max) const {
        return has(key) ? size(key, max) : fallback;
    }
    double number_or(const char* key, double fallback) const {
        if (!has(key)) return fallback;
        const auto& v = j[key];
        if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
            fail("config", file, std::string("\"") + key + "\" is " + v.dump() + ", not a positive number");
        return v.get<double>();
    }
    std::string string_or(const char* key, const std::string& fallback) const {
        if (!has(key)) return fallback;
        if (!j[key].is_string()) fail("config", file, std::string("\"") + key + "\" is " + j[key].dump() + ", not a string");
        return j[key].get<std::string>();
    }
    bool bool_or(const char* key, bool fallback) const {
        if (!has(key)) return fallback;
        if (!j[key].is_boolean()) fail("config", file, std::string("\"") + key + "\" is " + j[key].dump() + ", not true or false");
        return j[key].get<bool>();
    }
    int id_or(const char* key) const {
        if (!has(key)) return -1;
        const auto& v = j[key];
        // A list (several eos ids in newer configs): the first.
        const auto& x = v.is_array() && !v.empty() ? v[0] : v;
        if (!x.is_number_integer() || x.get<std::int64_t>() < 0 || x.get<std::int64_t>() > std::numeric_limits<int>::max())
            fail("config", file, std::string("\"") + key + "\" is " + v.dump() + ", not a token id");
        return int(x.get<std::int64_t>());
    }
};

Activation activation_of(const std::string& name, const std::string& key, const std::string& file) {
    if (name == "gelu") return Activation::GeluErf;
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast") return Activation::GeluTanh;
    if (name == "relu") return Activation::Relu;
    fail("config", file,
         "\"" + key + "\" is \"" + name +
             "\", an activation this core does not compute (it computes \"gelu\", \"gelu_new\", \"gelu_pytorch_tanh\", "
             "\"gelu_fast\" and \"relu\")");
}

}  // namespace

std::uint64_t Config::parameters(bool lm_head_untied, bool mlm_head) const {
    const std::uint64_t d = d_model, f = d_ff, V = vocab, P = positions;
    const std::uint64_t layer = 4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d;  // attention, MLP, 2 LayerNorms
    std::uint64_t n = V * d + P * d + std::uint64_t(layers) * layer;
    if (arch == Architecture::GPT2) {
        n += 2 * d;
        if (lm_head_untied) n += V * d;
    } else {
        n += std::uint64_t(type_vocab) * d + 2 * d;
        if (mlm_head) n += d * d + d + 2 * d + V + (lm_head_untied ? V * d : 0);
    }
    return n;
}

Config parse_config(std::string_view text, const std::string& file) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        fail("config", file, std::string("not valid JSON (") + e.what() + ")", safetensors::json_error_values(text, e));
    }
    if (!j.is_object()) fail("config", file, "not a JSON object");
    const Reader r{j, file};
    Config c;
    c.model_type = r.string_or("model_type", "");
    // Sizes beyond these cannot be matrices of the core (kMaxElements per matrix).
    const std::size_t big = std::size_t{1} << 24;
    if (c.model_type == "gpt2") {
        c.arch = Architecture::GPT2;
        c.layers = r.size("n_layer", 1024);
        c.heads = r.size("n_head", 1024);
        c.d_model = r.size("n_embd", 1 << 16);
        c.positions = r.size("n_positions", 1 << 16, "n_ctx");
        c.vocab = r.size("vocab_size", big);
        c.d_ff = r.size_or("n_inner", 4 * c.d_model, 1 << 18);
        c.layer_norm_eps = r.number_or("layer_norm_epsilon", 1e-5);
        c.activation_name = r.string_or("activation_function", "gelu_new");
        c.activation = activation_of(c.activation_name, "activation_function", file);
        c.bos_token_id = r.id_or("bos_token_id");
        c.eos_token_id = r.id_or("eos_token_id");
        c.pad_token_id = r.id_or("pad_token_id");
        if (!r.bool_or("scale_attn_weights", true))
            fail("config", file, "\"scale_attn_weights\" is false: this core scales every head's scores by 1/sqrt(d_k), as GPT-2 does");
        if (r.bool_or("scale_attn_by_inverse_layer_idx", false))
            fail("config", file, "\"scale_attn_by_inverse_layer_idx\" is true: this core computes GPT-2's own scaling, 1/sqrt(d_k) only");
    } else if (c.model_type == "bert") {
        c.arch = Architecture::BERT;
        c.layers = r.size("num_hidden_layers", 1024);
        c.heads = r.size("num_attention_heads", 1024);
        c.d_model = r.size("hidden_size", 1 << 16);
        c.d_ff = r.size("intermediate_size", 1 << 18);
        c.positions = r.size("max_position_embeddings", 1 << 16);
        c.vocab = r.size("vocab_size", big);
        c.type_vocab = r.size_or("type_vocab_size", 2, 1 << 16);
        c.layer_norm_eps = r.number_or("layer_norm_eps", 1e-12);
        c.activation_name = r.string_or("hidden_act", "gelu");
        c.activation = activation_of(c.activation_name, "hidden_act", file);
        c.pad_token_id = r.id_or("pad_token_id");
        const std::string pe = r.string_or("position_embedding_type", "absolute");
        if (pe != "absolute")
            fail("config", file, "\"position_embedding_type\" is \"" + pe + "\": this core computes BERT's learned absolute positions only");
    } else {
        std::string what = c.model_type.empty() ? std::string("no \"model_type\"") : "the model type \"" + c.model_type + "\"";
        if (c.model_type.empty() && r.has("architectures") && j["architectures"].is_array() && !j["architectures"].empty())
            what += " (architectures: " + j["architectures"].dump() + ")";
        fail("architecture", file,
             what + ": this page computes \"gpt2\" (GPT-2, distilgpt2, skt/kogpt2-base-v2) and \"bert\" "
                    "(bert-base-uncased, bert-base-multilingual-cased, klue/bert-base) checkpoints",
             CheckpointValues{"model_type", "", c.model_type, 0, 0});
    }
    if (c.d_model % c.heads != 0)
        fail("config", file,
             std::to_string(c.heads) + " heads do not divide d_model = " + std::to_string(c.d_model) +
                 " (each head takes d_model / heads columns)");
    return c;
}

}  // namespace attn::pretrained

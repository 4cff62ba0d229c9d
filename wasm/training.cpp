// Embind bindings of the live-training core (model.hpp, grad.hpp). Private: the public
// API is attn.createModel() / attn.task() in wasm/attn.mjs.
//
// No Embind class crosses the boundary: models live in a registry inside the module and
// JS holds a plain number (the model id). Every function takes that id and returns plain
// objects with fresh Float32Array copies; modelDispose(id) frees the model. JS wraps the
// id in a plain-object handle (and a FinalizationRegistry frees forgotten models).
#include <map>
#include <memory>

#include "convert.hpp"

using namespace attn::wasm;
using emscripten::val;

namespace {

std::map<int, std::unique_ptr<attn::Trainer>>& models() {
    static std::map<int, std::unique_ptr<attn::Trainer>> m;
    return m;
}
int next_id = 1;
constexpr std::size_t kMaxModels = 64;

attn::Trainer& get(double id) {
    auto it = models().find(int(id));
    if (it == models().end())
        throw attn::ValueError("model " + std::to_string(int(id)) + " does not exist (it was disposed, or never created)");
    return *it->second;
}

template <class T>
val number_array(const std::vector<T>& xs) {
    val a = val::array();
    for (const T& x : xs) a.call<void>("push", double(x));
    return a;
}

val string_array(const std::vector<std::string>& xs) {
    val a = val::array();
    for (const auto& x : xs) a.call<void>("push", x);
    return a;
}

val float_array(const std::vector<float>& xs) {
    val view(emscripten::typed_memory_view(xs.size(), xs.data()));
    return view.call<val>("slice");
}

std::vector<int> tokens_from_js(const val& list) {
    const std::size_t n = list["length"].as<std::size_t>();
    if (n > 4096) throw attn::ValueError("tokens: at most 4096 tokens, got " + std::to_string(n));
    std::vector<int> out;
    for (std::size_t i = 0; i < n; ++i) {
        const double t = list[i].as<double>();
        if (!(t >= -1e9 && t <= 1e9) || t != double(int(t)))
            throw attn::ValueError("token " + std::to_string(i + 1) + " is not an integer in -1e9..1e9");
        out.push_back(int(t));
    }
    return out;
}

val task_to_js(const attn::TaskInfo& t) {
    val out = val::object();
    out.set("name", t.name);
    out.set("vocabIn", double(t.vocab_in));
    out.set("vocabOut", double(t.vocab_out));
    out.set("seqLen", double(t.seq_len));
    out.set("minLen", double(t.min_len));
    out.set("maxLen", double(t.max_len));
    out.set("separator", double(t.separator));
    out.set("probe", number_array(t.probe));
    out.set("offsets", number_array(t.offsets));
    out.set("tokenLabels", string_array(t.token_labels));
    out.set("outputLabels", string_array(t.output_labels));
    return out;
}

val config_to_js(const attn::TrainerConfig& c) {
    val out = val::object();
    out.set("task", attn::task_info(c.task).name);
    out.set("seed", double(c.model.seed));
    out.set("heads", double(c.model.heads));
    out.set("layers", double(c.model.layers));
    out.set("dModel", double(c.model.d_model));
    out.set("dK", double(c.model.d_k));
    out.set("dV", double(c.model.d_v > 0 ? c.model.d_v : c.model.d_model / c.model.heads));
    out.set("mlpHidden", double(c.model.mlp_hidden));
    out.set("positional", c.model.positional);
    out.set("scale", c.model.scale);
    out.set("dropout", c.model.dropout);
    out.set("lr", c.adam.lr);
    out.set("batch", double(c.batch));
    out.set("evalSize", double(c.eval_size));
    return out;
}

val stats_to_js(const attn::LossStats& s) {
    val out = val::object();
    out.set("loss", s.loss);
    out.set("accuracy", s.count ? double(s.correct) / double(s.count) : 0.0);
    out.set("sequenceAccuracy", s.sequences ? double(s.sequences_correct) / double(s.sequences) : 0.0);
    out.set("positions", double(s.count));
    out.set("sequences", double(s.sequences));
    return out;
}

val task(std::string name) { return guard([&] { return task_to_js(attn::task_info(attn::task_from_name(name))); }); }

// cfg: {task, seed, heads, layers, dModel, dK, dV, mlpHidden, positional, scale, dropout,
// lr, batch, evalSize}; the wrapper fills every field (defaults and type checks in JS).
val model_create(val cfg) {
    return guard([&] {
        if (models().size() >= kMaxModels)
            throw attn::SizeError("createModel: " + std::to_string(kMaxModels) +
                                  " models are alive; dispose() the ones you no longer need");
        attn::TrainerConfig c;
        c.task = attn::task_from_name(cfg["task"].as<std::string>());
        const auto count = [&](const char* k) {
            const double v = cfg[k].as<double>();
            if (!(v >= 0 && v <= 1e9) || v != double(std::size_t(v)))
                throw attn::ValueError(std::string("createModel: ") + k + " must be a non-negative integer");
            return std::size_t(v);
        };
        c.model.seed = std::uint64_t(cfg["seed"].as<double>());
        c.model.heads = count("heads");
        c.model.layers = count("layers");
        c.model.d_model = count("dModel");
        c.model.d_k = count("dK");
        c.model.d_v = count("dV");
        c.model.mlp_hidden = count("mlpHidden");
        c.model.positional = cfg["positional"].as<bool>();
        c.model.scale = cfg["scale"].as<bool>();
        c.model.dropout = cfg["dropout"].as<float>();
        c.adam.lr = cfg["lr"].as<float>();
        c.batch = count("batch");
        c.eval_size = count("evalSize");
        auto trainer = std::make_unique<attn::Trainer>(c);
        const int id = next_id++;
        val out = val::object();
        out.set("id", id);
        out.set("config", config_to_js(trainer->config()));
        out.set("parameters", double(trainer->model().parameter_count()));
        out.set("task", task_to_js(trainer->task()));
        models()[id] = std::move(trainer);
        return out;
    });
}

// Runs `steps` Adam steps; per step: the training batch's loss and accuracy (before the
// update) and the gradient norms reaching the attention scores.
val model_train(double id, double steps) {
    return guard([&] {
        attn::Trainer& t = get(id);
        if (!(steps >= 1 && steps <= 100000) || steps != double(std::size_t(steps)))
            throw attn::ValueError("train: steps must be an integer in 1..100000");
        std::vector<float> loss, acc, glog, gsc;
        for (std::size_t s = 0; s < std::size_t(steps); ++s) {
            const attn::StepStats st = t.step();
            loss.push_back(float(st.batch.loss));
            acc.push_back(st.batch.count ? float(double(st.batch.correct) / double(st.batch.count)) : 0.0f);
            glog.push_back(float(st.batch.grad_logits_norm));
            gsc.push_back(float(st.batch.grad_scores_norm));
        }
        val out = val::object();
        out.set("step", double(t.steps()));
        out.set("loss", float_array(loss));
        out.set("accuracy", float_array(acc));
        out.set("gradLogits", float_array(glog));
        out.set("gradScores", float_array(gsc));
        return out;
    });
}

val model_evaluate(double id) {
    return guard([&] {
        attn::Trainer& t = get(id);
        val out = stats_to_js(t.evaluate());
        out.set("step", double(t.steps()));
        return out;
    });
}

val model_probe(double id, val tokens) {
    return guard([&] {
        const attn::Trainer& t = get(id);
        const auto r = t.probe(tokens_from_js(tokens));
        val out = val::object();
        out.set("tokens", number_array(r.probe.tokens));
        out.set("targets", number_array(r.targets));
        out.set("predictions", number_array(r.probe.predictions));
        out.set("probabilities", to_js(r.probe.probabilities));
        val layers = val::array();
        for (std::size_t l = 0; l < r.probe.weights.size(); ++l) {
            val layer = val::object();
            val heads = val::array();
            for (const auto& w : r.probe.weights[l]) heads.call<void>("push", to_js(w));
            layer.set("heads", heads);
            layer.set("logitStd", number_array(r.probe.logit_std[l]));
            layer.set("meanMaxWeight", number_array(r.probe.mean_max_weight[l]));
            val offsets = val::array();
            for (const auto& o : r.probe.offset_weight[l]) offsets.call<void>("push", number_array(o));
            layer.set("offsetWeight", offsets);
            layers.call<void>("push", layer);
        }
        out.set("layers", layers);
        out.set("step", double(t.steps()));
        return out;
    });
}

val model_dispose(double id) { return val(models().erase(int(id)) > 0); }
val model_count() { return val(double(models().size())); }

}  // namespace

EMSCRIPTEN_BINDINGS(attn_training) {
    using emscripten::function;
    function("task", &task);
    function("modelCreate", &model_create);
    function("modelTrain", &model_train);
    function("modelEvaluate", &model_evaluate);
    function("modelProbe", &model_probe);
    function("modelDispose", &model_dispose);
    function("modelCount", &model_count);
}

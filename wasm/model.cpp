// Bindings of core/include/attn/model.hpp: the live-training core. Private: the public
// API is attn.createModel() / attn.task() in wasm/attn.mjs.
//
// Compiled with ATTN_WASM_NO_TRAINER (attn-core-lite, wasm/CMakeLists.txt) only task(), the
// limits and liveModels() (always 0) are bound: no trainer, so none of the model's code.
//
// No Embind class crosses the boundary: models live in a registry inside the module and
// JS holds a plain number (the model id). Every function takes that id and returns plain
// objects with fresh Float32Array copies; modelDispose(id) frees the model. JS wraps the
// id in a plain-object handle (and a FinalizationRegistry frees forgotten models).
#include <cmath>
#include <map>
#include <memory>

#include "attn/head_roles.hpp"
#include "bind.hpp"

namespace {

using namespace attn::wasm;

// model.train(steps): at most this many steps per call.
constexpr std::size_t kMaxTrainSteps = 100000;

attn::TaskInfo task(const std::string& name) { return attn::task_info(attn::task_from_name(name)); }

// The trainer: a registry of models, each with its Adam optimiser.
#ifndef ATTN_WASM_NO_TRAINER
constexpr std::size_t kMaxModels = 64;
constexpr std::size_t kMaxTokens = 4096;

std::map<int, std::unique_ptr<attn::Trainer>>& models() {
    static std::map<int, std::unique_ptr<attn::Trainer>> m;
    return m;
}
int next_id = 1;

attn::Trainer& get(double id) {
    auto it = models().find(int(id));
    if (it == models().end())
        throw attn::ValueError("model " + std::to_string(int(id)) + " does not exist (it was disposed, or never created)");
    return *it->second;
}

// The resolved configuration as createModel's config object.
struct Config {
    std::string task;
    double seed = 0, heads = 0, layers = 0, d_model = 0, d_k = 0, d_v = 0, mlp_hidden = 0;
    bool positional = true, scale = true;
    float dropout = 0, lr = 0;
    double batch = 0, eval_size = 0;
};

struct Created {
    int id = 0;
    Config config;
    double parameters = 0;
    attn::TaskInfo task;
};

struct Part {
    double loss = 0, accuracy = 0, positions = 0;
};

struct Stats {
    double loss = 0, accuracy = 0, sequence_accuracy = 0, positions = 0, sequences = 0, step = 0;
    std::vector<Part> parts;  // per part of the task (TaskInfo::parts; induction: first, repeated)
};

struct Trained {
    double step = 0;
    std::vector<float> loss, accuracy, grad_logits, grad_scores;  // per step
};

struct ProbeLayer {
    std::vector<attn::Matrix> heads;
    std::vector<double> logit_std, mean_max_weight;
    std::vector<std::vector<double>> offset_weight;
};

struct Probed {
    std::vector<int> tokens, targets, parts, predictions;
    attn::Matrix probabilities;
    std::vector<ProbeLayer> layers;
    double step = 0;
};

// cfg: {seed, heads, layers, dModel, dK, dV, mlpHidden, positional, scale, dropout, lr,
// batch, evalSize}; the wrapper fills every field (defaults and checks in JS).
struct CreateArgs {
    attn::TrainerConfig c;
};
void read_js(Record& r, CreateArgs& a) {
    attn::ModelConfig& m = a.c.model;
    read_fields(r, "seed", m.seed, "heads", m.heads, "layers", m.layers, "dModel", m.d_model, "dK", m.d_k, "dV", m.d_v,
                "mlpHidden", m.mlp_hidden, "positional", m.positional, "scale", m.scale, "dropout", m.dropout, "lr",
                a.c.adam.lr, "batch", a.c.batch, "evalSize", a.c.eval_size);
}

Created model_create(const std::string& task, const CreateArgs& args) {
    if (models().size() >= kMaxModels)
        throw attn::SizeError("createModel: " + std::to_string(kMaxModels) +
                              " models are alive; dispose() the ones you no longer need");
    attn::TrainerConfig c = args.c;
    c.task = attn::task_from_name(task);
    auto trainer = std::make_unique<attn::Trainer>(c);
    const attn::TrainerConfig& r = trainer->config();
    Created out;
    out.id = next_id++;
    out.config = {attn::task_info(r.task).name, double(r.model.seed), double(r.model.heads), double(r.model.layers),
                  double(r.model.d_model), double(r.model.d_k),
                  double(r.model.d_v > 0 ? r.model.d_v : r.model.d_model / r.model.heads), double(r.model.mlp_hidden),
                  r.model.positional, r.model.scale, r.model.dropout, r.adam.lr, double(r.batch), double(r.eval_size)};
    out.parameters = double(trainer->model().parameter_count());
    out.task = trainer->task();
    models()[out.id] = std::move(trainer);
    return out;
}

// Runs `steps` Adam steps; per step: the training batch's loss and accuracy (before the
// update) and the gradient norms reaching the attention scores.
Trained model_train(double id, double steps) {
    attn::Trainer& t = get(id);
    if (!(steps >= 1 && steps <= double(kMaxTrainSteps)) || steps != std::floor(steps))
        throw attn::ValueError("train: steps must be an integer in 1.." + std::to_string(kMaxTrainSteps));
    Trained out;
    for (std::size_t s = 0; s < std::size_t(steps); ++s) {
        const attn::StepStats st = t.step();
        out.loss.push_back(float(st.batch.loss));
        out.accuracy.push_back(st.batch.count ? float(double(st.batch.correct) / double(st.batch.count)) : 0.0f);
        out.grad_logits.push_back(float(st.batch.grad_logits_norm));
        out.grad_scores.push_back(float(st.batch.grad_scores_norm));
    }
    out.step = double(t.steps());
    return out;
}

Stats model_evaluate(double id) {
    attn::Trainer& t = get(id);
    const attn::LossStats s = t.evaluate();
    Stats out{s.loss, s.count ? double(s.correct) / double(s.count) : 0.0,
              s.sequences ? double(s.sequences_correct) / double(s.sequences) : 0.0, double(s.count),
              double(s.sequences), double(t.steps()), {}};
    for (const attn::PartStats& p : s.parts)
        out.parts.push_back({p.loss, p.count ? double(p.correct) / double(p.count) : 0.0, double(p.count)});
    return out;
}

Probed model_probe(double id, const std::vector<int>& tokens) {
    const attn::Trainer& t = get(id);
    if (tokens.size() > kMaxTokens)
        throw attn::ValueError("tokens: at most " + std::to_string(kMaxTokens) + " tokens, got " +
                               std::to_string(tokens.size()));
    const auto r = t.probe(tokens);
    Probed out{r.probe.tokens, r.targets, r.parts, r.probe.predictions, r.probe.probabilities, {}, double(t.steps())};
    for (std::size_t l = 0; l < r.probe.weights.size(); ++l)
        out.layers.push_back({r.probe.weights[l], r.probe.logit_std[l], r.probe.mean_max_weight[l],
                              r.probe.offset_weight[l]});
    return out;
}

// Every head's role scores (head_roles.hpp: head_report on one batch of the task, default
// RoleOptions) on the first `sequences` held-out sequences of the task, layer-major.
struct TaskHead {
    double layer = 0, head = 0;  // from 0
    double previous_token = 0, first_token = 0, local = 0, induction = 0;
    std::string role;  // "" when no score reaches its threshold
};
struct TaskHeads {
    std::vector<TaskHead> heads;
    double rows = 0, induction_rows = 0, sequences = 0;  // what the scores average over
};
TaskHeads model_heads(double id, double sequences) {
    const attn::Trainer& t = get(id);
    if (!(sequences >= 1 && sequences <= double(attn::limits::eval_size.max)) || sequences != std::floor(sequences))
        throw attn::ValueError("heads: sequences must be an integer in 1.." + std::to_string(attn::limits::eval_size.max));
    const attn::Batch batch = attn::held_out_batch(t.config().task, std::size_t(sequences));
    const attn::HeadReport r = attn::head_report(t.model(), batch);
    TaskHeads out;
    for (std::size_t l = 0; l < r.layers.size(); ++l)
        for (std::size_t h = 0; h < r.layers[l].size(); ++h) {
            const attn::HeadRoles& s = r.layers[l][h];
            out.heads.push_back({double(l), double(h), s.previous_token, s.first_token, s.local, s.induction, s.role});
        }
    out.rows = double(r.rows);
    out.induction_rows = double(r.induction_rows);
    out.sequences = sequences;
    return out;
}

bool model_dispose(double id) { return models().erase(int(id)) > 0; }
double model_count() { return double(models().size()); }
#else
double model_count() { return 0; }
#endif

}  // namespace

ATTN_BINDINGS(attn_model) {
    using namespace attn::wasm;
    namespace lim = attn::limits;
    // createModel's ranges: MODEL_MIN_<key>, MODEL_MAX_<key> for each key of its config.
    const std::pair<const char*, attn::Range> ranges[] = {
        {"heads", lim::heads},   {"layers", lim::layers},         {"dModel", lim::d_model}, {"dK", lim::d_k},
        {"dV", lim::d_v},        {"mlpHidden", lim::mlp_hidden}, {"batch", lim::batch},    {"evalSize", lim::eval_size}};
    for (const auto& [key, r] : ranges) {
        constant((std::string("MODEL_MIN_") + key).c_str(), double(r.min));
        constant((std::string("MODEL_MAX_") + key).c_str(), double(r.max));
    }
    constant("MODEL_MAX_lr", double(lim::max_lr));
    constant("MAX_TRAIN_STEPS", double(kMaxTrainSteps));

    using attn::TaskInfo;
    object<TaskInfo>()
        .field("name", &TaskInfo::name)
        .field("vocabIn", &TaskInfo::vocab_in)
        .field("vocabOut", &TaskInfo::vocab_out)
        .field("seqLen", &TaskInfo::seq_len)
        .field("minLen", &TaskInfo::min_len)
        .field("maxLen", &TaskInfo::max_len)
        .field("separator", &TaskInfo::separator)
        .field("probe", &TaskInfo::probe)
        .field("offsets", &TaskInfo::offsets)
        .field("tokenLabels", &TaskInfo::token_labels)
        .field("outputLabels", &TaskInfo::output_labels)
        .field("parts", &TaskInfo::parts);
#ifndef ATTN_WASM_NO_TRAINER
    object<Part>()
        .field("loss", &Part::loss)
        .field("accuracy", &Part::accuracy)
        .field("positions", &Part::positions);
    object<Config>()
        .field("task", &Config::task)
        .field("seed", &Config::seed)
        .field("heads", &Config::heads)
        .field("layers", &Config::layers)
        .field("dModel", &Config::d_model)
        .field("dK", &Config::d_k)
        .field("dV", &Config::d_v)
        .field("mlpHidden", &Config::mlp_hidden)
        .field("positional", &Config::positional)
        .field("scale", &Config::scale)
        .field("dropout", &Config::dropout)
        .field("lr", &Config::lr)
        .field("batch", &Config::batch)
        .field("evalSize", &Config::eval_size);
    object<Created>()
        .field("id", &Created::id)
        .field("config", &Created::config)
        .field("parameters", &Created::parameters)
        .field("task", &Created::task);
    object<Trained>()
        .field("step", &Trained::step)
        .field("loss", &Trained::loss)
        .field("accuracy", &Trained::accuracy)
        .field("gradLogits", &Trained::grad_logits)
        .field("gradScores", &Trained::grad_scores);
    object<Stats>()
        .field("loss", &Stats::loss)
        .field("accuracy", &Stats::accuracy)
        .field("sequenceAccuracy", &Stats::sequence_accuracy)
        .field("positions", &Stats::positions)
        .field("sequences", &Stats::sequences)
        .field("step", &Stats::step)
        .field("parts", &Stats::parts);
    object<ProbeLayer>()
        .field("heads", &ProbeLayer::heads)
        .field("logitStd", &ProbeLayer::logit_std)
        .field("meanMaxWeight", &ProbeLayer::mean_max_weight)
        .field("offsetWeight", &ProbeLayer::offset_weight);
    object<Probed>()
        .field("tokens", &Probed::tokens)
        .field("targets", &Probed::targets)
        .field("parts", &Probed::parts)
        .field("predictions", &Probed::predictions)
        .field("probabilities", &Probed::probabilities)
        .field("layers", &Probed::layers)
        .field("step", &Probed::step);
    object<TaskHead>()
        .field("layer", &TaskHead::layer)
        .field("head", &TaskHead::head)
        .field("previousToken", &TaskHead::previous_token)
        .field("firstToken", &TaskHead::first_token)
        .field("local", &TaskHead::local)
        .field("induction", &TaskHead::induction)
        .field("role", &TaskHead::role);
    object<TaskHeads>()
        .field("heads", &TaskHeads::heads)
        .field("rows", &TaskHeads::rows)
        .field("inductionRows", &TaskHeads::induction_rows)
        .field("sequences", &TaskHeads::sequences);
#endif
    bind<&task>("task");
    bind<&model_count>("liveModels");
#ifndef ATTN_WASM_NO_TRAINER
    bind<&model_create>("modelCreate");
    bind<&model_train>("modelTrain");
    bind<&model_evaluate>("modelEvaluate");
    bind<&model_probe>("modelProbe");
    bind<&model_heads>("modelHeads");
    bind<&model_dispose>("modelDispose");
#endif
}

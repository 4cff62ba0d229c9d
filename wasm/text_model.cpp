// Bindings of core/include/attn/text_model.hpp, text.hpp, head_roles.hpp and
// attribution.hpp (rollout): the project's
// trained text model, loaded from its file. Private: the public API is attn.loadModel()
// in wasm/attn.mjs, which returns a handle like createModel's (probe, dispose).
//
// As in model.cpp, models live in a registry inside the module and JS holds their id.
#include <cmath>
#include <map>
#include <cstdio>
#include <memory>

#include "bind.hpp"

namespace {

using namespace attn::wasm;

constexpr std::size_t kMaxModels = 16;
constexpr std::size_t kMaxFileBytes = 16u << 20;  // 16 MiB: far above any model this file format holds here
constexpr std::size_t kMaxTextBytes = 1u << 20;   // text handed to probe/evaluate/ablate: 1 MiB

std::map<int, std::unique_ptr<attn::TextModel>>& models() {
    static std::map<int, std::unique_ptr<attn::TextModel>> m;
    return m;
}
int next_id = 1;

attn::TextModel& get(double id) {
    auto it = models().find(int(id));
    if (it == models().end())
        throw attn::ValueError("text model " + std::to_string(int(id)) +
                               " does not exist (it was disposed, or never loaded)");
    return *it->second;
}

const std::string& checked_text(const std::string& text) {
    if (text.size() > kMaxTextBytes)
        throw attn::SizeError("text: at most " + std::to_string(kMaxTextBytes) + " bytes, got " +
                              std::to_string(text.size()));
    return text;
}

struct Loaded {
    int id = 0;
    double vocab = 0, max_len = 0, d_model = 0, heads = 0, d_k = 0, d_v = 0, layers = 0, mlp_hidden = 0;
    bool layer_norm = false;
    double parameters = 0;
    std::vector<std::string> symbols;  // display label of each id (0 = <unk>, 1 = <s>)
};

// bytes: the file's bytes as a 1 x n matrix of their values 0..255 (attn.mjs checks the
// type and the size first, and hands the Uint8Array over as the matrix's data).
Loaded text_model_load(attn::ConstMatrixView bytes) {
    if (models().size() >= kMaxModels)
        throw attn::SizeError("loadModel: " + std::to_string(kMaxModels) +
                              " text models are loaded; dispose() the ones you no longer need");
    const std::size_t n = bytes.rows() * bytes.cols();
    if (bytes.rows() > 1 || n > kMaxFileBytes)
        throw attn::SizeError("loadModel: the bytes must be one row of at most " + std::to_string(kMaxFileBytes));
    std::vector<std::uint8_t> data(n);
    for (std::size_t k = 0; k < n; ++k) {
        const float b = bytes(0, k);
        if (!(b >= 0.0f && b <= 255.0f) || b != std::floor(b)) throw attn::ValueError("loadModel: the bytes could not be read");
        data[k] = std::uint8_t(b);
    }
    auto m = std::make_unique<attn::TextModel>(attn::load_text_model(data.data(), data.size()));
    const attn::ModelConfig& c = m->model.config();
    Loaded out;
    out.id = next_id++;
    out.vocab = double(c.vocab_in);
    out.max_len = double(c.max_len);
    out.d_model = double(c.d_model);
    out.heads = double(c.heads);
    out.d_k = double(c.d_k);
    out.d_v = double(c.d_v > 0 ? c.d_v : c.d_model / c.heads);
    out.layers = double(c.layers);
    out.mlp_hidden = double(c.mlp_hidden);
    out.layer_norm = c.layer_norm;
    out.parameters = double(m->model.parameter_count());
    for (std::size_t k = 0; k < m->tokenizer.size(); ++k) out.symbols.push_back(m->tokenizer.display(int(k)));
    models()[out.id] = std::move(m);
    return out;
}

struct TextProbeLayer {
    std::vector<attn::Matrix> heads;               // T x T per head (token level)
    std::vector<std::vector<double>> value_norm;   // [head][j]: ‖v_j W_O^h‖
};

struct TextProbe {
    std::vector<int> tokens;                   // T ids: <s>, then the text's first max_len − 1 tokens
    std::vector<double> char_index;            // T: the character of each token (−1 for <s>)
    std::vector<std::string> chars;            // the characters read (those of the tokens kept)
    std::vector<TextProbeLayer> layers;
    std::vector<int> predictions;              // argmax at each position (the next token's id)
    attn::Matrix rollout;                      // T x T attention rollout
    double truncated = 0;                      // tokens of the text left out (past max_len − 1)
};

// The model on the start of a text: [<s>, its first max_len − 1 tokens]. off: a head
// (layer·heads + head) whose output is zeroed before W_O, as in the ablation; −1 for none.
TextProbe text_model_probe(double id, const std::string& text, double off) {
    const attn::TextModel& m = get(id);
    const std::size_t n_heads = m.model.config().layers * m.model.config().heads;
    if (!(off == -1 || (off >= 0 && off < double(n_heads) && off == std::floor(off)))) {
        char got[32];  // (snprintf, not a stream: iostreams would pull libc's locale and env into the module)
        std::snprintf(got, sizeof got, "%g", off);
        throw attn::ValueError("probe: off must be -1 (no head off) or a head from 0 to " + std::to_string(n_heads - 1) +
                               ", got " + got);
    }
    std::vector<bool> zeroed;
    if (off >= 0) {
        zeroed.assign(n_heads, false);
        zeroed[std::size_t(off)] = true;
    }
    const attn::text::Tokens t = m.tokenizer.encode(checked_text(text));
    if (t.ids.empty()) throw attn::ValueError("probe: the text is empty");
    const std::size_t keep = std::min(t.ids.size(), m.model.config().max_len - 1);
    TextProbe out;
    out.tokens.push_back(attn::text::kBegin);
    out.char_index.push_back(-1);
    for (std::size_t k = 0; k < keep; ++k) {
        out.tokens.push_back(t.ids[k]);
        out.char_index.push_back(double(t.char_index[k]));
    }
    const std::size_t last_char = t.char_index[keep - 1];
    out.chars.assign(t.chars.begin(), t.chars.begin() + std::ptrdiff_t(last_char + 1));
    out.truncated = double(t.ids.size() - keep);
    const attn::Probe p = m.model.probe(out.tokens, 0, zeroed);
    for (std::size_t l = 0; l < p.weights.size(); ++l) out.layers.push_back({p.weights[l], p.value_norm[l]});
    out.predictions = p.predictions;
    out.rollout = attn::attention_rollout(p);
    return out;
}

struct TextEval {
    double nats = 0, tokens = 0, chars = 0, loss = 0, bits_per_char = 0;
};

TextEval to_eval(const attn::TextLoss& l) {
    return {l.nats, double(l.tokens), double(l.chars), l.loss(), l.bits_per_char()};
}

// The loss on a whole text (windows of max_len, every token predicted once).
TextEval text_model_evaluate(double id, const std::string& text) {
    const attn::TextModel& m = get(id);
    return to_eval(attn::text_loss(m.model, m.tokenizer.encode(checked_text(text))));
}

struct HeadRow {
    double layer = 0, head = 0;  // from 0
    double previous_token = 0, first_token = 0, local = 0, induction = 0;
    std::string role;            // "" when no score reaches its threshold
    TextEval ablated;            // the loss on the text with this head zeroed
};

// Every head's role scores on a text (head_roles.hpp, default RoleOptions) and its ablation.
std::vector<HeadRow> text_model_heads(double id, const std::string& text) {
    const attn::TextModel& m = get(id);
    const attn::text::Tokens t = m.tokenizer.encode(checked_text(text));
    const attn::HeadReport r = attn::head_report(m.model, t.ids);
    const auto ab = attn::ablate_heads(m.model, t);
    std::vector<HeadRow> out;
    for (std::size_t l = 0; l < r.layers.size(); ++l)
        for (std::size_t h = 0; h < r.layers[l].size(); ++h) {
            const attn::HeadRoles& s = r.layers[l][h];
            out.push_back({double(l), double(h), s.previous_token, s.first_token, s.local, s.induction, s.role,
                           to_eval(ab[l * r.layers[l].size() + h].loss)});
        }
    return out;
}

bool text_model_dispose(double id) { return models().erase(int(id)) > 0; }

}  // namespace

ATTN_BINDINGS(attn_text_model) {
    using namespace attn::wasm;
    constant("TEXT_MODEL_MAX_BYTES", double(kMaxFileBytes));
    constant("TEXT_MAX_BYTES", double(kMaxTextBytes));
    object<Loaded>()
        .field("id", &Loaded::id)
        .field("vocab", &Loaded::vocab)
        .field("maxLen", &Loaded::max_len)
        .field("dModel", &Loaded::d_model)
        .field("heads", &Loaded::heads)
        .field("dK", &Loaded::d_k)
        .field("dV", &Loaded::d_v)
        .field("layers", &Loaded::layers)
        .field("mlpHidden", &Loaded::mlp_hidden)
        .field("layerNorm", &Loaded::layer_norm)
        .field("parameters", &Loaded::parameters)
        .field("symbols", &Loaded::symbols);
    object<TextProbeLayer>()
        .field("heads", &TextProbeLayer::heads)
        .field("valueNorm", &TextProbeLayer::value_norm);
    object<TextProbe>()
        .field("tokens", &TextProbe::tokens)
        .field("charIndex", &TextProbe::char_index)
        .field("chars", &TextProbe::chars)
        .field("layers", &TextProbe::layers)
        .field("predictions", &TextProbe::predictions)
        .field("rollout", &TextProbe::rollout)
        .field("truncated", &TextProbe::truncated);
    object<TextEval>()
        .field("nats", &TextEval::nats)
        .field("tokens", &TextEval::tokens)
        .field("chars", &TextEval::chars)
        .field("loss", &TextEval::loss)
        .field("bitsPerChar", &TextEval::bits_per_char);
    object<HeadRow>()
        .field("layer", &HeadRow::layer)
        .field("head", &HeadRow::head)
        .field("previousToken", &HeadRow::previous_token)
        .field("firstToken", &HeadRow::first_token)
        .field("local", &HeadRow::local)
        .field("induction", &HeadRow::induction)
        .field("role", &HeadRow::role)
        .field("ablated", &HeadRow::ablated);

    bind<&text_model_load>("textModelLoad");
    bind<&text_model_probe>("textModelProbe");
    bind<&text_model_evaluate>("textModelEvaluate");
    bind<&text_model_heads>("textModelHeads");
    bind<&text_model_dispose>("textModelDispose");
}

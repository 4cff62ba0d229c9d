// Bindings of core/include/attn/examples.hpp: every worked example, by name, from one
// table (attn.example(name) in the JS API).
#include "bind.hpp"

namespace {

using namespace attn::wasm;
namespace ex = attn::examples;

// The constructed heads' names, the four feature names and the sentences.
struct ReadingHeads {
    std::vector<std::string> heads, features;
    std::vector<ex::Sentence> sentences;
};

ReadingHeads reading_heads() {
    ReadingHeads r;
    for (auto k : attn::reading::all_heads()) r.heads.push_back(attn::reading::head_name(k));
    r.features = {"verb", "object", "pronoun", "animate"};
    r.sentences = ex::reading_sentences();
    return r;
}

// name -> the example, as a JS object.
const std::pair<const char*, val (*)()> kExamples[] = {
    {"core-attention", [] { return to_js(ex::core_attention()); }},
    {"no-weights", [] { return to_js(ex::no_weights()); }},
    {"projections", [] { return to_js(ex::projections()); }},
    {"causal-dropout", [] { return to_js(ex::projections()); }},  // the same inputs
    {"multi-head", [] { return to_js(ex::multi_head()); }},
    {"one-head", [] { return to_js(ex::one_head()); }},
    {"weighted-sum", [] { return to_js(ex::weighted_sum()); }},
    {"permutation", [] { return to_js(ex::permutation()); }},
    {"reading-heads", [] { return to_js(reading_heads()); }},
};

val example(const std::string& name) {
    for (const auto& [n, make] : kExamples)
        if (name == n) return make();
    throw attn::ValueError("example: no example named '" + name + "'");
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_examples) {
    using namespace attn::wasm;
    using emscripten::value_object;
    value_object<ex::CoreAttention>("CoreAttention")
        .field("tokens", &ex::CoreAttention::tokens)
        .field("dModel", &ex::CoreAttention::d_model)
        .field("heads", &ex::CoreAttention::heads)
        .field("Q", js<&ex::CoreAttention::Q>, none<ex::CoreAttention>)
        .field("K", js<&ex::CoreAttention::K>, none<ex::CoreAttention>)
        .field("V", js<&ex::CoreAttention::V>, none<ex::CoreAttention>);
    value_object<ex::NoWeights>("NoWeights").field("X", js<&ex::NoWeights::X>, none<ex::NoWeights>);
    value_object<ex::Projections>("Projections")
        .field("X", js<&ex::Projections::X>, none<ex::Projections>)
        .field("Wq", js<&ex::Projections::Wq>, none<ex::Projections>)
        .field("Wk", js<&ex::Projections::Wk>, none<ex::Projections>)
        .field("Wv", js<&ex::Projections::Wv>, none<ex::Projections>);
    value_object<ex::MultiHead>("MultiHead")
        .field("tokens", &ex::MultiHead::tokens)
        .field("dModel", &ex::MultiHead::d_model)
        .field("heads", &ex::MultiHead::heads)
        .field("X", js<&ex::MultiHead::X>, none<ex::MultiHead>)
        .field("Wq", js<&ex::MultiHead::Wq>, none<ex::MultiHead>)
        .field("Wk", js<&ex::MultiHead::Wk>, none<ex::MultiHead>)
        .field("Wv", js<&ex::MultiHead::Wv>, none<ex::MultiHead>)
        .field("Wo", js<&ex::MultiHead::Wo>, none<ex::MultiHead>);
    value_object<ex::OneHead>("OneHead")
        .field("verb", &ex::OneHead::verb)
        .field("subject", &ex::OneHead::subject)
        .field("object", &ex::OneHead::object)
        .field("X", js<&ex::OneHead::X>, none<ex::OneHead>)
        .field("Xswapped", js<&ex::OneHead::X_swapped>, none<ex::OneHead>)
        .field("Wq", js<&ex::OneHead::Wq>, none<ex::OneHead>)
        .field("Wk", js<&ex::OneHead::Wk>, none<ex::OneHead>)
        .field("Wv", js<&ex::OneHead::Wv>, none<ex::OneHead>)
        .field("Wo", js<&ex::OneHead::Wo>, none<ex::OneHead>);
    value_object<ex::WeightedSum>("WeightedSum")
        .field("V", js<&ex::WeightedSum::V>, none<ex::WeightedSum>)
        .field("weights", js<&ex::WeightedSum::weights>, none<ex::WeightedSum>);
    value_object<ex::Permutation>("Permutation")
        .field("embeddings", js<&ex::Permutation::embeddings>, none<ex::Permutation>)
        .field("Wq", js<&ex::Permutation::Wq>, none<ex::Permutation>)
        .field("Wk", js<&ex::Permutation::Wk>, none<ex::Permutation>)
        .field("Wv", js<&ex::Permutation::Wv>, none<ex::Permutation>);
    value_object<ex::Sentence>("Sentence")
        .field("lang", &ex::Sentence::lang)
        .field("id", &ex::Sentence::id)
        .field("tokens", js<&ex::Sentence::tokens>, none<ex::Sentence>)
        .field("flags", js<&ex::Sentence::flags>, none<ex::Sentence>)
        .field("pronoun", &ex::Sentence::pronoun)
        .field("referent", &ex::Sentence::referent);
    value_object<ReadingHeads>("ReadingHeads")
        .field("heads", js<&ReadingHeads::heads>, none<ReadingHeads>)
        .field("features", js<&ReadingHeads::features>, none<ReadingHeads>)
        .field("sentences", js<&ReadingHeads::sentences>, none<ReadingHeads>);

    bind<&example>("example");
}

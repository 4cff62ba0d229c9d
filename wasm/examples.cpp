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
    for (auto k : attn::constructed::all_heads()) r.heads.push_back(attn::constructed::head_name(k));
    r.features = {"verb", "object", "pronoun", "animate"};
    r.sentences = ex::reading_sentences();
    return r;
}

// name -> the example, as a JS object.
const std::pair<const char*, Result (*)()> kExamples[] = {
    {"core-attention", [] { return Result(ex::core_attention()); }},
    {"no-weights", [] { return Result(ex::no_weights()); }},
    {"projections", [] { return Result(ex::projections()); }},
    {"causal-dropout", [] { return Result(ex::projections()); }},  // the same inputs
    {"multi-head", [] { return Result(ex::multi_head()); }},
    {"one-head", [] { return Result(ex::one_head()); }},
    {"weighted-sum", [] { return Result(ex::weighted_sum()); }},
    {"permutation", [] { return Result(ex::permutation()); }},
    {"reading-heads", [] { return Result(reading_heads()); }},
};

Result example(const std::string& name) {
    for (const auto& [n, make] : kExamples)
        if (name == n) return make();
    throw attn::ValueError("example: no example named '" + name + "'");
}

}  // namespace

ATTN_BINDINGS(attn_examples) {
    using namespace attn::wasm;
    object<ex::CoreAttention>()
        .field("tokens", &ex::CoreAttention::tokens)
        .field("dModel", &ex::CoreAttention::d_model)
        .field("heads", &ex::CoreAttention::heads)
        .field("Q", &ex::CoreAttention::Q)
        .field("K", &ex::CoreAttention::K)
        .field("V", &ex::CoreAttention::V);
    object<ex::NoWeights>().field("X", &ex::NoWeights::X);
    object<ex::Projections>()
        .field("X", &ex::Projections::X)
        .field("Wq", &ex::Projections::Wq)
        .field("Wk", &ex::Projections::Wk)
        .field("Wv", &ex::Projections::Wv);
    object<ex::MultiHead>()
        .field("tokens", &ex::MultiHead::tokens)
        .field("dModel", &ex::MultiHead::d_model)
        .field("heads", &ex::MultiHead::heads)
        .field("X", &ex::MultiHead::X)
        .field("Wq", &ex::MultiHead::Wq)
        .field("Wk", &ex::MultiHead::Wk)
        .field("Wv", &ex::MultiHead::Wv)
        .field("Wo", &ex::MultiHead::Wo);
    object<ex::OneHead>()
        .field("verb", &ex::OneHead::verb)
        .field("subject", &ex::OneHead::subject)
        .field("object", &ex::OneHead::object)
        .field("X", &ex::OneHead::X)
        .field("Xswapped", &ex::OneHead::X_swapped)
        .field("Wq", &ex::OneHead::Wq)
        .field("Wk", &ex::OneHead::Wk)
        .field("Wv", &ex::OneHead::Wv)
        .field("Wo", &ex::OneHead::Wo);
    object<ex::WeightedSum>()
        .field("V", &ex::WeightedSum::V)
        .field("weights", &ex::WeightedSum::weights);
    object<ex::Permutation>()
        .field("embeddings", &ex::Permutation::embeddings)
        .field("Wq", &ex::Permutation::Wq)
        .field("Wk", &ex::Permutation::Wk)
        .field("Wv", &ex::Permutation::Wv);
    object<ex::Sentence>()
        .field("lang", &ex::Sentence::lang)
        .field("id", &ex::Sentence::id)
        .field("tokens", &ex::Sentence::tokens)
        .field("flags", &ex::Sentence::flags)
        .field("pronoun", &ex::Sentence::pronoun)
        .field("referent", &ex::Sentence::referent);
    object<ReadingHeads>()
        .field("heads", &ReadingHeads::heads)
        .field("features", &ReadingHeads::features)
        .field("sentences", &ReadingHeads::sentences);

    bind<&example>("example");
}

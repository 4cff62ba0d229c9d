// Bindings of core/include/attn/multihead.hpp.
#include "bind.hpp"

namespace {

using namespace attn::wasm;

// {Wq, Wk, Wv, Wo, heads, causal, dropout}: multi_head_attention's weights and options in one object.
struct MultiHeadArgs {
    attn::MultiHeadWeights weights;
    attn::MultiHeadOptions options;
};

void read_js(Record& o, MultiHeadArgs& a) {
    read_fields(o, "Wq", a.weights.Wq, "Wk", a.weights.Wk, "Wv", a.weights.Wv, "Wo", a.weights.Wo, "heads",
                a.options.heads, "causal", a.options.causal, "dropout", a.options.dropout);
}

// multi_head_attention() with its working set checked against the module's memory first:
// q, k, v and their head slices, then per head the trace of attention().
attn::MultiHeadTrace multi_head_attention(attn::ConstMatrixView X, const MultiHeadArgs& a) {
    const double T = double(X.rows());
    check_budget(T * double(a.weights.Wq.cols() + a.weights.Wk.cols() + a.weights.Wv.cols()) * 2.0 +
                     6.0 * T * T * double(std::max<std::size_t>(a.options.heads, 1)),
                 "multi_head_attention");
    return attn::multi_head_attention(X, a.weights, a.options);
}

}  // namespace

ATTN_BINDINGS(attn_multihead) {
    using namespace attn::wasm;
    using attn::MultiHeadTrace;
    object<MultiHeadTrace>()
        .field("q", &MultiHeadTrace::q)
        .field("k", &MultiHeadTrace::k)
        .field("v", &MultiHeadTrace::v)
        .field("heads", &MultiHeadTrace::heads)
        .field("concat", &MultiHeadTrace::concat)
        .field("output", &MultiHeadTrace::output)
        .field("nonFinite", &MultiHeadTrace::nonfinite);

    bind<&attn::split_heads>("splitHeads");
    bind<&attn::concat_heads>("concatHeads");
    bind<&multi_head_attention>("multiHeadAttention");
}

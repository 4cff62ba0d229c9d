// Embind bindings of the attention core's forward stages. These raw functions are
// private: the public JS API is wasm/attn.mjs, which validates argument types, turns
// error results into JS RangeError/TypeError and documents shapes (see attn.d.ts).
// Conversions and the no-exception rule are in convert.hpp. New topics may add their
// own binding file (wasm/*.cpp) with its own EMSCRIPTEN_BINDINGS block.
#include <emscripten/heap.h>

#include "convert.hpp"

using namespace attn::wasm;
using emscripten::val;

namespace {

attn::DropoutOptions dropout_from_js(const val& d) {
    attn::DropoutOptions o;
    if (d.isUndefined() || d.isNull()) return o;
    if (!d["rate"].isUndefined()) o.rate = d["rate"].as<float>();
    if (!d["seed"].isUndefined()) o.seed = std::uint64_t(d["seed"].as<double>());
    if (!d["training"].isUndefined()) o.training = d["training"].as<bool>();
    return o;
}

bool flag(const val& opts, const char* name) {
    return !opts.isUndefined() && !opts.isNull() && opts[name].as<bool>();
}

val simd() { return val(attn::simd_name()); }
val heap_bytes() { return val(double(emscripten_get_heap_size())); }

val matmul(val A, val B) { return guard([&] { return to_js(attn::matmul(from_js(A), from_js(B))); }); }
val matmul_bt(val A, val B) { return guard([&] { return to_js(attn::matmul_bt(from_js(A), from_js(B))); }); }
val transpose(val A) { return guard([&] { return to_js(attn::transpose(from_js(A))); }); }
val scores(val Q, val K) { return guard([&] { return to_js(attn::scores(from_js(Q), from_js(K))); }); }
val scale(val S, float f) { return guard([&] { return to_js(attn::scale(from_js(S), f)); }); }
val causal_mask(double tq, double tk) {
    return guard([&] { return to_js(attn::causal_mask(std::size_t(tq), std::size_t(tk))); });
}
val add_mask(val S, val M) { return guard([&] { return to_js(attn::add_mask(from_js(S), from_js(M))); }); }
val softmax(val S, std::string axis) {
    return guard([&] {
        if (axis != "rows" && axis != "cols")
            throw attn::ValueError("softmax: axis must be 'rows' or 'cols', got '" + axis + "'");
        return to_js(attn::softmax(from_js(S), axis == "rows" ? attn::Axis::Rows : attn::Axis::Cols));
    });
}
val weighted_sum(val P, val V) {
    return guard([&] { return to_js(attn::weighted_sum(from_js(P), from_js(V))); });
}
val dropout(val P, float rate, double seed) {
    return guard([&] { return to_js(attn::dropout(from_js(P), rate, std::uint64_t(seed))); });
}

val attention(val Q, val K, val V, val opts) {
    return guard([&] {
        attn::AttentionOptions o;
        o.causal = flag(opts, "causal");
        if (!opts["scale"].isUndefined() && !opts["scale"].isNull()) o.scale = opts["scale"].as<float>();
        if (!opts["mask"].isUndefined() && !opts["mask"].isNull()) o.mask = from_js(opts["mask"]);
        o.dropout = dropout_from_js(opts["dropout"]);
        return trace_to_js(attn::attention(from_js(Q), from_js(K), from_js(V), o));
    });
}

val split_heads(val X, double heads) {
    return guard([&] {
        val out = val::array();
        for (const auto& m : attn::split_heads(from_js(X), std::size_t(heads))) out.call<void>("push", to_js(m));
        return out;
    });
}

val concat_heads(val list) {
    return guard([&] {
        std::vector<attn::Matrix> heads;
        const std::size_t n = list["length"].as<std::size_t>();
        for (std::size_t i = 0; i < n; ++i) heads.push_back(from_js(list[i]));
        return to_js(attn::concat_heads(heads));
    });
}

val multi_head_attention(val X, val opts) {
    return guard([&] {
        attn::MultiHeadWeights w{from_js(opts["Wq"]), from_js(opts["Wk"]), from_js(opts["Wv"]),
                                 from_js(opts["Wo"])};
        attn::MultiHeadOptions o;
        o.heads = std::size_t(opts["heads"].as<double>());
        o.causal = flag(opts, "causal");
        o.dropout = dropout_from_js(opts["dropout"]);
        const auto t = attn::multi_head_attention(from_js(X), w, o);
        val out = val::object();
        out.set("q", to_js(t.q));
        out.set("k", to_js(t.k));
        out.set("v", to_js(t.v));
        val heads = val::array();
        for (const auto& h : t.heads) heads.call<void>("push", trace_to_js(h));
        out.set("heads", heads);
        out.set("concat", to_js(t.concat));
        out.set("output", to_js(t.output));
        return out;
    });
}

val positional_encoding(double T, double d) {
    return guard([&] { return to_js(attn::sinusoidal_encoding(std::size_t(T), std::size_t(d))); });
}

val cost(val in) {
    return guard([&] {
        attn::CostInput c;
        c.n = std::size_t(in["n"].as<double>());
        c.d_model = std::size_t(in["dModel"].as<double>());
        c.heads = std::size_t(in["heads"].as<double>());
        c.layers = std::size_t(in["layers"].as<double>());
        c.bytes_per_element = std::size_t(in["bytesPerElement"].as<double>());
        if (!in["tile"].isUndefined()) c.tile = std::size_t(in["tile"].as<double>());
        const attn::Cost r = attn::cost(c);
        val out = val::object();
        out.set("dHead", r.d_head);
        out.set("flopsProjections", r.flops_projections);
        out.set("flopsScores", r.flops_scores);
        out.set("flopsWeightedSum", r.flops_weighted_sum);
        out.set("flopsAttention", r.flops_attention);
        out.set("flopsLayer", r.flops_layer);
        out.set("flopsTotal", r.flops_total);
        out.set("attentionEntries", r.attention_entries);
        out.set("bytesPerMatrix", r.bytes_per_matrix);
        out.set("bytesPerLayer", r.bytes_per_layer);
        out.set("bytesTotal", r.bytes_total);
        out.set("flopsRecurrent", r.flops_recurrent);
        out.set("crossoverN", r.crossover_n);
        out.set("pathLengthAttention", r.path_length_attention);
        out.set("pathLengthRecurrent", r.path_length_recurrent);
        out.set("sequentialStepsAttention", r.sequential_steps_attention);
        out.set("sequentialStepsRecurrent", r.sequential_steps_recurrent);
        out.set("orderAttention", r.order_attention);
        out.set("orderRecurrent", r.order_recurrent);
        out.set("flopsAttentionAt2n", r.flops_attention_at_2n);
        out.set("flopsLayerAt2n", r.flops_layer_at_2n);
        out.set("attentionGrowth", r.attention_growth);
        out.set("layerGrowth", r.layer_growth);
        out.set("secondHalfRatio", r.second_half_ratio);
        out.set("bytesQkvo", r.bytes_qkvo);
        out.set("bytesPlainLayer", r.bytes_plain_layer);
        out.set("bytesTiledLayer", r.bytes_tiled_layer);
        return out;
    });
}

val random_matrix(val opts) {
    return guard([&] {
        const std::size_t rows = std::size_t(opts["rows"].as<double>()), cols = std::size_t(opts["cols"].as<double>());
        const std::uint64_t seed = std::uint64_t(opts["seed"].as<double>());
        const std::string dist = opts["distribution"].as<std::string>();
        if (dist == "uniform")
            return to_js(attn::random_uniform(rows, cols, seed, opts["lo"].as<float>(), opts["hi"].as<float>()));
        if (dist == "normal")
            return to_js(attn::random_normal(rows, cols, seed, opts["mean"].as<float>(), opts["std"].as<float>()));
        throw attn::ValueError("random: distribution must be 'normal' or 'uniform', got '" + dist + "'");
    });
}

val example(std::string name) {
    return guard([&] {
        if (name != "core-attention") throw attn::ValueError("example: no example named '" + name + "'");
        const auto ex = attn::examples::core_attention();
        val out = val::object();
        out.set("tokens", double(ex.tokens));
        out.set("dModel", double(ex.d_model));
        out.set("heads", double(ex.heads));
        out.set("Q", to_js(ex.Q));
        out.set("K", to_js(ex.K));
        out.set("V", to_js(ex.V));
        return out;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_core) {
    using emscripten::function;
    function("simd", &simd);
    function("heapBytes", &heap_bytes);
    function("matmul", &matmul);
    function("matmulBt", &matmul_bt);
    function("transpose", &transpose);
    function("scores", &scores);
    function("scale", &scale);
    function("causalMask", &causal_mask);
    function("addMask", &add_mask);
    function("softmax", &softmax);
    function("weightedSum", &weighted_sum);
    function("dropout", &dropout);
    function("attention", &attention);
    function("splitHeads", &split_heads);
    function("concatHeads", &concat_heads);
    function("multiHeadAttention", &multi_head_attention);
    function("positionalEncoding", &positional_encoding);
    function("cost", &cost);
    function("random", &random_matrix);
    function("example", &example);
}

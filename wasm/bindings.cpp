// Embind bindings of the attention core's forward stages. These raw functions are
// private: the public JS API is wasm/attn.mjs, which validates argument types, turns
// error results into JS RangeError/TypeError and documents shapes (see attn.d.ts).
// Conversions and the no-exception rule are in convert.hpp. New topics may add their
// own binding file (wasm/*.cpp) with its own EMSCRIPTEN_BINDINGS block.
#include <emscripten/heap.h>
#include <malloc.h>

#include "convert.hpp"

using namespace attn::wasm;
using emscripten::val;

namespace {

attn::DropoutOptions dropout_from_js(const val& d) {
    attn::DropoutOptions o;
    if (d.isUndefined() || d.isNull()) return o;
    if (!d["rate"].isUndefined()) o.rate = to_float(number(d["rate"], "dropout rate"));
    if (!d["seed"].isUndefined()) o.seed = to_seed(number(d["seed"], "dropout seed"), "dropout seed");
    if (!d["training"].isUndefined()) o.training = d["training"].isTrue();
    return o;
}

bool flag(const val& opts, const char* name) {
    return !opts.isUndefined() && !opts.isNull() && opts[name].isTrue();
}

val simd() { return val(attn::simd_name()); }
val heap_bytes() { return val(double(emscripten_get_heap_size())); }
// Bytes currently allocated by malloc (dlmalloc's uordblks): flat when nothing leaks.
val malloc_bytes() { return val(double(mallinfo().uordblks)); }

val matmul(val A, val B) { return guard([&] { return to_js(attn::matmul(from_js(A), from_js(B))); }); }
val matmul_bt(val A, val B) { return guard([&] { return to_js(attn::matmul_bt(from_js(A), from_js(B))); }); }
val transpose(val A) { return guard([&] { return to_js(attn::transpose(from_js(A))); }); }
val scores(val Q, val K) { return guard([&] { return to_js(attn::scores(from_js(Q), from_js(K))); }); }
val scale(val S, float f) { return guard([&] { return to_js(attn::scale(from_js(S), f)); }); }
val causal_mask(double tq, double tk) {
    return guard([&] { return to_js(attn::causal_mask(to_count(tq, "Tq"), to_count(tk, "Tk"))); });
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
    return guard([&] { return to_js(attn::dropout(from_js(P), rate, to_seed(seed, "dropout seed"))); });
}

val attention(val Q, val K, val V, val opts) {
    return guard([&] {
        attn::AttentionOptions o;
        o.causal = flag(opts, "causal");
        if (!opts["scale"].isUndefined() && !opts["scale"].isNull()) o.scale = to_float(number(opts["scale"], "scale"));
        if (!opts["mask"].isUndefined() && !opts["mask"].isNull()) o.mask = from_js(opts["mask"]);
        o.dropout = dropout_from_js(opts["dropout"]);
        const attn::Matrix q = from_js(Q), k = from_js(K), v = from_js(V);
        // scores, scaled, masked, weights, dropped and softmax's working copy, then O.
        check_budget(6.0 * double(q.rows()) * double(k.rows()) + double(q.rows()) * double(v.cols()), "attention");
        return trace_to_js(attn::attention(q, k, v, o));
    });
}

val split_heads(val X, double heads) {
    return guard([&] {
        val out = val::array();
        for (const auto& m : attn::split_heads(from_js(X), to_count(heads, "heads"))) out.call<void>("push", to_js(m));
        return out;
    });
}

val concat_heads(val list) {
    return guard([&] {
        std::vector<attn::Matrix> heads;
        const std::size_t n = to_count(number(list["length"], "heads list length"), "heads list length");
        for (std::size_t i = 0; i < n; ++i) heads.push_back(from_js(list[i]));
        return to_js(attn::concat_heads(heads));
    });
}

val multi_head_attention(val X, val opts) {
    return guard([&] {
        attn::MultiHeadWeights w{from_js(opts["Wq"]), from_js(opts["Wk"]), from_js(opts["Wv"]),
                                 from_js(opts["Wo"])};
        attn::MultiHeadOptions o;
        o.heads = to_count(number(opts["heads"], "heads"), "heads");
        o.causal = flag(opts, "causal");
        o.dropout = dropout_from_js(opts["dropout"]);
        const attn::Matrix x = from_js(X);
        const double T = double(x.rows());
        check_budget(T * double(w.Wq.cols() + w.Wk.cols() + w.Wv.cols()) * 2.0 + 6.0 * T * T * double(std::max<std::size_t>(o.heads, 1)),
                     "multi_head_attention");
        const auto t = attn::multi_head_attention(x, w, o);
        val out = val::object();
        out.set("q", to_js(t.q));
        out.set("k", to_js(t.k));
        out.set("v", to_js(t.v));
        val heads = val::array();
        for (const auto& h : t.heads) heads.call<void>("push", trace_to_js(h));
        out.set("heads", heads);
        out.set("concat", to_js(t.concat));
        out.set("output", to_js(t.output));
        out.set("nonFinite", nonfinite_to_js(t.nonfinite));
        return out;
    });
}

val positional_encoding(double T, double d) {
    return guard([&] { return to_js(attn::sinusoidal_encoding(to_count(T, "T"), to_count(d, "d"))); });
}

val cost(val in) {
    return guard([&] {
        attn::CostInput c;
        c.n = to_count(number(in["n"], "n"), "n");
        c.d_model = to_count(number(in["dModel"], "dModel"), "dModel");
        c.heads = to_count(number(in["heads"], "heads"), "heads");
        c.layers = to_count(number(in["layers"], "layers"), "layers");
        c.bytes_per_element = to_count(number(in["bytesPerElement"], "bytesPerElement"), "bytesPerElement");
        if (!in["tile"].isUndefined()) c.tile = to_count(number(in["tile"], "tile"), "tile");
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
        out.set("attentionMatrices", r.attention_matrices);
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
        const std::size_t rows = to_count(number(opts["rows"], "rows"), "rows"), cols = to_count(number(opts["cols"], "cols"), "cols");
        const std::uint64_t seed = to_seed(number(opts["seed"], "seed"), "seed");
        if (!opts["distribution"].isString()) throw attn::ValueError("random: distribution must be a string");
        const std::string dist = opts["distribution"].as<std::string>();
        const auto f = [&](const char* k) { return to_float(number(opts[k], k)); };
        if (dist == "uniform") return to_js(attn::random_uniform(rows, cols, seed, f("lo"), f("hi")));
        if (dist == "normal") return to_js(attn::random_normal(rows, cols, seed, f("mean"), f("std")));
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
    function("mallocBytes", &malloc_bytes);
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

// Embind bindings of the reading/inspection helpers (attn/inspect.hpp), the toy recurrent
// state (attn/recurrent.hpp), the constructed heads (attn/reading.hpp) and the lecture's
// worked examples (attn/lecture_examples.hpp). Private raw functions: the public API is
// wasm/attn.mjs (argument checks, typed errors). Conversions and guard() are in convert.hpp.
#include <cmath>
#include <vector>

#include "convert.hpp"

using namespace attn::wasm;
using emscripten::val;

namespace {

std::vector<std::size_t> indices_from_js(const val& list, const char* what) {
    const auto xs = emscripten::convertJSArrayToNumberVector<double>(list);
    std::vector<std::size_t> out;
    out.reserve(xs.size());
    for (double x : xs) {
        if (!(x >= 0) || x != std::floor(x) || x > 4294967295.0)
            throw attn::ValueError(std::string(what) + ": every entry must be a non-negative integer");
        out.push_back(std::size_t(x));
    }
    return out;
}

val indices_to_js(const std::vector<std::size_t>& xs) {
    val out = val::array();
    for (std::size_t x : xs) out.call<void>("push", double(x));
    return out;
}

val row_argmax(val M) { return guard([&] { return to_js(attn::row_argmax(from_js(M))); }); }
val add(val A, val B) { return guard([&] { return to_js(attn::add(from_js(A), from_js(B))); }); }
val permute_rows(val M, val perm) {
    return guard([&] { return to_js(attn::permute_rows(from_js(M), indices_from_js(perm, "permuteRows: perm"))); });
}
val max_abs_diff(val A, val B) {
    return guard([&] { return val(double(attn::max_abs_diff(from_js(A), from_js(B)))); });
}
val normalize_weights(val W) { return guard([&] { return to_js(attn::normalize_weights(from_js(W))); }); }
val column_range(val M) {
    return guard([&] {
        const attn::Matrix r = attn::column_range(from_js(M));
        val out = val::object();
        auto row = [&](std::size_t i) { return attn::Matrix(1, r.cols(), std::vector<float>(r.row(i), r.row(i) + r.cols())); };
        out.set("min", to_js(row(0)));
        out.set("max", to_js(row(1)));
        return out;
    });
}
val convex_hull(val P) { return guard([&] { return indices_to_js(attn::convex_hull(from_js(P))); }); }
val hull_distance(val p, val P) {
    return guard([&] { return val(attn::hull_distance(from_js(p), from_js(P))); });
}
val sinusoid_angles(double T, double d) {
    return guard([&] { return to_js(attn::sinusoid_angles(std::size_t(T), std::size_t(d))); });
}
val recurrent_scan(val X, float r) { return guard([&] { return to_js(attn::recurrent_scan(from_js(X), r)); }); }

val token_features(val flags) {
    return guard([&] {
        const auto f = indices_from_js(flags, "tokenFeatures: flags");
        std::vector<unsigned> u;
        for (std::size_t x : f) {
            if (x > 0xffffu) throw attn::ValueError("tokenFeatures: flags must be small bit sets (verb=1, object=2, pronoun=4, animate=8)");
            u.push_back(unsigned(x));
        }
        return to_js(attn::reading::token_features(u));
    });
}

val constructed_head(std::string kind, double T, float strength) {
    return guard([&] {
        const auto w = attn::reading::constructed_head(attn::reading::head_kind(kind), std::size_t(T), strength);
        val out = val::object();
        out.set("Wq", to_js(w.Wq));
        out.set("Wk", to_js(w.Wk));
        return out;
    });
}

val lecture_example(std::string name) {
    return guard([&] {
        val out = val::object();
        if (name == "weighted-sum") {
            const auto ex = attn::examples::weighted_sum();
            out.set("V", to_js(ex.V));
            out.set("weights", to_js(ex.weights));
        } else if (name == "permutation") {
            const auto ex = attn::examples::permutation();
            out.set("embeddings", to_js(ex.embeddings));
            out.set("Wq", to_js(ex.Wq));
            out.set("Wk", to_js(ex.Wk));
            out.set("Wv", to_js(ex.Wv));
        } else if (name == "reading-heads") {
            val heads = val::array();
            for (auto k : attn::reading::all_heads()) heads.call<void>("push", std::string(attn::reading::head_name(k)));
            out.set("heads", heads);
            val features = val::array();
            for (const char* f : {"verb", "object", "pronoun", "animate"}) features.call<void>("push", std::string(f));
            out.set("features", features);
            val sentences = val::array();
            for (const auto& s : attn::examples::reading_sentences()) {
                val o = val::object();
                o.set("lang", s.lang);
                o.set("id", s.id);
                val tokens = val::array();
                for (const auto& t : s.tokens) tokens.call<void>("push", t);
                o.set("tokens", tokens);
                val flags = val::array();
                for (unsigned f : s.flags) flags.call<void>("push", double(f));
                o.set("flags", flags);
                o.set("pronoun", double(s.pronoun));
                o.set("referent", double(s.referent));
                sentences.call<void>("push", o);
            }
            out.set("sentences", sentences);
        } else {
            throw attn::ValueError("example: no example named '" + name + "'");
        }
        return out;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_inspect) {
    using emscripten::function;
    function("rowArgmax", &row_argmax);
    function("add", &add);
    function("permuteRows", &permute_rows);
    function("maxAbsDiff", &max_abs_diff);
    function("normalizeWeights", &normalize_weights);
    function("columnRange", &column_range);
    function("convexHull", &convex_hull);
    function("hullDistance", &hull_distance);
    function("sinusoidAngles", &sinusoid_angles);
    function("recurrentScan", &recurrent_scan);
    function("tokenFeatures", &token_features);
    function("constructedHead", &constructed_head);
    function("lectureExample", &lecture_example);
}

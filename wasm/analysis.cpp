// Embind bindings of core/include/attn/analysis.hpp: softmax parts and gradient, the
// q·k variance experiment, the scaling effect and small reductions used by the
// walkthroughs. Private raw functions; the public API is wasm/attn.mjs (argument checks,
// RangeError/TypeError) and attn.d.ts. Conversions and guard() are in convert.hpp.
#include "convert.hpp"

using namespace attn::wasm;
using emscripten::val;

namespace {

attn::Axis axis_from(const std::string& axis, const char* fn) {
    if (axis != "rows" && axis != "cols")
        throw attn::ValueError(std::string(fn) + ": axis must be 'rows' or 'cols', got '" + axis + "'");
    return axis == "rows" ? attn::Axis::Rows : attn::Axis::Cols;
}

val moments_to_js(const attn::Moments& m) {
    val out = val::object();
    out.set("count", double(m.count));
    out.set("sum", m.sum);
    out.set("mean", m.mean);
    out.set("variance", m.variance);
    out.set("std", m.stddev);
    out.set("min", m.min);
    out.set("max", m.max);
    return out;
}

template <class T>
val numbers(const std::vector<T>& xs) {
    val a = val::array();
    for (const T& x : xs) a.call<void>("push", double(x));
    return a;
}

val row_sums(val M) { return guard([&] { return to_js(attn::row_sums(from_js(M))); }); }
val col_sums(val M) { return guard([&] { return to_js(attn::col_sums(from_js(M))); }); }
val row_max(val M) { return guard([&] { return to_js(attn::row_max(from_js(M))); }); }
val row_dots(val A, val B) { return guard([&] { return to_js(attn::row_dots(from_js(A), from_js(B))); }); }
val row_norms(val M) { return guard([&] { return to_js(attn::row_norms(from_js(M))); }); }
val normalize_rows(val M, float norm) { return guard([&] { return to_js(attn::normalize_rows(from_js(M), norm)); }); }
val difference(val A, val B) { return guard([&] { return to_js(attn::difference(from_js(A), from_js(B))); }); }
val diagonal(val M) { return guard([&] { return to_js(attn::diagonal(from_js(M))); }); }
val moments(val M) { return guard([&] { return moments_to_js(attn::moments(from_js(M))); }); }

val histogram(val M, double bins, double lo, double hi) {
    return guard([&] {
        if (!(bins >= 1 && bins <= 10000)) throw attn::ValueError("histogram: bins must be in [1, 10000]");
        const attn::Histogram h = attn::histogram(from_js(M), std::size_t(bins), lo, hi);
        val out = val::object();
        out.set("lo", h.lo);
        out.set("hi", h.hi);
        out.set("edges", numbers(h.edges));
        out.set("counts", numbers(h.counts));
        out.set("below", double(h.below));
        out.set("above", double(h.above));
        out.set("nonFinite", double(h.non_finite));
        return out;
    });
}

val dot_geometry(val a, val b) {
    return guard([&] {
        const attn::DotGeometry g = attn::dot_geometry(from_js(a), from_js(b));
        val out = val::object();
        out.set("dot", g.dot);
        out.set("normA", g.norm_a);
        out.set("normB", g.norm_b);
        out.set("cos", g.cos);
        out.set("degrees", g.degrees);
        return out;
    });
}

val diagonal_check(val S, float rel_tol) {
    return guard([&] {
        const attn::DiagonalCheck c = attn::diagonal_check(from_js(S), rel_tol);
        val out = val::object();
        out.set("diagonal", to_js(c.diagonal));
        out.set("offMax", to_js(c.off_max));
        out.set("margin", to_js(c.margin));
        out.set("holds", to_js(c.holds));
        return out;
    });
}

val softmax_parts(val S, std::string axis) {
    return guard([&] {
        const attn::SoftmaxParts p = attn::softmax_parts(from_js(S), axis_from(axis, "softmaxParts"));
        val out = val::object();
        out.set("max", to_js(p.max));
        out.set("shifted", to_js(p.shifted));
        out.set("exp", to_js(p.exp));
        out.set("sums", to_js(p.sums));
        out.set("expRaw", to_js(p.exp_raw));
        out.set("sumsRaw", to_js(p.sums_raw));
        out.set("weights", to_js(p.weights));
        return out;
    });
}

val softmax_jacobian_diag(val P) { return guard([&] { return to_js(attn::softmax_jacobian_diag(from_js(P))); }); }
val softmax_jacobian(val p) { return guard([&] { return to_js(attn::softmax_jacobian(from_js(p))); }); }

val scaling_effect(val S, float factor) {
    return guard([&] {
        const attn::ScalingEffect e = attn::scaling_effect(from_js(S), factor);
        val out = val::object();
        out.set("factor", e.factor);
        out.set("scaled", to_js(e.scaled));
        out.set("weights", to_js(e.weights));
        out.set("weightsScaled", to_js(e.weights_scaled));
        out.set("grad", to_js(e.grad));
        out.set("gradScaled", to_js(e.grad_scaled));
        out.set("top", to_js(e.top));
        out.set("gradTop", to_js(e.grad_top));
        out.set("gradTopScaled", to_js(e.grad_top_scaled));
        out.set("ratio", to_js(e.ratio));
        return out;
    });
}

val score_scale(double d_k) {
    return guard([&] {
        const attn::ScoreScale s = attn::score_scale(std::size_t(d_k));
        val out = val::object();
        out.set("dk", double(s.d_k));
        out.set("sqrtDk", s.sqrt_dk);
        out.set("factor", s.factor);
        return out;
    });
}

val sample_dot_products(double d_k, double count, double seed) {
    return guard([&] {
        const attn::DotProductSample s =
            attn::sample_dot_products(std::size_t(d_k), std::size_t(count), std::uint64_t(seed));
        val out = val::object();
        out.set("dk", double(s.d_k));
        out.set("count", double(s.count));
        out.set("seed", double(s.seed));
        out.set("dots", to_js(s.dots));
        out.set("scaled", to_js(s.scaled));
        out.set("raw", moments_to_js(s.raw));
        out.set("normalized", moments_to_js(s.normalized));
        out.set("expectedVariance", s.expected_variance);
        return out;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_analysis) {
    using emscripten::function;
    function("rowSums", &row_sums);
    function("colSums", &col_sums);
    function("rowMax", &row_max);
    function("rowDots", &row_dots);
    function("rowNorms", &row_norms);
    function("normalizeRows", &normalize_rows);
    function("difference", &difference);
    function("diagonal", &diagonal);
    function("moments", &moments);
    function("histogram", &histogram);
    function("dotGeometry", &dot_geometry);
    function("diagonalCheck", &diagonal_check);
    function("softmaxParts", &softmax_parts);
    function("softmaxJacobianDiag", &softmax_jacobian_diag);
    function("softmaxJacobian", &softmax_jacobian);
    function("scalingEffect", &scaling_effect);
    function("scoreScale", &score_scale);
    function("sampleDotProducts", &sample_dot_products);
}

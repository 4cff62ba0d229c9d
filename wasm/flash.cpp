// Embind bindings of the tiled attention kernel, the plain output-only path and the
// memory counters (for the "n² cost" chapter and the benchmark). Raw functions: the
// public API is wasm/attn.mjs (flashAttention, attentionOutput, memoryStats,
// resetPeakMemory, profileAttention).
#include <emscripten/emscripten.h>

#include "convert.hpp"

using namespace attn::wasm;
using emscripten::val;

namespace {

bool has(const val& opts, const char* name) {
    return !opts.isUndefined() && !opts.isNull() && !opts[name].isUndefined() && !opts[name].isNull();
}

val flash_attention(val Q, val K, val V, val opts) {
    return guard([&] {
        const attn::Matrix q = from_js(Q), k = from_js(K), v = from_js(V);
        attn::FlashOptions o;
        o.causal = has(opts, "causal") && opts["causal"].as<bool>();
        if (has(opts, "scale")) o.scale = opts["scale"].as<float>();
        if (has(opts, "tile")) o.tile = std::size_t(opts["tile"].as<double>());
        attn::Matrix mask;
        if (has(opts, "mask")) {
            mask = from_js(opts["mask"]);
            o.mask = mask.view();
        }
        return to_js(attn::flash_attention(q, k, v, o));
    });
}

val attention_output(val Q, val K, val V, val opts) {
    return guard([&] {
        attn::AttentionOptions o;
        o.causal = has(opts, "causal") && opts["causal"].as<bool>();
        if (has(opts, "scale")) o.scale = opts["scale"].as<float>();
        if (has(opts, "mask")) o.mask = from_js(opts["mask"]);
        return to_js(attn::attention_output(from_js(Q), from_js(K), from_js(V), o));
    });
}

val stats_to_js(const attn::MemoryStats& s) {
    val out = val::object();
    out.set("currentBytes", double(s.current_bytes));
    out.set("peakBytes", double(s.peak_bytes));
    return out;
}

val memory_stats() { return stats_to_js(attn::memory_stats()); }
val reset_peak_memory() {
    attn::reset_peak_memory();
    return stats_to_js(attn::memory_stats());
}

// Runs one kernel on inputs already in wasm memory and measures it: wall time of the
// kernel alone (no copies across the JS boundary) and the core memory it needed on top
// of its inputs (peak tracked bytes minus what was held before, so the output counts).
val profile_attention(val Q, val K, val V, val opts) {
    return guard([&] {
        const attn::Matrix q = from_js(Q), k = from_js(K), v = from_js(V);
        const std::string kernel = opts["kernel"].as<std::string>();
        const bool causal = has(opts, "causal") && opts["causal"].as<bool>();
        if (kernel != "plain" && kernel != "tiled")
            throw attn::ValueError("profileAttention: kernel must be 'plain' or 'tiled', got '" + kernel + "'");
        const std::size_t before = attn::memory_stats().current_bytes;
        attn::reset_peak_memory();
        const double t0 = emscripten_get_now();
        attn::Matrix out;
        if (kernel == "tiled") {
            attn::FlashOptions o;
            o.causal = causal;
            if (has(opts, "tile")) o.tile = std::size_t(opts["tile"].as<double>());
            out = attn::flash_attention(q, k, v, o);
        } else {
            attn::AttentionOptions o;
            o.causal = causal;
            out = attn::attention_output(q, k, v, o);
        }
        const double ms = emscripten_get_now() - t0;
        val r = val::object();
        r.set("kernel", kernel);
        r.set("ms", ms);
        r.set("workBytes", double(attn::memory_stats().peak_bytes - before));
        r.set("outputRows", double(out.rows()));
        r.set("outputCols", double(out.cols()));
        return r;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_flash) {
    using emscripten::function;
    function("flashAttention", &flash_attention);
    function("attentionOutput", &attention_output);
    function("memoryStats", &memory_stats);
    function("resetPeakMemory", &reset_peak_memory);
    function("profileAttention", &profile_attention);
}

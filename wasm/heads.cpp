// Embind bindings for the chapters on heads, masking and dropout: their example inputs
// (attn::examples::no_weights, projections, multi_head, one_head). Private: the public
// API is attn.example(name) in attn.mjs.
#include "convert.hpp"

using namespace attn::wasm;
using emscripten::val;

namespace {

val example_heads(std::string name) {
    return guard([&] {
        val out = val::object();
        if (name == "no-weights") {
            out.set("X", to_js(attn::examples::no_weights().X));
        } else if (name == "projections" || name == "causal-dropout") {
            const auto p = attn::examples::projections();
            out.set("X", to_js(p.X));
            out.set("Wq", to_js(p.Wq));
            out.set("Wk", to_js(p.Wk));
            out.set("Wv", to_js(p.Wv));
        } else if (name == "multi-head") {
            const auto m = attn::examples::multi_head();
            out.set("tokens", double(m.tokens));
            out.set("dModel", double(m.d_model));
            out.set("heads", double(m.heads));
            out.set("X", to_js(m.X));
            out.set("Wq", to_js(m.Wq));
            out.set("Wk", to_js(m.Wk));
            out.set("Wv", to_js(m.Wv));
            out.set("Wo", to_js(m.Wo));
        } else if (name == "one-head") {
            const auto o = attn::examples::one_head();
            out.set("verb", double(o.verb));
            out.set("subject", double(o.subject));
            out.set("object", double(o.object));
            out.set("X", to_js(o.X));
            out.set("Xswapped", to_js(o.X_swapped));
            out.set("Wq", to_js(o.Wq));
            out.set("Wk", to_js(o.Wk));
            out.set("Wv", to_js(o.Wv));
            out.set("Wo", to_js(o.Wo));
        } else {
            throw attn::ValueError("example: no example named '" + name + "'");
        }
        return out;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_heads) {
    emscripten::function("exampleHeads", &example_heads);
}

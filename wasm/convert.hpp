// Conversions and error handling shared by every Embind binding file (wasm/*.cpp).
//
// * a matrix crosses as a plain object {rows, cols, data: Float32Array}; data is copied
//   into wasm memory on the way in, and results are fresh Float32Array copies on the way
//   out (never views into wasm memory, which detach when memory grows);
// * no C++ exception crosses: guard() catches and returns {__error, message}, which the
//   JS wrapper (attn.mjs) rethrows as a RangeError/Error, so the module stays usable.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <new>
#include <string>

#include "attn/attn.hpp"

namespace attn::wasm {

using emscripten::val;


inline attn::Matrix from_js(const val& m) {
    const double rows = m["rows"].as<double>(), cols = m["cols"].as<double>();
    if (!(rows >= 0) || !(cols >= 0) || rows != std::floor(rows) || cols != std::floor(cols))
        throw attn::ShapeError("matrix: rows and cols must be non-negative integers");
    if (rows > double(attn::kMaxElements) || cols > double(attn::kMaxElements))
        attn::check_size(attn::kMaxElements, 2, "matrix");
    attn::check_size(std::size_t(rows), std::size_t(cols), "matrix");
    return attn::Matrix(std::size_t(rows), std::size_t(cols),
                        emscripten::convertJSArrayToNumberVector<float>(m["data"]));
}

inline val to_js(const attn::Matrix& m) {
    val out = val::object();
    out.set("rows", double(m.rows()));
    out.set("cols", double(m.cols()));
    // A view into wasm memory, copied at once with slice().
    val view(emscripten::typed_memory_view(m.size(), m.data()));
    out.set("data", view.call<val>("slice"));
    return out;
}

inline val trace_to_js(const attn::Trace& t) {
    val out = val::object();
    out.set("scale", t.scale);
    out.set("scores", to_js(t.scores));
    out.set("scaled", to_js(t.scaled));
    out.set("masked", to_js(t.masked));
    out.set("weights", to_js(t.weights));
    out.set("dropped", to_js(t.dropped));
    out.set("output", to_js(t.output));
    return out;
}

inline val error(const char* kind, const std::string& message) {
    val e = val::object();
    e.set("__error", std::string(kind));
    e.set("message", message);
    return e;
}

// Runs f, turning any C++ exception into an error object.
template <class F>
val guard(F&& f) {
    try {
        return f();
    } catch (const attn::ShapeError& e) {
        return error("ShapeError", e.what());
    } catch (const attn::ValueError& e) {
        return error("ValueError", e.what());
    } catch (const attn::SizeError& e) {
        return error("SizeError", e.what());
    } catch (const std::bad_alloc&) {
        return error("SizeError", "out of memory: the WebAssembly module could not allocate this much");
    } catch (const std::exception& e) {
        return error("Error", e.what());
    } catch (...) {
        return error("Error", "unknown C++ exception");
    }
}

}  // namespace attn::wasm

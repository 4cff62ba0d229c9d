// Conversions and error handling shared by every Embind binding file (wasm/*.cpp).
//
// * a matrix crosses as a plain object {rows, cols, data: Float32Array}; data is copied
//   into wasm memory on the way in, and results are fresh Float32Array copies on the way
//   out (never views into wasm memory, which detach when memory grows);
// * no C++ exception crosses: guard() catches and returns {__error, message}, which the
//   JS wrapper (attn.mjs) rethrows as a RangeError/Error, so the module stays usable.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <string>

#include "attn/attn.hpp"

namespace attn::wasm {

using emscripten::val;

// A JS number used as a count (a size, a head count, n in the cost model): an integer in
// [0, max]. NaN, ±∞, fractions, negatives and values past what size_t holds in wasm32
// throw ValueError, never reach a float-to-integer conversion (undefined behaviour in
// C++, garbage in wasm). attn.mjs checks the same first; this is the second line.
inline std::size_t to_count(double x, const char* what,
                            double max = double(std::numeric_limits<std::size_t>::max())) {
    if (!(x >= 0) || !(x <= max) || x != std::floor(x))
        throw attn::ValueError(std::string(what) + " must be an integer from 0 to " + std::to_string(std::uint64_t(max)) +
                               ", got " + std::to_string(x));
    return std::size_t(x);
}

// A seed: an integer in [0, 2^53] (what a JS number holds exactly).
inline std::uint64_t to_seed(double x, const char* what) {
    if (!(x >= 0) || !(x <= 9007199254740992.0) || x != std::floor(x))
        throw attn::ValueError(std::string(what) + " must be a non-negative safe integer, got " + std::to_string(x));
    return std::uint64_t(x);
}

// double -> float without undefined behaviour: past the float range gives ±∞ (as the
// wasm instruction would), which the core then rejects or treats as documented.
inline float to_float(double x) {
    constexpr double kMax = double(std::numeric_limits<float>::max());
    if (x > kMax) return std::numeric_limits<float>::infinity();
    if (x < -kMax) return -std::numeric_limits<float>::infinity();
    return float(x);
}

inline double number(const val& v, const char* what) {
    if (!v.isNumber()) throw attn::ValueError(std::string(what) + " must be a number");
    return v.as<double>();
}

inline attn::Matrix from_js(const val& m) {
    const std::size_t rows = to_count(number(m["rows"], "matrix rows"), "matrix rows", double(attn::kMaxElements) + 1);
    const std::size_t cols = to_count(number(m["cols"], "matrix cols"), "matrix cols", double(attn::kMaxElements) + 1);
    attn::check_size(rows, cols, "matrix");
    const val data = m["data"];
    if (data.isUndefined() || data.isNull() || !data["length"].isNumber())
        throw attn::ValueError("matrix: data must be an array of numbers");
    if (data["length"].as<double>() != double(rows) * double(cols))
        throw attn::ShapeError("matrix: " + std::to_string(std::uint64_t(data["length"].as<double>())) +
                               " values do not fill a " + attn::shape_str(rows, cols) + " matrix");
    return attn::Matrix(rows, cols, emscripten::convertJSArrayToNumberVector<float>(data));
}

// Refuses a call whose working set (in floats) cannot fit in the module's memory, before
// anything is allocated: SizeError instead of growing the heap to its maximum first.
inline void check_budget(double floats, const char* what) {
    const double bytes = 4.0 * floats, max = double(emscripten_get_heap_max());
    if (bytes > max)
        throw attn::SizeError(std::string(what) + ": needs about " + std::to_string(std::uint64_t(bytes / 1e6)) +
                              " MB, more than the " + std::to_string(std::uint64_t(max / 1e6)) +
                              " MB this WebAssembly module can use");
}

inline val nonfinite_to_js(const attn::NonFiniteReport& r) {
    val out = val::object();
    out.set("count", double(r.count));
    val entries = val::array();
    for (const auto& e : r.entries) {
        val x = val::object();
        x.set("input", e.input);
        x.set("row", double(e.row));
        x.set("col", double(e.col));
        x.set("value", e.value);
        entries.call<void>("push", x);
    }
    out.set("entries", entries);
    val stages = val::array();
    for (const auto& s : r.stages) stages.call<void>("push", val(s));
    out.set("stages", stages);
    return out;
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
    out.set("nonFinite", nonfinite_to_js(t.nonfinite));
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

// The WebAssembly boundary, written once. Every binding file (wasm/<header>.cpp, named
// after the core header whose functions it binds) uses only this:
//
//   bind<&f>("name")     binds any C++ function f: each argument arrives as a JS value and
//                        is converted by Arg<its type>; the result goes back through
//                        to_js; guard() turns any C++ exception into {__error, message}
//                        (attn.mjs rethrows it as a RangeError), so no exception crosses
//                        and the module stays usable. One line per function.
//   value_object<S>      a struct crosses as a plain JS object, one .field line per member
//                        (Embind's value_object); members that are matrices, arrays or
//                        64-bit integers go through to_js with .field(name, js<&S::m>, none<S>)
//   constant(NAME, x)    a limit attn.mjs reads instead of keeping its own copy
//
// Conversions:
// * a matrix is a plain object {rows, cols, data}; data is copied into wasm memory on the
//   way in, and results are fresh Float32Array copies on the way out (never views into
//   wasm memory, which detach when memory grows);
// * a count is an integer in [0, size_t max], a seed an integer in [0, 2^53]; NaN, ±∞,
//   fractions and negatives throw ValueError before any float-to-integer conversion
//   (undefined behaviour in C++, garbage in wasm). attn.mjs checks the same first and
//   gives the learner its messages; this is the second line.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attn/attn.hpp"

namespace attn::wasm {

using emscripten::val;

// ---- JS -> C++ --------------------------------------------------------------------------------

inline double number(const val& v, const char* what) {
    if (!v.isNumber()) throw ValueError(std::string(what) + " must be a number");
    return v.as<double>();
}

// An integer in [0, max].
inline std::size_t to_count(double x, const char* what, double max = double(std::numeric_limits<std::size_t>::max())) {
    if (!(x >= 0) || !(x <= max) || x != std::floor(x))
        throw ValueError(std::string(what) + " must be an integer from 0 to " + std::to_string(std::uint64_t(max)) +
                         ", got " + std::to_string(x));
    return std::size_t(x);
}

// An integer in [0, 2^53] (what a JS number holds exactly).
inline std::uint64_t to_seed(double x, const char* what) {
    if (!(x >= 0) || !(x <= 9007199254740992.0) || x != std::floor(x))
        throw ValueError(std::string(what) + " must be a non-negative safe integer, got " + std::to_string(x));
    return std::uint64_t(x);
}

// double -> float without undefined behaviour: past the float range gives ±∞ (as the wasm
// instruction would), which the core then rejects or treats as documented.
inline float to_float(double x) {
    constexpr double kMax = double(std::numeric_limits<float>::max());
    if (x > kMax) return std::numeric_limits<float>::infinity();
    if (x < -kMax) return -std::numeric_limits<float>::infinity();
    return float(x);
}

// o is an object and o[key] is neither undefined nor null.
inline bool has(const val& o, const char* key) {
    return !o.isUndefined() && !o.isNull() && !o[key].isUndefined() && !o[key].isNull();
}
// o[key] === true.
inline bool flag(const val& o, const char* key) { return has(o, key) && o[key].isTrue(); }

// How a value of type T is read from a JS value. Binding files add their own for the
// option objects of their header (see bind<> below for how they are used).
template <class T, class = void>
struct Arg;

template <>
struct Arg<Matrix> {
    static Matrix from(const val& m) {
        const std::size_t rows = to_count(number(m["rows"], "matrix rows"), "matrix rows", double(kMaxElements) + 1);
        const std::size_t cols = to_count(number(m["cols"], "matrix cols"), "matrix cols", double(kMaxElements) + 1);
        check_size(rows, cols, "matrix");
        const val data = m["data"];
        if (data.isUndefined() || data.isNull() || !data["length"].isNumber())
            throw ValueError("matrix: data must be an array of numbers");
        if (data["length"].as<double>() != double(rows) * double(cols))
            throw ShapeError("matrix: " + std::to_string(std::uint64_t(data["length"].as<double>())) +
                             " values do not fill a " + shape_str(rows, cols) + " matrix");
        return Matrix(rows, cols, emscripten::convertJSArrayToNumberVector<float>(data));
    }
};
// A view argument gets an owning matrix that lives until the call returns.
template <>
struct Arg<ConstMatrixView> : Arg<Matrix> {};

// A JS value read by the function itself (an options object it takes apart).
template <>
struct Arg<val> {
    static val from(const val& v) { return v; }
};

template <>
struct Arg<std::size_t> {
    static std::size_t from(const val& v) { return to_count(number(v, "a count"), "a count"); }
};
template <>
struct Arg<std::uint64_t> {
    static std::uint64_t from(const val& v) { return to_seed(number(v, "a seed"), "a seed"); }
};
template <>
struct Arg<float> {
    static float from(const val& v) { return to_float(number(v, "a number")); }
};
template <>
struct Arg<double> {
    static double from(const val& v) { return number(v, "a number"); }
};
template <>
struct Arg<bool> {
    static bool from(const val& v) { return v.isTrue(); }
};
template <>
struct Arg<std::string> {
    static std::string from(const val& v) {
        if (!v.isString()) throw ValueError("a name must be a string");
        return v.as<std::string>();
    }
};
template <>
struct Arg<Axis> {
    static Axis from(const val& v) {
        const std::string axis = Arg<std::string>::from(v);
        if (axis != "rows" && axis != "cols")
            throw ValueError("softmax: axis must be 'rows' or 'cols', got '" + axis + "'");
        return axis == "rows" ? Axis::Rows : Axis::Cols;
    }
};
template <class T>
struct Arg<std::vector<T>> {
    static std::vector<T> from(const val& list) {
        const std::size_t n = to_count(number(list["length"], "list length"), "list length", double(kMaxElements));
        std::vector<T> out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i) out.push_back(Arg<T>::from(list[i]));
        return out;
    }
};
// Token flags and token ids: integers that fit the C++ type.
template <>
struct Arg<unsigned> {
    static unsigned from(const val& v) { return unsigned(to_count(number(v, "an index"), "an index", 4294967295.0)); }
};
template <>
struct Arg<int> {
    static int from(const val& v) {
        const double t = number(v, "a token");
        if (!(t >= -1e9 && t <= 1e9) || t != std::floor(t)) throw ValueError("a token must be an integer in -1e9..1e9");
        return int(t);
    }
};

template <class T>
struct Arg<std::optional<T>> {
    static std::optional<T> from(const val& v) { return Arg<T>::from(v); }
};

// Option objects: read_fields(o, "key", member, "key", member, ...) reads each key that is
// there (neither undefined nor null) into its member with the member's Arg<>, and leaves
// the others at their defaults: the way in, as value_object is the way out.
inline void read_fields(const val&) {}
template <class T, class... Rest>
void read_fields(const val& o, const char* key, T& member, Rest&&... rest) {
    if (has(o, key)) member = Arg<T>::from(o[key]);
    read_fields(o, std::forward<Rest>(rest)...);
}

// An option object: Arg<T> for every T with a read_js(const val&, T&), found by
// argument-dependent lookup: for the core's option structs in namespace attn (below, and
// in the binding file of their header), for a binding file's own structs beside them.
template <class T>
struct Arg<T, std::void_t<decltype(read_js(std::declval<const val&>(), std::declval<T&>()))>> {
    static T from(const val& o) {
        T t;
        read_js(o, t);
        return t;
    }
};

}  // namespace attn::wasm

namespace attn {
// {rate, seed, training}
inline void read_js(const emscripten::val& o, DropoutOptions& d) {
    wasm::read_fields(o, "rate", d.rate, "seed", d.seed, "training", d.training);
}
// {causal, scale, mask, dropout}, each optional.
inline void read_js(const emscripten::val& o, AttentionOptions& a) {
    wasm::read_fields(o, "causal", a.causal, "scale", a.scale, "mask", a.mask, "dropout", a.dropout);
}
}  // namespace attn

namespace attn::wasm {

// ---- C++ -> JS --------------------------------------------------------------------------------

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

// Matrices: {rows, cols, data: Float32Array copy}; vector<float>: a Float32Array copy;
// other vectors: arrays; 64-bit integers: numbers; everything else (numbers, strings,
// structs registered with value_object) by Embind.
template <class T>
val to_js(T&& x) {
    using U = std::decay_t<T>;
    if constexpr (std::is_same_v<U, Matrix>) {
        val out = val::object();
        out.set("rows", double(x.rows()));
        out.set("cols", double(x.cols()));
        out.set("data", val(emscripten::typed_memory_view(x.size(), x.data())).call<val>("slice"));
        return out;
    } else if constexpr (std::is_same_v<U, std::vector<float>>) {
        return val(emscripten::typed_memory_view(x.size(), x.data())).call<val>("slice");
    } else if constexpr (is_vector<U>::value) {
        val out = val::array();
        for (const auto& e : x) out.call<void>("push", to_js(e));
        return out;
    } else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
        return val(double(x));
    } else {
        return val(std::forward<T>(x));
    }
}

// A value_object member that needs to_js (a matrix, a vector, a 64-bit integer): the getter
// js<&S::member> and the setter none<S> (results only go out: nothing is read back).
template <auto Member>
struct member_of;
template <class C, class T, T C::*M>
struct member_of<M> {
    using type = C;
};
template <auto Member>
val js(const typename member_of<Member>::type& s) {
    return to_js(s.*Member);
}
template <class S>
void none(S&, val) {}

// ---- the guard ----------------------------------------------------------------------------------

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
    } catch (const ShapeError& e) {
        return error("ShapeError", e.what());
    } catch (const ValueError& e) {
        return error("ValueError", e.what());
    } catch (const SizeError& e) {
        return error("SizeError", e.what());
    } catch (const std::bad_alloc&) {
        return error("SizeError", "out of memory: the WebAssembly module could not allocate this much");
    } catch (const std::exception& e) {
        return error("Error", e.what());
    } catch (...) {
        return error("Error", "unknown C++ exception");
    }
}

// ---- bind<&f>("name") ---------------------------------------------------------------------------

template <class T>
using js_value = val;  // every argument crosses as a JS value

template <auto F>
struct Bound;
template <class R, class... A, R (*F)(A...)>
struct Bound<F> {
    static val call(js_value<A>... args) {
        return guard([&]() -> val {
            if constexpr (std::is_void_v<R>) {
                F(Arg<std::decay_t<A>>::from(args)...);
                return val::undefined();
            } else {
                return to_js(F(Arg<std::decay_t<A>>::from(args)...));
            }
        });
    }
};

// Binds f under `name`; the raw function takes one JS value per parameter of f.
template <auto F>
void bind(const char* name) {
    emscripten::function(name, &Bound<F>::call);
}

// Refuses a call whose working set (in floats) cannot fit in the module's memory, before
// anything is allocated: SizeError instead of growing the heap to its maximum first.
inline void check_budget(double floats, const char* what) {
    const double bytes = 4.0 * floats, max = double(emscripten_get_heap_max());
    if (bytes > max)
        throw SizeError(std::string(what) + ": needs about " + std::to_string(std::uint64_t(bytes / 1e6)) +
                        " MB, more than the " + std::to_string(std::uint64_t(max / 1e6)) +
                        " MB this WebAssembly module can use");
}

}  // namespace attn::wasm

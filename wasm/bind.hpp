// The WebAssembly boundary, written once. Every binding file (wasm/<header>.cpp, named
// after the core header whose functions it binds) uses only this:
//
//   bind<&f>("name")      binds any C++ function f: each argument is read from its JS value
//                         by Arg<its type>; the result goes back through put(); guard() turns
//                         any C++ exception into an error record (attn.mjs rethrows it as a
//                         RangeError), so no exception crosses and the module stays usable.
//                         One line per function.
//   object<S>()           a struct crosses as a plain JS object, one .field("key", &S::member)
//                         line per member, in the order JS sees them; any member type put()
//                         writes (numbers, strings, matrices, vectors, other objects)
//   constant(NAME, x)     a limit attn.mjs reads instead of keeping its own copy
//   ATTN_BINDINGS(name)   the block that holds a file's registrations (run at start-up)
//
// How a call crosses: the wire. No Embind, no JS object is touched from C++; one call is
// three plain wasm exports (attn_args, attn_call, attn_release) and two copies:
// * attn.mjs encodes the (already checked) arguments into a stream of float64 words in a
//   preallocated wasm buffer, and copies each matrix's data, once, into a preallocated
//   float buffer beside it; C++ reads the stream through In (a JS value as the stream
//   holds it) and hands the kernels views of the copied data (no second copy);
// * C++ writes the result as a stream of words whose matrices point at the result's own
//   storage (kept alive until attn_release); attn.mjs decodes it into plain objects, each
//   matrix's data a fresh Float32Array copy (never a view into wasm memory, which
//   detaches when memory grows).
// The stream's tags are listed once here (Tag) and once in attn.mjs (WIRE); the format:
//   undefined/null [0]  false [1]  true [2]  number [3, x]
//   string  in: [4, n, n UTF-16 code units]   out: [4, n bytes of UTF-8, offset in bytes]
//   array   in: [5, n, words, elements...]     out: [5, n, elements...]
//   object  in: [6, n, words, (key length, key code units, value)...]
//           out: [6, n, (key id, value)...]    (key ids index the names of keys())
//   matrix  in: [7, rows, cols, offset in the float buffer]   out: [7, rows, cols, address]
//   Float32Array out: [8, n, address]          error out: [9, kind string, message string]
//
// Checks on the way in: a count is an integer in [0, size_t max], a seed an integer in
// [0, 2^53]; NaN, ±∞, fractions and negatives throw ValueError before any float-to-integer
// conversion (undefined behaviour in C++, garbage in wasm). attn.mjs checks the same first
// and gives the learner its messages; this is the second line.
#pragma once

#include <emscripten/emscripten.h>
#include <emscripten/heap.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "attn/attn.hpp"

namespace attn::wasm {

enum Tag : int {
    kUndefined = 0,
    kFalse = 1,
    kTrue = 2,
    kNumber = 3,
    kString = 4,
    kArray = 5,
    kObject = 6,
    kMatrix = 7,
    kFloat32 = 8,
    kError = 9,
};

// ---- JS -> C++: In, one value of the argument stream -----------------------------------------

class In {
public:
    In() = default;  // undefined
    In(const double* p, const float* floats) : p_(p), floats_(floats) {}

    int tag() const { return p_ ? int(p_[0]) : kUndefined; }
    bool undefined() const { return tag() == kUndefined; }
    bool is_number() const { return tag() == kNumber; }
    bool is_true() const { return tag() == kTrue; }
    bool is_string() const { return tag() == kString; }
    bool is_array() const { return tag() == kArray; }
    bool is_object() const { return tag() == kObject; }
    bool is_matrix() const { return tag() == kMatrix; }

    double number() const { return p_[1]; }
    // The string as UTF-8 (the stream holds UTF-16 code units; lone surrogates become U+FFFD).
    std::string string() const;
    // Elements of an array (0 for anything else).
    std::size_t length() const { return is_array() ? std::size_t(p_[1]) : 0; }
    // Element i of an array, undefined past its end.
    In operator[](std::size_t i) const {
        if (i >= length()) return {};
        const double* e = p_ + 3;
        for (std::size_t k = 0; k < i; ++k) e += words(e);
        return {e, floats_};
    }
    // Member `key` of an object, undefined when it is not there.
    In operator[](const char* key) const {
        if (!is_object()) return {};
        const std::size_t n = std::size_t(p_[1]), len = std::strlen(key);
        const double* e = p_ + 3;
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t klen = std::size_t(e[0]);
            const double* value = e + 1 + klen;
            if (klen == len) {
                std::size_t c = 0;
                while (c < len && e[1 + c] == double(static_cast<unsigned char>(key[c]))) ++c;
                if (c == len) return {value, floats_};
            }
            e = value + words(value);
        }
        return {};
    }
    // A matrix's rows, cols and a view of its data in the argument buffer.
    std::size_t rows() const { return std::size_t(p_[1]); }
    std::size_t cols() const { return std::size_t(p_[2]); }
    const float* data() const { return floats_ + std::size_t(p_[3]); }

    // The first element of an array, and the one after e (for reading all of them in order).
    In first() const { return length() ? In(p_ + 3, floats_) : In(); }
    In next() const { return {p_ + words(p_), floats_}; }

private:
    // Words taken by the value at e (tag included).
    static std::size_t words(const double* e) {
        switch (int(e[0])) {
            case kNumber: return 2;
            case kString: return 2 + std::size_t(e[1]);
            case kArray:
            case kObject: return 3 + std::size_t(e[2]);
            case kMatrix: return 4;
            default: return 1;
        }
    }
    const double* p_ = nullptr;
    const float* floats_ = nullptr;
};

// A number, or ValueError naming `what`.
double number(const In& v, const char* what);
// An integer in [0, max] (ValueError otherwise).
std::size_t to_count(double x, const char* what, double max = double(std::numeric_limits<std::size_t>::max()));
// An integer in [0, 2^53] (what a JS number holds exactly; ValueError otherwise).
std::uint64_t to_seed(double x, const char* what);

// double -> float without undefined behaviour: past the float range gives ±∞ (as the wasm
// instruction would), which the core then rejects or treats as documented.
inline float to_float(double x) {
    constexpr double kMax = double(std::numeric_limits<float>::max());
    if (x > kMax) return std::numeric_limits<float>::infinity();
    if (x < -kMax) return -std::numeric_limits<float>::infinity();
    return float(x);
}

// o is an object and o[key] is neither undefined nor null.
inline bool has(const In& o, const char* key) { return !o[key].undefined(); }
// o[key] === true.
inline bool flag(const In& o, const char* key) { return o[key].is_true(); }

// How a value of type T is read from a JS value. Binding files add their own for the
// option objects of their header (read_js below).
template <class T, class = void>
struct Arg;

// A matrix argument, checked: a view of the data attn.mjs copied into the argument
// buffer (valid for the call).
ConstMatrixView matrix_view(const In& m);
template <>
struct Arg<ConstMatrixView> {
    static ConstMatrixView from(const In& m) { return matrix_view(m); }
};
// An owning matrix (a copy), for parameters that keep it (option structs, const Matrix&).
template <>
struct Arg<Matrix> {
    static Matrix from(const In& m) { return Matrix(matrix_view(m)); }
};

// A JS value read by the function itself (an options object it takes apart).
template <>
struct Arg<In> {
    static In from(const In& v) { return v; }
};

template <>
struct Arg<std::size_t> {
    static std::size_t from(const In& v) { return to_count(number(v, "a count"), "a count"); }
};
template <>
struct Arg<std::uint64_t> {
    static std::uint64_t from(const In& v) { return to_seed(number(v, "a seed"), "a seed"); }
};
template <>
struct Arg<float> {
    static float from(const In& v) { return to_float(number(v, "a number")); }
};
template <>
struct Arg<double> {
    static double from(const In& v) { return number(v, "a number"); }
};
template <>
struct Arg<bool> {
    static bool from(const In& v) { return v.is_true(); }
};
template <>
struct Arg<std::string> {
    static std::string from(const In& v) {
        if (!v.is_string()) throw ValueError("a name must be a string");
        return v.string();
    }
};
template <>
struct Arg<Axis> {
    static Axis from(const In& v) {
        const std::string axis = Arg<std::string>::from(v);
        if (axis != "rows" && axis != "cols")
            throw ValueError("softmax: axis must be 'rows' or 'cols', got '" + axis + "'");
        return axis == "rows" ? Axis::Rows : Axis::Cols;
    }
};
template <class T>
struct Arg<std::vector<T>> {
    static std::vector<T> from(const In& list) {
        if (!list.is_array()) throw ValueError("expected a list");
        const std::size_t n = to_count(double(list.length()), "list length", double(kMaxElements));
        std::vector<T> out;
        out.reserve(n);
        In e = list.first();
        for (std::size_t i = 0; i < n; ++i, e = e.next()) out.push_back(Arg<T>::from(e));
        return out;
    }
};
// Token flags and token ids: integers that fit the C++ type.
template <>
struct Arg<unsigned> {
    static unsigned from(const In& v) { return unsigned(to_count(number(v, "an index"), "an index", 4294967295.0)); }
};
template <>
struct Arg<int> {
    static int from(const In& v) {
        const double t = number(v, "a token");
        if (!(t >= -1e9 && t <= 1e9) || t != std::floor(t)) throw ValueError("a token must be an integer in -1e9..1e9");
        return int(t);
    }
};

template <class T>
struct Arg<std::optional<T>> {
    static std::optional<T> from(const In& v) { return Arg<T>::from(v); }
};

// Option objects: read_fields(o, "key", member, "key", member, ...) reads each key that is
// there (neither undefined nor null) into its member with the member's Arg<>, and leaves
// the others at their defaults: the way in, as object<S> is the way out.
inline void read_fields(const In&) {}
template <class T, class... Rest>
void read_fields(const In& o, const char* key, T& member, Rest&&... rest) {
    const In v = o[key];
    if (!v.undefined()) member = Arg<T>::from(v);
    read_fields(o, std::forward<Rest>(rest)...);
}

// An option object: Arg<T> for every T with a read_js(const In&, T&), found by
// argument-dependent lookup: for the core's option structs in namespace attn (below, and
// in the binding file of their header), for a binding file's own structs beside them.
template <class T>
struct Arg<T, std::void_t<decltype(read_js(std::declval<const In&>(), std::declval<T&>()))>> {
    static T from(const In& o) {
        T t;
        read_js(o, t);
        return t;
    }
};

}  // namespace attn::wasm

namespace attn {
// {rate, seed, training}
inline void read_js(const wasm::In& o, DropoutOptions& d) {
    wasm::read_fields(o, "rate", d.rate, "seed", d.seed, "training", d.training);
}
// {causal, scale, mask, dropout}, each optional.
inline void read_js(const wasm::In& o, AttentionOptions& a) {
    wasm::read_fields(o, "causal", a.causal, "scale", a.scale, "mask", a.mask, "dropout", a.dropout);
}
}  // namespace attn

namespace attn::wasm {

// ---- C++ -> JS: put(out, value) -------------------------------------------------------------

// A value kept alive while JS copies what the result stream points into.
struct Held {
    virtual ~Held() = default;
};
template <class T>
struct HeldValue final : Held {
    explicit HeldValue(T&& x) : value(std::move(x)) {}
    T value;
};

// The result stream of one call. Matrices and Float32Arrays point into values kept alive
// in `keep` until attn_release().
struct Out {
    std::vector<double> w;                      // w[0]: the address of `bytes`; the value from w[1]
    std::vector<char> bytes;                    // UTF-8 of the strings
    std::vector<std::unique_ptr<Held>> keep;    // the results the addresses point into
    void clear() {
        w.assign(1, 0.0);
        bytes.clear();
    }
    // Keeps x alive until attn_release(); returns it where it now lives.
    template <class T>
    const T& hold(T&& x) {
        auto h = std::make_unique<HeldValue<T>>(std::move(x));
        const T& r = h->value;
        keep.push_back(std::move(h));
        return r;
    }
};

// The names of object keys, interned; key ids index this list (attn.mjs reads it once).
std::vector<std::string>& keys();
int key_id(const char* key);

// A member of a struct registered with object<S>: its key id, and how to write it (the
// member pointer is kept in `member`, the writer knows its type).
template <class S>
struct Field {
    int id;
    void (*write)(Out&, const S&, const void* member);
    alignas(std::max_align_t) unsigned char member[sizeof(std::max_align_t)];
};
// The members of S, in order.
template <class S>
struct Fields {
    static std::vector<Field<S>>& list() {
        static std::vector<Field<S>> l;
        return l;
    }
};

// A value of any type put() writes, with the object that keeps it alive: what a function
// returns when the type depends on its arguments (example(name)).
class Result {
public:
    template <class T>
    explicit Result(T x)
        : value_(std::make_unique<HeldValue<T>>(std::move(x))),
          write_([](Out& o, const Held& h) { put_value(o, static_cast<const HeldValue<T>&>(h).value); }) {}
    // Writes the value; `o` keeps it (moved out of this Result) until attn_release().
    void write(Out& o) const {
        const Held& h = *value_;
        o.keep.push_back(std::move(value_));
        write_(o, h);
    }

private:
    template <class T>
    static void put_value(Out& o, const T& x);
    mutable std::unique_ptr<Held> value_;
    void (*write_)(Out&, const Held&);
};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

void put_string(Out& o, const std::string& s);
void put_matrix(Out& o, const Matrix& m);
void put_floats(Out& o, const std::vector<float>& v);

// Matrices: {rows, cols, data: Float32Array copy}; vector<float>: a Float32Array copy;
// other vectors: arrays; integers (64-bit too): numbers; structs: objects (object<S>).
template <class T>
void put_object(Out& o, const T& x);

template <class T>
void put(Out& o, const T& x) {
    if constexpr (std::is_same_v<T, bool>) {
        o.w.push_back(x ? kTrue : kFalse);
    } else if constexpr (std::is_arithmetic_v<T>) {
        o.w.push_back(kNumber);
        o.w.push_back(double(x));
    } else if constexpr (std::is_same_v<T, std::string>) {
        put_string(o, x);
    } else if constexpr (std::is_same_v<T, Matrix>) {
        put_matrix(o, x);
    } else if constexpr (std::is_same_v<T, std::vector<float>>) {
        put_floats(o, x);
    } else if constexpr (is_vector<T>::value) {
        o.w.push_back(kArray);
        o.w.push_back(double(x.size()));
        for (const auto& e : x) put(o, e);
    } else if constexpr (std::is_same_v<T, Result>) {
        x.write(o);
    } else {
        put_object(o, x);
    }
}

template <class T>
[[gnu::noinline]] void put_object(Out& o, const T& x) {
    const auto& fields = Fields<T>::list();
    if (fields.empty()) throw std::logic_error("bind.hpp: a result type is not registered with object<>");
    o.w.push_back(kObject);
    o.w.push_back(double(fields.size()));
    for (const Field<T>& f : fields) {
        o.w.push_back(double(f.id));
        f.write(o, x, f.member);
    }
}

template <class T>
void Result::put_value(Out& o, const T& x) {
    put(o, x);
}

// object<S>().field("key", &S::member)...: how S crosses (as Embind's value_object did).
template <class S>
struct object {
    object() { Fields<S>::list().clear(); }
    template <class T>
    [[gnu::noinline]] object& field(const char* key, T S::*member) {
        static_assert(sizeof(member) <= sizeof(Field<S>::member));
        Field<S> f{key_id(key), &write_member<T>, {}};
        std::memcpy(f.member, &member, sizeof(member));
        Fields<S>::list().push_back(f);
        return *this;
    }

private:
    template <class T>
    static void write_member(Out& o, const S& s, const void* m) {
        T S::*member;
        std::memcpy(&member, m, sizeof(member));
        put(o, s.*member);
    }
};

// ---- the guard ----------------------------------------------------------------------------------

inline void error(Out& o, const char* kind, const std::string& message) {
    o.clear();
    o.keep.clear();
    o.w.push_back(kError);
    put_string(o, kind);
    put_string(o, message);
}

// Runs f(out), turning any C++ exception into an error record.
template <class F>
void guard(Out& o, F&& f) {
    try {
        f();
    } catch (const ShapeError& e) {
        error(o, "ShapeError", e.what());
    } catch (const ValueError& e) {
        error(o, "ValueError", e.what());
    } catch (const SizeError& e) {
        error(o, "SizeError", e.what());
    } catch (const std::bad_alloc&) {
        error(o, "SizeError", "out of memory: the WebAssembly module could not allocate this much");
    } catch (const std::exception& e) {
        error(o, "Error", e.what());
    } catch (...) {
        error(o, "Error", "unknown C++ exception");
    }
}

// ---- bind<&f>("name") and the registries --------------------------------------------------------

struct Function {
    std::string name;
    std::size_t arity;                       // how many arguments f takes
    void (*call)(const In& args, Out& out);  // args: the array of the call's arguments
};
inline std::vector<Function>& functions() {
    static std::vector<Function> f;
    return f;
}
inline std::vector<std::pair<std::string, double>>& constants() {
    static std::vector<std::pair<std::string, double>> c;
    return c;
}

template <auto F>
struct Bound;
template <class R, class... A, R (*F)(A...)>
struct Bound<F> {
    static constexpr std::size_t arity = sizeof...(A);
    static void call(const In& args, Out& out) {
        call(args, out, std::index_sequence_for<A...>{});
    }
    template <std::size_t... I>
    static void call(const In& args, Out& out, std::index_sequence<I...>) {
        // Arguments are read left to right (a braced list), so the first bad one is named.
        std::tuple<std::decay_t<A>...> a{Arg<std::decay_t<A>>::from(args[I])...};
        if constexpr (std::is_void_v<R>) {
            std::apply(F, a);
            out.w.push_back(kUndefined);
        } else {
            put(out, out.hold(std::apply(F, a)));
        }
    }
};

// Binds f under `name`; the JS side passes one value per parameter of f.
template <auto F>
void bind(const char* name) {
    functions().push_back({name, Bound<F>::arity, &Bound<F>::call});
}

// Results the boundary still holds (kept alive until attn_release: 0 between calls).
double held_results();

// A number attn.mjs reads from the module (a limit of the core).
inline void constant(const char* name, double value) { constants().emplace_back(name, value); }

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

// A binding file's registrations, run once at start-up (before attn.mjs asks for them).
#define ATTN_BINDINGS(name)                                                        \
    static void attn_bindings_##name();                                            \
    [[maybe_unused]] static const int attn_bindings_##name##_done = (attn_bindings_##name(), 0); \
    static void attn_bindings_##name()

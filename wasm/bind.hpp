// The WebAssembly boundary, written once, on Embind. Every binding file (wasm/<header>.cpp,
// named after the core header whose functions it binds) uses only this:
//
//   bind<&f>("name")      binds any C++ function f with Embind (emscripten::function), one
//                         line per function. Only numbers cross on the way in (a string
//                         where f takes one, on cold paths: a name, a text); one number on
//                         the way out: the address of the result, or 0 for an error whose
//                         kind and message stay in wasm memory (lastError()). Any C++
//                         exception is caught here: none crosses, nothing leaks.
//   object<S>()           how a result struct reads in JS: one .field("key", &S::member)
//                         line per member, in the order JS sees them
//   record<S>()           how an options struct is read from JS: read_js(Record&, S&) lists
//                         its keys once (read_fields); attn.mjs learns the layout at start-up
//   constant(NAME, x)     a limit attn.mjs reads instead of keeping its own copy
//   ATTN_BINDINGS(name)   the block that holds a file's registrations (EMSCRIPTEN_BINDINGS)
//
// How a call crosses (no JS object is touched from C++, no val on any path a chapter takes
// on an edit):
// * in: the wrapper (wasm/api/*.mjs) checks the arguments, copies each matrix once into an
//   arena the module owns (arena(bytes)) and passes numbers: a number as itself, a matrix
//   as the address of its copy ([rows, cols] as float64, then the float32 data at +16), a
//   list as the address of [n, x0, x1, ...] (float64), an options struct as the address
//   of its record ([present, value] per key, float64, in the order read_js reads them);
// * out: the result stays in C++ (kept until the next call), described by a small table of
//   float64 in wasm memory whose layout the wrapper knows from the result's type (types(),
//   read once at start-up): a number as itself, a matrix as [rows, cols, address of its
//   data], a string as [bytes, address], a list as [n, elements...], a struct as its
//   fields in order. The wrapper copies each matrix out into a fresh Float32Array.
#pragma once

#include <emscripten/bind.h>
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

// ---- JS -> C++ ------------------------------------------------------------------------------------
//
// attn.mjs has checked every value (checks.mjs: its type, integer-ness and range where the
// core does not check it); these conversions only keep a value that was not checked (a raw
// call) from undefined behaviour: they saturate, they do not report.

inline std::size_t to_size(double x) {
    constexpr double kMax = double(std::numeric_limits<std::size_t>::max());
    return x >= 0 ? (x < kMax ? std::size_t(x) : std::numeric_limits<std::size_t>::max()) : 0;
}
inline std::uint64_t to_u64(double x) {
    return x >= 0 ? (x < 18446744073709551616.0 ? std::uint64_t(x) : std::numeric_limits<std::uint64_t>::max()) : 0;
}
// double -> float without undefined behaviour: past the float range gives ±∞ (as the wasm
// instruction would), which the core then rejects or treats as documented.
inline float to_float(double x) {
    constexpr double kMax = double(std::numeric_limits<float>::max());
    if (x > kMax) return std::numeric_limits<float>::infinity();
    if (x < -kMax) return -std::numeric_limits<float>::infinity();
    return float(x);
}
template <class P>
inline const P* at(double address) {
    return reinterpret_cast<const P*>(std::uintptr_t(to_size(address)));
}

// A staged matrix: [rows, cols] as float64 at `address`, its float32 data from address + 16.
inline ConstMatrixView staged_matrix(double address) {
    const double* h = at<double>(address);
    const std::size_t rows = to_size(h[0]), cols = to_size(h[1]);
    check_size(rows, cols, "matrix");
    return ConstMatrixView(reinterpret_cast<const float*>(h + 2), rows, cols, cols);
}

// An options struct's record: [present, value] per key, in the order read_js reads them.
// In describing mode (at start-up) it lists the keys and their kinds instead (the layout).
class Record {
public:
    explicit Record(const double* p) : p_(p) {}
    explicit Record(std::string* layout) : layout_(layout) {}
    bool describing() const { return layout_ != nullptr; }
    void describe(const char* key, const std::string& kind) {
        if (layout_->size() > 1) *layout_ += ',';
        *layout_ += "[\"";
        *layout_ += key;
        *layout_ += "\",\"" + kind + "\"]";
    }
    // The next [present, value]: value, or nullopt when the key was absent.
    std::optional<double> next() {
        const double present = p_[0], value = p_[1];
        p_ += 2;
        if (present == 0) return std::nullopt;
        return value;
    }

private:
    const double* p_ = nullptr;
    std::string* layout_ = nullptr;
};

// How a value of type T crosses into C++: Arg<T>::kind names its staging for attn.mjs
// ("n" a number, "m" a matrix, "l" a list of numbers, "L" a list of matrices, "s" a
// string, "r<id>" a record), Arg<T>::wire is its Embind type, from() makes the T.
template <class T, class = void>
struct Arg;

template <class T>
struct Number {
    using wire = double;
    static std::string kind() { return "n"; }
};
template <>
struct Arg<double> : Number<double> {
    static double from(double x) { return x; }
};
template <>
struct Arg<float> : Number<float> {
    static float from(double x) { return to_float(x); }
};
template <>
struct Arg<std::size_t> : Number<std::size_t> {
    static std::size_t from(double x) { return to_size(x); }
};
template <>
struct Arg<std::uint64_t> : Number<std::uint64_t> {
    static std::uint64_t from(double x) { return to_u64(x); }
};
template <>
struct Arg<unsigned> : Number<unsigned> {
    static unsigned from(double x) { return unsigned(std::min<std::size_t>(to_size(x), 4294967295u)); }
};
template <>
struct Arg<int> : Number<int> {
    static int from(double x) { return x >= -2147483648.0 && x <= 2147483647.0 ? int(x) : 0; }
};
template <>
struct Arg<bool> : Number<bool> {
    static bool from(double x) { return x != 0; }
};
// softmax's axis: 0 rows, 1 cols (attn.mjs checks the name).
template <>
struct Arg<Axis> : Number<Axis> {
    static Axis from(double x) { return x == 1 ? Axis::Cols : Axis::Rows; }
};
template <>
struct Arg<std::string> {
    using wire = std::string;
    static std::string kind() { return "s"; }
    static std::string from(std::string s) { return s; }
};
// A matrix: a view of the staged copy (valid for the call).
template <>
struct Arg<ConstMatrixView> {
    using wire = double;
    static std::string kind() { return "m"; }
    static ConstMatrixView from(double address) { return staged_matrix(address); }
};
// An owning matrix (a copy), for parameters that keep it (option structs, const Matrix&).
template <>
struct Arg<Matrix> {
    using wire = double;
    static std::string kind() { return "m"; }
    static Matrix from(double address) { return Matrix(staged_matrix(address)); }
};
// A list: [n, x0, x1, ...] as float64; of matrices, each x the address of a staged matrix.
template <class T>
struct Arg<std::vector<T>> {
    using wire = double;
    static std::string kind() { return Arg<T>::kind() == "m" ? "L" : "l"; }
    static std::vector<T> from(double address) {
        const double* p = at<double>(address);
        const std::size_t n = std::min(to_size(p[0]), kMaxElements);
        std::vector<T> out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i) out.push_back(Arg<T>::from(p[1 + i]));
        return out;
    }
};
template <class T>
struct Arg<std::optional<T>> {
    using wire = typename Arg<T>::wire;
    static std::string kind() { return Arg<T>::kind(); }
    static std::optional<T> from(wire w) { return Arg<T>::from(w); }
};

// Option structs: read_fields(r, "key", member, "key", member, ...) reads each key that is
// there into its member with the member's Arg<>, and leaves the others at their defaults.
inline void read_fields(Record&) {}
template <class T, class... Rest>
void read_fields(Record& r, const char* key, T& member, Rest&&... rest) {
    if (r.describing()) {
        r.describe(key, Arg<T>::kind());
    } else if (const std::optional<double> v = r.next()) {
        member = Arg<T>::from(*v);
    }
    read_fields(r, std::forward<Rest>(rest)...);
}

// The layouts of the option records, by id (records() lists them for attn.mjs).
std::vector<std::string>& record_layouts();

// An option struct: Arg<T> for every T with a read_js(Record&, T&), found by
// argument-dependent lookup. Crosses as the address of its record.
template <class T>
struct Arg<T, std::void_t<decltype(read_js(std::declval<Record&>(), std::declval<T&>()))>> {
    using wire = double;
    static int id() {
        static const int i = [] {
            std::string layout = "[";
            Record describing(&layout);
            T t;
            read_js(describing, t);
            layout += ']';
            record_layouts().push_back(layout);
            return int(record_layouts().size() - 1);
        }();
        return i;
    }
    static std::string kind() { return "r" + std::to_string(id()); }
    static T from(double address) {
        T t;
        Record r(at<double>(address));
        read_js(r, t);
        return t;
    }
};

}  // namespace attn::wasm

namespace attn {
// {rate, seed, training}
inline void read_js(wasm::Record& r, DropoutOptions& d) {
    wasm::read_fields(r, "rate", d.rate, "seed", d.seed, "training", d.training);
}
// {causal, scale, mask, dropout}, each optional.
inline void read_js(wasm::Record& r, AttentionOptions& a) {
    wasm::read_fields(r, "causal", a.causal, "scale", a.scale, "mask", a.mask, "dropout", a.dropout);
}
}  // namespace attn

namespace attn::wasm {

// ---- C++ -> JS --------------------------------------------------------------------------------------

// A value kept alive while JS copies what the result's table points into.
struct Held {
    virtual ~Held() = default;
};
template <class T>
struct HeldValue final : Held {
    explicit HeldValue(T&& x) : value(std::move(x)) {}
    T value;
};

// The result of the last call: its table (w[0]: the address of `bytes`, the value from
// w[1]) and what the table points into, kept until the next call starts.
struct Out {
    std::vector<double> w;
    std::vector<char> bytes;                  // UTF-8 of the strings
    std::vector<std::unique_ptr<Held>> keep;
    void clear();
    template <class T>
    const T& hold(T&& x) {
        auto h = std::make_unique<HeldValue<T>>(std::move(x));
        const T& r = h->value;
        keep.push_back(std::move(h));
        return r;
    }
};
Out& out();

// The result types, by id: each one's layout as attn.mjs reads it (types()).
std::vector<std::string>& type_layouts();

template <class S>
struct TypeId {
    static int& id() {
        static int i = -1;
        return i;
    }
};

// A result whose type depends on the arguments (example(name)): crosses as its type's id,
// then the value.
class Result;

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
int type_id();

// The layout of T in a result table (JSON): "n" number, "b" boolean, "s" string, "m" matrix,
// "f" Float32Array, ["a", element] list, "d" dynamic (a type id, then that type), or the id
// of a struct (object<S>).
template <class T>
[[gnu::noinline]] std::string layout() {
    if constexpr (std::is_same_v<T, bool>) return "\"b\"";
    else if constexpr (std::is_arithmetic_v<T>) return "\"n\"";
    else if constexpr (std::is_same_v<T, std::string>) return "\"s\"";
    else if constexpr (std::is_same_v<T, Matrix>) return "\"m\"";
    else if constexpr (std::is_same_v<T, std::vector<float>>) return "\"f\"";
    else if constexpr (is_vector<T>::value) return "[\"a\"," + layout<typename T::value_type>() + "]";
    else if constexpr (std::is_same_v<T, Result>) return "\"d\"";
    else return std::to_string(type_id<T>());
}

// The fields of a struct registered with object<S>: how to write each member (the member
// pointer is kept in `member`, the writer knows its type), in order.
template <class S>
struct Field {
    void (*write)(Out&, const S&, const void* member);
    alignas(std::max_align_t) unsigned char member[sizeof(std::max_align_t)];
};
template <class S>
struct Fields {
    static std::vector<Field<S>>& list() {
        static std::vector<Field<S>> l;
        return l;
    }
};
// Appends ["key", layout()] to the layout of result type `id`.
void add_field(int id, const char* key, std::string (*layout)());

template <class T>
void put(Out& o, const T& x);

class Result {
public:
    template <class T>
    explicit Result(T x)
        : value_(std::make_unique<HeldValue<T>>(std::move(x))),
          id_(type_id<T>()),
          write_([](Out& o, const Held& h) { put(o, static_cast<const HeldValue<T>&>(h).value); }) {}
    void write(Out& o) const {
        const Held& h = *value_;
        o.keep.push_back(std::move(value_));
        o.w.push_back(double(id_));
        write_(o, h);
    }

private:
    mutable std::unique_ptr<Held> value_;
    int id_;
    void (*write_)(Out&, const Held&);
};

template <class S>
[[gnu::noinline]] void put_object(Out& o, const S& x) {
    for (const Field<S>& f : Fields<S>::list()) f.write(o, x, f.member);
}

void put_string(Out& o, const std::string& s);

// Matrices: [rows, cols, address]; vector<float>: [n, address]; other vectors: [n, elements];
// numbers (64-bit integers too) as float64; structs: their fields in order (object<S>).
template <class T>
void put(Out& o, const T& x) {
    if constexpr (std::is_arithmetic_v<T>) {
        o.w.push_back(double(x));
    } else if constexpr (std::is_same_v<T, std::string>) {
        put_string(o, x);
    } else if constexpr (std::is_same_v<T, Matrix>) {
        o.w.push_back(double(x.rows()));
        o.w.push_back(double(x.cols()));
        o.w.push_back(double(reinterpret_cast<std::uintptr_t>(x.data())));
    } else if constexpr (std::is_same_v<T, std::vector<float>>) {
        o.w.push_back(double(x.size()));
        o.w.push_back(double(reinterpret_cast<std::uintptr_t>(x.data())));
    } else if constexpr (is_vector<T>::value) {
        o.w.push_back(double(x.size()));
        for (const auto& e : x) put(o, e);
    } else if constexpr (std::is_same_v<T, Result>) {
        x.write(o);
    } else {
        put_object(o, x);
    }
}

// object<S>().field("key", &S::member)...: how S reads in JS (registered at start-up).
template <class S>
struct object {
    object() { type_id<S>(); }
    template <class T>
    object& field(const char* key, T S::*member) {
        static_assert(sizeof(member) <= sizeof(Field<S>::member));
        Field<S> f{&write_member<T>, {}};
        std::memcpy(f.member, &member, sizeof(member));
        Fields<S>::list().push_back(f);
        add_field(TypeId<S>::id(), key, &layout<T>);
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

template <class T>
int type_id() {
    int& id = TypeId<T>::id();
    if (id < 0) {
        type_layouts().push_back("[]");
        id = int(type_layouts().size() - 1);
    }
    return id;
}

// ---- the guard and bind<&f> ---------------------------------------------------------------------------

// Keeps the kind and message of a failed call (lastError() hands them to attn.mjs).
void fail(const char* kind, const std::string& message);

// Runs run(out(), context), which writes the result into out(), turning any C++ exception
// into the last error; returns the address of the result's table, or 0 after an error.
// (Not a template: its catch clauses exist once in the module, not once per function.)
double guarded(void (*run)(Out&, void*), void* context);


// What describe() says of a function: its name, its parameters' kinds and its result's
// layout, kept as function pointers (data, not code per function) and written out as JSON
// by describe() at start-up.
using Text = std::string (*)();
struct Described {
    const char* name;
    const Text* kinds;
    std::size_t arity;
    Text result;  // nullptr: no result
};
std::vector<Described>& function_list();

template <auto F>
struct Bound;
template <class R, class... A, R (*F)(A...)>
struct Bound<F> {
    using Wires = std::tuple<typename Arg<std::decay_t<A>>::wire...>;
    static double call(typename Arg<std::decay_t<A>>::wire... a) {
        Wires w{std::move(a)...};
        return guarded(&run, &w);
    }
    static void run(Out& o, void* context) {
        run(o, *static_cast<Wires*>(context), std::index_sequence_for<A...>{});
    }
    template <std::size_t... I>
    static void run(Out& o, Wires& w, std::index_sequence<I...>) {
        // Arguments are converted left to right (a braced list).
        std::tuple<std::decay_t<A>...> args{Arg<std::decay_t<A>>::from(std::move(std::get<I>(w)))...};
        if constexpr (std::is_void_v<R>) {
            std::apply(F, args);
        } else {
            put(o, o.hold(std::apply(F, args)));
        }
    }
    static Described describe(const char* name) {
        static constexpr Text kinds[sizeof...(A) + 1] = {&Arg<std::decay_t<A>>::kind..., nullptr};
        if constexpr (std::is_void_v<R>) return {name, kinds, sizeof...(A), nullptr};
        else return {name, kinds, sizeof...(A), &layout<std::decay_t<R>>};
    }
};

// Binds f under `name` (Module[name] in JS): its arguments cross as Arg<>'s wire types.
template <auto F>
void bind(const char* name) {
    emscripten::function(name, &Bound<F>::call);
    function_list().push_back(Bound<F>::describe(name));
}

// The constants, as JSON pairs.
std::vector<std::string>& constant_list();
// A number attn.mjs reads from the module (a limit of the core).
void constant(const char* name, double value);

// Results the boundary holds: the last call's, until the next call starts (memoryStats().handles).
double held_results();

// Refuses a call whose working set (in floats) cannot fit in the module's memory, before
// anything is allocated: SizeError instead of growing the heap to its maximum first.
inline void check_budget(double floats, const char* what) {
    // (a JS import returning a constant: asked once, not on every call)
    static const double max = double(emscripten_get_heap_max());
    const double bytes = 4.0 * floats;
    if (bytes > max)
        throw SizeError(std::string(what) + ": needs about " + std::to_string(std::uint64_t(bytes / 1e6)) +
                        " MB, more than the " + std::to_string(std::uint64_t(max / 1e6)) +
                        " MB this WebAssembly module can use");
}

}  // namespace attn::wasm

// A binding file's registrations, run once at start-up (Embind's EMSCRIPTEN_BINDINGS).
#define ATTN_BINDINGS(name) EMSCRIPTEN_BINDINGS(name)

// The boundary's own functions (bind.hpp describes how a call crosses), bound with Embind
// beside the API's:
//
//   arena(bytes)   makes the arena the wrapper copies a call's inputs into hold at least
//                  `bytes` (at least ARENA_KEEP); returns its address (0: out of memory).
//                  attn.mjs calls it only when a call needs more, and after a large call
//                  to give the memory back.
//   lastError()    the kind and message of the last failed call: "Kind\nmessage"
//   describe()     at start-up: the functions (name, parameter kinds, result layout), the
//                  result types' and option records' layouts and the constants, as JSON
#include <cstdio>
#include <cstdlib>

#include "bind.hpp"

namespace {

using namespace attn::wasm;

// What the arena and the result table keep between calls: enough for the page's calls.
constexpr std::size_t kArenaKeep = 1 << 18;  // bytes
constexpr std::size_t kKeepOut = 1 << 14;    // words / bytes

char* arena_data = nullptr;
std::size_t arena_size = 0;
std::string last_error;

double arena(double bytes) {
    const std::size_t want = (std::max(to_size(bytes), kArenaKeep) + 63) / 64 * 64;
    if (want != arena_size) {
        std::free(arena_data);
        arena_data = static_cast<char*>(std::aligned_alloc(64, want));
        arena_size = arena_data ? want : 0;
    }
    return double(reinterpret_cast<std::uintptr_t>(arena_data));
}

std::string last_error_text() { return last_error; }

std::string join(const std::vector<std::string>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) (s += i ? "," : "") += v[i];
    return s + "]";
}

// [name, [kinds...], result layout] per function.
std::string describe_functions() {
    std::vector<std::string> list;
    for (const Described& f : function_list()) {
        std::string s = "[\"" + std::string(f.name) + "\",[";
        for (std::size_t i = 0; i < f.arity; ++i) s += (i ? ",\"" : "\"") + f.kinds[i]() + "\"";
        list.push_back(s + "]," + (f.result ? f.result() : std::string("null")) + "]");
    }
    return join(list);
}

std::string describe() {
    return "{\"functions\":" + describe_functions() + ",\"types\":" + join(type_layouts()) +
           ",\"records\":" + join(record_layouts()) + ",\"constants\":" + join(constant_list()) + "}";
}

}  // namespace

namespace attn::wasm {

Out& out() {
    static Out o;
    return o;
}

void Out::clear() {
    keep.clear();
    if (w.capacity() > kKeepOut) std::vector<double>().swap(w);
    if (bytes.capacity() > kKeepOut) std::vector<char>().swap(bytes);
    w.assign(1, 0.0);
    bytes.clear();
}

void put_string(Out& o, const std::string& s) {
    o.w.push_back(double(s.size()));
    o.w.push_back(double(o.bytes.size()));
    o.bytes.insert(o.bytes.end(), s.begin(), s.end());
}

std::vector<std::string>& type_layouts() {
    static std::vector<std::string> t;
    return t;
}
std::vector<std::string>& record_layouts() {
    static std::vector<std::string> r;
    return r;
}
std::vector<Described>& function_list() {
    static std::vector<Described> f;
    return f;
}
std::vector<std::string>& constant_list() {
    static std::vector<std::string> c;
    return c;
}

void constant(const char* name, double value) {
    char v[40];
    std::snprintf(v, sizeof v, "%.17g", value);
    constant_list().push_back("[\"" + std::string(name) + "\"," + v + "]");
}

double guarded(void (*run)(Out&, void*), void* context) {
    Out& o = out();
    o.clear();
    try {
        run(o, context);
        o.w[0] = double(reinterpret_cast<std::uintptr_t>(o.bytes.data()));
        return double(reinterpret_cast<std::uintptr_t>(o.w.data()));
    } catch (const ShapeError& e) {
        fail("ShapeError", e.what());
    } catch (const ValueError& e) {
        fail("ValueError", e.what());
    } catch (const SizeError& e) {
        fail("SizeError", e.what());
    } catch (const std::bad_alloc&) {
        fail("SizeError", "out of memory: the WebAssembly module could not allocate this much");
    } catch (const std::exception& e) {
        fail("Error", e.what());
    } catch (...) {
        fail("Error", "unknown C++ exception");
    }
    o.clear();
    return 0;
}

void add_field(int id, const char* key, std::string (*layout)()) {
    std::string field = "[\"" + std::string(key) + "\"," + layout() + "]]";
    std::string& l = type_layouts()[std::size_t(id)];
    l.pop_back();  // the closing ]
    if (l.size() > 1) l += ',';
    l += field;
}

void fail(const char* kind, const std::string& message) {
    last_error.assign(kind);
    last_error += '\n';
    last_error += message;
}

double held_results() { return double(out().keep.size()); }

}  // namespace attn::wasm

ATTN_BINDINGS(attn_boundary) {
    using namespace attn::wasm;
    constant("ARENA_KEEP", double(kArenaKeep));
    emscripten::function("arena", &arena);
    emscripten::function("lastError", &last_error_text);
    emscripten::function("describe", &describe);
}

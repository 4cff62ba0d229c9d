// The wire's entry points (bind.hpp describes the format): the only functions this module
// exports besides malloc/free. attn.mjs calls them in this order for every API call:
//
//   attn_args(words, floats)  makes room for the argument stream (words float64s) and the
//                             matrices' data (floats float32s); returns the address of two
//                             numbers: where to write each (0 when memory ran out)
//   attn_call(id)             runs function id (its index in attn_describe's list) on the
//                             arguments written there; returns the address of the result stream
//   attn_release()            frees what the result pointed into, once JS has copied it
//   attn_describe()           at start-up: [[name, arity]...] of the functions, the names of
//                             the object keys, [[NAME, value]...] of the constants
#include <cstdlib>

#include "bind.hpp"

namespace {

using namespace attn::wasm;

// A reusable buffer of T, 64-byte aligned, grown on demand; released when large.
template <class T>
struct Scratch {
    T* data = nullptr;
    std::size_t capacity = 0;
    bool reserve(std::size_t n) {
        if (n <= capacity) return true;
        const std::size_t want = std::max<std::size_t>(n, 2 * capacity);
        void* p = std::aligned_alloc(64, (want * sizeof(T) + 63) / 64 * 64);
        if (!p) return false;
        std::free(data);
        data = static_cast<T*>(p);
        capacity = want;
        return true;
    }
    void trim(std::size_t keep) {
        if (capacity <= keep) return;
        std::free(data);
        data = nullptr;
        capacity = 0;
    }
};

Scratch<double> in_words;
Scratch<float> in_floats;
Out out;
double where[2];

// What stays allocated between calls: enough for the page's small calls.
constexpr std::size_t kKeepWords = 1 << 14, kKeepFloats = 1 << 16, kKeepOut = 1 << 14;

}  // namespace

namespace attn::wasm {

std::string In::string() const {
    std::string s;
    const std::size_t n = std::size_t(p_[1]);
    s.reserve(n);
    const auto put = [&s](std::uint32_t c) { attn::text::append_utf8(s, char32_t(c)); };
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t c = std::uint32_t(p_[2 + i]);
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < n) {
            const std::uint32_t d = std::uint32_t(p_[3 + i]);
            if (d >= 0xDC00 && d < 0xE000) {
                put(0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00));
                ++i;
                continue;
            }
        }
        put(c >= 0xD800 && c < 0xE000 ? 0xFFFD : c);
    }
    return s;
}

double number(const In& v, const char* what) {
    if (!v.is_number()) throw ValueError(std::string(what) + " must be a number");
    return v.number();
}

// An integer in [0, max].
std::size_t to_count(double x, const char* what, double max) {
    if (!(x >= 0) || !(x <= max) || x != std::floor(x))
        throw ValueError(std::string(what) + " must be an integer from 0 to " + std::to_string(std::uint64_t(max)) +
                         ", got " + std::to_string(x));
    return std::size_t(x);
}

// An integer in [0, 2^53] (what a JS number holds exactly).
std::uint64_t to_seed(double x, const char* what) {
    if (!(x >= 0) || !(x <= 9007199254740992.0) || x != std::floor(x))
        throw ValueError(std::string(what) + " must be a non-negative safe integer, got " + std::to_string(x));
    return std::uint64_t(x);
}

ConstMatrixView matrix_view(const In& m) {
    if (!m.is_matrix()) throw ValueError("matrix: expected a matrix {rows, cols, data}");
    const std::size_t rows = to_count(m.rows(), "matrix rows", double(kMaxElements) + 1);
    const std::size_t cols = to_count(m.cols(), "matrix cols", double(kMaxElements) + 1);
    check_size(rows, cols, "matrix");
    return ConstMatrixView(m.data(), rows, cols, cols);
}
void put_string(Out& o, const std::string& s) {
    o.w.push_back(kString);
    o.w.push_back(double(s.size()));
    o.w.push_back(double(o.bytes.size()));
    o.bytes.insert(o.bytes.end(), s.begin(), s.end());
}

void put_matrix(Out& o, const Matrix& m) {
    o.w.insert(o.w.end(), {double(kMatrix), double(m.rows()), double(m.cols()),
                           double(reinterpret_cast<std::uintptr_t>(m.data()))});
}

void put_floats(Out& o, const std::vector<float>& v) {
    o.w.insert(o.w.end(), {double(kFloat32), double(v.size()), double(reinterpret_cast<std::uintptr_t>(v.data()))});
}

std::vector<std::string>& keys() {
    static std::vector<std::string> k;
    return k;
}

int key_id(const char* key) {
    auto& k = keys();
    for (std::size_t i = 0; i < k.size(); ++i)
        if (k[i] == key) return int(i);
    k.emplace_back(key);
    return int(k.size() - 1);
}

// Results the boundary still holds (0 between calls; memoryStats().handles).
double held_results() { return double(out.keep.size()); }

}  // namespace attn::wasm

extern "C" {

EMSCRIPTEN_KEEPALIVE double* attn_args(double words, double floats) {
    if (!(words >= 1 && words < 1e12 && floats >= 0 && floats < 1e12)) return nullptr;
    if (!in_words.reserve(std::size_t(words)) || !in_floats.reserve(std::size_t(floats) + 16)) return nullptr;
    where[0] = double(reinterpret_cast<std::uintptr_t>(in_words.data));
    where[1] = double(reinterpret_cast<std::uintptr_t>(in_floats.data));
    return where;
}

EMSCRIPTEN_KEEPALIVE double* attn_call(int id) {
    out.clear();
    out.keep.clear();
    guard(out, [&] {
        if (id < 0 || std::size_t(id) >= functions().size()) throw std::logic_error("attn_call: no function " + std::to_string(id));
        functions()[std::size_t(id)].call(In(in_words.data, in_floats.data), out);
    });
    out.w[0] = double(reinterpret_cast<std::uintptr_t>(out.bytes.data()));
    return out.w.data();
}

EMSCRIPTEN_KEEPALIVE void attn_release() {
    out.keep.clear();
    if (out.w.capacity() > kKeepOut) std::vector<double>().swap(out.w);
    if (out.bytes.capacity() > kKeepOut) std::vector<char>().swap(out.bytes);
    in_words.trim(kKeepWords);
    in_floats.trim(kKeepFloats);
}

EMSCRIPTEN_KEEPALIVE double* attn_describe() {
    out.clear();
    out.keep.clear();
    const auto& c = constants();
    out.w.insert(out.w.end(), {double(kArray), 3});
    out.w.insert(out.w.end(), {double(kArray), double(functions().size())});
    for (const auto& f : functions()) {
        out.w.insert(out.w.end(), {double(kArray), 2});
        put(out, f.name);
        put(out, f.arity);
    }
    put(out, keys());
    out.w.insert(out.w.end(), {double(kArray), double(c.size())});
    for (const auto& [name, value] : c) {
        out.w.insert(out.w.end(), {double(kArray), 2});
        put(out, name);
        put(out, value);
    }
    out.w[0] = double(reinterpret_cast<std::uintptr_t>(out.bytes.data()));
    return out.w.data();
}

}  // extern "C"

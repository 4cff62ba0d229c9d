// The safetensors reader (safetensors.hpp): header length, header JSON, layout checks,
// dtype conversion, the shard index, the names of files that are not safetensors.
#include "attn/safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <set>

#include <nlohmann/json.hpp>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "safetensors.cpp reads little-endian tensors in place: a big-endian build needs a byte swap");

namespace attn::safetensors {

namespace {

std::string compose(const std::string& file, const std::string& tensor, const std::string& detail) {
    std::string m;
    if (!file.empty()) m += file + ": ";
    if (!tensor.empty()) m += "tensor '" + tensor + "': ";
    return m + detail;
}

[[noreturn]] void fail(const char* kind, const std::string& file, const std::string& tensor, const std::string& detail,
                       CheckpointValues values = {}) {
    throw CheckpointError(kind, file, tensor, detail, std::move(values));
}


struct DTypeEntry {
    const char* name;
    DType dtype;
    std::size_t size;
};
constexpr DTypeEntry kDTypes[] = {
    {"F64", DType::F64, 8},   {"F32", DType::F32, 4},   {"F16", DType::F16, 2},   {"BF16", DType::BF16, 2},
    {"I64", DType::I64, 8},   {"I32", DType::I32, 4},   {"I16", DType::I16, 2},   {"I8", DType::I8, 1},
    {"U64", DType::U64, 8},   {"U32", DType::U32, 4},   {"U16", DType::U16, 2},   {"U8", DType::U8, 1},
    {"BOOL", DType::BOOL, 1}, {"F8_E5M2", DType::F8_E5M2, 1}, {"F8_E4M3", DType::F8_E4M3, 1},
};

const DTypeEntry& entry_of(DType d) {
    for (const auto& e : kDTypes)
        if (e.dtype == d) return e;
    return kDTypes[1];
}

std::string u64(std::uint64_t v) { return std::to_string(v); }

// "a JSON number 1.5" / "a string" ...: what a value is, for messages.
std::string describe(const nlohmann::json& v) {
    if (v.is_number_unsigned()) return "the number " + v.dump();
    if (v.is_number()) return "the number " + v.dump();
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    if (v.is_boolean()) return "a boolean";
    return "null";
}

// The first bytes of a PyTorch file: a zip archive (torch.save since 1.6) or a raw pickle
// (protocol 2..5: 0x80 then the protocol).
bool looks_like_pickle(const std::uint8_t* b, std::size_t n) {
    if (n >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4) return true;
    if (n >= 2 && b[0] == 0x80 && b[1] >= 2 && b[1] <= 5) return true;
    return false;
}

}  // namespace

CheckpointError::CheckpointError(std::string k, std::string f, std::string t, std::string d, CheckpointValues v)
    : ValueError(compose(f, t, d)),
      kind(std::move(k)),
      file(std::move(f)),
      tensor(std::move(t)),
      detail(std::move(d)),
      values(std::move(v)) {}

// nlohmann::json's lexer counts a newline as the end of its line (the column back to 0) and
// reports in parse_error::byte the characters read so far (1-based), one past the text at its end.
CheckpointValues json_error_values(std::string_view text, const std::exception& e) {
    CheckpointValues v;
    v.what = "json";
    const auto* p = dynamic_cast<const nlohmann::json::parse_error*>(&e);
    if (!p || p->byte == 0) return v;
    const std::size_t n = std::min(p->byte, text.size());
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (text[i] == '\n') ++line, line_start = i + 1;
    v.line = line;
    v.column = p->byte - line_start;
    return v;
}

const char* dtype_name(DType d) { return entry_of(d).name; }
std::size_t dtype_size(DType d) { return entry_of(d).size; }
bool is_float_dtype(DType d) { return d == DType::F32 || d == DType::F16 || d == DType::BF16; }

std::string TensorInfo::shape_text() const {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + u64(shape[i]);
    return s + "]";
}

const TensorInfo* Header::find(std::string_view name) const {
    for (const auto& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

std::string pickle_advice() {
    return "this is a PyTorch pickle file (pytorch_model.bin and the like), which this page does not open: "
           "unpickling a file can run any code it holds. Use the checkpoint's model.safetensors instead: most "
           "models on the Hugging Face Hub list it next to pytorch_model.bin (huggingface-cli download <model> "
           "model.safetensors config.json and the tokenizer files), and a copy you already have converts on your "
           "own machine with Python: transformers' AutoModel.from_pretrained(folder).save_pretrained(out, "
           "safe_serialization=True), or the Hub's \"Convert to Safetensors\" space";
}

void check_weights_file_name(const std::string& file) {
    const auto slash = file.find_last_of("/\\");
    const std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
    auto ends = [&](const char* suffix) {
        const std::size_t n = std::strlen(suffix);
        return base.size() >= n && base.compare(base.size() - n, n, suffix) == 0;
    };
    if (ends(".bin") || ends(".pt") || ends(".pth") || ends(".ckpt") || ends(".pkl") || ends(".pickle"))
        fail("pickle", base, "", pickle_advice());
    const char* what = nullptr;
    if (ends(".h5")) what = "a TensorFlow/Keras file";
    else if (ends(".msgpack")) what = "a Flax file";
    else if (ends(".gguf") || ends(".ggml")) what = "a GGUF/GGML file (llama.cpp)";
    else if (ends(".onnx")) what = "an ONNX file";
    else if (ends(".tflite")) what = "a TensorFlow Lite file";
    if (what)
        fail("format", base, "",
             std::string(what) + ", which this page does not read: open the checkpoint's model.safetensors "
                                 "(and config.json and the tokenizer files) instead");
}

std::uint64_t header_length(const std::uint8_t* first, std::size_t n, std::uint64_t file_size, const std::string& file) {
    if (looks_like_pickle(first, n)) fail("pickle", file, "", pickle_advice());
    if (n < 8 || file_size < 8)
        fail("truncated", file, "",
             "the file holds " + u64(std::min<std::uint64_t>(file_size, n)) +
                 " bytes, fewer than the 8 bytes of a safetensors header length (truncated, or not a safetensors file)");
    std::uint64_t N = 0;
    for (int i = 7; i >= 0; --i) N = (N << 8) | first[i];
    if (N == 0) fail("header", file, "", "the header length is 0 (not a safetensors file)");
    if (N > kMaxHeaderBytes)
        fail("header", file, "",
             "the header length is " + u64(N) + " bytes, more than the " + u64(kMaxHeaderBytes) +
                 " this reader accepts (not a safetensors file, or a corrupt one)");
    if (N > file_size - 8)
        fail("truncated", file, "",
             "the header says it is " + u64(N) + " bytes long, but the file holds only " + u64(file_size - 8) +
                 " bytes after the length (truncated, or not a safetensors file)");
    return N;
}

Header parse_header(const std::uint8_t* json, std::size_t n, std::uint64_t file_size, const std::string& file) {
    if (n == 0 || n > kMaxHeaderBytes || n > file_size || file_size - n < 8)
        fail("header", file, "", "a header of " + u64(n) + " bytes does not fit a file of " + u64(file_size) + " bytes");
    if (json[0] != '{')
        fail("header", file, "", "the header does not start with '{' (not a safetensors file, or a corrupt one)");

    // Names seen at depth 1 (tensors) and depth 2 (one entry's keys): nlohmann keeps the last
    // of two equal keys silently, which would hide a tensor.
    std::set<std::string> names, keys;
    std::string duplicate;
    const auto callback = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        if (event == nlohmann::json::parse_event_t::object_start && depth == 1) keys.clear();
        if (event == nlohmann::json::parse_event_t::key && duplicate.empty()) {
            const std::string k = parsed.get<std::string>();
            if (depth == 1 && !names.insert(k).second) duplicate = "the name '" + k + "' appears twice";
            if (depth == 2 && !keys.insert(k).second) duplicate = "an entry has the key '" + k + "' twice";
        }
        return true;
    };
    nlohmann::json h;
    try {
        h = nlohmann::json::parse(json, json + n, callback);
    } catch (const nlohmann::json::exception& e) {
        fail("header", file, "", std::string("the header is not valid JSON (") + e.what() + ")",
             json_error_values({reinterpret_cast<const char*>(json), n}, e));
    }
    if (!duplicate.empty()) fail("header", file, "", "in the header, " + duplicate);
    if (!h.is_object()) fail("header", file, "", "the header is " + describe(h) + ", not a JSON object");

    Header out;
    out.file = file;
    out.file_size = file_size;
    out.header_bytes = n;
    out.data_begin = 8 + std::uint64_t(n);
    const std::uint64_t data_size = file_size - out.data_begin;

    for (auto it = h.begin(); it != h.end(); ++it) {
        const std::string& name = it.key();
        const nlohmann::json& e = it.value();
        if (name == "__metadata__") {
            if (!e.is_object()) fail("header", file, "", "__metadata__ is " + describe(e) + ", not an object of strings");
            for (auto m = e.begin(); m != e.end(); ++m) {
                if (!m.value().is_string())
                    fail("header", file, "", "__metadata__['" + m.key() + "'] is " + describe(m.value()) + ", not a string");
                out.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        if (!e.is_object()) fail("entry", file, name, "the entry is " + describe(e) + ", not an object");
        for (const char* key : {"dtype", "shape", "data_offsets"})
            if (!e.contains(key)) fail("entry", file, name, std::string("the entry has no '") + key + "'");
        TensorInfo t;
        t.name = name;
        const auto& dt = e["dtype"];
        if (!dt.is_string()) fail("entry", file, name, "dtype is " + describe(dt) + ", not a string");
        const std::string dts = dt.get<std::string>();
        const DTypeEntry* found = nullptr;
        for (const auto& d : kDTypes)
            if (dts == d.name) found = &d;
        if (!found) {
            std::string known;
            for (const auto& d : kDTypes) known += std::string(known.empty() ? "" : ", ") + d.name;
            fail("entry", file, name, "the dtype '" + dts + "' is not one of the safetensors dtypes this reader knows (" + known + ")");
        }
        t.dtype = found->dtype;
        const auto& sh = e["shape"];
        if (!sh.is_array()) fail("entry", file, name, "shape is " + describe(sh) + ", not an array");
        std::uint64_t elements = 1;
        bool overflow = false;
        for (const auto& d : sh) {
            if (!d.is_number_unsigned())
                fail("entry", file, name, "a dimension of the shape is " + describe(d) + ", not a non-negative integer");
            const std::uint64_t v = d.get<std::uint64_t>();
            t.shape.push_back(v);
            if (v != 0 && elements > UINT64_MAX / v) overflow = true;
            else elements *= v;
        }
        // A zero dimension makes the count 0 whatever else overflowed.
        if (std::find(t.shape.begin(), t.shape.end(), 0) != t.shape.end()) elements = 0, overflow = false;
        if (overflow) fail("entry", file, name, "the shape " + t.shape_text() + " has more elements than 2^64");
        t.elements = elements;
        if (elements > UINT64_MAX / found->size)
            fail("entry", file, name, "the shape " + t.shape_text() + " of " + dts + " needs more than 2^64 bytes");
        const std::uint64_t bytes = elements * found->size;
        const auto& off = e["data_offsets"];
        if (!off.is_array() || off.size() != 2)
            fail("entry", file, name, "data_offsets is " + describe(off) + ", not an array of two offsets");
        for (const auto& o : off)
            if (!o.is_number_unsigned())
                fail("entry", file, name, "an offset in data_offsets is " + describe(o) + ", not a non-negative integer");
        const std::uint64_t b = off[0].get<std::uint64_t>(), en = off[1].get<std::uint64_t>();
        if (b > en) fail("entry", file, name, "data_offsets [" + u64(b) + ", " + u64(en) + "] end before they begin");
        if (en - b != bytes)
            fail("entry", file, name,
                 "data_offsets [" + u64(b) + ", " + u64(en) + "] hold " + u64(en - b) + " bytes, but the shape " +
                     t.shape_text() + " of " + dts + " needs " + u64(bytes));
        if (en > data_size)
            fail("truncated", file, name,
                 "its bytes end at " + u64(en) + " of the data area, which holds only " + u64(data_size) +
                     " bytes (truncated file?)");
        t.begin = out.data_begin + b;
        t.end = out.data_begin + en;
        out.tensors.push_back(std::move(t));
    }

    // Layout: sorted by offset, contiguous, covering the data area exactly.
    std::vector<const TensorInfo*> order;
    for (const auto& t : out.tensors) order.push_back(&t);
    std::stable_sort(order.begin(), order.end(), [](const TensorInfo* a, const TensorInfo* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t at = out.data_begin;
    const TensorInfo* prev = nullptr;
    for (const TensorInfo* t : order) {
        if (t->begin < at)
            fail("layout", file, t->name,
                 "its bytes [" + u64(t->begin - out.data_begin) + ", " + u64(t->end - out.data_begin) +
                     ") overlap those of '" + (prev ? prev->name : std::string()) + "'");
        if (t->begin > at)
            fail("layout", file, t->name,
                 "the " + u64(t->begin - at) + " bytes before it (from " + u64(at - out.data_begin) +
                     " of the data area) belong to no tensor");
        at = t->end;
        if (t->end > t->begin || !prev) prev = t;
    }
    if (at != file_size)
        fail("layout", file, "",
             "the tensors end at byte " + u64(at) + " but the file has " + u64(file_size) +
                 " bytes: the rest belongs to no tensor");
    return out;
}

Header read_header(ByteSource& source, const std::string& file) {
    const std::uint64_t size = source.size();
    std::uint8_t first[8] = {};
    const std::size_t n = std::size_t(std::min<std::uint64_t>(size, 8));
    source.read(0, first, n);
    const std::uint64_t N = header_length(first, n, size, file);
    std::vector<std::uint8_t> json(static_cast<std::size_t>(N));
    source.read(8, json.data(), json.size());
    return parse_header(json.data(), json.size(), size, file);
}

void MemorySource::read(std::uint64_t offset, std::uint8_t* dst, std::size_t n) {
    if (offset > n_ || n > n_ - offset)
        fail("truncated", file_, "", "a read of " + u64(n) + " bytes at " + u64(offset) + " passes the end of " + u64(n_) + " bytes");
    if (n) std::memcpy(dst, data_ + offset, n);
}

float f16_to_f32(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    std::uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);  // ±∞, NaN (payload kept)
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;  // ±0
    } else {
        // subnormal: man · 2^−24, normalised
        int e = -1;
        std::uint32_t m = man;
        do {
            ++e;
            m <<= 1;
        } while ((m & 0x400u) == 0);
        bits = sign | (std::uint32_t(112 - e) << 23) | ((m & 0x3ffu) << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

float bf16_to_f32(std::uint16_t h) {
    const std::uint32_t bits = std::uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

void to_f32(DType d, const std::uint8_t* src, std::size_t n, float* dst) {
    switch (d) {
    case DType::F32:
        if (n) std::memmove(dst, src, n * 4);
        return;
    case DType::F16:
        for (std::size_t i = 0; i < n; ++i) dst[i] = f16_to_f32(std::uint16_t(src[2 * i] | (src[2 * i + 1] << 8)));
        return;
    case DType::BF16:
        for (std::size_t i = 0; i < n; ++i) dst[i] = bf16_to_f32(std::uint16_t(src[2 * i] | (src[2 * i + 1] << 8)));
        return;
    default:
        throw ValueError(std::string("safetensors: ") + dtype_name(d) + " is not converted to f32 (only F32, F16, BF16)");
    }
}

ShardIndex parse_index(std::string_view json, const std::string& file) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json.begin(), json.end());
    } catch (const nlohmann::json::exception& e) {
        fail("index", file, "", std::string("not valid JSON (") + e.what() + ")", json_error_values(json, e));
    }
    if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
        fail("index", file, "", "no \"weight_map\" object (the index of a sharded checkpoint maps each tensor to its file)");
    ShardIndex out;
    std::set<std::string> files;
    for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
        if (!it.value().is_string())
            fail("index", file, it.key(), "its file in weight_map is " + describe(it.value()) + ", not a file name");
        const std::string f = it.value().get<std::string>();
        if (f.empty() || f.find_first_of("/\\") != std::string::npos || f == "." || f == "..")
            fail("index", file, it.key(), "its file '" + f + "' is not a plain file name in the same folder");
        out.weight_map[it.key()] = f;
        files.insert(f);
    }
    if (out.weight_map.empty()) fail("index", file, "", "weight_map is empty");
    out.files.assign(files.begin(), files.end());
    return out;
}

}  // namespace attn::safetensors

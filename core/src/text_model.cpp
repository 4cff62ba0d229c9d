// The text model (text_model.hpp): windows, loss in bits per character, the file format.
#include "attn/text_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "attn/errors.hpp"

namespace attn {

// ---- windows and loss ---------------------------------------------------------------------------

namespace {
void check_window(std::size_t T) {
    if (T < 2) throw ValueError("text windows: T must be at least 2, got " + std::to_string(T));
}
}  // namespace

Batch text_window_batch(const std::vector<int>& ids, const std::vector<std::size_t>& starts, std::size_t T) {
    check_window(T);
    check_size(starts.size(), T, "text windows");
    Batch b;
    b.size = starts.size();
    b.seq_len = T;
    b.tokens.reserve(b.size * T);
    b.targets.reserve(b.size * T);
    for (std::size_t s : starts) {
        if (s > ids.size() || ids.size() - s < T)
            throw ValueError("text windows: a window of " + std::to_string(T) + " tokens at " + std::to_string(s) +
                             " runs past the end of " + std::to_string(ids.size()) + " tokens");
        b.tokens.push_back(text::kBegin);
        b.tokens.insert(b.tokens.end(), ids.begin() + std::ptrdiff_t(s), ids.begin() + std::ptrdiff_t(s + T - 1));
        b.targets.insert(b.targets.end(), ids.begin() + std::ptrdiff_t(s), ids.begin() + std::ptrdiff_t(s + T));
    }
    return b;
}

Batch text_windows(const std::vector<int>& ids, std::size_t T) {
    check_window(T);
    const std::size_t n = (ids.size() + T - 1) / T;
    check_size(n, T, "text windows");
    Batch b;
    b.size = n;
    b.seq_len = T;
    b.tokens.assign(n * T, text::kBegin);
    b.targets.assign(n * T, -1);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t t = 0; t < T && k * T + t < ids.size(); ++t) {
            b.targets[k * T + t] = ids[k * T + t];
            if (t + 1 < T) b.tokens[k * T + t + 1] = ids[k * T + t];
        }
    return b;
}

double TextLoss::loss() const { return tokens ? nats / double(tokens) : 0.0; }
double TextLoss::bits_per_char() const { return chars ? nats / std::log(2.0) / double(chars) : 0.0; }

TextLoss text_loss(const TinyTransformer& model, const text::Tokens& tokens, const std::vector<bool>& zeroed,
                   std::size_t batch) {
    if (batch == 0) throw ValueError("text_loss: batch must be at least 1");
    const std::size_t T = model.config().max_len;
    const Batch all = text_windows(tokens.ids, T);
    TextLoss out;
    out.chars = tokens.chars.size();
    for (std::size_t first = 0; first < all.size; first += batch) {
        Batch b;
        b.size = std::min(batch, all.size - first);
        b.seq_len = T;
        b.tokens.assign(all.tokens.begin() + std::ptrdiff_t(first * T), all.tokens.begin() + std::ptrdiff_t((first + b.size) * T));
        b.targets.assign(all.targets.begin() + std::ptrdiff_t(first * T), all.targets.begin() + std::ptrdiff_t((first + b.size) * T));
        const LossStats s = model.evaluate(b, zeroed);
        out.nats += s.loss * double(s.count);
        out.tokens += s.count;
    }
    return out;
}

// ---- binary16 and CRC-32 ---------------------------------------------------------------------------

std::uint16_t to_half(float x) {
    std::uint32_t f;
    std::memcpy(&f, &x, 4);
    const std::uint16_t sign = std::uint16_t((f >> 16) & 0x8000u);
    const std::uint32_t exp = (f >> 23) & 0xFFu, mant = f & 0x7FFFFFu;
    if (exp == 0xFF) return std::uint16_t(sign | 0x7C00u | (mant ? 0x200u | (mant >> 13) : 0u));  // ±∞, NaN (quiet)
    const int e = int(exp) - 127 + 15;
    if (e >= 31) return std::uint16_t(sign | 0x7C00u);  // past binary16's range
    std::uint32_t m, rest, half;
    if (e <= 0) {
        if (e < -10) return sign;                   // below half the smallest subnormal: ±0
        const std::uint32_t full = mant | 0x800000u;  // the implicit bit
        const int shift = 14 - e;                     // 14..24
        m = full >> shift;
        rest = full & ((1u << shift) - 1);
        half = 1u << (shift - 1);
    } else {
        m = (std::uint32_t(e) << 10) | (mant >> 13);
        rest = mant & 0x1FFFu;
        half = 0x1000u;
    }
    // round to nearest, ties to even; a carry moves into the exponent (up to ∞), as it should
    if (rest > half || (rest == half && (m & 1u))) ++m;
    return std::uint16_t(sign | m);
}

float from_half(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
    std::uint32_t f;
    if (exp == 0x1F) {
        f = sign | 0x7F800000u | (mant << 13);
    } else if (exp != 0) {
        f = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    } else if (mant == 0) {
        f = sign;
    } else {  // subnormal: mant · 2^−24, exact in float
        const float v = float(mant) * (1.0f / 16777216.0f);
        std::memcpy(&f, &v, 4);
        f |= sign;
    }
    float x;
    std::memcpy(&x, &f, 4);
    return x;
}

std::uint32_t crc32(const std::uint8_t* bytes, std::size_t size) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < size; ++i) c = table[(c ^ bytes[i]) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

// ---- the file -----------------------------------------------------------------------------------

namespace {
constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'T', 'X', 'T', '\0'};
constexpr std::size_t kHeaderBytes = 60;  // up to the symbols
constexpr std::uint32_t kStorageHalf = 1;
constexpr std::uint32_t kFlagPositional = 1, kFlagScale = 2, kFlagLayerNorm = 4;

[[noreturn]] void fail(const std::string& what) { throw ValueError("model file: " + what); }

struct Writer {
    std::vector<std::uint8_t> out;
    void u32(std::uint32_t v) {
        for (int k = 0; k < 4; ++k) out.push_back(std::uint8_t(v >> (8 * k)));
    }
    void u16(std::uint16_t v) {
        out.push_back(std::uint8_t(v));
        out.push_back(std::uint8_t(v >> 8));
    }
    void bytes(const void* p, std::size_t n) {
        const auto* b = static_cast<const std::uint8_t*>(p);
        out.insert(out.end(), b, b + n);
    }
};

struct Reader {
    const std::uint8_t* p;
    std::size_t size, at = 0;
    void need(std::size_t n, const std::string& what) const {
        if (size - at < n) fail("it ends inside " + what + " (byte " + std::to_string(at) + " of " + std::to_string(size) + ")");
    }
    std::uint32_t u32(const std::string& what) {
        need(4, what);
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) v |= std::uint32_t(p[at + std::size_t(k)]) << (8 * k);
        at += 4;
        return v;
    }
    std::uint16_t u16() {
        const std::uint16_t v = std::uint16_t(p[at] | (p[at + 1] << 8));
        at += 2;
        return v;
    }
};

std::uint32_t as_u32(std::size_t v, const char* what) {
    if (v > 0xFFFFFFFFu) throw ValueError(std::string("model file: ") + what + " does not fit in 32 bits");
    return std::uint32_t(v);
}
}  // namespace

std::vector<std::uint8_t> save_text_model(const TinyTransformer& model, const text::Tokenizer& tokenizer) {
    const ModelConfig& c = model.config();
    if (c.vocab_in != tokenizer.size() || c.vocab_out != tokenizer.size())
        throw ShapeError("model file: the model's vocabulary (" + std::to_string(c.vocab_in) + " in, " +
                         std::to_string(c.vocab_out) + " out) is not the tokenizer's " + std::to_string(tokenizer.size()));
    Writer w;
    w.bytes(kMagic, 8);
    w.u32(kTextModelVersion);
    w.u32(0);  // the size, filled in below
    const std::size_t dv = c.d_v > 0 ? c.d_v : c.d_model / c.heads;
    for (std::size_t v : {c.vocab_in, c.max_len, c.d_model, c.heads, c.d_k, dv, c.layers, c.mlp_hidden})
        w.u32(as_u32(v, "a size"));
    w.u32((c.positional ? kFlagPositional : 0u) | (c.scale ? kFlagScale : 0u) | (c.layer_norm ? kFlagLayerNorm : 0u));
    w.u32(kStorageHalf);
    w.u32(as_u32(model.params().size(), "the tensor count"));
    for (char32_t s : tokenizer.symbols()) w.u32(std::uint32_t(s));
    for (const auto& p : model.params()) {
        w.u32(as_u32(p.name.size(), "a name"));
        w.bytes(p.name.data(), p.name.size());
        w.u32(as_u32(p.value.rows(), "a shape"));
        w.u32(as_u32(p.value.cols(), "a shape"));
        for (std::size_t k = 0; k < p.value.size(); ++k) w.u16(to_half(p.value.data()[k]));
    }
    const std::uint32_t total = as_u32(w.out.size() + 4, "the file size");
    for (int k = 0; k < 4; ++k) w.out[12 + std::size_t(k)] = std::uint8_t(total >> (8 * k));
    w.u32(crc32(w.out.data(), w.out.size()));
    return std::move(w.out);
}

TextModel load_text_model(const std::uint8_t* bytes, std::size_t size) {
    if (size < kHeaderBytes + 4)
        fail(std::to_string(size) + " bytes is too short for a model file (its header alone is " +
             std::to_string(kHeaderBytes + 4) + ")");
    if (std::memcmp(bytes, kMagic, 8) != 0) fail("this is not a text model file (it does not start with \"ATTNTXT\")");
    Reader r{bytes, size, 8};
    const std::uint32_t version = r.u32("the version");
    if (version != kTextModelVersion)
        fail("version " + std::to_string(version) + " is not supported (this build reads version " +
             std::to_string(kTextModelVersion) + ")");
    const std::uint32_t declared = r.u32("the size");
    if (declared > size)
        fail("truncated: the header says " + std::to_string(declared) + " bytes, got " + std::to_string(size));
    if (declared < size)
        fail(std::to_string(size - declared) + " bytes after the end the header declares (" + std::to_string(declared) +
             " bytes)");
    std::uint32_t stored = 0;
    for (int k = 0; k < 4; ++k) stored |= std::uint32_t(bytes[size - 4 + std::size_t(k)]) << (8 * k);
    const std::uint32_t computed = crc32(bytes, size - 4);
    if (stored != computed) {
        char msg[160];
        std::snprintf(msg, sizeof msg,
                      "checksum mismatch: the file says CRC-32 %08x, its bytes give %08x (the file is damaged or "
                      "was changed)",
                      unsigned(stored), unsigned(computed));
        fail(msg);
    }
    r.size = size - 4;  // the checksum is not part of the content
    ModelConfig c;
    c.vocab_in = c.vocab_out = r.u32("the header");
    c.max_len = r.u32("the header");
    c.d_model = r.u32("the header");
    c.heads = r.u32("the header");
    c.d_k = r.u32("the header");
    c.d_v = r.u32("the header");
    c.layers = r.u32("the header");
    c.mlp_hidden = r.u32("the header");
    const std::uint32_t flags = r.u32("the header"), storage = r.u32("the header"), n = r.u32("the header");
    if (flags & ~(kFlagPositional | kFlagScale | kFlagLayerNorm)) fail("unknown flags " + std::to_string(flags));
    c.positional = flags & kFlagPositional;
    c.scale = flags & kFlagScale;
    c.layer_norm = flags & kFlagLayerNorm;
    if (storage != kStorageHalf) fail("storage " + std::to_string(storage) + " is unknown (1 = binary16)");
    try {
        check_config(c);
    } catch (const ValueError& e) {
        fail(std::string("the configuration is not usable: ") + e.what());
    }
    if (c.vocab_in < text::kSpecials + 1) fail("the vocabulary has no symbols");
    std::vector<char32_t> symbols;
    r.need((c.vocab_in - text::kSpecials) * 4, "the vocabulary");
    for (std::size_t k = text::kSpecials; k < c.vocab_in; ++k) symbols.push_back(char32_t(r.u32("the vocabulary")));
    text::Tokenizer tokenizer = [&] {
        try {
            return text::Tokenizer(std::move(symbols));
        } catch (const std::exception& e) {
            fail(std::string("the vocabulary is not usable: ") + e.what());
        }
    }();
    TinyTransformer model(c);
    auto& params = model.params();
    if (n != params.size())
        fail("it holds " + std::to_string(n) + " tensors; a model of this configuration has " +
             std::to_string(params.size()));
    for (auto& p : params) {
        const std::uint32_t len = r.u32("a tensor's name");
        r.need(len, "a tensor's name");
        const std::string name(reinterpret_cast<const char*>(bytes + r.at), len);
        r.at += len;
        if (name != p.name) fail("tensor \"" + name + "\" where the configuration puts " + p.name);
        const std::uint32_t rows = r.u32("the shape of " + name), cols = r.u32("the shape of " + name);
        if (rows != p.value.rows() || cols != p.value.cols())
            fail(name + " is " + shape_str(rows, cols) + " but the configuration needs " + p.value.shape());
        r.need(std::size_t(rows) * cols * 2, "the values of " + name);
        for (std::size_t k = 0; k < p.value.size(); ++k) {
            const float v = from_half(r.u16());
            if (!std::isfinite(v)) fail(name + " holds a value that is not finite (entry " + std::to_string(k) + ")");
            p.value.data()[k] = v;
        }
    }
    if (r.at != r.size) fail(std::to_string(r.size - r.at) + " bytes left over after the last tensor");
    return {std::move(tokenizer), std::move(model)};
}

}  // namespace attn

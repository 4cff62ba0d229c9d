// The text model's tokenizer (text.hpp): UTF-8 decoding, Hangul syllable decomposition
// (Unicode §3.12), the vocabulary.
#include "attn/text.hpp"

#include <algorithm>
#include <map>

#include "attn/errors.hpp"
#include "attn/model.hpp"

namespace attn::text {

namespace {
constexpr char32_t kReplacement = 0xFFFD;
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

// Compatibility jamo (U+3131..) of the conjoining ones, for display: leading consonants
// U+1100..U+1112, vowels U+1161..U+1175, trailing consonants U+11A8..U+11C2.
constexpr char16_t kLeadCompat[kLCount] = {0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141,
                                           0x3142, 0x3143, 0x3145, 0x3146, 0x3147, 0x3148, 0x3149,
                                           0x314A, 0x314B, 0x314C, 0x314D, 0x314E};
constexpr char16_t kTailCompat[kTCount - 1] = {0x3131, 0x3132, 0x3133, 0x3134, 0x3135, 0x3136, 0x3137,
                                               0x3139, 0x313A, 0x313B, 0x313C, 0x313D, 0x313E, 0x313F,
                                               0x3140, 0x3141, 0x3142, 0x3144, 0x3145, 0x3146, 0x3147,
                                               0x3148, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E};

bool is_conjoining_jamo(char32_t c) {
    return (c >= kLBase && c < kLBase + kLCount) || (c >= kVBase && c < kVBase + kVCount) ||
           (c > kTBase && c < kTBase + kTCount);
}

std::string hex(char32_t c) {
    static const char digits[] = "0123456789ABCDEF";
    std::string s;
    for (int shift = c > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) s += digits[(c >> shift) & 0xF];
    return "U+" + s;
}
}  // namespace

std::vector<char32_t> decode_utf8(const std::string& s) {
    std::vector<char32_t> out;
    out.reserve(s.size());
    const auto* b = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = b[i];
        std::size_t len = 0;
        char32_t cp = 0, min = 0;
        if (c < 0x80) len = 1, cp = c;
        else if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F, min = 0x80;
        else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F, min = 0x800;
        else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07, min = 0x10000;
        bool ok = len > 0 && i + len <= n;
        for (std::size_t k = 1; ok && k < len; ++k) {
            if ((b[i + k] & 0xC0) != 0x80) ok = false;
            else cp = (cp << 6) | (b[i + k] & 0x3F);
        }
        if (ok && len > 1 && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
        if (ok) {
            out.push_back(cp);
            i += len;
        } else {
            out.push_back(kReplacement);
            ++i;
        }
    }
    return out;
}

void append_utf8(std::string& s, char32_t c) {
    if (c < 0x80) {
        s += char(c);
    } else if (c < 0x800) {
        s += char(0xC0 | (c >> 6));
        s += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += char(0xE0 | (c >> 12));
        s += char(0x80 | ((c >> 6) & 0x3F));
        s += char(0x80 | (c & 0x3F));
    } else {
        s += char(0xF0 | (c >> 18));
        s += char(0x80 | ((c >> 12) & 0x3F));
        s += char(0x80 | ((c >> 6) & 0x3F));
        s += char(0x80 | (c & 0x3F));
    }
}

std::string encode_utf8(char32_t c) {
    std::string s;
    append_utf8(s, c);
    return s;
}

bool is_hangul_syllable(char32_t c) { return c >= kSBase && c < kSBase + kSCount; }

std::size_t decompose(char32_t c, char32_t out[3]) {
    if (!is_hangul_syllable(c)) {
        out[0] = c;
        return 1;
    }
    const char32_t s = c - kSBase;
    out[0] = kLBase + s / kNCount;
    out[1] = kVBase + (s % kNCount) / kTCount;
    if (s % kTCount == 0) return 2;
    out[2] = kTBase + s % kTCount;
    return 3;
}

Tokenizer::Tokenizer(std::vector<char32_t> symbols) : symbols_(std::move(symbols)) {
    if (size() > limits::vocab.max)
        throw SizeError("tokenizer: " + std::to_string(size()) + " symbols, more than the limit of " +
                        std::to_string(limits::vocab.max));
    for (std::size_t k = 0; k < symbols_.size(); ++k) {
        const char32_t c = symbols_[k];
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            throw ValueError("tokenizer: symbol " + std::to_string(k + kSpecials) + " is not a Unicode scalar value");
        if (is_hangul_syllable(c))
            throw ValueError("tokenizer: symbol " + std::to_string(k + kSpecials) + " (" + hex(c) +
                             ") is a precomposed Hangul syllable; the vocabulary holds its jamo");
        if (!ids_.emplace(c, int(k + kSpecials)).second)
            throw ValueError("tokenizer: symbol " + hex(c) + " appears twice in the vocabulary");
    }
}

Tokenizer Tokenizer::from_text(const std::string& text, std::size_t min_count) {
    std::vector<std::size_t> bmp(0x10000, 0);  // counts of the Basic Multilingual Plane
    std::map<char32_t, std::size_t> counts;     // and of the rest
    char32_t parts[3];
    for (char32_t c : decode_utf8(text))
        for (std::size_t k = 0, n = decompose(c, parts); k < n; ++k) {
            if (parts[k] < 0x10000) ++bmp[parts[k]];
            else ++counts[parts[k]];
        }
    for (char32_t c = 0; c < 0x10000; ++c)
        if (bmp[c]) counts[c] = bmp[c];
    std::vector<char32_t> symbols;
    for (char32_t c = kLBase; c < kLBase + kLCount; ++c) symbols.push_back(c);
    for (char32_t c = kVBase; c < kVBase + kVCount; ++c) symbols.push_back(c);
    for (char32_t c = kTBase + 1; c < kTBase + kTCount; ++c) symbols.push_back(c);
    for (char32_t c = 0x20; c < 0x7F; ++c) symbols.push_back(c);
    symbols.push_back(U'\n');
    for (const auto& [c, n] : counts)
        if (n >= min_count && c != kReplacement && !is_conjoining_jamo(c) && !(c >= 0x20 && c < 0x7F) && c != U'\n')
            symbols.push_back(c);
    std::sort(symbols.begin(), symbols.end());
    return Tokenizer(std::move(symbols));
}

Tokens Tokenizer::encode(const std::string& text) const {
    Tokens t;
    const std::vector<char32_t> cps = decode_utf8(text);
    t.chars.reserve(cps.size());
    t.ids.reserve(cps.size() + cps.size() / 2);
    char32_t parts[3];
    for (std::size_t i = 0; i < cps.size(); ++i) {
        t.chars.push_back(encode_utf8(cps[i]));
        for (std::size_t k = 0, n = decompose(cps[i], parts); k < n; ++k) {
            const int id = this->id(parts[k]);
            t.unknown += id == kUnknown;
            t.ids.push_back(id);
            t.char_index.push_back(i);
        }
    }
    return t;
}

int Tokenizer::id(char32_t c) const {
    const auto it = ids_.find(c);
    return it == ids_.end() ? kUnknown : it->second;
}

std::string Tokenizer::symbol(int id) const {
    if (id < 0 || std::size_t(id) >= size())
        throw ValueError("tokenizer: id " + std::to_string(id) + " is outside the vocabulary 0.." +
                         std::to_string(size() - 1));
    if (id == kUnknown) return "<unk>";
    if (id == kBegin) return "<s>";
    return encode_utf8(symbols_[std::size_t(id) - kSpecials]);
}

std::string Tokenizer::display(int id) const {
    if (id == kUnknown || id == kBegin) return symbol(id);
    const char32_t c = (symbol(id), symbols_[std::size_t(id) - kSpecials]);
    if (c >= kLBase && c < kLBase + kLCount) return encode_utf8(kLeadCompat[c - kLBase]);
    if (c >= kVBase && c < kVBase + kVCount) return encode_utf8(0x314F + (c - kVBase));
    if (c > kTBase && c < kTBase + kTCount) return encode_utf8(kTailCompat[c - kTBase - 1]);
    if (c == U' ') return encode_utf8(0x2423);
    if (c == U'\n') return encode_utf8(0x23CE);
    if (c == U'\t') return encode_utf8(0x21E5);
    if (c < 0x20) return encode_utf8(0x2400 + c);
    if (c == 0x7F) return encode_utf8(0x2421);
    return encode_utf8(c);
}

}  // namespace attn::text

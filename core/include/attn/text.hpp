// Text into tokens for the text model (docs/text-model.md): one tokenizer, used by the
// training program (tools/text-model/train.cpp) and by the page (through wasm/text.cpp).
//
// Tokens are characters (Unicode code points), except that a precomposed Hangul syllable
// (U+AC00..U+D7A3) becomes its two or three conjoining jamo, as in Unicode's canonical
// decomposition (NFD; The Unicode Standard, §3.12 "Conjoining Jamo Behavior"):
//
//   s = c − 0xAC00,  L = 0x1100 + s / 588,  V = 0x1161 + (s % 588) / 28,
//   T = 0x11A7 + s % 28 (no trailing consonant when s % 28 = 0)
//
// so Korean and English share a vocabulary of a couple of hundred symbols (19 leading
// consonants, 21 vowels and 27 trailing consonants cover every syllable). Other characters
// are kept as they are (no other normalisation: the corpus is NFC, and the page's text is
// what the learner typed).
//
// Ids: 0 = <unk> (a character outside the vocabulary), 1 = <s> (the beginning of a
// sequence; never produced from text, the model's windows start with it), then the
// vocabulary's symbols in the order stored in the model file (the training program sorts
// them by code point).
//
// Every token records the index of the character of the input it came from (char_index,
// into Tokens::chars), so attention over jamo can be mapped back onto the characters the
// learner typed: a syllable's jamo share one index. Malformed UTF-8 is not an error: each
// byte that does not start a valid sequence is one character U+FFFD (an <unk> token).
//
// Errors: ValueError for a vocabulary that repeats a symbol, holds a precomposed syllable
// (it could never be produced), a surrogate or a code point past U+10FFFF; SizeError past
// limits::vocab symbols.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace attn::text {

inline constexpr int kUnknown = 0;  // <unk>
inline constexpr int kBegin = 1;    // <s>
inline constexpr std::size_t kSpecials = 2;

struct Tokens {
    std::vector<int> ids;
    std::vector<std::size_t> char_index;  // per token: the index in chars of its character
    std::vector<std::string> chars;       // the input's characters (code points), UTF-8 each
    std::size_t unknown = 0;              // tokens that are <unk>
};

// UTF-8 -> code points; a byte that does not start a valid sequence (overlong, surrogate,
// past U+10FFFF, truncated) is one U+FFFD.
std::vector<char32_t> decode_utf8(const std::string& s);
std::string encode_utf8(char32_t c);
// Appends c's UTF-8 bytes to s (c a scalar value: no surrogate, at most U+10FFFF).
void append_utf8(std::string& s, char32_t c);

bool is_hangul_syllable(char32_t c);
// The canonical decomposition of c into out (1 code point, or 2–3 jamo for a Hangul
// syllable); returns how many.
std::size_t decompose(char32_t c, char32_t out[3]);

class Tokenizer {
public:
    // The vocabulary's symbols (ids 2, 3, ...), each one code point.
    explicit Tokenizer(std::vector<char32_t> symbols);
    // A vocabulary read off a text: every conjoining jamo (so any Hangul syllable can be
    // written), printable ASCII, the newline, and every other symbol of the decomposed text
    // that occurs at least min_count times; sorted by code point.
    static Tokenizer from_text(const std::string& text, std::size_t min_count);

    Tokens encode(const std::string& text) const;
    std::size_t size() const { return kSpecials + symbols_.size(); }  // ids 0..size()-1
    const std::vector<char32_t>& symbols() const { return symbols_; }
    // The symbol of an id as UTF-8 ("<unk>", "<s>" for the specials); ValueError out of range.
    std::string symbol(int id) const;
    // A label that renders on its own: a conjoining jamo as its compatibility jamo
    // (U+1100 ᄀ -> U+3131 ㄱ), space "␣", newline "⏎", tab "⇥", other control characters
    // as U+2400 + c, the specials as "<unk>" and "<s>".
    std::string display(int id) const;
    // The id of a code point (kUnknown when it is not in the vocabulary).
    int id(char32_t c) const;

private:
    std::vector<char32_t> symbols_;
    std::unordered_map<char32_t, int> ids_;
};

}  // namespace attn::text

// Stage: the text model's tokenizer (text.hpp): UTF-8, Hangul syllables into conjoining
// jamo (Unicode §3.12), ids and the map back onto the characters typed.
#include "helpers.hpp"

#include "attn/text.hpp"

using namespace attn::text;

TEST_CASE("Hangul syllables decompose into their conjoining jamo (NFD)", "[text]") {
    char32_t out[3];
    // 한 = U+D55C: ᄒ U+1112, ᅡ U+1161, ᆫ U+11AB (Unicode §3.12's worked example)
    REQUIRE(decompose(U'한', out) == 3);
    REQUIRE(out[0] == 0x1112);
    REQUIRE(out[1] == 0x1161);
    REQUIRE(out[2] == 0x11AB);
    // 가 = U+AC00: no trailing consonant
    REQUIRE(decompose(U'가', out) == 2);
    REQUIRE(out[0] == 0x1100);
    REQUIRE(out[1] == 0x1161);
    // 힣 = U+D7A3, the last syllable
    REQUIRE(decompose(U'힣', out) == 3);
    REQUIRE(out[0] == 0x1112);
    REQUIRE(out[1] == 0x1175);
    REQUIRE(out[2] == 0x11C2);
    REQUIRE(decompose(U'a', out) == 1);
    REQUIRE(out[0] == U'a');
    REQUIRE_FALSE(is_hangul_syllable(0xD7A4));
    REQUIRE_FALSE(is_hangul_syllable(0x3131));  // compatibility jamo ㄱ is not a syllable
}

TEST_CASE("UTF-8: decode, encode, and malformed bytes as U+FFFD", "[text]") {
    const std::string s = "a\xC3\xA9\xED\x95\x9C\xF0\x9F\x98\x80";  // a é 한 😀
    REQUIRE(decode_utf8(s) == std::vector<char32_t>{U'a', 0xE9, 0xD55C, 0x1F600});
    std::string back;
    for (char32_t c : decode_utf8(s)) back += encode_utf8(c);
    REQUIRE(back == s);
    // a lone continuation byte, an overlong "/", a surrogate, a truncated sequence
    REQUIRE(decode_utf8("\x80") == std::vector<char32_t>{0xFFFD});
    REQUIRE(decode_utf8("\xC0\xAF") == std::vector<char32_t>{0xFFFD, 0xFFFD});
    REQUIRE(decode_utf8("\xED\xA0\x80") == std::vector<char32_t>{0xFFFD, 0xFFFD, 0xFFFD});
    REQUIRE(decode_utf8("x\xE2\x82") == std::vector<char32_t>{U'x', 0xFFFD, 0xFFFD});
}

TEST_CASE("tokenizer: ids, the map back onto characters, display labels, errors", "[text]") {
    const Tokenizer tok = Tokenizer::from_text("the cat sat. 고양이가 앉았다.", 1);
    // every conjoining jamo (19 + 21 + 27), printable ASCII (95), the newline, the specials
    REQUIRE(tok.size() == kSpecials + 19 + 21 + 27 + 95 + 1);
    const Tokens t = tok.encode("a 한글\n");
    // a, space, ᄒ ᅡ ᆫ, ᄀ ᅳ ᆯ, newline: 9 tokens from 5 characters
    REQUIRE(t.ids.size() == 9);
    REQUIRE(t.chars == std::vector<std::string>{"a", " ", "한", "글", "\n"});
    REQUIRE(t.char_index == std::vector<std::size_t>{0, 1, 2, 2, 2, 3, 3, 3, 4});
    REQUIRE(t.unknown == 0);
    REQUIRE(tok.symbol(t.ids[0]) == "a");
    REQUIRE(tok.symbol(t.ids[2]) == encode_utf8(0x1112));
    REQUIRE(tok.display(t.ids[2]) == "ㅎ");  // the compatibility jamo, which renders alone
    REQUIRE(tok.display(t.ids[3]) == "ㅏ");
    REQUIRE(tok.display(t.ids[4]) == "ㄴ");
    REQUIRE(tok.display(t.ids[1]) == "␣");
    REQUIRE(tok.display(t.ids[8]) == "⏎");
    REQUIRE(tok.symbol(kBegin) == "<s>");
    REQUIRE_THROWS_AS(tok.symbol(int(tok.size())), ValueError);
    // a character outside the vocabulary, and malformed UTF-8: <unk>, still one character each
    const Tokens u = tok.encode("é\xFF");
    REQUIRE(u.ids == std::vector<int>{kUnknown, kUnknown});
    REQUIRE(u.unknown == 2);
    REQUIRE(u.chars.size() == 2);
    // min_count keeps rare symbols out
    REQUIRE(Tokenizer::from_text("ééé", 3).id(0xE9) != kUnknown);
    REQUIRE(Tokenizer::from_text("ééé", 4).id(0xE9) == kUnknown);
    // vocabularies that cannot be right
    REQUIRE_THROWS_AS(Tokenizer({U'a', U'a'}), ValueError);
    REQUIRE_THROWS_AS(Tokenizer({U'한'}), ValueError);
    REQUIRE_THROWS_AS(Tokenizer({char32_t(0xD800)}), ValueError);
    REQUIRE_THROWS_AS(Tokenizer({char32_t(0x110000)}), ValueError);
}

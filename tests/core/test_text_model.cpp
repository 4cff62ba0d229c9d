// Stage: the text model (text_model.hpp): windows over a token stream, the loss in bits
// per character, binary16, CRC-32 and the model file (every check of the reader).
#include <cstring>
#include <fstream>
#include <sstream>

#include "helpers.hpp"

#include "attn/text_model.hpp"

namespace {

TinyTransformer small_text_model(const text::Tokenizer& tok, bool layer_norm = true) {
    ModelConfig c;
    c.vocab_in = c.vocab_out = tok.size();
    c.max_len = 8;
    c.d_model = 16;
    c.heads = 2;
    c.d_k = 8;
    c.layers = 2;
    c.mlp_hidden = 32;
    c.layer_norm = layer_norm;
    c.seed = 5;
    return TinyTransformer(c);
}

std::string message(const std::vector<std::uint8_t>& file) {
    try {
        load_text_model(file.data(), file.size());
    } catch (const ValueError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("text windows: every token predicted once, from <s> and its chunk", "[text-model]") {
    const std::vector<int> ids = {5, 6, 7, 8, 9};
    const Batch b = text_windows(ids, 3);
    REQUIRE(b.size == 2);
    // the last chunk reads 8, 9; 9's own target lies past the end (−1)
    REQUIRE(b.tokens == std::vector<int>{text::kBegin, 5, 6, text::kBegin, 8, 9});
    REQUIRE(b.targets == std::vector<int>{5, 6, 7, 8, 9, -1});
    const Batch w = text_window_batch(ids, {0, 2}, 3);
    REQUIRE(w.tokens == std::vector<int>{text::kBegin, 5, 6, text::kBegin, 7, 8});
    REQUIRE(w.targets == std::vector<int>{5, 6, 7, 7, 8, 9});
    REQUIRE_THROWS_AS(text_window_batch(ids, {3}, 3), ValueError);  // runs past the end
    REQUIRE_THROWS_AS(text_windows(ids, 1), ValueError);
}

TEST_CASE("text loss: nats per token and bits per character", "[text-model]") {
    const text::Tokenizer tok = text::Tokenizer::from_text("ab", 1);
    const TinyTransformer m = small_text_model(tok);
    const text::Tokens t = tok.encode("한 cat이 앉았다");
    const TextLoss l = text_loss(m, t);
    REQUIRE(l.tokens == t.ids.size());
    REQUIRE(l.chars == t.chars.size());
    REQUIRE(l.chars < l.tokens);  // syllables are 2–3 tokens
    REQUIRE(l.bits_per_char() == Approx(l.nats / std::log(2.0) / double(l.chars)));
    // near ln V nats per token at initialisation
    REQUIRE(l.loss() == Approx(std::log(double(tok.size()))).margin(1.0));
    // the batch size does not change the sum
    REQUIRE(text_loss(m, t, {}, 1).nats == Approx(l.nats).epsilon(1e-6));
    REQUIRE(text_loss(m, tok.encode("")).bits_per_char() == 0.0);
}

TEST_CASE("binary16 and CRC-32 by known values", "[text-model]") {
    REQUIRE(to_half(1.0f) == 0x3C00);
    REQUIRE(to_half(-2.0f) == 0xC000);
    REQUIRE(to_half(65504.0f) == 0x7BFF);     // the largest finite
    REQUIRE(to_half(65520.0f) == 0x7C00);     // rounds to +∞
    REQUIRE(to_half(5.9604645e-8f) == 0x0001);  // the smallest subnormal, 2^-24
    REQUIRE(to_half(1.0f + 1.0f / 2048) == 0x3C00);  // a tie rounds to even
    REQUIRE(to_half(1.0f + 3.0f / 2048) == 0x3C02);
    REQUIRE(from_half(0x3555) == Approx(0.33325195f).epsilon(1e-7));
    REQUIRE(from_half(0x0001) == 5.9604645e-8f);
    for (float x : {0.0f, 0.1f, -3.75f, 1e-3f, 1234.5f}) REQUIRE(from_half(to_half(x)) == Approx(x).epsilon(1e-3));
    const char* check = "123456789";  // the CRC-32 check value of the standard
    REQUIRE(crc32(reinterpret_cast<const std::uint8_t*>(check), 9) == 0xCBF43926u);
}

TEST_CASE("model file: round trip, and every damaged file refused with a clear error", "[text-model]") {
    const text::Tokenizer tok = text::Tokenizer::from_text("hello 안녕", 1);
    const TinyTransformer m = small_text_model(tok);
    const std::vector<std::uint8_t> file = save_text_model(m, tok);
    REQUIRE(std::memcmp(file.data(), "ATTNTXT", 8) == 0);
    const TextModel back = load_text_model(file.data(), file.size());
    REQUIRE(back.tokenizer.symbols() == tok.symbols());
    REQUIRE(back.model.config().layer_norm);
    REQUIRE(back.model.params().size() == m.params().size());
    for (std::size_t k = 0; k < m.params().size(); ++k) {
        const Matrix& a = m.params()[k].value;
        const Matrix& b = back.model.params()[k].value;
        for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(b.data()[i] == from_half(to_half(a.data()[i])));
    }
    // saved again, the same bytes
    REQUIRE(save_text_model(back.model, back.tokenizer) == file);

    // a changed byte anywhere: the checksum (or, in the first 16 bytes, the header) refuses it
    for (std::size_t at : {std::size_t(20), std::size_t(70), file.size() / 2, file.size() - 5, file.size() - 1}) {
        std::vector<std::uint8_t> bad = file;
        bad[at] ^= 0x01;
        CAPTURE(at);
        REQUIRE(message(bad).find("checksum mismatch") != std::string::npos);
    }
    std::vector<std::uint8_t> bad = file;
    bad[0] = 'X';
    REQUIRE(message(bad).find("not a text model file") != std::string::npos);
    bad = file;
    bad[8] = 2;
    REQUIRE(message(bad).find("version 2 is not supported") != std::string::npos);
    bad = std::vector<std::uint8_t>(file.begin(), file.end() - 10);
    REQUIRE(message(bad).find("truncated") != std::string::npos);
    bad = file;
    bad.push_back(0);
    REQUIRE(message(bad).find("after the end") != std::string::npos);
    REQUIRE(message(std::vector<std::uint8_t>(10, 0)).find("too short") != std::string::npos);
    // a model whose vocabulary is not the tokenizer's
    const text::Tokenizer other({U'a', U'b'});
    REQUIRE_THROWS_AS(save_text_model(m, other), ShapeError);
}

namespace {
std::string read_committed(const std::string& name) {
    const std::string path = std::string(ATTN_SOURCE_DIR) + "/models/text-model/" + name;
    std::ifstream f(path, std::ios::binary);
    INFO("reading " << path);
    REQUIRE(f.good());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}
// The number after "key": {"natsPerToken": in results.json.
double recorded(const std::string& json, const std::string& key, const std::string& field) {
    const std::size_t at = json.find("\"" + key + "\"");
    REQUIRE(at != std::string::npos);
    const std::size_t f = json.find("\"" + field + "\": ", at);
    REQUIRE(f != std::string::npos);
    return std::stod(json.substr(f + field.size() + 4));
}
}  // namespace

TEST_CASE("the committed text model reproduces its recorded loss on the committed evaluation slice", "[text-model]") {
    // models/text-model/: model.bin (make train-text-model), results.json (its measurements),
    // eval.txt (held-out paragraphs of the Debian FAQ and of the page). The loss is
    // recomputed through the loader the page uses (wasm/text_model.cpp calls the same).
    const std::string bin = read_committed("model.bin"), json = read_committed("results.json"),
                      eval = read_committed("eval.txt");
    const std::vector<std::uint8_t> bytes(bin.begin(), bin.end());
    REQUIRE(bytes.size() <= 400 * 1024);
    const TextModel m = load_text_model(bytes.data(), bytes.size());
    const TextLoss l = text_loss(m.model, m.tokenizer.encode(eval));
    const double want_nats = recorded(json, "evalSlice", "natsPerToken"), want_bpc = recorded(json, "evalSlice", "bitsPerChar");
    CAPTURE(l.loss(), want_nats, l.bits_per_char(), want_bpc);
    REQUIRE(l.loss() == Approx(want_nats).epsilon(0.01));
    REQUIRE(l.bits_per_char() == Approx(want_bpc).epsilon(0.01));
    REQUIRE(l.chars == std::size_t(recorded(json, "evalSlice", "chars")));
    // well below a uniform guess over the vocabulary (ln V nats per token)
    REQUIRE(l.loss() < 0.7 * std::log(double(m.tokenizer.size())));
    // a changed byte in the committed file is refused
    std::vector<std::uint8_t> bad = bytes;
    bad[bad.size() / 3] ^= 0x40;
    REQUIRE(message(bad).find("checksum mismatch") != std::string::npos);
}

// The text model (docs/text-model.md): a TinyTransformer trained on Korean and English
// prose over the tokens of text.hpp, its windows, its loss in bits per character, and
// its file format.
//
// Windows. The model reads T tokens at a time and always starts with <s>:
//   training window at `start`:  input [<s>, s_start, ..., s_{start+T−2}],
//                                targets [s_start, ..., s_{start+T−1}]   (every position scored)
//   evaluation (text_windows):   the stream cut into chunks of T tokens, chunk c = s_{kT..kT+T−1}
//                                read as the training window at kT, so every token of the text
//                                is predicted exactly once, from the tokens before it in its
//                                chunk; the last chunk is padded with <s> and unscored targets.
//
// Bits per character (the measure docs/training.md records):
//   bpc = Σ_tokens −ln p(token | its window before it) / ln 2 / (characters of the text)
// a Hangul syllable's two or three jamo are predicted one by one and their bits add up to
// the syllable's. (Characters are code points, newlines included.)
//
// File format, version 1 (little-endian; every count a u32):
//   offset  size  field
//   0       8     magic "ATTNTXT\0"
//   8       4     version (1)
//   12      4     file size in bytes, checksum included
//   16      4×10  vocab (ids, specials included), max_len, d_model, heads, d_k, d_v, layers,
//                 mlp_hidden, flags (bit 0 positional encoding, bit 1 1/√d_k scale, bit 2 pre-LayerNorm),
//                 storage (1 = IEEE 754 binary16 for every tensor)
//   56      4     tensors (n)
//   60      4·(vocab − 2)   the symbols of ids 2.., one code point each
//   then n tensors, in the model's parameter order (TinyTransformer::params()):
//           4 name length, the name (UTF-8), 4 rows, 4 cols, rows·cols binary16 values, row-major
//   last    4     CRC-32 (IEEE 802.3, the zlib polynomial, reflected 0xEDB88320) of every byte before it
// Reading checks, in this order, each with its own message: the size is at least a header,
// the magic, the version, the declared size against the bytes given (truncated, or bytes
// after the end), the checksum (any changed byte is refused), the configuration's ranges
// (check_config), then each tensor's name and shape against what the configuration needs.
// Errors are ValueError("model file: ...").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attn/model.hpp"
#include "attn/text.hpp"

namespace attn {

inline constexpr std::uint32_t kTextModelVersion = 1;

// Evaluation windows over a token stream (see above), T ≥ 2.
Batch text_windows(const std::vector<int>& ids, std::size_t T);
// Training windows at the given starts (each start + T ≤ ids.size()), T ≥ 2.
Batch text_window_batch(const std::vector<int>& ids, const std::vector<std::size_t>& starts, std::size_t T);

struct TextLoss {
    double nats = 0;         // Σ −ln p over the predicted tokens
    std::size_t tokens = 0;  // predicted tokens (every token of the text)
    std::size_t chars = 0;   // characters of the text
    double loss() const;           // nats per token (0 for an empty text)
    double bits_per_char() const;  // nats / ln 2 / chars (0 for an empty text)
};

// The loss of `model` on a tokenized text, windows of the model's max_len, evaluated
// `batch` windows at a time (zeroed: heads ablated, as TinyTransformer::evaluate).
TextLoss text_loss(const TinyTransformer& model, const text::Tokens& tokens, const std::vector<bool>& zeroed = {},
                   std::size_t batch = 32);

struct TextModel {
    text::Tokenizer tokenizer;
    TinyTransformer model;
};

// The model file (see above): the weights rounded to binary16.
std::vector<std::uint8_t> save_text_model(const TinyTransformer& model, const text::Tokenizer& tokenizer);
// Reads a model file; the weights are the binary16 values as floats.
TextModel load_text_model(const std::uint8_t* bytes, std::size_t size);

// CRC-32 (IEEE), as zlib's crc32(0, bytes, size).
std::uint32_t crc32(const std::uint8_t* bytes, std::size_t size);
// IEEE 754 binary16, round to nearest even (overflow to ±∞, NaN kept), and back.
std::uint16_t to_half(float x);
float from_half(std::uint16_t h);

}  // namespace attn

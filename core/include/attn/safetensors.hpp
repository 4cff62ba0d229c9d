// Reading Hugging Face safetensors files defensively: the learner's own checkpoint, opened
// tensor by tensor from bytes the caller supplies (a file natively, File slices in the
// browser's worker). No I/O here: the caller reads the bytes a function asks for.
//
// Format (huggingface/safetensors, the reference implementation's `tensor.rs` is the spec):
//   offset 0      8 bytes   N, the header's length, unsigned little-endian
//   offset 8      N bytes   a UTF-8 JSON object, padded with spaces:
//                           {"__metadata__": {"key": "value", ...},          (optional, strings only)
//                            "<name>": {"dtype": "F32", "shape": [d0, d1, ...],
//                                       "data_offsets": [begin, end]}, ...}
//   offset 8 + N  the data area; a tensor's bytes are [8 + N + begin, 8 + N + end), row-major,
//                 little-endian, its elements' count the product of its shape (1 for []).
//
// Checks, each an error naming the file (and the tensor where there is one), in this order:
//   * the file holds at least 8 bytes; it is not a PyTorch zip or pickle file (the magic
//     "PK\3\4" or a pickle protocol opcode: refused with how to get safetensors instead);
//   * 1 ≤ N ≤ kMaxHeaderBytes (100 MB, the reference implementation's limit), 8 + N ≤ the
//     file's size (else: truncated);
//   * the header starts with '{' and is valid JSON (nlohmann::json, its error's byte
//     position quoted), an object, no name twice; __metadata__ an object of strings;
//   * every entry an object with dtype (a string this reader knows, kDTypes), shape (an
//     array of non-negative integers) and data_offsets (two non-negative integers,
//     begin ≤ end); the element count and byte length computed with overflow checks;
//     end − begin = elements × element size; end inside the data area;
//   * sorted by begin, the tensors do not overlap and leave no gap, and the last ends where
//     the file ends (as the reference implementation requires: no byte unaccounted for).
// A tensor of a dtype other than F32, F16 or BF16 is listed (its bytes are checked like any
// other) but cannot be converted: a model that needs it refuses it by name (checkpoint.hpp);
// buffers the models ignore (GPT-2's attn.bias, BERT's position_ids, I64) do not stop a load.
//
// Byte order: the files are little-endian and so are the machines the core runs on (x86-64,
// WebAssembly); a big-endian build fails to compile (static_assert in safetensors.cpp).
//
// Sharded checkpoints: model.safetensors.index.json, {"metadata": {...},
// "weight_map": {"<tensor name>": "<file name>", ...}} (parse_index).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attn/errors.hpp"

namespace attn::safetensors {

// Every error of the checkpoint readers (safetensors.hpp, checkpoint.hpp, pretrained.hpp):
// a ValueError whose message is "<file>: tensor '<tensor>': <detail>" (file or tensor
// left out where there is none), with its parts kept for a page that writes the message in
// its own language: `kind` is one of the stable ids below.
//   "truncated"      the file is shorter than its header says
//   "header"         the header length or its JSON is wrong
//   "entry"          a tensor's entry is malformed (dtype, shape, offsets, sizes)
//   "layout"         tensors overlap, leave a gap or do not reach the end of the file
//   "pickle"         a PyTorch pickle/zip file (pytorch_model.bin): not read, see below
//   "format"         a file this page does not read (TensorFlow, Flax, GGUF, ...)
//   "dtype"          a tensor the model needs has a dtype other than F32, F16, BF16
//   "missing"        a file or a tensor the model needs is not there
//   "shape"          a tensor's shape differs from what config.json implies
//   "config"         config.json is malformed, or contradicts itself
//   "architecture"   config.json names a model type this core does not compute
//   "vocab"          the vocabulary sizes of config, weights or tokenizer disagree
//   "index"          model.safetensors.index.json is malformed or disagrees with the shards
//   "nonfinite"      a weight is NaN or infinite
//   "input"          token ids or positions out of range, a sequence longer than the model's positions
//   "memory"         the weights do not fit in the memory the core can allocate
//   "state"          the loader's steps were called out of order
//
// The numbers of an error, as fields set where it is thrown (a page words them itself and never
// reads them back out of `detail`, whose English may change): `what` names the quantity, with
// `expected` (what config.json or the file says it should be) and `got` (what was found), as
// text (a shape is "[2, 3]"); `line` and `column` (1-based, 0 where there are none) place a
// JSON syntax error. Set today:
//   what          kind            expected                  got
//   "shape"       shape           config.json's shape       the tensor's shape
//   "dtype"       dtype           (empty)                   the tensor's dtype ("I32")
//   "vocab_size"  vocab           config.json's vocab_size  the embedding's rows
//   "d_model"     config          config.json's d_model     the embedding's columns
//   "layers"      config          config.json's layers      the layers in the weights
//   "model_type"  config          config.json's model_type  the weights' ("gpt2", "bert")
//   "model_type"  architecture    (empty)                   config.json's model_type (empty if none)
//   "json"        config, index   (empty)                   (empty); line, column
struct CheckpointValues {
    CheckpointValues() = default;
    CheckpointValues(std::string w, std::string e, std::string g, std::size_t l = 0, std::size_t c = 0)
        : what(std::move(w)), expected(std::move(e)), got(std::move(g)), line(l), column(c) {}
    std::string what, expected, got;
    std::size_t line = 0, column = 0;
};
struct CheckpointError : ValueError {
    CheckpointError(std::string kind, std::string file, std::string tensor, std::string detail,
                    CheckpointValues values = {});
    std::string kind, file, tensor, detail;
    CheckpointValues values;
};

// A JSON parser's error in `text` as fields: what "json", and for a syntax error (nlohmann::json's
// parse_error) its 1-based line and column as nlohmann::json counts them (0 for other errors).
CheckpointValues json_error_values(std::string_view text, const std::exception& e);

// The largest header read: 100 MB (the reference implementation's MAX_HEADER_SIZE).
inline constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8, BOOL, F8_E5M2, F8_E4M3 };
// The dtype's name in the header ("F32", ...), and its element size in bytes.
const char* dtype_name(DType d);
std::size_t dtype_size(DType d);
// True for the dtypes converted to f32: F32, F16, BF16.
bool is_float_dtype(DType d);

struct TensorInfo {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::uint64_t> shape;  // [] for a scalar
    std::uint64_t elements = 0;        // product of shape (1 for [])
    std::uint64_t begin = 0, end = 0;  // absolute byte offsets in the file: [begin, end)
    std::uint64_t bytes() const { return end - begin; }
    std::string shape_text() const;    // "[768, 2304]"
};

struct Header {
    std::string file;                            // the name errors quote
    std::uint64_t file_size = 0;
    std::uint64_t header_bytes = 0;              // N
    std::uint64_t data_begin = 0;                // 8 + N
    std::vector<TensorInfo> tensors;             // in the header's order
    std::map<std::string, std::string> metadata;  // __metadata__
    // The tensor of that name, or null.
    const TensorInfo* find(std::string_view name) const;
};

// Step 1: N from the file's first bytes (at least 8, fewer is "truncated"), checked against
// the file's size; `first` may hold more than 8 bytes (only the first 8 are read, plus up to
// 8 for the pickle/zip check). Throws CheckpointError.
std::uint64_t header_length(const std::uint8_t* first, std::size_t n, std::uint64_t file_size, const std::string& file);
// Step 2: the header from its N JSON bytes (file offset 8 .. 8 + N). Throws CheckpointError.
Header parse_header(const std::uint8_t* json, std::size_t n, std::uint64_t file_size, const std::string& file);

// Where bytes come from: a file natively (tools/pretrained/file_source.hpp: the core does no
// I/O), File slices in a worker.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual std::uint64_t size() const = 0;
    // Reads exactly n bytes at `offset` into dst (offset + n ≤ size() is the caller's promise;
    // a source that cannot throws CheckpointError "truncated").
    virtual void read(std::uint64_t offset, std::uint8_t* dst, std::size_t n) = 0;
};
// Steps 1 and 2 through a source.
Header read_header(ByteSource& source, const std::string& file);

// Bytes in memory (tests, fuzzing). A read past the end throws CheckpointError "truncated"
// naming `file` (load_checkpoint adds the tensor being read).
class MemorySource : public ByteSource {
public:
    MemorySource(const std::uint8_t* data, std::size_t n, std::string file = {})
        : data_(data), n_(n), file_(std::move(file)) {}
    std::uint64_t size() const override { return n_; }
    void read(std::uint64_t offset, std::uint8_t* dst, std::size_t n) override;

private:
    const std::uint8_t* data_;
    std::size_t n_;
    std::string file_;
};

// n elements of a float dtype (F32, F16, BF16; little-endian bytes) widened exactly to f32.
// ValueError for another dtype.
void to_f32(DType d, const std::uint8_t* src, std::size_t n, float* dst);
// IEEE 754 binary16 and bfloat16 to float (exact).
float f16_to_f32(std::uint16_t h);
float bf16_to_f32(std::uint16_t h);

// model.safetensors.index.json of a sharded checkpoint.
struct ShardIndex {
    std::map<std::string, std::string> weight_map;  // tensor name -> shard file name
    std::vector<std::string> files;                 // the shard files, sorted, each once
};
// Throws CheckpointError "index" (file = `file`) for malformed JSON, a weight_map that is not
// an object of strings, a shard name with a path separator, or none at all.
ShardIndex parse_index(std::string_view json, const std::string& file = "model.safetensors.index.json");

// For a file name the page cannot read as weights (pytorch_model.bin and other pickles,
// TensorFlow, Flax, GGUF, ONNX): the CheckpointError to show ("pickle" or "format"), saying
// how to get model.safetensors; for any other name nothing happens.
void check_weights_file_name(const std::string& file);
// The message of a pickle file, by itself (also raised by header_length on the magic bytes).
std::string pickle_advice();

}  // namespace attn::safetensors

// A pretrained GPT-2 or BERT checkpoint in Hugging Face's layout: config.json, the
// architecture's tensors and their loading, tensor by tensor, from safetensors files.
//
// Architectures (the forward passes are in pretrained.hpp):
//   "gpt2"  GPT-2 (Radford et al. 2019, "Language Models are Unsupervised Multitask Learners"):
//           gpt2, gpt2-medium/large/xl, distilgpt2, skt/kogpt2-base-v2.
//   "bert"  BERT (Devlin et al. 2019, "BERT: Pre-training of Deep Bidirectional Transformers
//           for Language Understanding"): bert-base-uncased, bert-base-multilingual-cased,
//           klue/bert-base.
//
// config.json keys read (others are ignored):
//   gpt2: model_type, n_layer, n_head, n_embd, n_positions (or n_ctx), vocab_size,
//         layer_norm_epsilon (1e-5), n_inner (null: 4·n_embd), activation_function
//         ("gelu_new", the default), bos_token_id, eos_token_id; scale_attn_weights must
//         be true and scale_attn_by_inverse_layer_idx false (else refused, "config").
//   bert: model_type, hidden_size, num_hidden_layers, num_attention_heads,
//         intermediate_size, max_position_embeddings, vocab_size, type_vocab_size (2),
//         layer_norm_eps (1e-12), hidden_act ("gelu"), pad_token_id,
//         position_embedding_type ("absolute" only).
//   Activations: "gelu" (erf), "gelu_new" / "gelu_pytorch_tanh" / "gelu_fast" (tanh
//   approximation), "relu"; others refused by name.
// Checks: every size a positive integer, heads divide d_model, sizes within the core's
// limits (kMaxElements per matrix); an unsupported model_type is refused with the ones
// supported ("architecture").
//
// Tensors (Hugging Face's names; shapes with d = d_model, f = d_ff, V = vocab, P = positions):
//   gpt2 (prefix "transformer." optional; Conv1D weights stored [in, out]):
//     wte.weight [V, d]   wpe.weight [P, d]   ln_f.weight [d]   ln_f.bias [d]
//     h.<l>.ln_1.weight/bias [d]   h.<l>.attn.c_attn.weight [d, 3d]   .bias [3d]
//     h.<l>.attn.c_proj.weight [d, d]  .bias [d]   h.<l>.ln_2.weight/bias [d]
//     h.<l>.mlp.c_fc.weight [d, f]  .bias [f]   h.<l>.mlp.c_proj.weight [f, d]  .bias [d]
//     lm_head.weight [V, d] (optional: the LM head is tied to wte when it is absent)
//     ignored: h.<l>.attn.bias, h.<l>.attn.masked_bias (buffers), any other name
//   bert (prefix "bert." optional; nn.Linear weights stored [out, in]; LayerNorm as
//        weight/bias or gamma/beta):
//     embeddings.word_embeddings.weight [V, d]  .position_embeddings.weight [P, d]
//     embeddings.token_type_embeddings.weight [types, d]  embeddings.LayerNorm [d]
//     encoder.layer.<l>.attention.self.{query,key,value}.weight [d, d]  .bias [d]
//     encoder.layer.<l>.attention.output.dense.weight [d, d]  .bias; .attention.output.LayerNorm
//     encoder.layer.<l>.intermediate.dense.weight [f, d]  .bias [f]
//     encoder.layer.<l>.output.dense.weight [d, f]  .bias [d]; .output.LayerNorm
//     masked-LM head, used when all of it is present (never prefixed):
//       cls.predictions.transform.dense.weight [d, d] .bias, cls.predictions.transform.LayerNorm,
//       cls.predictions.bias [V], cls.predictions.decoder.weight [V, d] (optional: tied to
//       the word embeddings when absent; the saved safetensors of bert-base-uncased omits it)
//     ignored: embeddings.position_ids, pooler.*, cls.seq_relationship.*
// A needed tensor that is absent is "missing"; of another shape "shape" (naming both); of a
// dtype other than F32/F16/BF16 "dtype"; the vocabulary size of config.json against the
// embedding's rows is "vocab".
//
// Storage: every weight in f32 (Matrix, 64-byte aligned), whatever the file's dtype: F16 and
// BF16 are widened exactly as they are read. So a model holds 4 bytes per parameter: an F32
// file's size (GPT-2 small: 124 M parameters, 498 MB), twice an F16 file's. The kernels are
// f32 ones; converting F16 weights on every forward would cost the time the 144-head ablation
// needs (docs/real-models.md, "Memory").
//
// Loading without a second copy (Loader): after the headers are parsed and the plan made,
// every needed tensor is allocated once; the caller then fills chunks of at most
// kChunkBytes: for F32 a chunk's destination is the tensor's own storage, for F16/BF16 a
// scratch buffer of kChunkBytes that commit() widens into it. Peak memory: the model's f32
// weights + one chunk + the headers. Natively load_checkpoint() drives the same steps from
// ByteSources; the worker drives them from File slices (reads are the caller's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/safetensors.hpp"

namespace attn::pretrained {

using safetensors::CheckpointError;
using safetensors::CheckpointValues;

enum class Architecture { GPT2, BERT };
enum class Activation { GeluErf, GeluTanh, Relu };

struct Config {
    Architecture arch = Architecture::GPT2;
    std::string model_type;       // "gpt2" or "bert", as config.json says
    std::size_t layers = 0;       // n_layer / num_hidden_layers
    std::size_t heads = 0;        // n_head / num_attention_heads
    std::size_t d_model = 0;      // n_embd / hidden_size
    std::size_t d_ff = 0;         // n_inner (4·d_model) / intermediate_size
    std::size_t positions = 0;    // n_positions / max_position_embeddings
    std::size_t vocab = 0;        // vocab_size
    std::size_t type_vocab = 0;   // BERT's type_vocab_size (0 for GPT-2)
    double layer_norm_eps = 1e-5;  // layer_norm_epsilon / layer_norm_eps
    Activation activation = Activation::GeluTanh;
    std::string activation_name;  // as config.json spells it
    int bos_token_id = -1, eos_token_id = -1, pad_token_id = -1;  // −1: not given
    std::size_t d_k() const { return heads ? d_model / heads : 0; }
    // Parameters the model holds (what the loader allocates, in floats).
    std::uint64_t parameters(bool lm_head_untied = false, bool mlm_head = false) const;
};

// config.json's text to a Config (file: the name errors quote). Throws CheckpointError
// ("config", "architecture").
Config parse_config(std::string_view json, const std::string& file = "config.json");

// The weights of one layer. GPT-2: Conv1D [in, out] as stored (x W + b); BERT: nn.Linear
// [out, in] as stored (x Wᵀ + b). Every bias and LayerNorm parameter is 1 x n.
struct LayerWeights {
    // GPT-2: ln1 before attention, ln2 before the MLP (pre-LN). BERT: ln1 after attention,
    // ln2 after the MLP (post-LN).
    Matrix ln1_g, ln1_b, ln2_g, ln2_b;
    // GPT-2: qkv [d, 3d] (c_attn: columns 0..d−1 Q, d..2d−1 K, 2d..3d−1 V), qkv_b [1, 3d].
    // BERT: q, k, v [d, d] (out, in) with their biases.
    Matrix qkv, qkv_b, q, q_b, k, k_b, v, v_b;
    Matrix proj, proj_b;  // attention output: GPT-2 c_proj [d, d]; BERT attention.output.dense [d, d]
    Matrix fc, fc_b;      // GPT-2 mlp.c_fc [d, f]; BERT intermediate.dense [f, d]
    Matrix out, out_b;    // GPT-2 mlp.c_proj [f, d]; BERT output.dense [d, f]
};

struct Weights {
    Matrix tok_emb;    // [V, d]: wte / word_embeddings
    Matrix pos_emb;    // [P, d]: wpe / position_embeddings
    Matrix type_emb;   // BERT [types, d]
    Matrix emb_ln_g, emb_ln_b;  // BERT embeddings.LayerNorm
    Matrix lnf_g, lnf_b;        // GPT-2 ln_f
    Matrix lm_head;             // GPT-2 lm_head.weight when stored (else empty: tied to tok_emb)
    // BERT masked-LM head (has_mlm_head): transform dense [d, d] (out, in), its LayerNorm, the
    // decoder [V, d] when stored (else tied to tok_emb), the output bias [1, V].
    bool has_mlm_head = false;
    Matrix mlm_dense, mlm_dense_b, mlm_ln_g, mlm_ln_b, mlm_decoder, mlm_bias;
    std::vector<LayerWeights> layers;
};

struct Model {
    Config config;
    Weights weights;
    // The prefix the tensors had ("transformer.", "bert." or ""), for messages.
    std::string prefix;
    // Tensors of the files the model does not use (names), for a page that lists them.
    std::vector<std::string> ignored;
    // Bytes of f32 weights held.
    std::uint64_t weight_bytes() const;
};

// The largest piece of a tensor filled at once (and the scratch buffer of F16/BF16).
inline constexpr std::uint64_t kChunkBytes = std::uint64_t{16} << 20;

// The loading steps (see the header comment):
//   Loader L(config);                       // config.json parsed
//   L.set_index(json)                        // only for a sharded checkpoint
//   for each file: n = header_length(first 8 bytes); L.add_file(name, size, header bytes)
//   L.plan();                                // checks names, shapes, dtypes; allocates
//   for i < L.chunks(): read L.chunk(i) into L.destination(i), then L.commit(i)
//   Model m = L.finish();                    // every chunk committed
// Errors are CheckpointError; after one the Loader is spent (make another).
class Loader {
public:
    explicit Loader(Config config);
    ~Loader();
    Loader(Loader&&) noexcept;
    Loader& operator=(Loader&&) noexcept;

    void set_index(std::string_view json, const std::string& file = "model.safetensors.index.json");
    // The header of one safetensors file (its N JSON bytes after the 8-byte length).
    void add_file(const std::string& name, std::uint64_t file_size, const std::uint8_t* header_json, std::size_t n);
    void plan();

    struct Chunk {
        std::size_t file = 0;       // index in the order add_file was called
        std::string file_name;
        std::string tensor;         // the tensor's name in the file
        std::uint64_t offset = 0;   // absolute byte offset in the file
        std::uint64_t bytes = 0;    // how many bytes to read
    };
    std::size_t chunks() const;
    const Chunk& chunk(std::size_t i) const;
    // Where chunk i's bytes go (chunk(i).bytes writable bytes); valid until the next call.
    std::uint8_t* destination(std::size_t i);
    // Chunk i's bytes are in place: widen them (F16/BF16) and check they are finite.
    void commit(std::size_t i);
    std::uint64_t bytes_total() const;
    std::uint64_t bytes_done() const;
    std::size_t tensors_total() const;
    std::size_t tensors_done() const;
    Model finish();

private:
    struct State;
    std::unique_ptr<State> s_;
};

// Every step above from byte sources, one per file (names as the folder has them; the index's
// JSON when sharded). open(name) returns the source of a file, or null when it is missing.
// progress (optional) is called after every chunk with (bytes done, bytes total).
Model load_checkpoint(const Config& config, const std::vector<std::string>& files,
                      const std::function<safetensors::ByteSource*(const std::string&)>& open,
                      std::string_view index_json = {},
                      const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace attn::pretrained

// libFuzzer target: the input is a whole safetensors file. The reader must parse it or throw
// CheckpointError (never another exception, never a read outside the bytes: ASan); a header
// that parses lies inside the file; and a file that passes is then loaded as a one-layer GPT-2
// with d_model 2 (safetensors.hpp, checkpoint.hpp), which again loads or throws CheckpointError.
#include "fuzz_common.hpp"

#include "attn/checkpoint.hpp"
#include "attn/pretrained.hpp"
#include "attn/safetensors.hpp"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    safetensors::MemorySource src(data, size);
    safetensors::Header h;
    try {
        h = safetensors::read_header(src, "fuzz.safetensors");
    } catch (const safetensors::CheckpointError&) {
        return 0;
    }
    for (const auto& t : h.tensors) ATTN_CHECK(t.begin >= h.data_begin && t.begin <= t.end && t.end <= size);
    pretrained::Config c;
    c.model_type = "gpt2";
    c.layers = 1;
    c.heads = 1;
    c.d_model = 2;
    c.d_ff = 2;
    c.positions = 2;
    c.vocab = 2;
    try {
        const auto m = pretrained::load_checkpoint(c, {"fuzz.safetensors"}, [&](const std::string&) { return &src; });
        const auto r = pretrained::forward(m, {0, 1});
        ATTN_CHECK(r.hidden.rows() == 2);
    } catch (const safetensors::CheckpointError&) {
    }
    return 0;
}

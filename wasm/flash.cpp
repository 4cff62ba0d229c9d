// Bindings of core/include/attn/flash.hpp: the tiled kernel and its tile limit.
#include <optional>

#include "bind.hpp"

namespace {

// FlashOptions and the matrix its mask view will point into.
struct FlashArgs {
    attn::FlashOptions options;
    std::optional<attn::Matrix> mask;
};

// {causal, scale, mask, tile}, each optional.
void read_js(const emscripten::val& o, FlashArgs& a) {
    attn::wasm::read_fields(o, "causal", a.options.causal, "scale", a.options.scale, "tile", a.options.tile, "mask",
                            a.mask);
}

attn::Matrix flash_attention(const attn::Matrix& Q, const attn::Matrix& K, const attn::Matrix& V,
                             const FlashArgs& a) {
    attn::FlashOptions o = a.options;
    if (a.mask) o.mask = a.mask->view();
    return attn::flash_attention(Q, K, V, o);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attn_flash) {
    using namespace attn::wasm;
    emscripten::constant("MAX_TILE", double(attn::kMaxTile));
    bind<&flash_attention>("flashAttention");
}

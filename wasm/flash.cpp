// Bindings of core/include/attn/flash.hpp: the tiled kernel and its tile limit.
#include <optional>

#include "bind.hpp"

namespace {

// FlashOptions and the matrix its mask view will point into.
struct FlashArgs {
    attn::FlashOptions options;
    std::optional<attn::ConstMatrixView> mask;  // in the argument buffer, valid for the call
};

// {causal, scale, mask, tile}, each optional.
void read_js(attn::wasm::Record& o, FlashArgs& a) {
    attn::wasm::read_fields(o, "causal", a.options.causal, "scale", a.options.scale, "tile", a.options.tile, "mask",
                            a.mask);
}

attn::Matrix flash_attention(attn::ConstMatrixView Q, attn::ConstMatrixView K, attn::ConstMatrixView V,
                             const FlashArgs& a) {
    attn::FlashOptions o = a.options;
    o.mask = a.mask;
    return attn::flash_attention(Q, K, V, o);
}

}  // namespace

ATTN_BINDINGS(attn_flash) {
    using namespace attn::wasm;
    constant("MAX_TILE", double(attn::kMaxTile));
    bind<&flash_attention>("flashAttention");
}

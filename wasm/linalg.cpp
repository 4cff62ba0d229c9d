// Bindings of core/include/attn/linalg.hpp (see bind.hpp for how a line binds a function).
#include "bind.hpp"

ATTN_BINDINGS(attn_linalg) {
    using namespace attn::wasm;
    bind<&attn::simd_name>("simd");
    bind<&attn::matmul>("matmul");
    bind<&attn::matmul_bt>("matmulBt");
    bind<&attn::transpose>("transpose");
}

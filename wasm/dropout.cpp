// Bindings of core/include/attn/dropout.hpp.
#include "bind.hpp"

ATTN_BINDINGS(attn_dropout) {
    using namespace attn::wasm;
    bind<&attn::dropout>("dropout");  // (P, rate, seed)
}

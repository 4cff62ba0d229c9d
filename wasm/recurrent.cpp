// Bindings of core/include/attn/recurrent.hpp: the recurrent state.
#include "bind.hpp"

ATTN_BINDINGS(attn_recurrent) {
    using namespace attn::wasm;
    bind<&attn::recurrent_scan>("recurrentScan");
}

// Bindings of core/include/attn/grad.hpp used by the page: the softmax Jacobian.
#include "bind.hpp"

EMSCRIPTEN_BINDINGS(attn_grad) {
    using namespace attn::wasm;
    bind<&attn::softmax_jacobian>("softmaxJacobian");
}

// Bindings of core/include/attn/grad.hpp used by the page: the softmax Jacobian.
#include "bind.hpp"

ATTN_BINDINGS(attn_grad) {
    using namespace attn::wasm;
    bind<&attn::softmax_jacobian>("softmaxJacobian");
}

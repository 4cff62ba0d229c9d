// Bindings of core/include/attn/grad.hpp used by the page: the softmax Jacobian and its
// diagonal.
#include "bind.hpp"

ATTN_BINDINGS(attn_grad) {
    using namespace attn::wasm;
    bind<&attn::softmax_jacobian>("softmaxJacobian");
    bind<&attn::softmax_jacobian_diag>("softmaxJacobianDiag");
}

// Bindings of core/include/attn/positional.hpp (base 10000, as in Vaswani et al. 2017).
#include "bind.hpp"

namespace {
attn::Matrix positional_encoding(std::size_t T, std::size_t d) { return attn::sinusoidal_encoding(T, d); }
attn::Matrix sinusoid_angles(std::size_t T, std::size_t d) { return attn::sinusoid_angles(T, d); }
}  // namespace

ATTN_BINDINGS(attn_positional) {
    using namespace attn::wasm;
    bind<&positional_encoding>("positionalEncoding");
    bind<&sinusoid_angles>("sinusoidAngles");
}

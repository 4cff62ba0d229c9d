#include "attn/simd.hpp"

#include <xsimd/xsimd.hpp>

namespace attn {

std::string simd_name() {
#if defined(__wasm_simd128__)
    return "wasm-simd128";
#else
    return xsimd::default_arch::name();
#endif
}

}  // namespace attn

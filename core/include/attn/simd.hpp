// Which instruction set the core's kernels were compiled for.
#pragma once

#include <string>

namespace attn {

// e.g. "avx2+fma" natively, "wasm-simd128" under Emscripten (xsimd's SSE4.2 backend
// lowered to WebAssembly SIMD128 by -msimd128 -msse4.2).
std::string simd_name();

}  // namespace attn

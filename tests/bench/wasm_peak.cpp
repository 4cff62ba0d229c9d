// The WebAssembly SIMD128 arithmetic peak of this machine, for the wasm benchmark:
// 12 independent chains of f32x4 multiply + add (SIMD128 has no fused multiply-add;
// xsimd's SSE4.2 backend under -msimd128 -msse4.2, as the core is built), 8 FLOPs per
// chain step. The factors come from JS so the compiler cannot fold the loop away.
#include <emscripten/emscripten.h>

#include <xsimd/xsimd.hpp>

namespace {
using batch = xsimd::batch<float>;
constexpr int kChains = 12;

// kChains independent chains acc = step(acc, a, b), `steps` times, summed at the end.
template <class Step>
float chains(int steps, float a, float b, Step step) {
    batch acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = batch(a + 0.001f * float(c));
    const batch va(a), vb(b);
    for (int s = 0; s < steps; ++s)
        for (int c = 0; c < kChains; ++c) acc[c] = step(acc[c], va, vb);
    batch t(0.0f);
    for (int c = 0; c < kChains; ++c) t += acc[c];
    return xsimd::hadd(t);
}
}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE float peak_steps(int steps, float a, float b) {
    return chains(steps, a, b, [](batch x, batch va, batch vb) { return x * va + vb; });
}

extern "C" EMSCRIPTEN_KEEPALIVE int peak_flops_per_step() { return kChains * 2 * int(batch::size); }

// The same chains with relaxed SIMD's multiply-add (f32x4.relaxed_madd, one instruction,
// fused where the CPU has FMA) when built with -mrelaxed-simd: the peak of the
// relaxed-SIMD core (attn-core-relaxed). Clang 14 emits the pre-standard opcode, which
// tools/wasm-relaxed-madd.mjs rewrites after linking (the Makefile's bench target).
#if defined(__wasm_relaxed_simd__)
extern "C" EMSCRIPTEN_KEEPALIVE float peak_madd_steps(int steps, float a, float b) {
    return chains(steps, a, b, [](batch x, batch va, batch vb) { return batch(__builtin_wasm_fma_f32x4(x, va, vb)); });
}
#endif

// The WebAssembly SIMD128 arithmetic peak of this machine, for the wasm benchmark:
// 12 independent chains of f32x4 multiply + add (SIMD128 has no fused multiply-add;
// xsimd's SSE4.2 backend under -msimd128 -msse4.2, as the core is built), 8 FLOPs per
// chain step. The factors come from JS so the compiler cannot fold the loop away.
#include <emscripten/emscripten.h>

#include <xsimd/xsimd.hpp>

extern "C" EMSCRIPTEN_KEEPALIVE float peak_steps(int steps, float a, float b) {
    using batch = xsimd::batch<float>;
    constexpr int kChains = 12;
    batch acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = batch(a + 0.001f * float(c));
    const batch va(a), vb(b);
    for (int s = 0; s < steps; ++s)
        for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * va + vb;
    batch t(0.0f);
    for (int c = 0; c < kChains; ++c) t += acc[c];
    return xsimd::hadd(t);
}

extern "C" EMSCRIPTEN_KEEPALIVE int peak_flops_per_step() { return 12 * 2 * int(xsimd::batch<float>::size); }

// The same chains with relaxed SIMD's multiply-add (f32x4.relaxed_madd, one instruction,
// fused where the CPU has FMA) when built with -mrelaxed-simd: the peak of the
// relaxed-SIMD core (attn-core-relaxed). Clang 14 emits the pre-standard opcode, which
// tools/wasm-relaxed-madd.mjs rewrites after linking (the Makefile's bench target).
#if defined(__wasm_relaxed_simd__)
extern "C" EMSCRIPTEN_KEEPALIVE float peak_madd_steps(int steps, float a, float b) {
    using batch = xsimd::batch<float>;
    constexpr int kChains = 12;
    batch acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = batch(a + 0.001f * float(c));
    const batch va(a), vb(b);
    for (int s = 0; s < steps; ++s)
        for (int c = 0; c < kChains; ++c) acc[c] = batch(__builtin_wasm_fma_f32x4(acc[c], va, vb));
    batch t(0.0f);
    for (int c = 0; c < kChains; ++c) t += acc[c];
    return xsimd::hadd(t);
}
#endif

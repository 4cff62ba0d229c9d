// The engine probes: which builds of the core this engine can run (attn.mjs picks one).

// A tiny module using one SIMD128 instruction (v128 result, i8x16.splat, i8x16.popcnt):
// engines without WebAssembly SIMD reject it.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
  65, 0, 253, 15, 253, 98, 11]);

/** True when this engine runs WebAssembly SIMD128. */
export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// A tiny module using one relaxed-SIMD instruction (three i32x4.splat, f32x4.relaxed_madd,
// standard opcode 0xFD 0x85 0x02): engines without relaxed SIMD reject it.
const RELAXED_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 19, 1, 17, 0,
  65, 0, 253, 17, 65, 0, 253, 17, 65, 0, 253, 17, 253, 133, 2, 11]);

/** True when this engine runs WebAssembly relaxed SIMD (Chromium; Node 20 behind --experimental-wasm-relaxed-simd). */
export function relaxedSimdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(RELAXED_PROBE);
  } catch {
    return false;
  }
}

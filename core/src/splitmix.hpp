// SplitMix64 finaliser (Steele, Lea, Flood 2014, "Fast splittable pseudorandom number
// generators"): a strong 64-bit mix of a counter. The counter-based randomness of the
// core (dropout masks, random matrices) is built on it, so a seed names the same numbers
// natively and in WebAssembly, whatever the order of evaluation.
#pragma once

#include <cstdint>

namespace attn::detail {

inline std::uint64_t splitmix64(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace attn::detail

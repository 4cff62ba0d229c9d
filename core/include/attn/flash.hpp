// Tiled attention with an online softmax (FlashAttention: Dao, Fu, Ermon, Rudra, Ré
// 2022, "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
// Algorithm 1; the online softmax is Milakov & Gimelshein 2018, "Online normalizer
// calculation for softmax").
//
//   flash_attention(Q, K, V, options) -> O = softmax(Q Kᵀ · scale + M) V
//
// Shapes: Q: T_q x d_k, K: T_k x d_k, V: T_k x d_v, mask M: T_q x T_k  ->  O: T_q x d_v.
//
// The result equals attention(Q, K, V, ...).output (up to float rounding: a different
// summation order), but the T_q x T_k matrix is never allocated. Queries are processed
// in blocks of `tile` rows and keys in tiles of `tile` columns (by default
// kDefaultRows x kDefaultKeys); for each query row the
// kernel keeps only a running maximum m, a running sum l and an unnormalised output
// row, and rescales them when a later tile raises the maximum. Memory: O(T·d) — the
// inputs, the output, packed copies of K and V, and one block of scores (rows x keys).
//
// With `causal` (key j visible to query i when j <= i, top-left aligned as in
// attention.hpp), tiles that lie entirely above the diagonal are skipped, not computed
// and masked: about half of the work for T_q = T_k. With a custom mask, tiles whose
// mask entries are all −∞ are skipped too.
//
// Numerics: attention.hpp's, through the same kernels (core/src/kernels/mask.hpp applies
// the masks a tile at a time, OnlineSoftmax in kernels/softmax.hpp keeps m and l):
// * a row whose every key is masked gets a zero output row, never NaN;
// * a key masked with −∞ (causal or custom) gets weight exactly 0 whatever its score:
//   the mask replaces the score, so a NaN or ∞ in a masked key cannot reach the output;
// * a zero weight takes nothing from V (a NaN or ∞ in a masked token's Value does not
//   leak), as in weighted_sum;
// * a NaN or +∞ in a score the row sees (e.g. a NaN in row i of Q) makes output row i NaN,
//   even when it comes in a tile before any visible key (l = NaN carries it).
//
// Errors: as attention(): ShapeError naming both shapes for mismatched operands or
// mask; ValueError for an empty sequence, d_k = 0, a non-finite scale, or a tile
// outside [1, kMaxTile].
#pragma once

#include <cstddef>
#include <optional>

#include "attn/matrix.hpp"

namespace attn {

// Default blocking (FlashOptions::tile = 0): kDefaultRows query rows per block and
// kDefaultKeys keys per tile, measured for d_h = 64 (docs/benchmarks.md, "Issue 16,
// kernels"). Natively 96 x 1024 (a multiple of the 6-row register block; 384 KiB of scores,
// in L2): the online softmax's fixed cost per row and tile (maximum and sum reductions,
// the rescale factor, the output row's rescale) is spread over 1024 keys: 96 x 512 was
// 5-15% faster than 128 x 128 with AVX-512 (3-4% with AVX2), and 96 x 1024 another 2-5%
// at n >= 1024 once the maximum came from the product (fourth pass). In WebAssembly with
// SIMD 128 x 512 (256 KiB): 1.5-3.5% faster than 128 x 128 from n = 512 up (64 x 512,
// 96 x 512, 192 x 512 and 128 x 1024 alike; fifth pass); the scalar builds 128 x 128.
// Fixed per build, not calibrated at start-up.
#if defined(__wasm_simd128__)
inline constexpr std::size_t kDefaultRows = 128;
inline constexpr std::size_t kDefaultKeys = 512;
#elif defined(__wasm__) || defined(ATTN_SCALAR)
inline constexpr std::size_t kDefaultRows = 128;
inline constexpr std::size_t kDefaultKeys = 128;
#else
inline constexpr std::size_t kDefaultRows = 96;
inline constexpr std::size_t kDefaultKeys = 1024;
#endif
inline constexpr std::size_t kMaxTile = 1024;

struct FlashOptions {
    bool causal = false;
    // Multiplies the scores; defaults to 1/√d_k with d_k = Q.cols().
    std::optional<float> scale;
    // Additive T_q x T_k mask (0 keeps, −∞ hides); must outlive the call.
    std::optional<ConstMatrixView> mask;
    // Query rows per block and keys per tile; 0 means kDefaultRows rows and kDefaultKeys
    // keys. Keys are rounded up internally to a multiple of the SIMD register block.
    std::size_t tile = 0;
};

// O = softmax(scale · Q Kᵀ + M) V by tiles, O(T·d) memory (forward.hpp lists the variants).
Matrix flash_attention(ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const FlashOptions& options = {});

}  // namespace attn

// Seeded random matrices, identical natively and in WebAssembly.
//
//   random_uniform(rows, cols, seed, lo, hi)     entries uniform in [lo, hi): after rounding
//                                                to float too (a draw that would round to hi
//                                                is the largest float below it); lo = hi gives lo
//   random_normal(rows, cols, seed, mean, std)   entries N(mean, std²) (Box–Muller), always
//                                                finite (held at ±FLT_MAX past the float range)
//   random_normal_rows(first, rows, cols, seed, mean, std)   rows first .. first + rows − 1
//                                                of that matrix (a long draw in pieces)
//
// Entry (i, j) depends only on (seed, i·cols + j) through a counter-based hash
// (SplitMix64), so a seed names one matrix whatever the platform or call order, and a
// larger matrix with the same seed and column count extends a smaller one row-wise.
//
// Errors: ValueError when lo > hi, std < 0 or a bound is not finite; SizeError past
// kMaxElements.
#pragma once

#include <cstdint>

#include "attn/matrix.hpp"

namespace attn {

// rows x cols, entries uniform in [lo, hi) as floats (lo everywhere when lo = hi).
Matrix random_uniform(std::size_t rows, std::size_t cols, std::uint64_t seed, float lo = 0.0f, float hi = 1.0f);
// rows x cols, entries N(mean, stddev²), finite.
Matrix random_normal(std::size_t rows, std::size_t cols, std::uint64_t seed, float mean = 0.0f, float stddev = 1.0f);
// rows x cols: rows first .. first + rows − 1 of random_normal(first + rows, cols, seed,
// mean, stddev), bit for bit, without drawing the rows before them.
Matrix random_normal_rows(std::size_t first, std::size_t rows, std::size_t cols, std::uint64_t seed,
                          float mean = 0.0f, float stddev = 1.0f);

// The underlying stream: a uniform double in [0, 1) for counter n under seed.
double uniform01(std::uint64_t seed, std::uint64_t n);

}  // namespace attn

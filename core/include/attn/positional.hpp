// Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5):
//
//   PE(pos, 2i)   = sin(pos / base^(2i / d))
//   PE(pos, 2i+1) = cos(pos / base^(2i / d)),   base = 10000
//
//   sinusoidal_encoding(T, d) -> T x d, row pos = position pos (0-based).
//   sinusoid_angles(T, d)     -> T x d, the argument pos / base^(2i / d) of column 2i and
//                                2i + 1, so a page can show sin and cos of a number the core
//                                computed.
// Odd d is allowed: the last column is a sine. Computed in double, stored as float.
//
// Errors: ValueError when d = 0 or base is not positive and finite; SizeError past
// kMaxElements.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

// PE(pos, c) for pos < T, c < d.
Matrix sinusoidal_encoding(std::size_t T, std::size_t d, double base = 10000.0);
// The angle pos / base^(2i / d) that column c = 2i or 2i + 1 of sinusoidal_encoding takes the sine or cosine of.
Matrix sinusoid_angles(std::size_t T, std::size_t d, double base = 10000.0);

}  // namespace attn

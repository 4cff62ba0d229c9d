// Sinusoidal positional encoding (Vaswani et al. 2017, section 3.5):
//
//   PE(pos, 2i)   = sin(pos / base^(2i / d))
//   PE(pos, 2i+1) = cos(pos / base^(2i / d)),   base = 10000
//
//   sinusoidal_encoding(T, d) -> T x d, row pos = position pos (0-based).
// Odd d is allowed: the last column is a sine. Computed in double, stored as float.
//
// Errors: ValueError when d = 0 or base <= 0; SizeError past kMaxElements.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

Matrix sinusoidal_encoding(std::size_t T, std::size_t d, double base = 10000.0);

}  // namespace attn

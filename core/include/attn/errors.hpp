// Error types thrown by every public function of the attention core.
//
//   attn::ShapeError  operand shapes do not fit together; the message names both shapes.
//   attn::ValueError  an option or scalar is out of its documented range
//                     (e.g. a dropout rate outside [0, 1), heads not dividing d_model).
//   attn::SizeError   an allocation would exceed attn::kMaxElements floats per matrix.
//
// ShapeError and ValueError derive from std::invalid_argument, SizeError from
// std::length_error, so callers that only know the standard library still catch them.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace attn {

struct ShapeError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

struct ValueError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

struct SizeError : std::length_error {
    using std::length_error::length_error;
};

// "3x4": how every error message writes a shape.
inline std::string shape_str(std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
}

}  // namespace attn

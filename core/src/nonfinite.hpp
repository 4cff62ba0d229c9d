// Internal: filling a NonFiniteReport (attention.hpp, "Numerics"). One pass over each
// matrix; the common case (everything finite) is a branch-free test of each entry's bits.
#pragma once

#include <cstdint>
#include <cstring>

#include "attn/attention.hpp"

namespace attn::detail {

// 1 when x is NaN or ±∞ (but not −∞ when minus_inf_is_mask), else 0: the exponent bits all
// set, read from the bits so that a scan has no branch per entry.
inline std::uint32_t nonfinite_bit(float x, bool minus_inf_is_mask) {
    std::uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    const std::uint32_t nf = (b & 0x7f800000u) == 0x7f800000u;
    return nf & std::uint32_t(!(minus_inf_is_mask && b == 0xff800000u));
}

// Whether `m` holds an entry nonfinite_bit counts.
bool any_nonfinite(ConstMatrixView m, bool minus_inf_is_mask = false);

// Lists the entries of `m` that are NaN or ±∞ (or only NaN and +∞ when minus_inf_is_mask,
// as for a mask, where −∞ hides a key) under the name `input`. Returns whether there were any.
bool report_input(NonFiniteReport& r, const char* input, ConstMatrixView m, bool minus_inf_is_mask = false);

// Appends `stage` to r.stages when `m` holds a NaN or ±∞ (−∞ ignored when minus_inf_is_mask).
void report_stage(NonFiniteReport& r, const char* stage, ConstMatrixView m, bool minus_inf_is_mask = false);

}  // namespace attn::detail

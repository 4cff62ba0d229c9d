// Internal: filling a NonFiniteReport (attention.hpp, "Numerics"). One pass over each
// matrix; the common case (everything finite) costs one comparison per entry.
#pragma once

#include "attn/attention.hpp"

namespace attn::detail {

// Lists the entries of `m` that are NaN or ±∞ (or only NaN and +∞ when minus_inf_is_mask,
// as for a mask, where −∞ hides a key) under the name `input`.
void report_input(NonFiniteReport& r, const char* input, ConstMatrixView m, bool minus_inf_is_mask = false);

// Appends `stage` to r.stages when `m` holds a NaN or ±∞ (−∞ ignored when minus_inf_is_mask).
void report_stage(NonFiniteReport& r, const char* stage, ConstMatrixView m, bool minus_inf_is_mask = false);

}  // namespace attn::detail

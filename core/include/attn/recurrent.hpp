// A recurrent state: the simplest linear recurrence, the baseline attention is measured
// against (what a model that carries one state vector through the sequence keeps of a
// distant token).
//
//   recurrent_scan(X, r)   X: T x d  ->  T x d,   row t = h_t with
//       h_t = r · h_{t−1} + (1 − r) · x_t,   h_{−1} = 0,   0 <= r < 1
//
// One state vector is rewritten at every token (an exponential moving average, with no
// learned weights). Unrolled,
//   h_t = Σ_{s <= t} (1 − r) · r^(t − s) · x_s,
// so token s's share of h_t shrinks geometrically with the distance t − s: the
// "dilution" the source documents (seeds 001 and 004) describe for recurrent networks.
// Each h_t needs h_{t−1}: computing row t takes t + 1 dependent steps, and the scan
// below is one loop over t that cannot be parallelised over time.
//
// Errors: ValueError unless r is finite and 0 <= r < 1.
#pragma once

#include "attn/matrix.hpp"

namespace attn {

// Row t = h_t, T x d.
Matrix recurrent_scan(ConstMatrixView X, float retention);

}  // namespace attn

// Attention dropout: seeded, inverted dropout on the weight matrix P.
//
//   dropout(P, rate, seed)   P: r x c  ->  r x c
//   each entry is kept with probability 1 - rate and then multiplied by 1 / (1 - rate)
//   ("inverted" dropout, Srivastava et al. 2014), so the expected value of every
//   entry is unchanged; dropped entries are exactly 0.
//
// The keep/drop decision for entry (i, j) depends only on (seed, i, j) through a
// counter-based hash (SplitMix64), so the same seed gives the same mask natively,
// in WebAssembly and whatever the evaluation order.
//
// Errors: ValueError unless 0 <= rate < 1.
#pragma once

#include <cstdint>

#include "attn/matrix.hpp"

namespace attn {

struct DropoutOptions {
    float rate = 0.0f;       // probability of dropping an entry, in [0, 1)
    std::uint64_t seed = 0;  // same seed, same mask
    bool training = false;   // dropout applies only in training mode; evaluation is the identity
};

// True when entry (i, j) survives for this seed and rate.
bool dropout_keep(std::uint64_t seed, std::size_t i, std::size_t j, float rate);

// Each entry kept (and scaled by 1 / (1 − rate)) when dropout_keep says so, else exactly 0.
Matrix dropout(ConstMatrixView P, float rate, std::uint64_t seed);

// Throws ValueError unless 0 <= rate < 1 (and rate is finite).
void check_dropout_rate(float rate);

}  // namespace attn

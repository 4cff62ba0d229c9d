// Worked examples of the self-attention article (seeds/001) and the attention lecture
// (seeds/004) as data, so the page, the Catch2 tests, the node tests and the browser
// tests start from the same inputs. Entries the documents do not state were chosen by
// this project (small, illustrative, not from a trained model).
#pragma once

#include "attn/matrix.hpp"

namespace attn::examples {

// seeds/001, "the weighted sum": 「나는 사과를 먹었다」, Values [1,0], [0,1], [1,1] and the
// weights of 「먹었다」 [0.2, 0.5, 0.3]; their weighted sum is [0.5, 0.8].
struct WeightedSum {
    Matrix V;        // 3 x 2, one Value per token
    Matrix weights;  // 1 x 3
};
WeightedSum weighted_sum();

// seeds/004, "why positional encoding": one token set in two orders. The words are
// dog, man, bites (개, 사람, 물었다): row 0 dog, row 1 man, row 2 bites. Their
// embeddings (3 x 4) and the projections W_Q, W_K, W_V (4 x 4) are this project's
// choice; W_V is the identity so the outputs are visibly mixtures of the inputs.
struct Permutation {
    Matrix embeddings;  // 3 x 4
    Matrix Wq, Wk, Wv;  // 4 x 4
};
Permutation permutation();

}  // namespace attn::examples

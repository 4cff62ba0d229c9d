// The worked examples of the source documents, as data, so the page, the Catch2
// tests, the node tests and the browser tests all start from the same inputs.
//
// Each example is illustrative (the documents' figures are not from a trained model);
// entries the documents do not state were chosen by this project, as small integers,
// so that every number the documents do state is reproduced by the core.
#pragma once

#include <string>
#include <vector>

#include "attn/matrix.hpp"

namespace attn::examples {

// "Core Attention" (seeds/000): T = 3 tokens, d = 8, h = 2 heads of d_h = 4.
// Q, K, V are 3 x 8; columns 0..3 belong to head 1, columns 4..7 to head 2.
// Head 1 reproduces the document: token 3's query [−1, 1, 1, 2], token 1's key
// [1, −1, 2, 1], S row 3 = [2, 0, 6], scaled row 2 = [3, 1.5, −1], and
// V = [I₃ | 1] so that O row 3 ≈ [0.114, 0.042, 0.844, 1] under the causal mask.
struct CoreAttention {
    std::size_t tokens = 3, d_model = 8, heads = 2;
    Matrix Q, K, V;
};
CoreAttention core_attention();

}  // namespace attn::examples

#include "attn/lecture_examples.hpp"

namespace attn::examples {

WeightedSum weighted_sum() {
    WeightedSum ex;
    ex.V = Matrix{{1, 0}, {0, 1}, {1, 1}};  // 나는, 사과를, 먹었다
    ex.weights = Matrix{{0.2f, 0.5f, 0.3f}};
    return ex;
}

Permutation permutation() {
    Permutation ex;
    ex.embeddings = Matrix{{1.0f, 0.5f, 0.0f, -0.5f},   // dog / 개
                           {0.5f, 1.0f, -0.5f, 0.0f},   // man / 사람
                           {0.0f, -0.5f, 1.0f, 0.5f}};  // bites / 물었다
    ex.Wq = Matrix{{1, 0, 1, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 0, 1}};
    ex.Wk = Matrix{{1, 0, 0, 0}, {0, 0, 1, 0}, {0, 1, 0, 0}, {0, 0, 0, 1}};
    ex.Wv = Matrix{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    return ex;
}

}  // namespace attn::examples

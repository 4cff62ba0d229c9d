// Every worked example of the page (examples.hpp). All values are ours and illustrative
// except those the documents state.
#include "attn/examples.hpp"

namespace attn::examples {

CoreAttention core_attention() {
    CoreAttention ex;
    //           head 1 (d_h = 4)  | head 2 (d_h = 4)
    ex.Q = Matrix{{1, 0, 1, 0, /**/ 0, 1, 1, 0},
                  {3, 0, 2, -1, /**/ 1, 0, 0, 1},
                  {-1, 1, 1, 2, /**/ 1, 1, 0, -1}};
    ex.K = Matrix{{1, -1, 2, 1, /**/ 1, 0, 1, 0},
                  {1, 1, 0, 0, /**/ 0, 2, 0, 1},
                  {0, 2, 0, 2, /**/ 1, 1, -1, 0}};
    ex.V = Matrix{{1, 0, 0, 1, /**/ 2, 0, 1, 0},
                  {0, 1, 0, 1, /**/ 0, 1, 1, 0},
                  {0, 0, 1, 1, /**/ 1, 1, 0, 2}};
    return ex;
}

// ---- heads, masking and dropout ----

namespace {
Matrix identity(std::size_t n) {
    Matrix I(n, n, 0.0f);
    for (std::size_t i = 0; i < n; ++i) I(i, i) = 1.0f;
    return I;
}
Matrix six_inputs() {
    return Matrix{{0.4f, 0.1f, 0.8f},
                  {0.5f, 0.9f, 0.6f},
                  {0.6f, 0.8f, 0.5f},
                  {0.2f, 0.6f, 0.3f},
                  {0.8f, 0.2f, 0.1f},
                  {0.1f, 0.7f, 0.6f}};
}
}  // namespace

NoWeights no_weights() { return {six_inputs()}; }

Projections projections() {
    Projections p;
    p.X = six_inputs();
    p.Wq = Matrix{{0.3f, 0.7f}, {0.9f, 0.2f}, {0.4f, 0.8f}};
    p.Wk = Matrix{{0.6f, 0.1f}, {0.2f, 0.9f}, {0.8f, 0.5f}};
    p.Wv = Matrix{{0.5f, 0.3f}, {0.1f, 0.8f}, {0.7f, 0.6f}};
    return p;
}

MultiHead multi_head() {
    MultiHead m;
    // X = [U | A]: U = the first three columns (det U = ±1), A the last five.
    m.X = Matrix{{1, 0, 1, 1, 0, 0, -1, 0},
                 {1, -1, 1, 0, 1, 1, 1, 0},
                 {1, 0, 0, 0, 1, 0, 0, -1}};
    m.Wq = Matrix{{0, 1, 1, 1, 1, 1, 1, 1},
                  {-1, -1, -1, 1, -1, -1, 0, -1},
                  {1, -1, 1, 0, 0, 0, 1, 0},
                  {1, -1, -1, -1, -1, -1, -1, -1},
                  {0, 0, 0, 0, -1, 0, -1, -1},
                  {0, 0, -1, -1, 0, -1, -1, 0},
                  {1, -1, 0, 0, 0, -1, 0, 0},
                  {1, 0, 0, -1, -1, 0, 0, 1}};
    m.Wk = Matrix{{1, 1, 1, 1, 1, 1, 0, 0},
                  {0, 0, 0, 0, -1, 0, -1, -1},
                  {1, 0, 1, 0, 0, 1, 1, 1},
                  {-1, -1, -1, -1, -1, -1, -1, -1},
                  {0, 0, -1, 1, 0, 0, -1, -1},
                  {-1, -1, 0, -1, -1, -1, 0, 0},
                  {0, 1, -1, -1, -1, 1, -1, 0},
                  {1, -1, 0, 0, 0, 0, 0, -1}};
    m.Wv = Matrix{{1, 0, 1, 1, 1, 1, 1, 1},
                  {0, -1, -1, 0, 0, -1, 0, 1},
                  {1, 1, -1, 1, 1, 0, 1, 0},
                  {-1, -1, -1, -1, -1, -1, -1, -1},
                  {-1, -1, 0, -1, 0, -1, 0, 1},
                  {-1, 0, 0, 0, -1, 0, -1, -1},
                  {0, 0, -1, 0, -1, 0, 0, 0},
                  {0, -1, 0, -1, 0, -1, 1, 0}};
    m.Wo = Matrix(8, 8, 0.0f);
    for (std::size_t c = 0; c < 4; ++c) {
        m.Wo(c, c) = 1;          // head 1 column c -> output c and c + 4
        m.Wo(c, c + 4) = 1;
        m.Wo(c + 4, c) = 1;      // head 2 column c -> output c (+) and c + 4 (−)
        m.Wo(c + 4, c + 4) = -1;
    }
    return m;
}

OneHead one_head() {
    OneHead o;
    // features:  cat fish eat subj obj past
    o.X = Matrix{{1, 0, 0, 1, 0, 0},           // 고양이가  cat + subject particle
                 {0, 1, 0, 0, 1, 0},           // 생선을    fish + object particle
                 {0, 0, 1, 0, 0, 1}};          // 먹었다    eat + past tense
    o.X_swapped = Matrix{{0, 1, 0, 1, 0, 0},   // 생선이    fish + subject particle
                         {1, 0, 0, 0, 1, 0},   // 고양이를  cat + object particle
                         {0, 0, 1, 0, 0, 1}};  // 먹었다
    o.Wq = Matrix(6, 6, 0.0f);
    o.Wq(2, 0) = 2;  // the verb asks head 1 "who has the subject particle?"
    o.Wq(2, 3) = 2;  // and head 2 "who has the object particle?"
    o.Wk = Matrix(6, 6, 0.0f);
    o.Wk(3, 0) = 2;  // subject particle answers in head 1's key column
    o.Wk(4, 3) = 2;  // object particle answers in head 2's key column
    o.Wv = Matrix(6, 6, 0.0f);
    o.Wv(0, 0) = 1;  // head 1's value: which noun (cat, fish)
    o.Wv(1, 1) = 1;
    o.Wv(0, 3) = 1;  // head 2's value: the same identity, in its own columns
    o.Wv(1, 4) = 1;
    o.Wo = identity(6);
    return o;
}

// ---- the lecture chapters ----

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

// ---- reading attention matrices ----

std::vector<Sentence> reading_sentences() {
    using namespace constructed;
    const unsigned V = kVerb, O = kObject, P = kPronoun, A = kAnimate;
    return {
        // "The cat chased the ball. It was bored." -> it = the cat
        {"ko", "a", {"[CLS]", "고양이가", "공을", "쫓았다", "그것은", "심심했다"}, {0, A, O, V, P, 0}, 4, 1},
        // "... It was round." -> it = the ball; the pronoun head still points at the cat
        {"ko", "b", {"[CLS]", "고양이가", "공을", "쫓았다", "그것은", "둥글었다"}, {0, A, O, V, P, 0}, 4, 2},
        {"en", "a", {"[CLS]", "the", "cat", "chased", "the", "ball", "because", "it", "was", "bored"},
         {0, 0, A, V, 0, O, 0, P, 0, 0}, 7, 2},
        {"en", "b", {"[CLS]", "the", "cat", "chased", "the", "ball", "because", "it", "was", "round"},
         {0, 0, A, V, 0, O, 0, P, 0, 0}, 7, 5},
    };
}

}  // namespace attn::examples

// Every worked example of the page, as data, in one place, so the page, the Catch2 tests,
// the node tests and the browser tests all start from the same inputs. The JS API hands
// them out by name: attn.example(name), names in parentheses below (wasm/examples.cpp).
//
//   core_attention()     ("core-attention")  seeds/000: T = 3, d = 8, h = 2, Q, K, V
//   no_weights()         ("no-weights")      seeds/002: six 3-d inputs, no trainable weights
//   projections()        ("projections", "causal-dropout")  the same inputs, W_Q, W_K, W_V
//   multi_head()         ("multi-head")      core_attention() through explicit projections
//   one_head()           ("one-head")        subject – object – verb: one head vs two
//   weighted_sum()       ("weighted-sum")    seeds/001: Values and one row of weights
//   permutation()        ("permutation")     seeds/004: one token set in two orders
//   reading_sentences()  ("reading-heads")   sentences for the constructed heads (constructed_heads.hpp)
//
// Each example is illustrative (the documents' figures are not from a trained model);
// entries the documents do not state were chosen by this project, as small integers,
// so that every number the documents do state is reproduced by the core
// (tests/core/test_documents.cpp). What each construction guarantees is tested in the
// test of the stage it illustrates.
#pragma once

#include <string>
#include <vector>

#include "attn/matrix.hpp"
#include "attn/constructed_heads.hpp"

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


// ---- Chapters on heads, masking and dropout (seeds/000, /001, /002) -------------------------
// None of these inputs appears in the documents (seed 003, the article with the 3 x 8 inputs
// and projections, is not available): they were constructed by this project and are
// illustrative.

// "Attention without trainable weights" (seeds/002): six tokens, each a 3-dimensional
// input vector; every input serves as query, key and value at once.
struct NoWeights {
    Matrix X;  // 6 x 3
};
NoWeights no_weights();

// "Trainable projections" and "causal attention with dropout" (seeds/002): the same six
// inputs, projected to d_out = 2 by W_Q, W_K, W_V (d_in x d_out = 3 x 2). The weights
// are small multiples of 0.1 so that a learner can read and retype them.
struct Projections {
    Matrix X;            // 6 x 3
    Matrix Wq, Wk, Wv;   // 3 x 2
};
Projections projections();

// "Multi-head attention end to end": the core_attention() example continued through
// explicit projections and the output projection. X (3 x 8) and W_Q, W_K, W_V (8 x 8)
// have entries in {−1, 0, 1} and were built so that X·W_Q, X·W_K and X·W_V are exactly
// core_attention()'s Q, K and V: X = [U | A] with U unimodular, W = [U⁻¹(M − A·B); B].
// W_O = [[I₄, I₄], [I₄, −I₄]]: output column c < 4 is head 1's column c plus head 2's,
// column c + 4 their difference, so every output column mixes both heads.
struct MultiHead {
    std::size_t tokens = 3, d_model = 8, heads = 2;
    Matrix X, Wq, Wk, Wv, Wo;
};
MultiHead multi_head();

// "Why one head is not enough" (seeds/001, last section): three tokens in Korean word
// order, subject – object – verb (고양이가 생선을 먹었다, "the cat ate the fish"). Input
// features (d_model = 6): [cat, fish, eat, subject particle, object particle, past tense].
// Head 1 (columns 0..2 of Q and K) links the verb's query to the token carrying the
// subject particle, head 2 (columns 3..5) to the token carrying the object particle;
// W_V copies the noun's identity into both heads' value columns. With h = 2 each head of
// the verb puts most of its weight on one relation; with h = 1 the same weights add
// both relations into one score row, which ties: the verb's single distribution splits
// between subject and object, and its output is the same for "the fish ate the cat"
// (X_swapped). W_O = I so the heads' outputs can be read in the result.
struct OneHead {
    std::size_t verb = 2, subject = 0, object = 1;
    Matrix X, X_swapped;   // 3 x 6
    Matrix Wq, Wk, Wv, Wo; // 6 x 6
};
OneHead one_head();

// ---- The lecture chapters (seeds/001, /004) -------------------------------------------------

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

// ---- Reading attention matrices: sentences for the constructed heads (constructed_heads.hpp) ----------
// The chapter's example sentences, Korean and English, each in a version where the pronoun
// refers to the animate noun and one where it does not (so the pronoun head's "pattern"
// points at the wrong word), with their feature flags (constructed::kVerb | ...), the pronoun's
// index and the index of the word it actually refers to. Position 0 is a start token like
// BERT's [CLS].
struct Sentence {
    std::string lang;   // "ko" or "en"
    std::string id;     // "a": the pronoun refers to the animate noun; "b": it does not
    std::vector<std::string> tokens;
    std::vector<unsigned> flags;
    std::size_t pronoun = 0;   // index of the pronoun
    std::size_t referent = 0;  // index of the word it refers to
};
std::vector<Sentence> reading_sentences();

}  // namespace attn::examples

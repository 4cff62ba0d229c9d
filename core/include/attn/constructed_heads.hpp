// Constructed attention heads: W_Q and W_K set by hand so that Q Kᵀ on hand-made token
// features shows a chosen pattern (previous token, self, first token, verb → object,
// pronoun → noun).
//
// NOT from a trained model. Analyses of trained models (Clark et al. 2019, "What Does
// BERT Look At?"; Vig & Belinkov 2019) report heads that attend to the previous token,
// to the token itself, to a first/special token, from a verb to its object and from a
// pronoun to the noun it refers to. Here each pattern is produced on purpose by hand-set
// W_Q and W_K on hand-made token features, so a learner can see where such a pattern
// comes from, and where it breaks.
//
// Token features (X, T x (kFeatureCount + T)):
//   columns 0..3           flags: verb, object, pronoun, animate noun (0 or 1)
//   column kFeatureCount+p one-hot position p
//   token_features(flags)  flags: T bit sets (kVerb | kObject | ...)  ->  X
//
// constructed_head(kind, T, s) -> {Wq, Wk}, both d x d with d = kFeatureCount + T, so
// Q = X W_Q and K = X W_K are T x d (d_k = d) and, for the X above,
//   PreviousToken  q_i · k_j = s² when j = i − 1 (and for i = j = 0: the first token has
//                  no predecessor and looks at itself), else 0
//   Self           q_i · k_j = s² when j = i, else 0
//   FirstToken     q_i · k_j = s² when j = 0, else 0
//   VerbObject     q_i · k_j = s² when token i is a verb and token j an object, else 0
//   PronounNoun    q_i · k_j = s² when token i is a pronoun and token j an animate noun
// A row the rule does not cover has all-zero scores and so spreads its weight evenly.
// With attention's 1/√d_k scaling the pattern sharpens as s grows.
//
// The chapter's example sentences are examples::reading_sentences() (examples.hpp).
//
// Errors: ValueError for an unknown head kind name, s not finite, T = 0, or a flag
// outside the four bits.
#pragma once

#include <string>
#include <vector>

#include "attn/matrix.hpp"

namespace attn::constructed {

enum Feature : unsigned { kVerb = 1u, kObject = 2u, kPronoun = 4u, kAnimate = 8u };
inline constexpr std::size_t kFeatureCount = 4;

enum class HeadKind { PreviousToken, Self, FirstToken, VerbObject, PronounNoun };

// The kind named "previous", "self", "first", "verb-object" or "pronoun-noun"; ValueError otherwise.
HeadKind head_kind(const std::string& name);
// ... and back.
const char* head_name(HeadKind kind);
// Every kind, in the order above.
std::vector<HeadKind> all_heads();

// T x (kFeatureCount + T): the four flag columns, then a one-hot position.
Matrix token_features(const std::vector<unsigned>& flags);

struct HeadWeights {
    Matrix Wq, Wk;
};
// W_Q, W_K (d x d, d = kFeatureCount + T) producing the pattern `kind` with strength s.
HeadWeights constructed_head(HeadKind kind, std::size_t T, float strength);


}  // namespace attn::constructed

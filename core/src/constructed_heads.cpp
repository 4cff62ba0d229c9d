#include "attn/constructed_heads.hpp"

#include <cmath>

namespace attn::constructed {

HeadKind head_kind(const std::string& name) {
    for (HeadKind k : all_heads())
        if (name == head_name(k)) return k;
    throw ValueError("constructed_head: no head named '" + name +
                     "' (previous, self, first, verb-object, pronoun-noun)");
}

const char* head_name(HeadKind kind) {
    switch (kind) {
        case HeadKind::PreviousToken: return "previous";
        case HeadKind::Self: return "self";
        case HeadKind::FirstToken: return "first";
        case HeadKind::VerbObject: return "verb-object";
        case HeadKind::PronounNoun: return "pronoun-noun";
    }
    return "";
}

std::vector<HeadKind> all_heads() {
    return {HeadKind::PreviousToken, HeadKind::Self, HeadKind::FirstToken, HeadKind::VerbObject,
            HeadKind::PronounNoun};
}

Matrix token_features(const std::vector<unsigned>& flags) {
    const std::size_t T = flags.size();
    Matrix X(T, kFeatureCount + T);
    for (std::size_t t = 0; t < T; ++t) {
        if (flags[t] >= (1u << kFeatureCount))
            throw ValueError("token_features: token " + std::to_string(t + 1) + " has flags " +
                             std::to_string(flags[t]) + "; only verb=1, object=2, pronoun=4, animate=8 exist");
        for (std::size_t f = 0; f < kFeatureCount; ++f) X(t, f) = (flags[t] >> f) & 1u ? 1.0f : 0.0f;
        X(t, kFeatureCount + t) = 1.0f;
    }
    return X;
}

HeadWeights constructed_head(HeadKind kind, std::size_t T, float s) {
    if (T == 0) throw ValueError("constructed_head: T must be at least 1");
    if (!std::isfinite(s)) throw ValueError("constructed_head: strength must be finite");
    const std::size_t d = kFeatureCount + T, pos = kFeatureCount;
    HeadWeights w{Matrix(d, d), Matrix(d, d)};
    switch (kind) {
        case HeadKind::PreviousToken:
            // Query of position p points at position p − 1; keys carry their own position.
            for (std::size_t p = 0; p < T; ++p) {
                w.Wq(pos + p, pos + (p == 0 ? 0 : p - 1)) = s;
                w.Wk(pos + p, pos + p) = s;
            }
            break;
        case HeadKind::Self:
            for (std::size_t p = 0; p < T; ++p) w.Wq(pos + p, pos + p) = w.Wk(pos + p, pos + p) = s;
            break;
        case HeadKind::FirstToken:
            // Every query has component 0 = s; only position 0's key has it too.
            for (std::size_t p = 0; p < T; ++p) w.Wq(pos + p, 0) = s;
            w.Wk(pos, 0) = s;
            break;
        case HeadKind::VerbObject:
            w.Wq(0, 0) = s;  // verb flag -> query component 0
            w.Wk(1, 0) = s;  // object flag -> key component 0
            break;
        case HeadKind::PronounNoun:
            w.Wq(2, 0) = s;  // pronoun flag
            w.Wk(3, 0) = s;  // animate flag
            break;
    }
    return w;
}

}  // namespace attn::constructed

// Multi-head attention, causal masking and dropout as the chapters "no-weights",
// "projections", "causal-dropout", "multi-head" and "one-head" use them, plus the
// examples those chapters start from (attn::examples, constructed by this project).
#include <cstring>

#include "helpers.hpp"

using namespace attn;
using attn::test::random_matrix;
using attn::test::require_close;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {
Matrix row_of(const Matrix& m, std::size_t i) {
    Matrix r(1, m.cols());
    for (std::size_t j = 0; j < m.cols(); ++j) r(0, j) = m(i, j);
    return r;
}
bool rows_identical(const Matrix& a, const Matrix& b, std::size_t i) {
    for (std::size_t j = 0; j < a.cols(); ++j) {
        const float x = a(i, j), y = b(i, j);
        if (std::memcmp(&x, &y, sizeof(float)) != 0) return false;
    }
    return true;
}
std::vector<std::size_t> divisors(std::size_t n) {
    std::vector<std::size_t> d;
    for (std::size_t k = 1; k <= n; ++k)
        if (n % k == 0) d.push_back(k);
    return d;
}
MultiHeadWeights random_weights(std::size_t d_model, std::size_t dk, std::size_t dv, std::size_t dout,
                                std::uint32_t seed) {
    return {random_matrix(d_model, dk, seed), random_matrix(d_model, dk, seed + 1),
            random_matrix(d_model, dv, seed + 2), random_matrix(dv, dout, seed + 3)};
}
}  // namespace

// ---- split / concat ---------------------------------------------------------------------

TEST_CASE("split_heads / concat_heads round trip for every divisor, odd sizes included", "[multihead]") {
    const std::size_t T = GENERATE(1, 3, 7);
    const std::size_t width = GENERATE(1, 5, 12, 17);
    const Matrix X = random_matrix(T, width, 200 + std::uint32_t(T * 31 + width));
    for (std::size_t h : divisors(width)) {
        CAPTURE(T, width, h);
        const auto parts = split_heads(X, h);
        REQUIRE(parts.size() == h);
        // Contiguous blocks: head k owns columns [k·d_h, (k+1)·d_h).
        const std::size_t dh = width / h;
        for (std::size_t k = 0; k < h; ++k) {
            REQUIRE(parts[k].rows() == T);
            REQUIRE(parts[k].cols() == dh);
            for (std::size_t i = 0; i < T; ++i)
                for (std::size_t j = 0; j < dh; ++j) REQUIRE(parts[k](i, j) == X(i, k * dh + j));
        }
        require_close(concat_heads(parts), X, 0, 0, "concat(split(X))");
    }
}

TEST_CASE("h that does not divide d_model is a clear error, everywhere", "[multihead][errors]") {
    const Matrix X = random_matrix(3, 8, 210);
    const auto w = random_weights(8, 8, 8, 8, 211);
    MultiHeadOptions o;
    for (std::size_t h : {3, 5, 6, 7, 9, 16}) {
        CAPTURE(h);
        o.heads = h;
        REQUIRE_THROWS_AS(multi_head_attention(X, w, o), ValueError);
        // More heads than columns gets its own wording ("9 heads are more than the width").
        const std::string why = h > 8 ? " heads are more than" : " heads do not divide";
        REQUIRE_THROWS_WITH(multi_head_attention(X, w, o), Contains(std::to_string(h) + why) && Contains("= 8"));
        REQUIRE_THROWS_WITH(split_heads(X, h), Contains(std::to_string(h) + why));
    }
    o.heads = 0;
    REQUIRE_THROWS_WITH(multi_head_attention(X, w, o), Contains("at least 1"));
    REQUIRE_THROWS_AS(split_heads(X, 0), ValueError);
    // Q/K and V widths are checked separately: 2 heads divide 8 but not a 3-wide W_V.
    o.heads = 2;
    REQUIRE_THROWS_WITH(multi_head_attention(X, random_weights(8, 8, 3, 4, 212), o), Contains("width of V"));
    // ... and the core still works afterwards.
    REQUIRE(multi_head_attention(X, w, o).output.shape() == "3x8");
}

// ---- against the scalar reference ---------------------------------------------------------

TEST_CASE("multi_head_attention equals single-head reference calls on explicit slices", "[multihead]") {
    struct Case {
        std::size_t T, d_model, dk, dv, dout;
    };
    const Case c = GENERATE(Case{1, 4, 4, 4, 4}, Case{3, 8, 8, 8, 8}, Case{7, 6, 12, 6, 5}, Case{5, 12, 12, 24, 3});
    const bool causal = GENERATE(false, true);
    const bool training = GENERATE(false, true);
    const Matrix X = random_matrix(c.T, c.d_model, 220);
    const auto w = random_weights(c.d_model, c.dk, c.dv, c.dout, 221);
    for (std::size_t h : divisors(c.dk)) {
        if (c.dv % h) continue;
        CAPTURE(c.T, c.d_model, c.dk, c.dv, c.dout, h, causal, training);
        MultiHeadOptions o;
        o.heads = h;
        o.causal = causal;
        o.dropout = {0.3f, 17, training};
        const auto got = multi_head_attention(X, w, o);
        const auto want = reference::multi_head_attention(X, w, o);
        REQUIRE(got.heads.size() == h);
        require_close(got.q, want.q, 1e-5, 1e-5, "q");
        require_close(got.v, want.v, 1e-5, 1e-5, "v");
        for (std::size_t k = 0; k < h; ++k) {
            INFO("head " << k);
            REQUIRE(got.heads[k].scale == Approx(1.0 / std::sqrt(double(c.dk / h))));
            require_close(got.heads[k].weights, want.heads[k].weights, 1e-5, 1e-6, "weights");
            require_close(got.heads[k].dropped, want.heads[k].dropped, 1e-5, 1e-6, "dropped");
            REQUIRE(got.heads[k].output.cols() == c.dv / h);
        }
        require_close(got.concat, want.concat, 1e-5, 1e-5, "concat");
        REQUIRE(got.output.shape() == shape_str(c.T, c.dout));
        require_close(got.output, want.output, 1e-4, 1e-5, "output");
    }
}

// ---- causal independence ------------------------------------------------------------------

TEST_CASE("causal: perturbing a later token leaves earlier outputs bit-identical", "[multihead][causal]") {
    const std::size_t T = 7, d = 8;
    const bool training = GENERATE(false, true);
    const std::size_t h = GENERATE(1, 2, 4);
    const std::size_t j = GENERATE(1, 3, 6);  // the token that changes
    CAPTURE(training, h, j);
    const Matrix X = random_matrix(T, d, 230);
    const auto w = random_weights(d, d, d, d, 231);
    Matrix X2 = X;
    for (std::size_t c = 0; c < d; ++c) X2(j, c) += 2.5f * float(c % 3) - 1.0f;
    MultiHeadOptions o;
    o.heads = h;
    o.causal = true;
    o.dropout = {0.4f, 5, training};
    const auto a = multi_head_attention(X, w, o), b = multi_head_attention(X2, w, o);
    for (std::size_t i = 0; i < j; ++i) {
        INFO("token " << i);
        REQUIRE(rows_identical(a.output, b.output, i));
        REQUIRE(rows_identical(a.concat, b.concat, i));
        for (std::size_t k = 0; k < h; ++k) REQUIRE(rows_identical(a.heads[k].dropped, b.heads[k].dropped, i));
    }
    REQUIRE_FALSE(rows_identical(a.output, b.output, j));  // the changed token itself does change
    // Without the mask the same change reaches earlier tokens (so the check above can fail).
    o.causal = false;
    const auto c = multi_head_attention(X, w, o), e = multi_head_attention(X2, w, o);
    bool some_earlier_changed = false;
    for (std::size_t i = 0; i < j; ++i) some_earlier_changed |= !rows_identical(c.output, e.output, i);
    REQUIRE(some_earlier_changed);
}

// ---- dropout --------------------------------------------------------------------------------

TEST_CASE("multi-head dropout: exact in evaluation and at rate 0, mean kept in training", "[multihead][dropout]") {
    const std::size_t T = 64, d = 8, h = 2;
    const Matrix X = random_matrix(T, d, 240);
    const auto w = random_weights(d, d, d, d, 241);
    MultiHeadOptions plain;
    plain.heads = h;
    const auto base = multi_head_attention(X, w, plain);

    SECTION("evaluation mode is the identity, whatever the rate") {
        MultiHeadOptions o = plain;
        o.dropout = {0.9f, 3, false};
        const auto t = multi_head_attention(X, w, o);
        REQUIRE(t.output.to_vector() == base.output.to_vector());
        for (std::size_t k = 0; k < h; ++k) REQUIRE(t.heads[k].dropped.to_vector() == t.heads[k].weights.to_vector());
    }
    SECTION("rate 0 in training mode is the identity") {
        MultiHeadOptions o = plain;
        o.dropout = {0.0f, 3, true};
        REQUIRE(multi_head_attention(X, w, o).output.to_vector() == base.output.to_vector());
    }
    SECTION("training mode: zeros at about the rate, survivors scaled by 1/(1 - rate), mean kept") {
        const float rate = GENERATE(0.1f, 0.5f);
        CAPTURE(rate);
        MultiHeadOptions o = plain;
        o.dropout = {rate, 11, true};
        const auto t = multi_head_attention(X, w, o);
        for (std::size_t k = 0; k < h; ++k) {
            INFO("head " << k);
            const Matrix& P = t.heads[k].weights;
            const Matrix& D = t.heads[k].dropped;
            std::size_t zeros = 0;
            double sum_p = 0, sum_d = 0;
            for (std::size_t n = 0; n < P.size(); ++n) {
                if (D.data()[n] == 0.0f) ++zeros;
                else REQUIRE_THAT(D.data()[n], WithinAbs(P.data()[n] / (1.0 - rate), 1e-6));
                sum_p += P.data()[n];
                sum_d += D.data()[n];
            }
            // 4096 Bernoulli(rate) draws: sd = sqrt(4096 rate (1 - rate)) <= 32; 5 sd bounds.
            const double n = double(P.size()), sd = std::sqrt(n * rate * (1 - rate));
            REQUIRE(double(zeros) > n * rate - 5 * sd);
            REQUIRE(double(zeros) < n * rate + 5 * sd);
            // Sum of P is T (rows sum to 1); the dropped sum has relative sd <= ~1/64 here.
            REQUIRE_THAT(sum_d / sum_p, WithinAbs(1.0, 0.08));
        }
        // Head k uses seed + k: the two heads' masks differ.
        REQUIRE(t.heads[0].dropped.to_vector() != t.heads[1].dropped.to_vector());
    }
}

TEST_CASE("attention's dropout mask is dropout() of a matrix of ones", "[dropout]") {
    // The causal-dropout chapter shows the mask as dropout(ones): the same (seed, i, j)
    // decisions and the same 1/(1 - rate) factor as inside attention().
    const Matrix Q = random_matrix(6, 2, 250), K = random_matrix(6, 2, 251), V = random_matrix(6, 2, 252);
    AttentionOptions o;
    o.causal = true;
    o.dropout = {0.5f, 42, true};
    const Trace t = attention(Q, K, V, o);
    const Matrix mask = dropout(Matrix(6, 6, 1.0f), 0.5f, 42);
    for (std::size_t i = 0; i < 6; ++i)
        for (std::size_t j = 0; j < 6; ++j) {
            REQUIRE((mask(i, j) == 0.0f || mask(i, j) == 2.0f));
            REQUIRE(t.dropped(i, j) == t.weights(i, j) * mask(i, j));
        }
}

// ---- the chapters' examples -----------------------------------------------------------------

TEST_CASE("no-weights: one token's scores dot by dot equal the row of X·Xᵀ", "[examples]") {
    const Matrix X = examples::no_weights().X;
    REQUIRE(X.shape() == "6x3");
    const Matrix S = scores(X, X);
    for (std::size_t i = 0; i < 6; ++i)
        for (std::size_t j = 0; j < 6; ++j) {
            const Matrix one = scores(row_of(X, i), row_of(X, j));  // a single dot product
            REQUIRE(one.shape() == "1x1");
            REQUIRE(one(0, 0) == S(i, j));  // bit for bit: the loop is the matrix product
        }
    AttentionOptions o;
    o.scale = 1.0f;  // the simplest self-attention has no scaling
    const Trace t = attention(X, X, X, o);
    // The second token's weights sum to 1 (seeds/002) and its context vector is Σ_j α_2j x_j.
    double sum = 0;
    for (std::size_t j = 0; j < 6; ++j) sum += t.weights(1, j);
    REQUIRE_THAT(sum, WithinAbs(1.0, 1e-6));
    require_close(t.output, reference::matmul(t.weights, X), 1e-5, 1e-6, "context vectors");
}

TEST_CASE("projections: shapes of Q, K, V and the context vectors", "[examples]") {
    const auto p = examples::projections();
    MultiHeadOptions o;
    o.heads = 1;
    Matrix I2(2, 2, 0.0f);
    I2(0, 0) = I2(1, 1) = 1;
    const auto t = multi_head_attention(p.X, {p.Wq, p.Wk, p.Wv, I2}, o);
    REQUIRE(t.q.shape() == "6x2");
    REQUIRE(t.heads[0].weights.shape() == "6x6");
    REQUIRE(t.output.shape() == "6x2");
    REQUIRE(t.heads[0].scale == Approx(1.0 / std::sqrt(2.0)));
    require_close(t.q, reference::matmul(p.X, p.Wq), 1e-6, 1e-6);
}

TEST_CASE("multi-head example: X·W reproduces the core-attention Q, K, V exactly", "[examples][document]") {
    const auto m = examples::multi_head();
    const auto ca = examples::core_attention();
    REQUIRE(m.X.shape() == "3x8");
    for (const Matrix* W : {&m.Wq, &m.Wk, &m.Wv, &m.Wo}) REQUIRE(W->shape() == "8x8");
    REQUIRE(matmul(m.X, m.Wq).to_vector() == ca.Q.to_vector());
    REQUIRE(matmul(m.X, m.Wk).to_vector() == ca.K.to_vector());
    REQUIRE(matmul(m.X, m.Wv).to_vector() == ca.V.to_vector());
    for (const Matrix* M : {&m.X, &m.Wq, &m.Wk, &m.Wv, &m.Wo})
        for (float x : M->to_vector()) REQUIRE((x == -1.0f || x == 0.0f || x == 1.0f));

    MultiHeadOptions o;
    o.heads = 2;
    o.causal = true;
    const auto t = multi_head_attention(m.X, {m.Wq, m.Wk, m.Wv, m.Wo}, o);
    // Head by head, the same traces as the core-attention chapter's split.
    const auto qs = split_heads(ca.Q, 2), ks = split_heads(ca.K, 2), vs = split_heads(ca.V, 2);
    AttentionOptions causal;
    causal.causal = true;
    for (std::size_t k = 0; k < 2; ++k) {
        const Trace want = attention(qs[k], ks[k], vs[k], causal);
        REQUIRE(t.heads[k].weights.to_vector() == want.weights.to_vector());
        REQUIRE(t.heads[k].output.to_vector() == want.output.to_vector());
    }
    // Seed 000's figures for head 1, at the document's precision.
    const std::vector<float> p3{0.114f, 0.042f, 0.844f}, o3{0.114f, 0.042f, 0.844f, 1.0f};
    for (std::size_t j = 0; j < 3; ++j) REQUIRE_THAT(t.heads[0].weights(2, j), WithinAbs(p3[j], 5e-4));
    for (std::size_t j = 0; j < 4; ++j) REQUIRE_THAT(t.heads[0].output(2, j), WithinAbs(o3[j], 5e-4));
    // Concat puts head 1 in columns 0..3, head 2 in 4..7; W_O mixes them.
    REQUIRE(t.concat.shape() == "3x8");
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t c = 0; c < 4; ++c) {
            REQUIRE(t.concat(i, c) == t.heads[0].output(i, c));
            REQUIRE(t.concat(i, c + 4) == t.heads[1].output(i, c));
            REQUIRE_THAT(t.output(i, c), WithinAbs(double(t.concat(i, c)) + t.concat(i, c + 4), 1e-5));
            REQUIRE_THAT(t.output(i, c + 4), WithinAbs(double(t.concat(i, c)) - t.concat(i, c + 4), 1e-5));
        }
    // Every divisor of d_model = 8 is a valid h; d_h = 8 / h.
    for (std::size_t h : {1, 2, 4, 8}) {
        o.heads = h;
        const auto th = multi_head_attention(m.X, {m.Wq, m.Wk, m.Wv, m.Wo}, o);
        REQUIRE(th.heads.size() == h);
        REQUIRE(th.heads[0].output.cols() == 8 / h);
        REQUIRE(th.output.shape() == "3x8");
    }
}

TEST_CASE("one-head example: one distribution splits, two heads each focus", "[examples]") {
    const auto ex = examples::one_head();
    const MultiHeadWeights w{ex.Wq, ex.Wk, ex.Wv, ex.Wo};
    const std::size_t v = ex.verb, s = ex.subject, ob = ex.object;
    MultiHeadOptions one, two;
    one.heads = 1;
    two.heads = 2;
    const auto t1 = multi_head_attention(ex.X, w, one);
    const auto t2 = multi_head_attention(ex.X, w, two);
    // One head: the verb's scores for subject and object tie, so its one distribution
    // gives each less than half and neither relation stands out.
    const Matrix& P = t1.heads[0].weights;
    REQUIRE(P(v, s) == P(v, ob));
    REQUIRE(P(v, s) < 0.5f);
    REQUIRE(P(v, s) > 0.4f);
    // Two heads: head 1 focuses the verb on the subject, head 2 on the object.
    REQUIRE(t2.heads[0].weights(v, s) > 0.8f);
    REQUIRE(t2.heads[1].weights(v, ob) > 0.8f);
    // Stronger queries sharpen the two heads towards 1 but leave one head at most 1/2 each.
    const Matrix Wq3 = scale(ex.Wq, 3.0f);
    const auto s1 = multi_head_attention(ex.X, {Wq3, ex.Wk, ex.Wv, ex.Wo}, one);
    const auto s2 = multi_head_attention(ex.X, {Wq3, ex.Wk, ex.Wv, ex.Wo}, two);
    REQUIRE(s1.heads[0].weights(v, s) <= 0.5f);
    REQUIRE(s1.heads[0].weights(v, s) > 0.49f);
    REQUIRE(s2.heads[0].weights(v, s) > 0.99f);
    REQUIRE(s2.heads[1].weights(v, ob) > 0.99f);
    // "The fish ate the cat": one head's verb output cannot tell the sentences apart,
    // two heads' outputs can (subject identity in columns 0..1, object in 3..4).
    const auto u1 = multi_head_attention(ex.X_swapped, w, one);
    const auto u2 = multi_head_attention(ex.X_swapped, w, two);
    require_close(row_of(u1.output, v), row_of(t1.output, v), 0, 1e-6, "one head, swapped");
    REQUIRE(t2.output(v, 0) > 0.8f);  // subject: cat
    REQUIRE(t2.output(v, 4) > 0.8f);  // object: fish
    REQUIRE(u2.output(v, 1) > 0.8f);  // subject: fish
    REQUIRE(u2.output(v, 3) > 0.8f);  // object: cat
}

TEST_CASE("the original model's arithmetic: d_model = 512, h = 8, d_k = 64, work does not grow with h", "[cost][document]") {
    const Cost c8 = cost({512, 512, 8, 1, 4});
    REQUIRE(c8.d_head == 64);
    for (std::size_t h : divisors(512)) {
        CAPTURE(h);
        const Cost c = cost({512, 512, h, 1, 4});
        REQUIRE(c.d_head * double(h) == 512);
        REQUIRE(c.flops_attention == c8.flops_attention);
        REQUIRE(c.flops_projections == c8.flops_projections);
        REQUIRE(c.bytes_per_layer == double(h) * c.bytes_per_matrix);  // one n x n matrix per head
    }
}

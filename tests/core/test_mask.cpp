// Stage: the masks (attention.hpp: causal_mask, add_mask; the rule itself is
// core/src/kernels/mask.hpp). A mask hides a key whatever its score: −∞ replaces the score,
// the additive mask first, then the causal one, in every forward variant.
#include "helpers.hpp"

TEST_CASE("causal_mask and add_mask match the reference on swept sizes", "[mask]") {
    const std::size_t Tq = GENERATE(1, 3, 9);
    const std::size_t Tk = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    CAPTURE(Tq, Tk);
    const Matrix S = random_matrix(Tq, Tk, 12, -2, 2);
    const Matrix M = causal_mask(Tq, Tk);
    require_close(M, reference::causal_mask(Tq, Tk), 0, 0, "causal_mask");
    require_close(add_mask(S, M), reference::add_mask(S, M), 0, 0, "add_mask");
    // Top-left aligned: query i sees keys 0..i, a query i >= T_k every key.
    for (std::size_t i = 0; i < Tq; ++i)
        for (std::size_t j = 0; j < Tk; ++j) REQUIRE(M(i, j) == (j <= i ? 0.0f : -kInf));
}

TEST_CASE("a mask hides a key whatever its score: NaN and ∞ in hidden keys reach no one", "[mask]") {
    Matrix Q = random_matrix(4, 3, 21), K = random_matrix(4, 3, 22), V = random_matrix(4, 2, 23);
    K(3, 1) = kNaN;   // hidden from queries 0..2 by the causal mask
    K(2, 0) = kInf;   // hidden from queries 0..1 by the causal mask
    Q(2, 0) = 1.0f;   // so query 2's score for key 2 is +∞ (a negative q would make it −∞: a mask)
    V(2, 1) = kNaN;
    AttentionOptions o;
    o.causal = true;
    const Trace t = attention(Q, K, V, o);
    REQUIRE(t.masked(0, 3) == -kInf);  // NaN score, hidden: −∞, not NaN
    REQUIRE(t.masked(1, 2) == -kInf);  // +∞ score, hidden: −∞
    for (std::size_t i = 0; i < 2; ++i) REQUIRE(all_finite(t.output.row(i), 2));
    REQUIRE(all_nan(t.weights.row(2), 4));  // query 2 sees key 2 with an infinite score
    REQUIRE(all_nan(t.weights.row(3), 4));  // query 3 sees the NaN key
    // The same through an additive mask, and add_mask on its own.
    Matrix M(4, 4, 0.0f);
    M(0, 3) = -kInf;
    M(0, 2) = -kInf;
    AttentionOptions m;
    m.mask = M;
    const Trace u = attention(Q, K, V, m);
    REQUIRE(all_finite(u.output.row(0), 2));
    REQUIRE(all_nan(u.output.row(1), 2));
    const Matrix S{{kNaN, kInf, 1.0f}};
    const Matrix hide{{-kInf, -kInf, 0.0f}};
    REQUIRE(add_mask(S, hide).to_vector() == std::vector<float>{-kInf, -kInf, 1.0f});
    REQUIRE(reference::add_mask(S, hide).to_vector() == std::vector<float>{-kInf, -kInf, 1.0f});
}

// Found by fuzz_attention (tests/fuzz/regressions/attention/causal-hides-over-mask-inf,
// flash-causal-over-mask-inf, output-nan-score-under-mask-inf): causal −∞ + a +∞ in the mask
// gave NaN in a hidden position; the tiled kernel applied the causal mask before the custom
// one; attention_output added a −∞ mask to a NaN score. Every variant now applies the one
// rule of core/src/kernels/mask.hpp.
TEST_CASE("regression: a key hidden by the causal mask or by −∞ stays hidden whatever the mask or its score holds, in every variant", "[mask][regression]") {
    SECTION("+∞ and NaN in the mask where the causal mask hides the key") {
        const Matrix Q = random_matrix(3, 2, 41), K = random_matrix(3, 2, 42), V = random_matrix(3, 2, 43);
        Matrix M(3, 3, 0.0f);
        M(0, 2) = kInf;
        M(1, 2) = kNaN;
        AttentionOptions o;
        o.causal = true;
        o.mask = M;
        for (const Trace& t : {attention(Q, K, V, o), reference::attention(Q, K, V, o)}) {
            REQUIRE(t.masked(0, 2) == -kInf);
            REQUIRE(t.masked(1, 2) == -kInf);
            REQUIRE(all_finite(t.output.row(0), 2));
            REQUIRE(all_finite(t.output.row(1), 2));
        }
        REQUIRE(attention(Q, K, V, o).nonfinite.count == 2);  // still reported as non-finite mask entries
        const HeadTrace h = attention_head(Q, K, V, o);
        REQUIRE(h.masked(0, 2) == -kInf);
        REQUIRE(h.masked(1, 2) == -kInf);
        FlashOptions f;
        f.causal = true;
        f.mask = M.view();
        f.tile = 1;
        for (const Matrix& O : {attention_output(Q, K, V, o), flash_attention(Q, K, V, f), h.output}) {
            REQUIRE(all_finite(O.row(0), 2));
            REQUIRE(all_finite(O.row(1), 2));
        }
    }
    SECTION("a NaN score in a row hidden by the mask and the causal mask together") {
        Matrix Q = random_matrix(3, 4, 11), K = random_matrix(3, 4, 12), V = random_matrix(3, 2, 13);
        Q(0, 0) = kNaN;  // every score of row 0 is NaN
        Matrix M(3, 3, 0.0f);
        M(0, 0) = -kInf;  // row 0: key 0 hidden by the mask, keys 1, 2 by the causal mask
        M(0, 2) = kInf;   // a +∞ where the causal mask already hides the key
        M(1, 2) = kNaN;   // a NaN where the causal mask hides it
        AttentionOptions o;
        o.causal = true;
        o.mask = M;
        FlashOptions f;
        f.causal = true;
        f.mask = ConstMatrixView(M);
        f.tile = 1;
        const Trace t = attention(Q, K, V, o);
        const Matrix A = attention_output(Q, K, V, o), F = flash_attention(Q, K, V, f), H = attention_head(Q, K, V, o).output;
        f64::AttentionOptionsD od;
        od.causal = true;
        od.scale = 0.5;
        od.mask = f64::MatrixD(M);
        const Matrix D = f64::attention(f64::MatrixD(Q), f64::MatrixD(K), f64::MatrixD(V), od).output.to_float();
        for (std::size_t k = 0; k < 2; ++k) {
            CAPTURE(k);
            for (const Matrix* O : {&t.output, &A, &F, &H, &D}) REQUIRE((*O)(0, k) == 0.0f);  // fully hidden: zero, not NaN
        }
        for (std::size_t i = 1; i < 3; ++i)
            for (std::size_t k = 0; k < 2; ++k) {
                CAPTURE(i, k);
                REQUIRE(std::isfinite(A(i, k)));
                REQUIRE(A(i, k) == Approx(t.output(i, k)).margin(1e-6));
                REQUIRE(F(i, k) == Approx(t.output(i, k)).margin(1e-6));
                REQUIRE(H(i, k) == Approx(t.output(i, k)).margin(1e-6));
                REQUIRE(D(i, k) == Approx(t.output(i, k)).margin(1e-6));
            }
    }
}

TEST_CASE("masks: typed errors and allowed edges", "[mask]") {
    REQUIRE_THROWS_AS(add_mask(Matrix(3, 4), Matrix(5, 2)), ShapeError);
    REQUIRE_THROWS_AS(causal_mask(1 << 20, 1 << 20), SizeError);
    REQUIRE(causal_mask(0, 5).shape() == "0x5");
}

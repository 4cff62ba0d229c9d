// Bad input at every public function: typed errors before any work, documented
// non-finite behaviour, and the Trace's report of where a NaN or ∞ entered.
// (Crash inputs found by the fuzz targets in tests/fuzz/ are added here as cases.)
#include "helpers.hpp"

#include <cstdint>
#include <limits>

using namespace attn;
using attn::test::random_matrix;
using Catch::Matchers::Contains;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr std::size_t kHuge = std::numeric_limits<std::size_t>::max();

bool all_nan(const float* x, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
        if (!std::isnan(x[j])) return false;
    return true;
}
bool all_finite(const float* x, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
        if (!std::isfinite(x[j])) return false;
    return true;
}
}  // namespace

TEST_CASE("every public function throws a typed error for a bad shape, size or option", "[errors][hardening]") {
    const Matrix A(3, 4, 1.0f), B(5, 2, 1.0f);
    SECTION("sizes past kMaxElements, and rows x cols overflowing size_t") {
        REQUIRE_THROWS_AS(Matrix(std::size_t{1} << 15, (std::size_t{1} << 13) + 1), SizeError);
        REQUIRE_THROWS_WITH(Matrix(kHuge, 2), Contains("longer than the limit"));
        REQUIRE_THROWS_AS(Matrix(kHuge, kHuge, std::vector<float>{}), SizeError);
        REQUIRE_THROWS_AS(causal_mask(1 << 20, 1 << 20), SizeError);
        REQUIRE_THROWS_AS(sinusoidal_encoding(kHuge, 3), SizeError);
        REQUIRE_THROWS_AS(random_uniform(1 << 20, 1 << 20, 1), SizeError);
        REQUIRE_THROWS_AS(random_normal(kHuge / 2, 3, 1), SizeError);
        REQUIRE_NOTHROW(check_size(kMaxElements, 1, "x"));
        REQUIRE_THROWS_AS(check_size(kMaxElements + 1, 1, "x"), SizeError);
        // T_q x T_k scores past the limit: refused before anything is allocated.
        const Matrix Q(20000, 1, 1.0f);
        REQUIRE_THROWS_AS(attention(Q, Q, Q), SizeError);
        REQUIRE_THROWS_AS(scores(Q, Q), SizeError);
        REQUIRE_NOTHROW(dropout(Matrix(1, 1), 0.5f, 1));
    }
    SECTION("shapes") {
        REQUIRE_THROWS_AS(matmul(A, B), ShapeError);
        REQUIRE_THROWS_AS(matmul_bt(A, B), ShapeError);
        REQUIRE_THROWS_AS(scores(A, B), ShapeError);
        REQUIRE_THROWS_AS(add_mask(A, B), ShapeError);
        REQUIRE_THROWS_AS(weighted_sum(A, B), ShapeError);
        REQUIRE_THROWS_AS(attention(A, A, B), ShapeError);
        REQUIRE_THROWS_AS(concat_heads({Matrix(2, 2), Matrix(3, 2)}), ShapeError);
        REQUIRE_THROWS_AS((Matrix{{1, 2}, {3}}), ShapeError);
        REQUIRE_THROWS_AS(Matrix(2, 2, std::vector<float>{1, 2, 3}), ShapeError);
        REQUIRE_THROWS_AS(A.cols_block(3, 2), ShapeError);
        REQUIRE_THROWS_AS(A.cols_block(kHuge, 2), ShapeError);
        // Views: overlapping rows and null data are refused.
        float buf[8] = {};
        REQUIRE_THROWS_AS(ConstMatrixView(buf, 2, 4, 3), ShapeError);
        REQUIRE_THROWS_AS(MatrixView(buf, 2, 4, 2), ShapeError);
        REQUIRE_THROWS_AS(ConstMatrixView(nullptr, 2, 4, 4), ValueError);
        REQUIRE_NOTHROW(ConstMatrixView(buf, 1, 8, 0));  // one row: the stride is never used
        REQUIRE_NOTHROW(ConstMatrixView(nullptr, 0, 4, 4));
    }
    SECTION("options and scalars out of range") {
        REQUIRE_THROWS_AS(scale(A, kNaN), ValueError);
        REQUIRE_THROWS_AS(scale(A, -kInf), ValueError);
        REQUIRE_THROWS_AS(softmax(A, static_cast<Axis>(7)), ValueError);
        for (float rate : {1.0f, 1.5f, -0.01f, kNaN, kInf}) {
            CAPTURE(rate);
            REQUIRE_THROWS_AS(dropout(A, rate, 1), ValueError);
            REQUIRE_THROWS_AS(check_dropout_rate(rate), ValueError);
            AttentionOptions o;
            o.dropout.rate = rate;
            REQUIRE_THROWS_AS(attention(A, A, A, o), ValueError);
            MultiHeadOptions mo;
            mo.dropout.rate = rate;
            REQUIRE_THROWS_AS(multi_head_attention(A, {Matrix(4, 4), Matrix(4, 4), Matrix(4, 4), Matrix(4, 4)}, mo), ValueError);
        }
        REQUIRE_THROWS_WITH(attention(Matrix(3, 0), Matrix(3, 0), A), Contains("d_k = 0"));
        REQUIRE_THROWS_AS(attention(Matrix(0, 4), A, A), ValueError);
        REQUIRE_THROWS_AS(attention(A, Matrix(0, 4), Matrix(0, 4)), ValueError);
        REQUIRE_THROWS_WITH(split_heads(Matrix(3, 8), 3), Contains("do not divide"));
        REQUIRE_THROWS_AS(split_heads(Matrix(3, 8), 0), ValueError);
        REQUIRE_THROWS_WITH(split_heads(Matrix(3, 8), 16), Contains("more than"));
        // A huge head count on an empty width used to loop for ever; now refused.
        REQUIRE_THROWS_AS(split_heads(Matrix(3, 0), kHuge), ValueError);
        REQUIRE_THROWS_AS(concat_heads({}), ValueError);
        MultiHeadOptions mo;
        mo.heads = kHuge;
        REQUIRE_THROWS_AS(multi_head_attention(A, {Matrix(4, 0), Matrix(4, 0), Matrix(4, 0), Matrix(0, 2)}, mo), ValueError);
        REQUIRE_THROWS_AS(sinusoidal_encoding(3, 0), ValueError);
        REQUIRE_THROWS_AS(sinusoidal_encoding(3, 4, -1.0), ValueError);
        REQUIRE_THROWS_AS(sinusoidal_encoding(3, 4, std::numeric_limits<double>::quiet_NaN()), ValueError);
        REQUIRE_THROWS_AS(random_uniform(2, 2, 1, 3.0f, 1.0f), ValueError);
        REQUIRE_THROWS_AS(random_uniform(2, 2, 1, 0.0f, kInf), ValueError);
        REQUIRE_THROWS_AS(random_normal(2, 2, 1, 0.0f, -1.0f), ValueError);
        REQUIRE_THROWS_AS(random_normal(2, 2, 1, kNaN, 1.0f), ValueError);
        REQUIRE_THROWS_AS(cost({0, 8, 1, 1, 4}), ValueError);
        REQUIRE_THROWS_AS(cost({8, 8, 0, 1, 4}), ValueError);
        REQUIRE_THROWS_AS(cost({8, 8, 16, 1, 4}), ValueError);
        REQUIRE_THROWS_AS(cost({8, 8, 1, 0, 4}), ValueError);
        REQUIRE_THROWS_AS(cost({8, 8, 1, 1, 0}), ValueError);
        REQUIRE_NOTHROW(cost({kHuge, 8, 1, 1, 4}));  // doubles: no overflow
    }
    SECTION("edges that are allowed") {
        REQUIRE(attention(A, A, Matrix(3, 0)).output.shape() == "3x0");  // d_v = 0
        REQUIRE(causal_mask(0, 5).shape() == "0x5");
        REQUIRE(sinusoidal_encoding(0, 4).shape() == "0x4");
        REQUIRE(softmax(Matrix(3, 0)).shape() == "3x0");
        REQUIRE(matmul(Matrix(2, 0), Matrix(0, 3)).to_vector() == std::vector<float>(6, 0.0f));
        AttentionOptions zero;
        zero.scale = 0.0f;  // uniform weights
        const Trace t = attention(random_matrix(3, 4, 1), random_matrix(5, 4, 2), random_matrix(5, 2, 3), zero);
        for (std::size_t j = 0; j < 5; ++j) REQUIRE(t.weights(1, j) == Approx(0.2f));
    }
}

TEST_CASE("softmax: a NaN or +∞ makes its whole row NaN, other rows untouched", "[numerics][hardening]") {
    const float bad = GENERATE(kNaN, kInf);
    const std::size_t n = GENERATE(3, 19);  // scalar tail only, and vector loop + tail
    CAPTURE(bad, n);
    Matrix S = random_matrix(4, n, 5, -3, 3);
    S(1, n - 1) = bad;
    for (std::size_t j = 0; j < n; ++j) S(2, j) = -kInf;
    S(2, 0) = bad;  // "fully masked" but for the NaN / +∞: still a NaN row
    for (const Matrix& P : {softmax(S), reference::softmax(S)}) {
        REQUIRE(all_nan(P.row(1), n));
        REQUIRE(all_nan(P.row(2), n));
        REQUIRE(all_finite(P.row(0), n));
        REQUIRE(all_finite(P.row(3), n));
    }
    attn::test::require_close(softmax(S), reference::softmax(S), 1e-5, 1e-6);
}

TEST_CASE("logits of ±1e30 reach softmax without overflow, through attention too", "[numerics][hardening]") {
    const Matrix Q = random_matrix(4, 3, 11), K = random_matrix(6, 3, 12), V = random_matrix(6, 2, 13);
    AttentionOptions o;
    o.scale = GENERATE(1e30f, -1e30f, 3e38f);
    o.causal = true;
    const Trace t = attention(Q, K, V, o);
    REQUIRE(t.nonfinite.count == 0);
    for (std::size_t i = 0; i < 4; ++i) {
        REQUIRE(all_finite(t.weights.row(i), 6));
        float sum = 0;
        for (std::size_t j = 0; j < 6; ++j) sum += t.weights(i, j);
        REQUIRE(sum == Approx(1.0f).margin(1e-6));
        REQUIRE(all_finite(t.output.row(i), 2));
    }
    const Matrix big{{1e30f, -1e30f, 0.0f, 1e30f}};
    const Matrix P = softmax(big);
    REQUIRE(P(0, 0) == 0.5f);
    REQUIRE(P(0, 3) == 0.5f);
    REQUIRE(P(0, 1) == 0.0f);
}

TEST_CASE("a mask hides a key whatever its score: NaN and ∞ in hidden keys reach no one", "[numerics][hardening]") {
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

TEST_CASE("the trace reports where a non-finite value entered", "[numerics][hardening]") {
    Matrix Q = random_matrix(3, 4, 31), K = random_matrix(5, 4, 32), V = random_matrix(5, 2, 33);
    SECTION("finite inputs: a clean report") {
        const Trace t = attention(Q, K, V);
        REQUIRE(t.nonfinite.clean());
        REQUIRE(t.nonfinite.entries.empty());
    }
    SECTION("a NaN in Q: listed with its position; every stage after it flagged") {
        Q(2, 1) = kNaN;
        const Trace t = attention(Q, K, V);
        REQUIRE(t.nonfinite.count == 1);
        REQUIRE(t.nonfinite.entries.size() == 1);
        const auto& e = t.nonfinite.entries[0];
        REQUIRE(e.input == "Q");
        REQUIRE(e.row == 2);
        REQUIRE(e.col == 1);
        REQUIRE(std::isnan(e.value));
        REQUIRE(t.nonfinite.stages == std::vector<std::string>{"scores", "scaled", "masked", "weights", "output"});
        REQUIRE(all_finite(t.output.row(0), 2));
        REQUIRE(all_nan(t.output.row(2), 2));
    }
    SECTION("∞ in V only reaches the output stage") {
        V(4, 0) = -kInf;
        const Trace t = attention(Q, K, V);
        REQUIRE(t.nonfinite.count == 1);
        REQUIRE(t.nonfinite.entries[0].input == "V");
        REQUIRE(t.nonfinite.entries[0].value == -kInf);
        REQUIRE(t.nonfinite.stages == std::vector<std::string>{"output"});
    }
    SECTION("−∞ in the mask is a mask, not a non-finite input; NaN there is") {
        Matrix M(3, 5, 0.0f);
        M(0, 0) = -kInf;
        AttentionOptions o;
        o.mask = M;
        REQUIRE(attention(Q, K, V, o).nonfinite.clean());
        M(1, 4) = kNaN;
        o.mask = M;
        const Trace t = attention(Q, K, V, o);
        REQUIRE(t.nonfinite.count == 1);
        REQUIRE(t.nonfinite.entries[0].input == "mask");
        REQUIRE(t.nonfinite.entries[0].row == 1);
        REQUIRE(t.nonfinite.entries[0].col == 4);
        REQUIRE(t.nonfinite.stages.front() == "masked");
    }
    SECTION("finite inputs that overflow: no input listed, the first stage says where") {
        Q = Matrix(2, 2, 1e20f);
        K = Matrix(3, 2, 1e20f);
        const Trace t = attention(Q, K, Matrix(3, 1, 1.0f));
        REQUIRE(t.nonfinite.count == 0);
        REQUIRE_FALSE(t.nonfinite.clean());
        REQUIRE(t.nonfinite.stages.front() == "scores");
    }
    SECTION("many non-finite entries: the first 16 listed, all counted") {
        const Matrix Qn(3, 4, kNaN), Kn(5, 4, kInf);
        const Trace t = attention(Qn, Kn, V);
        REQUIRE(t.nonfinite.count == 12 + 20);
        REQUIRE(t.nonfinite.entries.size() == NonFiniteReport::kMaxListed);
        REQUIRE(t.nonfinite.entries.back().input == "K");
        REQUIRE(t.nonfinite.entries.back().row == 0);
        REQUIRE(t.nonfinite.entries.back().col == 3);
    }
    SECTION("multi-head: inputs X and the weights, stages q..output, and per head") {
        Matrix X = random_matrix(3, 4, 34);
        MultiHeadWeights w{random_matrix(4, 4, 35), random_matrix(4, 4, 36), random_matrix(4, 4, 37), random_matrix(4, 4, 38)};
        w.Wv(1, 3) = kInf;  // column 3 of v: head 2's V only
        MultiHeadOptions o;
        o.heads = 2;
        const MultiHeadTrace t = multi_head_attention(X, w, o);
        REQUIRE(t.nonfinite.count == 1);
        REQUIRE(t.nonfinite.entries[0].input == "W_V");
        REQUIRE(t.nonfinite.stages == std::vector<std::string>{"v", "concat", "output"});
        REQUIRE(t.heads[0].nonfinite.clean());
        REQUIRE(t.heads[1].nonfinite.count == 3);  // the column of head 2's V
        REQUIRE(t.heads[1].nonfinite.entries[0].input == "V");
    }
}

// Regressions from the fuzz targets (inputs kept in tests/fuzz/regressions/).
TEST_CASE("fuzz regression: column blocks of an empty matrix (null data) are valid empty views", "[hardening][fuzz]") {
    // fuzz_multihead: cols_block added an offset to the null pointer of an empty matrix (UB).
    const Matrix empty(0, 4);
    const ConstMatrixView v = empty.cols_block(2, 2);
    REQUIRE(v.rows() == 0);
    REQUIRE(v.cols() == 2);
    REQUIRE(split_heads(empty, 2).size() == 2);
    REQUIRE(Matrix(3, 0).cols_block(0, 0).cols() == 0);
    MultiHeadOptions o;
    o.heads = 2;
    REQUIRE_THROWS_AS(multi_head_attention(empty, {Matrix(4, 4), Matrix(4, 4), Matrix(4, 4), Matrix(4, 2)}, o), ValueError);
}

TEST_CASE("fuzz regression: a huge side with nothing in it is refused, not looped over", "[hardening][fuzz]") {
    // fuzz_sizes: causal_mask(2^28, 0) looped over 2^28 empty rows; (2^64 − 1, 0) never ended.
    REQUIRE(causal_mask(kMaxElements, 0).rows() == kMaxElements);
    REQUIRE_THROWS_AS(causal_mask(kHuge, 0), SizeError);
    REQUIRE_THROWS_AS(Matrix(kHuge, 0), SizeError);
    REQUIRE_THROWS_AS(Matrix(0, kMaxElements + 1), SizeError);
    float x = 0;
    REQUIRE_THROWS_AS(ConstMatrixView(&x, kHuge, 0, 0), SizeError);
    REQUIRE_THROWS_AS(softmax(ConstMatrixView(&x, kHuge, 0, 0)), SizeError);
}

TEST_CASE("fuzz regression: the causal mask hides a key even where the mask holds +∞ or NaN", "[hardening][fuzz]") {
    // fuzz_attention: causal −∞ + mask +∞ gave NaN in a hidden position, and a NaN row.
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
}

TEST_CASE("the core keeps computing correctly after every kind of error", "[errors][hardening]") {
    const auto ex = examples::core_attention();
    REQUIRE_THROWS(attention(ex.Q, Matrix(2, 8), ex.V));
    REQUIRE_THROWS(causal_mask(kHuge, 2));
    REQUIRE_THROWS(split_heads(ex.Q, 3));
    AttentionOptions o;
    o.causal = true;
    const Trace t = attention(ex.Q.cols_block(0, 4), ex.K.cols_block(0, 4), ex.V.cols_block(0, 4), o);
    REQUIRE(t.weights(2, 2) == Approx(0.844).margin(5e-4));
}

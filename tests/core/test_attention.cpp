// Stage: attention() (attention.hpp), every stage kept in its Trace, against the reference;
// how NaN and ±∞ travel, and the Trace's report of where they entered; its errors.
// (The other forward variants and their agreement: test_forward.cpp.)
#include "helpers.hpp"

TEST_CASE("attention keeps every stage and matches the reference", "[attention]") {
    const bool causal = GENERATE(false, true);
    const std::size_t Tq = GENERATE(1, 4, 7), Tk = GENERATE(1, 5, 9), dk = GENERATE(3, 8), dv = GENERATE(1, 5);
    CAPTURE(causal, Tq, Tk, dk, dv);
    const Matrix Q = random_matrix(Tq, dk, 30), K = random_matrix(Tk, dk, 31), V = random_matrix(Tk, dv, 32);
    AttentionOptions o;
    o.causal = causal;
    const Trace got = attention(Q, K, V, o);
    const Trace want = reference::attention(Q, K, V, o);
    REQUIRE(got.scale == Approx(1.0 / std::sqrt(double(dk))));
    require_close(got.scores, want.scores, 1e-5, 1e-5, "scores");
    require_close(got.scaled, want.scaled, 1e-5, 1e-5, "scaled");
    require_close(got.masked, want.masked, 1e-5, 1e-5, "masked");
    require_close(got.weights, want.weights, 1e-5, 1e-6, "weights");
    require_close(got.dropped, got.weights, 0, 0, "no dropout in evaluation mode");
    require_close(got.output, want.output, 1e-5, 1e-5, "output");
}

TEST_CASE("attention with a custom additive mask and a custom scale", "[attention]") {
    const Matrix Q = random_matrix(3, 4, 40), K = random_matrix(5, 4, 41), V = random_matrix(5, 2, 42);
    Matrix M(3, 5, 0.0f);
    M(0, 1) = -INFINITY;
    M(2, 4) = -1.5f;
    AttentionOptions o;
    o.mask = M;
    o.scale = 1.0f;
    const Trace got = attention(Q, K, V, o), want = reference::attention(Q, K, V, o);
    REQUIRE(got.scale == 1.0f);
    require_close(got.masked, want.masked);
    REQUIRE(got.weights(0, 1) == 0.0f);
    require_close(got.output, want.output);
}

TEST_CASE("NaN and +∞ propagate only to the outputs they reach", "[attention]") {
    Matrix Q = random_matrix(4, 4, 90), K = random_matrix(4, 4, 91), V = random_matrix(4, 3, 92);
    SECTION("NaN in one query row poisons that row only") {
        Q(2, 1) = std::numeric_limits<float>::quiet_NaN();
        const Trace t = attention(Q, K, V);
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isnan(t.output(i, j)) == (i == 2));
    }
    SECTION("+∞ in a masked-out Value does not reach earlier tokens") {
        V(3, 0) = std::numeric_limits<float>::infinity();
        AttentionOptions o;
        o.causal = true;
        const Trace t = attention(Q, K, V, o);
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isfinite(t.output(i, j)));
        REQUIRE(std::isinf(t.output(3, 0)));
    }
}

TEST_CASE("the trace reports where a non-finite value entered", "[attention]") {
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
}

// attention() does not scan every stage: masked is clean when scaled is (no additive mask)
// and weights when masked is. Held here against a plain scan of each stage it returns.
TEST_CASE("the trace's stages list equals a scan of every stage", "[attention]") {
    const auto flagged = [](ConstMatrixView m, bool minus_inf_is_mask) {
        for (std::size_t i = 0; i < m.rows(); ++i)
            for (std::size_t j = 0; j < m.cols(); ++j) {
                const float x = m(i, j);
                if (!std::isfinite(x) && !(minus_inf_is_mask && x == -kInf)) return true;
            }
        return false;
    };
    const float specials[] = {kNaN, kInf, -kInf, 1e20f, -1e20f, 3e38f};
    std::uint32_t state = 12345;
    const auto next = [&state] { return (state = state * 1664525u + 1013904223u) >> 8; };  // not the low bits
    for (int n = 0; n < 4000; ++n) {
        const std::size_t Tq = 1 + next() % 4, Tk = 1 + next() % 4, d = 1 + next() % 3;
        Matrix Q = random_matrix(Tq, d, next()), K = random_matrix(Tk, d, next()), V = random_matrix(Tk, 2, next());
        Matrix M(Tq, Tk, 0.0f);
        Matrix* where[] = {&Q, &K, &V, &M};
        for (int k = next() % 4; k > 0; --k) {
            Matrix& m = *where[next() % 4];
            m.data()[next() % m.size()] = specials[next() % 6];
        }
        AttentionOptions o;
        o.causal = next() % 2;
        if (next() % 2) o.mask = M;
        if (next() % 3 == 0) o.scale = next() % 2 ? -1e30f : 1e30f;
        if (next() % 4 == 0) o.dropout = {0.5f, next(), true};
        const Trace t = attention(Q, K, V, o);
        std::vector<std::string> want;
        if (flagged(t.scores, true)) want.push_back("scores");
        if (flagged(t.scaled, true)) want.push_back("scaled");
        if (flagged(t.masked, true)) want.push_back("masked");
        if (flagged(t.weights, false)) want.push_back("weights");
        if (o.dropout.training && flagged(t.dropped, false)) want.push_back("dropped");
        if (flagged(t.output, false)) want.push_back("output");
        INFO("case " << n);
        REQUIRE(t.nonfinite.stages == want);
    }
}

TEST_CASE("attention: typed errors before any work, and the edges that are allowed", "[attention]") {
    const Matrix A(3, 4, 1.0f), B(5, 2, 1.0f);
    REQUIRE_THROWS_AS(attention(A, A, B), ShapeError);
    // T_q x T_k scores past the limit: refused before anything is allocated.
    const Matrix Q(20000, 1, 1.0f);
    REQUIRE_THROWS_AS(attention(Q, Q, Q), SizeError);
    for (float rate : {1.0f, 1.5f, -0.01f, kNaN, kInf}) {
        CAPTURE(rate);
        AttentionOptions o;
        o.dropout.rate = rate;
        REQUIRE_THROWS_AS(attention(A, A, A, o), ValueError);
    }
    REQUIRE_THROWS_WITH(attention(Matrix(3, 0), Matrix(3, 0), A), Contains("d_k = 0"));
    REQUIRE_THROWS_AS(attention(Matrix(0, 4), A, A), ValueError);
    REQUIRE_THROWS_AS(attention(A, Matrix(0, 4), Matrix(0, 4)), ValueError);
    REQUIRE(attention(A, A, Matrix(3, 0)).output.shape() == "3x0");  // d_v = 0
    AttentionOptions zero;
    zero.scale = 0.0f;  // uniform weights
    const Trace t = attention(random_matrix(3, 4, 1), random_matrix(5, 4, 2), random_matrix(5, 2, 3), zero);
    for (std::size_t j = 0; j < 5; ++j) REQUIRE(t.weights(1, j) == Approx(0.2f));
}

// The products of a small call (the page's T = 3, d = 4) skip the packed GEMM's packing
// (core/src/kernels/gemm.cpp, gemm_small) and must give its bits: each entry is the same
// chain of the same madd. Without a mask, a query's row never depends on the other
// queries, so the first rows of a call with many queries (packed) must equal, bit for
// bit, the same call on those rows alone (small), on every instruction set the core builds for.
TEST_CASE("the small-product path gives the packed path's bits", "[attention]") {
    struct Shape {
        std::size_t Tq, Tk, dk, dv;
    };
    const Shape s = GENERATE(Shape{3, 3, 4, 4}, Shape{1, 4, 1, 4}, Shape{2, 5, 7, 3}, Shape{3, 2, 17, 2},
                             Shape{2, 8, 5, 9}, Shape{4, 4, 4, 16}, Shape{3, 7, 3, 17}, Shape{1, 1, 250, 1});
    CAPTURE(s.Tq, s.Tk, s.dk, s.dv);
    const std::size_t many = 120;  // many · Tk · d > the small path's limit
    Matrix Qbig = random_matrix(many, s.dk, 70, -3, 3);
    const Matrix K = random_matrix(s.Tk, s.dk, 71, -3, 3), V = random_matrix(s.Tk, s.dv, 72, -3, 3);
    Qbig(0, 0) = -0.0f;  // signed zeros and exact zeros reach the chains too
    if (s.dk > 1) Qbig(1 % s.Tq, 1) = 0.0f;
    const Matrix Q(ConstMatrixView(Qbig.data(), s.Tq, s.dk, s.dk));
    AttentionOptions o;
    const Trace small = attention(Q, K, V, o), big = attention(Qbig, K, V, o);
    const Matrix out_small = attention_output(Q, K, V, o), out_big = attention_output(Qbig, K, V, o);
    for (std::size_t i = 0; i < s.Tq; ++i) {
        CAPTURE(i);
        REQUIRE(rows_identical(small.scores, big.scores, i));
        REQUIRE(rows_identical(small.weights, big.weights, i));
        REQUIRE(rows_identical(small.output, big.output, i));
        REQUIRE(rows_identical(out_small, out_big, i));
    }
    // The other operand's side: many keys (scores), many Value columns (weighted sum).
    const Matrix Kbig = random_matrix(many, s.dk, 73, -3, 3), Vwide = random_matrix(s.Tk, many, 74, -3, 3);
    const Matrix Kfew(ConstMatrixView(Kbig.data(), s.Tk, s.dk, s.dk));
    const Matrix S_small = scores(Q, Kfew), S_wide = scores(Q, Kbig);
    const Matrix Vfew(Vwide.cols_block(0, s.dv));
    const Matrix O_small = weighted_sum(small.weights, Vfew), O_wide = weighted_sum(small.weights, Vwide);
    for (std::size_t i = 0; i < s.Tq; ++i) {
        CAPTURE(i);
        REQUIRE(std::memcmp(S_small.row(i), S_wide.row(i), s.Tk * sizeof(float)) == 0);
        REQUIRE(std::memcmp(O_small.row(i), O_wide.row(i), s.dv * sizeof(float)) == 0);
    }
}

// Stage: the row softmax (attention.hpp; the rule itself is core/src/kernels/softmax.hpp):
// the max shift, fully masked rows, NaN and +∞, the wrong axis, every intermediate
// (softmax_parts), in the kernel, the scalar reference and the double path alike.
#include "helpers.hpp"

TEST_CASE("softmax matches the reference on swept sizes, by rows and by columns", "[softmax]") {
    const std::size_t Tq = GENERATE(1, 3, 9);
    const std::size_t Tk = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    CAPTURE(Tq, Tk);
    const Matrix S = random_matrix(Tq, Tk, 13, -4, 4);
    const Matrix Sm = add_mask(S, causal_mask(Tq, Tk));
    // xsimd's exp is within ~2 ulp; normalising adds a few more.
    require_close(softmax(Sm, Axis::Rows), reference::softmax(Sm, Axis::Rows), 1e-5, 1e-6, "softmax rows");
    require_close(softmax(S, Axis::Cols), reference::softmax(S, Axis::Cols), 1e-5, 1e-6, "softmax cols");
    require_close(f64::softmax(f64::MatrixD(Sm)).to_float(), reference::softmax(Sm), 1e-6, 1e-7, "double path");
}

TEST_CASE("a fully masked row gives zero weights and a zero output row", "[softmax]") {
    const Matrix Q = random_matrix(3, 4, 70), K = random_matrix(3, 4, 71), V = random_matrix(3, 5, 72, 1, 2);
    Matrix M(3, 3, 0.0f);
    for (std::size_t j = 0; j < 3; ++j) M(1, j) = -INFINITY;
    AttentionOptions o;
    o.mask = M;
    const Trace t = attention(Q, K, V, o);
    for (std::size_t j = 0; j < 3; ++j) REQUIRE(t.weights(1, j) == 0.0f);
    for (std::size_t j = 0; j < 5; ++j) REQUIRE(t.output(1, j) == 0.0f);
    for (std::size_t i : {0, 2}) {
        float sum = 0;
        for (std::size_t j = 0; j < 3; ++j) sum += t.weights(i, j);
        REQUIRE_THAT(sum, WithinAbs(1.0, 1e-6));
    }
    // Same rule for a column under the wrong-axis softmax, and for a long row (vector path).
    const Matrix allmasked(2, 19, -INFINITY);
    const Matrix P = softmax(allmasked);
    for (std::size_t j = 0; j < 19; ++j) REQUIRE(P(0, j) == 0.0f);
    REQUIRE(softmax(allmasked, Axis::Cols)(1, 18) == 0.0f);
}

TEST_CASE("softmax never overflows: logits of ±1e30 and ±3e38, directly and through attention", "[softmax]") {
    for (const float big : {1e30f, 3e38f, -3e38f}) {
        CAPTURE(big);
        const Matrix P = softmax(Matrix{{big, 0.0f, -big, big / 2}});
        float sum = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            REQUIRE(std::isfinite(P(0, j)));
            sum += P(0, j);
        }
        REQUIRE_THAT(sum, Catch::Matchers::WithinAbs(1.0, 1e-6));
    }
    const Matrix Q = random_matrix(4, 3, 11), K = random_matrix(6, 3, 12), V = random_matrix(6, 2, 13);
    for (const float s : {1e30f, -1e30f, 3e38f}) {
        CAPTURE(s);
        AttentionOptions o;
        o.scale = s;
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
    }
    const Matrix P = softmax(Matrix{{1e30f, -1e30f, 0.0f, 1e30f}});
    REQUIRE(P(0, 0) == 0.5f);
    REQUIRE(P(0, 3) == 0.5f);
    REQUIRE(P(0, 1) == 0.0f);
}

TEST_CASE("softmax rows sum to 1, the wrong axis makes columns sum to 1 instead", "[softmax]") {
    const Matrix S = random_matrix(4, 6, 80, -5, 5);
    const Matrix Pr = softmax(S, Axis::Rows), Pc = softmax(S, Axis::Cols);
    REQUIRE(Pc.shape() == Pr.shape());
    bool some_row_off = false;
    for (std::size_t i = 0; i < 4; ++i) {
        float r = 0, c = 0;
        for (std::size_t j = 0; j < 6; ++j) {
            REQUIRE(Pr(i, j) > 0.0f);
            r += Pr(i, j);
            c += Pc(i, j);
        }
        REQUIRE_THAT(r, WithinAbs(1.0, 1e-6));
        some_row_off = some_row_off || std::abs(c - 1.0f) > 1e-3f;
    }
    REQUIRE(some_row_off);
    for (std::size_t j = 0; j < 6; ++j) {
        float c = 0;
        for (std::size_t i = 0; i < 4; ++i) c += Pc(i, j);
        REQUIRE_THAT(c, WithinAbs(1.0, 1e-6));
    }
}

TEST_CASE("softmax: a NaN or +∞ makes its whole row NaN, also in a fully masked row, other rows untouched", "[softmax]") {
    // In the kernel, the scalar reference and the double path alike. (The double path gave a
    // zero row for a fully masked row holding a NaN until the rule moved into one kernel.)
    const float bad = GENERATE(kNaN, kInf);
    const std::size_t n = GENERATE(3, 19);  // scalar tail only, and vector loop + tail
    CAPTURE(bad, n);
    Matrix S = random_matrix(4, n, 5, -3, 3);
    S(1, n - 1) = bad;
    for (std::size_t j = 0; j < n; ++j) S(2, j) = -kInf;
    S(2, 0) = bad;  // "fully masked" but for the NaN / +∞: still a NaN row
    for (const Matrix& P : {softmax(S), reference::softmax(S), f64::softmax(f64::MatrixD(S)).to_float()}) {
        REQUIRE(all_nan(P.row(1), n));
        REQUIRE(all_nan(P.row(2), n));
        REQUIRE(all_finite(P.row(0), n));
        REQUIRE(all_finite(P.row(3), n));
    }
    require_close(softmax(S), reference::softmax(S), 1e-5, 1e-6);
    // A row that is −∞ but for a NaN, and an all −∞ row, in the three.
    const Matrix T{{-kInf, kNaN, -kInf}, {-kInf, -kInf, -kInf}, {1.0f, kNaN, 2.0f}};
    for (const Matrix& P : {softmax(T), reference::softmax(T), f64::softmax(f64::MatrixD(T)).to_float()})
        for (std::size_t j = 0; j < 3; ++j) {
            REQUIRE(std::isnan(P(0, j)));
            REQUIRE(P(1, j) == 0.0f);
            REQUIRE(std::isnan(P(2, j)));
        }
}

TEST_CASE("property: rows of P sum to 1, or are all 0 when fully masked, hidden keys get exactly 0", "[softmax][property]") {
    for (std::uint32_t seed = 1; seed <= 300; ++seed) {
        const Case c = random_case(seed);
        CAPTURE(seed, c.Q.shape(), c.K.shape(), c.o.causal, bool(c.o.mask));
        const Trace t = attention(c.Q, c.K, c.V, c.o);
        REQUIRE(t.nonfinite.clean());
        for (std::size_t i = 0; i < t.weights.rows(); ++i) {
            CAPTURE(i);
            double sum = 0;
            std::size_t seen = 0;
            for (std::size_t j = 0; j < t.weights.cols(); ++j) {
                const float p = t.weights(i, j);
                REQUIRE(p >= 0.0f);
                REQUIRE(p <= 1.0f);
                if (visible(c.o, i, j)) ++seen;
                else REQUIRE(p == 0.0f);
                sum += p;
            }
            if (seen == 0) {
                REQUIRE(sum == 0.0);
                for (std::size_t k = 0; k < t.output.cols(); ++k) REQUIRE(t.output(i, k) == 0.0f);
            } else {
                // ≤ 24 float terms, each within a few ulps after exp and one division.
                REQUIRE_THAT(sum, Catch::Matchers::WithinAbs(1.0, 1e-5));
            }
        }
    }
}

TEST_CASE("softmax_parts: every intermediate, consistent with softmax", "[softmax]") {
    const std::size_t cols = GENERATE(from_range(std::begin(kSizes), std::end(kSizes)));
    const Matrix S = random_matrix(3, cols, 800 + std::uint32_t(cols), -6, 6);
    for (Axis axis : {Axis::Rows, Axis::Cols}) {
        INFO("cols " << cols << (axis == Axis::Rows ? " rows" : " cols"));
        const SoftmaxParts p = softmax_parts(S, axis);
        const SoftmaxParts r = reference::softmax_parts(S, axis);
        // The weights are exactly those of softmax (attention's).
        require_close(p.weights, softmax(S, axis), 0, 0, "weights");
        require_close(p.max, r.max, 0, 0, "max");
        require_close(p.shifted, r.shifted, 1e-6, 1e-6, "shifted");
        require_close(p.exp, r.exp, 1e-5, 1e-6, "exp");
        require_close(p.sums, r.sums, 1e-5, 1e-5, "sums");
        require_close(p.exp_raw, r.exp_raw, 1e-6, 1e-9, "exp_raw");
        require_close(p.sums_raw, r.sums_raw, 1e-6, 1e-9, "sums_raw");
        // e / Σe = e_raw / Σe_raw = weights.
        for (std::size_t i = 0; i < S.rows(); ++i)
            for (std::size_t j = 0; j < S.cols(); ++j) {
                const std::size_t o = axis == Axis::Rows ? i : j;
                const float sum = axis == Axis::Rows ? p.sums(o, 0) : p.sums(0, o);
                const float raw = axis == Axis::Rows ? p.sums_raw(o, 0) : p.sums_raw(0, o);
                REQUIRE_THAT(p.exp(i, j) / sum, WithinAbs(p.weights(i, j), 1e-6));
                REQUIRE_THAT(p.exp_raw(i, j) / raw, WithinAbs(p.weights(i, j), 1e-6));
                REQUIRE(p.exp(i, j) > 0.0f);
                REQUIRE(p.exp(i, j) <= 1.0f);  // shifted by the max: e^{≤0}
            }
    }
    // Shapes of the per-row / per-column vectors.
    REQUIRE(softmax_parts(S, Axis::Rows).sums.shape() == "3x1");
    REQUIRE(softmax_parts(S, Axis::Cols).sums.shape() == shape_str(1, cols));
}

TEST_CASE("softmax_parts: huge scores overflow e^x but not the shifted path, masked rows", "[softmax]") {
    const SoftmaxParts p = softmax_parts(Matrix{{100, 0, -INFINITY}, {-INFINITY, -INFINITY, -INFINITY}});
    REQUIRE(std::isinf(p.exp_raw(0, 0)));
    REQUIRE(std::isinf(p.sums_raw(0, 0)));
    REQUIRE(p.exp(0, 0) == 1.0f);
    REQUIRE(p.exp(0, 2) == 0.0f);
    REQUIRE(std::isfinite(p.sums(0, 0)));
    REQUIRE(p.weights(0, 2) == 0.0f);
    // Fully masked row: no NaN anywhere, zero exps and weights.
    for (std::size_t j = 0; j < 3; ++j) {
        REQUIRE(p.exp(1, j) == 0.0f);
        REQUIRE(p.weights(1, j) == 0.0f);
        REQUIRE(p.shifted(1, j) == -INFINITY);
    }
    REQUIRE(p.sums(1, 0) == 0.0f);
    REQUIRE(p.max(1, 0) == -INFINITY);
}

TEST_CASE("softmax_parts of a row holding a NaN: NaN sums and weights, as softmax", "[softmax]") {
    const SoftmaxParts p = softmax_parts(Matrix{{-kInf, kNaN, -kInf}, {1.0f, kNaN, 0.0f}});
    const SoftmaxParts r = reference::softmax_parts(Matrix{{-kInf, kNaN, -kInf}, {1.0f, kNaN, 0.0f}});
    for (const SoftmaxParts* q : {&p, &r})
        for (std::size_t i = 0; i < 2; ++i) {
            REQUIRE(std::isnan(q->sums(i, 0)));
            REQUIRE(all_nan(q->weights.row(i), 3));
        }
    REQUIRE(p.exp(0, 0) == 0.0f);  // a hidden key's exp is 0 even in that row
}

TEST_CASE("softmax: typed errors and allowed edges", "[softmax]") {
    REQUIRE_THROWS_AS(softmax(Matrix(3, 4), static_cast<Axis>(7)), ValueError);
    REQUIRE(softmax(Matrix(3, 0)).shape() == "3x0");
}

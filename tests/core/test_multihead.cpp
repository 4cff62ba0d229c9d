// Stage: multi-head attention (multihead.hpp): split and concat, against single-head
// reference calls on explicit slices, heads that do not divide, causal independence through
// the heads, the non-finite report, the chapters' examples (projections, one head vs two).
#include "helpers.hpp"

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
        require_close(concat_heads(parts), reference::concat_heads(reference::split_heads(X, h)), 0, 0, "reference");
    }
}

TEST_CASE("h that does not divide d_model is a clear error, everywhere", "[multihead]") {
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

TEST_CASE("multi_head_attention equals single-head reference calls on explicit slices", "[multihead]") {
    struct Case {
        std::size_t T, d_model, dk, dv, dout;
    };
    const Case c = GENERATE(Case{1, 4, 4, 4, 4}, Case{3, 8, 8, 8, 8}, Case{6, 8, 8, 8, 8}, Case{7, 6, 12, 6, 5}, Case{5, 12, 12, 24, 3});
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

TEST_CASE("causal: perturbing a later token leaves earlier outputs bit-identical", "[multihead]") {
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

TEST_CASE("multi_head_attention rejects weights that do not chain", "[multihead]") {
    const Matrix X(3, 8, 1.0f);
    MultiHeadOptions o;
    o.heads = 2;
    REQUIRE_THROWS_AS(multi_head_attention(X, {Matrix(4, 8), Matrix(8, 8), Matrix(8, 8), Matrix(8, 8)}, o), ShapeError);
    REQUIRE_THROWS_AS(multi_head_attention(X, {Matrix(8, 8), Matrix(8, 8), Matrix(8, 8), Matrix(6, 8)}, o), ShapeError);
    o.heads = 3;
    REQUIRE_THROWS_AS(multi_head_attention(X, {Matrix(8, 8), Matrix(8, 8), Matrix(8, 8), Matrix(8, 8)}, o), ValueError);
}

TEST_CASE("multi-head: the non-finite report lists X and the weights, and each head its own", "[multihead]") {
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

TEST_CASE("multi-head: typed errors for heads and rates", "[multihead]") {
    const Matrix A(3, 4, 1.0f);
    REQUIRE_THROWS_AS(concat_heads({Matrix(2, 2), Matrix(3, 2)}), ShapeError);
    REQUIRE_THROWS_AS(concat_heads({}), ValueError);
    REQUIRE_THROWS_WITH(split_heads(Matrix(3, 8), 3), Contains("do not divide"));
    REQUIRE_THROWS_AS(split_heads(Matrix(3, 8), 0), ValueError);
    REQUIRE_THROWS_WITH(split_heads(Matrix(3, 8), 16), Contains("more than"));
    // A huge head count on an empty width used to loop for ever; now refused.
    REQUIRE_THROWS_AS(split_heads(Matrix(3, 0), kHuge), ValueError);
    MultiHeadOptions mo;
    mo.heads = kHuge;
    REQUIRE_THROWS_AS(multi_head_attention(A, {Matrix(4, 0), Matrix(4, 0), Matrix(4, 0), Matrix(0, 2)}, mo), ValueError);
    for (float rate : {1.0f, 1.5f, -0.01f, kNaN, kInf}) {
        CAPTURE(rate);
        MultiHeadOptions r;
        r.dropout.rate = rate;
        REQUIRE_THROWS_AS(multi_head_attention(A, {Matrix(4, 4), Matrix(4, 4), Matrix(4, 4), Matrix(4, 4)}, r), ValueError);
    }
}

TEST_CASE("projections: shapes of Q, K, V and the context vectors", "[multihead]") {
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

TEST_CASE("one-head example: one distribution splits, two heads each focus", "[multihead]") {
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

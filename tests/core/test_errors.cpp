// Stage: the error contract every public function keeps (errors.hpp): typed errors whose
// messages name the function and both shapes, and a core that keeps computing correctly
// after any of them. (Each stage's own errors are in its test file.)
#include "helpers.hpp"

TEST_CASE("shape mismatches throw ShapeError naming both shapes", "[errors]") {
    const Matrix A(3, 4), B(5, 2), Q(3, 4), K(3, 5), V(4, 2), P(3, 3);
    REQUIRE_THROWS_MATCHES(matmul(A, B), ShapeError, Catch::Message(
        "matmul: A is 3x4 and B is 5x2; A's columns must equal B's rows"));
    REQUIRE_THROWS_WITH(matmul_bt(A, B), Contains("3x4") && Contains("5x2"));
    REQUIRE_THROWS_AS(scores(Q, K), ShapeError);
    REQUIRE_THROWS_WITH(scores(Q, K), Contains("Q is 3x4") && Contains("K is 3x5"));
    REQUIRE_THROWS_WITH(weighted_sum(P, V), Contains("P is 3x3") && Contains("V is 4x2"));
    REQUIRE_THROWS_WITH(add_mask(P, Matrix(3, 2)), Contains("3x3") && Contains("3x2"));
    REQUIRE_THROWS_WITH(attention(Q, Matrix(3, 4), V), Contains("K is 3x4") && Contains("V is 4x2"));
    AttentionOptions o;
    o.mask = Matrix(2, 2);
    REQUIRE_THROWS_WITH(attention(Q, Q, Matrix(3, 1), o), Contains("mask is 2x2") && Contains("3x3"));
    // ShapeError is a std::invalid_argument.
    REQUIRE_THROWS_AS(matmul(A, B), std::invalid_argument);
}

TEST_CASE("out-of-range options throw ValueError", "[errors]") {
    const Matrix Q(2, 4, 1.0f);
    AttentionOptions o;
    o.scale = INFINITY;
    REQUIRE_THROWS_AS(attention(Q, Q, Q, o), ValueError);
    REQUIRE_THROWS_AS(scale(Q, NAN), ValueError);
    AttentionOptions d;
    d.dropout.rate = 1.0f;
    REQUIRE_THROWS_WITH(attention(Q, Q, Q, d), Contains("[0, 1)"));
    d.dropout.rate = -0.1f;
    REQUIRE_THROWS_AS(attention(Q, Q, Q, d), ValueError);
    REQUIRE_THROWS_WITH(attention(Matrix(2, 0), Matrix(2, 0), Q), Contains("d_k = 0"));
    REQUIRE_THROWS_AS(attention(Matrix(0, 4), Q, Q), ValueError);
    REQUIRE_THROWS_WITH(split_heads(Matrix(3, 8), 3), Contains("3 heads do not divide"));
    REQUIRE_THROWS_AS(split_heads(Matrix(3, 8), 0), ValueError);
}

TEST_CASE("the core keeps computing correctly after every kind of error", "[errors]") {
    const auto ex = examples::core_attention();
    REQUIRE_THROWS(scores(ex.Q, Matrix(3, 5)));
    require_close(scores(ex.Q, ex.K), reference::scores(ex.Q, ex.K), 0, 0);
    REQUIRE_THROWS(attention(ex.Q, Matrix(2, 8), ex.V));
    REQUIRE_THROWS(causal_mask(kHuge, 2));
    REQUIRE_THROWS(split_heads(ex.Q, 3));
    AttentionOptions o;
    o.causal = true;
    const Trace t = attention(ex.Q.cols_block(0, 4), ex.K.cols_block(0, 4), ex.V.cols_block(0, 4), o);
    REQUIRE(t.weights(2, 2) == Approx(0.844).margin(5e-4));
}

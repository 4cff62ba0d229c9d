// Stage: the backward passes (grad.hpp): every backward stage, the softmax Jacobian and
// the whole model's gradient against central finite differences in double precision.
//
// Tolerance model. For L(x) = Σ G ⊙ f(x) in double, the central difference
// (L(x + h e_k) − L(x − h e_k)) / 2h has truncation error h²·|∂³L|/6 and rounding error
// about ε·|L|/h (ε = 2⁻⁵² ≈ 2.2e-16). With h = 1e-5 and O(1) inputs both are below 1e-8,
// so each entry must satisfy |analytic − numeric| ≤ 1e-4 · max(|analytic|, |numeric|) + 1e-8
// (relative error under 1e-4; the absolute 1e-8 covers entries whose true value is 0).
// The float path (the one the page trains with) is then compared with the double path on
// the same inputs at float precision: |float − double| ≤ 1e-4 · max|double| + 1e-4 · |double|.
#include <algorithm>
#include <functional>
#include <limits>

#include "helpers.hpp"

using attn::f64::MatrixD;

namespace {

constexpr double kStep = 1e-5;
constexpr double kRel = 1e-4;
constexpr double kAbs = 1e-8;

MatrixD rnd(std::size_t r, std::size_t c, std::uint32_t seed, double lo = -1, double hi = 1) {
    return MatrixD(random_matrix(r, c, seed, float(lo), float(hi)));
}

double dot(const MatrixD& a, const MatrixD& b) {
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.cols() == b.cols());
    double s = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (b.data()[k] != 0) s += a.data()[k] * b.data()[k];  // 0·(−∞) counts as 0: masked entries
    return s;
}

// Compares `analytic` with the central difference of loss() over every entry of x
// (x is perturbed in place and restored).
void check_gradient(MatrixD& x, const std::function<double()>& loss, const MatrixD& analytic, const std::string& what) {
    INFO(what << ": x is " << x.shape() << ", gradient is " << analytic.shape());
    REQUIRE(analytic.rows() == x.rows());
    REQUIRE(analytic.cols() == x.cols());
    for (std::size_t k = 0; k < x.size(); ++k) {
        const double x0 = x.data()[k];
        if (!std::isfinite(x0)) continue;
        x.data()[k] = x0 + kStep;
        const double up = loss();
        x.data()[k] = x0 - kStep;
        const double down = loss();
        x.data()[k] = x0;
        const double numeric = (up - down) / (2 * kStep), a = analytic.data()[k];
        INFO("entry " << k << " (" << k / x.cols() << ", " << k % x.cols() << "): analytic " << a << ", numeric "
                      << numeric);
        REQUIRE(std::abs(a - numeric) <= kRel * std::max(std::abs(a), std::abs(numeric)) + kAbs);
    }
}

void require_float_matches(ConstMatrixView got, const MatrixD& want, const std::string& what) {
    INFO(what << ": float " << got.shape() << " vs double " << want.shape());
    REQUIRE(got.rows() == want.rows());
    REQUIRE(got.cols() == want.cols());
    double m = 0;
    for (std::size_t k = 0; k < want.size(); ++k) m = std::max(m, std::abs(want.data()[k]));
    for (std::size_t i = 0; i < want.rows(); ++i)
        for (std::size_t j = 0; j < want.cols(); ++j) {
            INFO("entry (" << i << ", " << j << "): float " << got(i, j) << ", double " << want(i, j));
            REQUIRE(std::abs(double(got(i, j)) - want(i, j)) <= 1e-4 * m + 1e-4 * std::abs(want(i, j)));
        }
}

struct Shape {
    std::size_t m, k, n;
};
const Shape kShapes[] = {{1, 1, 1}, {2, 3, 4}, {3, 5, 2}, {5, 4, 7}, {4, 9, 3}};

}  // namespace

TEST_CASE("matmul and matmul_bt backward match finite differences", "[grad]") {
    const Shape s = GENERATE(from_range(std::begin(kShapes), std::end(kShapes)));
    CAPTURE(s.m, s.k, s.n);
    MatrixD A = rnd(s.m, s.k, 1), B = rnd(s.k, s.n, 2), G = rnd(s.m, s.n, 3), Bt = rnd(s.n, s.k, 4);
    const auto g = f64::matmul_backward(A, B, G);
    check_gradient(A, [&] { return dot(f64::matmul(A, B), G); }, g.dA, "matmul dA");
    check_gradient(B, [&] { return dot(f64::matmul(A, B), G); }, g.dB, "matmul dB");
    const auto gt = f64::matmul_bt_backward(A, Bt, G);
    check_gradient(A, [&] { return dot(f64::matmul_bt(A, Bt), G); }, gt.dA, "matmul_bt dA");
    check_gradient(Bt, [&] { return dot(f64::matmul_bt(A, Bt), G); }, gt.dB, "matmul_bt dB");
    // the float path (xsimd products)
    const auto gf = matmul_backward(A.to_float(), B.to_float(), G.to_float());
    require_float_matches(gf.dA, g.dA, "float matmul dA");
    require_float_matches(gf.dB, g.dB, "float matmul dB");
    const auto gtf = matmul_bt_backward(A.to_float(), Bt.to_float(), G.to_float());
    require_float_matches(gtf.dA, gt.dA, "float matmul_bt dA");
    require_float_matches(gtf.dB, gt.dB, "float matmul_bt dB");
}

TEST_CASE("scale and additive-mask backward", "[grad]") {
    MatrixD S = rnd(4, 5, 5), G = rnd(4, 5, 6);
    const double f = 0.35;
    const auto scaled = [&] {
        MatrixD Y(S.rows(), S.cols());
        for (std::size_t k = 0; k < S.size(); ++k) Y.data()[k] = f * S.data()[k];
        return Y;
    };
    check_gradient(S, [&] { return dot(scaled(), G); }, f64::scale_backward(G, f), "scale");
    require_float_matches(scale_backward(G.to_float(), float(f)), f64::scale_backward(G, f), "float scale");

    // mask: 0 keeps, −∞ hides; the masked entries receive no gradient
    MatrixD M(4, 5, 0.0);
    M(0, 3) = M(1, 4) = M(3, 0) = -std::numeric_limits<double>::infinity();
    const auto masked_sum = [&] {
        MatrixD Y(S.rows(), S.cols());
        for (std::size_t k = 0; k < S.size(); ++k) Y.data()[k] = S.data()[k] + M.data()[k];
        return dot(f64::softmax(Y), G);  // through softmax, so the loss stays finite
    };
    MatrixD Y(S.rows(), S.cols());
    for (std::size_t k = 0; k < S.size(); ++k) Y.data()[k] = S.data()[k] + M.data()[k];
    const MatrixD dY = f64::softmax_backward(f64::softmax(Y), G);
    const MatrixD dS = f64::add_mask_backward(M, dY);
    check_gradient(S, masked_sum, dS, "add_mask");
    REQUIRE(dS(0, 3) == 0.0);
    REQUIRE(dS(3, 0) == 0.0);
    require_float_matches(add_mask_backward(M.to_float(), dY.to_float()), dS, "float add_mask");
    REQUIRE_THROWS_AS(add_mask_backward(Matrix(2, 2), Matrix(2, 3)), ShapeError);
}

TEST_CASE("softmax backward is the full Jacobian-vector product", "[grad]") {
    const std::size_t r = GENERATE(1, 3), c = GENERATE(1, 2, 5, 8);
    CAPTURE(r, c);
    MatrixD Z = rnd(r, c, 7, -3, 3), G = rnd(r, c, 8);
    const MatrixD P = f64::softmax(Z);
    const MatrixD dZ = f64::softmax_backward(P, G);
    check_gradient(Z, [&] { return dot(f64::softmax(Z), G); }, dZ, "softmax");
    require_float_matches(softmax_backward(P.to_float(), G.to_float()), dZ, "float softmax");

    // Row by row it is Jᵀ g with J = diag(p) − p pᵀ, and the diagonal p(1 − p) alone is not enough.
    for (std::size_t i = 0; i < r; ++i) {
        MatrixD p(1, c), g(1, c);
        for (std::size_t j = 0; j < c; ++j) p(0, j) = P(i, j), g(0, j) = G(i, j);
        const MatrixD J = f64::softmax_jacobian(p);
        double diag_only_error = 0;
        for (std::size_t j = 0; j < c; ++j) {
            double jtg = 0;
            for (std::size_t k = 0; k < c; ++k) jtg += J(k, j) * g(0, k);
            REQUIRE(std::abs(jtg - dZ(i, j)) <= 1e-12);
            REQUIRE(J(j, j) == Approx(p(0, j) * (1 - p(0, j))).epsilon(1e-12));
            diag_only_error = std::max(diag_only_error, std::abs(p(0, j) * (1 - p(0, j)) * g(0, j) - dZ(i, j)));
        }
        if (c > 1) REQUIRE(diag_only_error > 1e-3);  // the off-diagonal terms matter
    }
}

TEST_CASE("softmax backward with masked entries and fully masked rows", "[grad]") {
    const double inf = std::numeric_limits<double>::infinity();
    MatrixD Z = rnd(3, 4, 9, -2, 2), G = rnd(3, 4, 10);
    Z(0, 2) = Z(0, 3) = -inf;
    for (std::size_t j = 0; j < 4; ++j) Z(2, j) = -inf;  // fully masked: zero weights, zero gradient
    const MatrixD P = f64::softmax(Z);
    const MatrixD dZ = f64::softmax_backward(P, G);
    check_gradient(Z, [&] { return dot(f64::softmax(Z), G); }, dZ, "masked softmax");
    for (std::size_t j = 0; j < 4; ++j) REQUIRE(dZ(2, j) == 0.0);
    REQUIRE(dZ(0, 2) == 0.0);
    const Matrix dZf = softmax_backward(P.to_float(), G.to_float());
    REQUIRE(dZf(0, 3) == 0.0f);
    REQUIRE(std::isfinite(dZf(2, 0)));
}

TEST_CASE("weighted sum backward", "[grad]") {
    const Shape s = GENERATE(from_range(std::begin(kShapes), std::end(kShapes)));
    CAPTURE(s.m, s.k, s.n);
    MatrixD P = rnd(s.m, s.k, 11, 0, 1), V = rnd(s.k, s.n, 12), G = rnd(s.m, s.n, 13);
    const auto g = f64::weighted_sum_backward(P, V, G);
    check_gradient(P, [&] { return dot(f64::matmul(P, V), G); }, g.dA, "weighted_sum dP");
    check_gradient(V, [&] { return dot(f64::matmul(P, V), G); }, g.dB, "weighted_sum dV");
    const auto gf = weighted_sum_backward(P.to_float(), V.to_float(), G.to_float());
    require_float_matches(gf.dA, g.dA, "float weighted_sum dP");
    require_float_matches(gf.dB, g.dB, "float weighted_sum dV");
    REQUIRE_THROWS_AS(weighted_sum_backward(Matrix(2, 3), Matrix(4, 2), Matrix(2, 2)), ShapeError);
}

TEST_CASE("dropout backward uses the forward's seeded mask", "[grad]") {
    const float rate = GENERATE(0.0f, 0.25f, 0.5f);
    CAPTURE(rate);
    MatrixD X = rnd(6, 7, 14, 0, 1), G = rnd(6, 7, 15);
    const std::uint64_t seed = 42;
    const MatrixD dX = f64::dropout_backward(G, rate, seed);
    check_gradient(X, [&] { return dot(f64::dropout(X, rate, seed), G); }, dX, "dropout");
    require_float_matches(dropout_backward(G.to_float(), rate, seed), dX, "float dropout");
    // dropped entries get exactly 0, kept ones 1/(1 − rate)
    const Matrix Y = dropout(Matrix(6, 7, 1.0f), rate, seed);
    const Matrix dXf = dropout_backward(Matrix(6, 7, 1.0f), rate, seed);
    for (std::size_t i = 0; i < 6; ++i)
        for (std::size_t j = 0; j < 7; ++j) REQUIRE(dXf(i, j) == Y(i, j));
    REQUIRE_THROWS_AS(dropout_backward(Matrix(2, 2), 1.0f, 0), ValueError);
}

TEST_CASE("head split/concat, bias, relu and embedding backward", "[grad]") {
    // concat_heads(split) is the identity, so their backward passes are each other.
    MatrixD X = rnd(3, 8, 16), G = rnd(3, 8, 17);
    const auto parts = f64::concat_heads_backward(G, 2);
    REQUIRE(parts.size() == 2);
    REQUIRE(parts[1](2, 3) == G(2, 7));
    const MatrixD back = f64::split_heads_backward(parts);
    for (std::size_t k = 0; k < G.size(); ++k) REQUIRE(back.data()[k] == G.data()[k]);
    // split_heads: L = Σ_h <G_h, X_h> has gradient concat(G_h)
    check_gradient(X, [&] {
        double s = 0;
        const auto xs = f64::concat_heads_backward(X, 2);  // the split, in double
        for (std::size_t h = 0; h < 2; ++h) s += dot(xs[h], parts[h]);
        return s;
    }, back, "split_heads");
    const auto fparts = concat_heads_backward(G.to_float(), 4);
    REQUIRE(fparts.size() == 4);
    REQUIRE_THROWS_AS(concat_heads_backward(G.to_float(), 3), ValueError);

    // bias: Y = X + 1 bᵀ
    MatrixD b = rnd(1, 8, 18);
    const auto with_bias = [&] {
        MatrixD Y = X;
        for (std::size_t i = 0; i < Y.rows(); ++i)
            for (std::size_t j = 0; j < Y.cols(); ++j) Y(i, j) += b(0, j);
        return dot(Y, G);
    };
    check_gradient(b, with_bias, f64::bias_backward(G), "bias");
    require_float_matches(bias_backward(G.to_float()), f64::bias_backward(G), "float bias");

    // relu: inputs kept at least 0.05 away from the kink at 0 (|h| = 1e-5 never crosses it)
    MatrixD R = rnd(4, 6, 19);
    for (std::size_t k = 0; k < R.size(); ++k)
        if (std::abs(R.data()[k]) < 0.05) R.data()[k] = 0.05;
    MatrixD GR = rnd(4, 6, 20);
    check_gradient(R, [&] { return dot(f64::relu(R), GR); }, f64::relu_backward(R, GR), "relu");
    require_float_matches(relu_backward(R.to_float(), GR.to_float()), f64::relu_backward(R, GR), "float relu");

    // embedding: repeated tokens add their rows' gradients
    const std::vector<int> tokens = {2, 0, 2, 4, 1, 2};
    MatrixD E = rnd(5, 3, 21), GE = rnd(6, 3, 22);
    const MatrixD dE = f64::embedding_backward(tokens, GE, 5);
    check_gradient(E, [&] { return dot(f64::embedding(tokens, E), GE); }, dE, "embedding");
    REQUIRE(dE(3, 0) == 0.0);  // token 3 never appears
    require_float_matches(embedding_backward(tokens, GE.to_float(), 5), dE, "float embedding");
    REQUIRE_THROWS_AS(embedding_backward({0, 5}, Matrix(2, 3), 5), ValueError);
    REQUIRE_THROWS_AS(embedding_backward({0}, Matrix(2, 3), 5), ShapeError);
}

TEST_CASE("layer norm: forward by hand, backward against finite differences", "[grad]") {
    // forward: a row of known mean and variance
    const MatrixD x(Matrix{{1.0f, 2.0f, 3.0f, 6.0f}});  // mean 3, population variance 3.5
    const MatrixD g(Matrix{{1.0f, 2.0f, 0.5f, -1.0f}}), b(Matrix{{0.0f, 1.0f, -1.0f, 0.5f}});
    const MatrixD y = f64::layer_norm(x, g, b, 1e-5);
    const double r = 1.0 / std::sqrt(3.5 + 1e-5);
    const double want[] = {-2 * r * 1.0 + 0.0, -1 * r * 2.0 + 1.0, 0.0 * 0.5 - 1.0, 3 * r * -1.0 + 0.5};
    for (std::size_t j = 0; j < 4; ++j) REQUIRE(y(0, j) == Approx(want[j]).epsilon(1e-12));
    // with gain 1 and bias 0 every row has mean 0 and variance ≈ 1
    MatrixD X = rnd(5, 7, 40, -3, 3);
    MatrixD ones(1, 7), zeros(1, 7);
    for (std::size_t j = 0; j < 7; ++j) ones(0, j) = 1.0;
    const MatrixD Y = f64::layer_norm(X, ones, zeros, 1e-5);
    for (std::size_t i = 0; i < 5; ++i) {
        double m = 0, v = 0;
        for (std::size_t j = 0; j < 7; ++j) m += Y(i, j) / 7;
        for (std::size_t j = 0; j < 7; ++j) v += (Y(i, j) - m) * (Y(i, j) - m) / 7;
        REQUIRE(m == Approx(0.0).margin(1e-12));
        REQUIRE(v == Approx(1.0).epsilon(1e-4));
    }
    // backward: every input, the gain and the bias
    MatrixD gain = rnd(1, 7, 41, 0.5, 1.5), bias = rnd(1, 7, 42), G = rnd(5, 7, 43);
    const auto grads = f64::layer_norm_backward(X, gain, G, 1e-5);
    const auto loss = [&] { return dot(f64::layer_norm(X, gain, bias, 1e-5), G); };
    check_gradient(X, loss, grads.dX, "layer_norm dX");
    check_gradient(gain, loss, grads.dgain, "layer_norm dgain");
    check_gradient(bias, loss, grads.dbias, "layer_norm dbias");
    // the float path
    const auto gf = layer_norm_backward(X.to_float(), gain.to_float(), G.to_float());
    require_float_matches(gf.dX, grads.dX, "float layer_norm dX");
    require_float_matches(gf.dgain, grads.dgain, "float layer_norm dgain");
    require_float_matches(layer_norm(X.to_float(), gain.to_float(), bias.to_float()),
                          f64::layer_norm(X, gain, bias, 1e-5), "float layer_norm");
    // a constant row: x̂ = 0, the output is the bias, nothing divides by zero
    const Matrix c = layer_norm(Matrix{{2.0f, 2.0f, 2.0f}}, Matrix{{1.0f, 1.0f, 1.0f}}, Matrix{{0.5f, 0.0f, -0.5f}});
    REQUIRE(c(0, 0) == 0.5f);
    REQUIRE(c(0, 2) == -0.5f);
    // errors
    REQUIRE_THROWS_AS(layer_norm(Matrix(2, 3), Matrix(1, 2), Matrix(1, 3)), ShapeError);
    REQUIRE_THROWS_AS(layer_norm(Matrix(2, 3), Matrix(1, 3), Matrix(2, 3)), ShapeError);
    REQUIRE_THROWS_AS(layer_norm(Matrix(2, 3), Matrix(1, 3), Matrix(1, 3), 0.0f), ValueError);
    REQUIRE_THROWS_AS(layer_norm_backward(Matrix(2, 3), Matrix(1, 3), Matrix(3, 3)), ShapeError);
}

TEST_CASE("cross-entropy and its gradient", "[grad]") {
    MatrixD logits = rnd(5, 4, 23, -3, 3);
    const std::vector<int> targets = {1, -1, 3, 0, -1};  // rows 2 and 5 are not scored
    const auto ce = f64::cross_entropy(logits, targets);
    REQUIRE(ce.count == 3);
    check_gradient(logits, [&] { return f64::cross_entropy(logits, targets).loss; }, ce.dlogits, "cross_entropy");
    for (std::size_t v = 0; v < 4; ++v) REQUIRE(ce.dlogits(1, v) == 0.0);
    // the loss itself: mean of −log softmax at the target
    double want = 0;
    const MatrixD P = f64::softmax(logits);
    for (std::size_t t : {0u, 2u, 3u}) want -= std::log(P(t, std::size_t(targets[t])));
    REQUIRE(ce.loss == Approx(want / 3).epsilon(1e-12));
    const auto cf = cross_entropy(logits.to_float(), targets);
    REQUIRE(cf.loss == Approx(ce.loss).epsilon(1e-5));
    require_float_matches(cf.dlogits, ce.dlogits, "float cross_entropy");
    // huge logits do not overflow (log-sum-exp)
    const auto big = cross_entropy(Matrix{{1000.0f, 0.0f}}, {0});
    REQUIRE(big.loss == Approx(0.0).margin(1e-6));
    REQUIRE_THROWS_AS(cross_entropy(Matrix(2, 3), {0, 3}), ValueError);
    REQUIRE_THROWS_AS(cross_entropy(Matrix(2, 3), {-1, -1}), ValueError);
    REQUIRE_THROWS_AS(cross_entropy(Matrix(2, 3), {0}), ShapeError);
}

TEST_CASE("attention backward (one causal head, scale, dropout) matches finite differences", "[grad]") {
    const bool causal = GENERATE(false, true);
    const float rate = GENERATE(0.0f, 0.3f);
    const double scale = GENERATE(1.0, 0.5);
    CAPTURE(causal, rate, scale);
    MatrixD Q = rnd(4, 3, 24), K = rnd(5, 3, 25), V = rnd(5, 2, 26), G = rnd(4, 2, 27);
    f64::AttentionOptionsD o;
    o.causal = causal;
    o.scale = scale;
    o.dropout = {rate, 7, true};
    const auto loss = [&] { return dot(f64::attention(Q, K, V, o).output, G); };
    const f64::TraceD t = f64::attention(Q, K, V, o);
    const auto g = f64::attention_backward(Q, K, V, t, G, o);
    check_gradient(Q, loss, g.dQ, "attention dQ");
    check_gradient(K, loss, g.dK, "attention dK");
    check_gradient(V, loss, g.dV, "attention dV");
    // dLogits is the gradient at the softmax input: scale · dLogits reaches S = QKᵀ
    const auto qk = f64::matmul_bt_backward(Q, K, f64::scale_backward(g.dLogits, scale));
    for (std::size_t k = 0; k < g.dQ.size(); ++k) REQUIRE(qk.dA.data()[k] == Approx(g.dQ.data()[k]).margin(1e-12));

    // the float path, through the core's attention() trace
    AttentionOptions fo;
    fo.causal = causal;
    fo.scale = float(scale);
    fo.dropout = {rate, 7, true};
    const Matrix Qf = Q.to_float(), Kf = K.to_float(), Vf = V.to_float();
    const Trace tf = attention(Qf, Kf, Vf, fo);
    const auto gf = attention_backward(Qf, Kf, Vf, tf, G.to_float(), fo);
    require_float_matches(gf.dQ, g.dQ, "float attention dQ");
    require_float_matches(gf.dK, g.dK, "float attention dK");
    require_float_matches(gf.dV, g.dV, "float attention dV");
    require_float_matches(gf.dLogits, g.dLogits, "float attention dLogits");
    REQUIRE_THROWS_AS(attention_backward(Qf, Kf, Vf, tf, Matrix(3, 2), fo), ShapeError);
}

// ---- the whole model ---------------------------------------------------------------------

namespace {
Batch small_batch(std::size_t B, std::size_t T, std::size_t vin, std::size_t vout, std::uint64_t seed) {
    Batch b;
    b.size = B;
    b.seq_len = T;
    for (std::size_t k = 0; k < B * T; ++k) {
        b.tokens.push_back(int(uniform01(seed, 2 * k) * double(vin)));
        b.targets.push_back(k % T == 0 ? -1 : int(uniform01(seed, 2 * k + 1) * double(vout)));
    }
    return b;
}
}  // namespace

TEST_CASE("the whole model's gradient matches finite differences", "[grad]") {
    ModelConfig c;
    c.vocab_in = 6;
    c.vocab_out = 5;
    c.max_len = 5;
    c.d_model = 8;
    c.d_k = 4;
    c.seed = 3;
    c.heads = GENERATE(1, 2);
    c.layers = GENERATE(1, 2);
    c.mlp_hidden = GENERATE(0, 6);
    c.scale = GENERATE(true, false);
    c.layer_norm = GENERATE(false, true);
    c.dropout = 0.2f;
    c.positional = true;
    CAPTURE(c.heads, c.layers, c.mlp_hidden, c.scale, c.layer_norm);
    const Batch batch = small_batch(3, 5, c.vocab_in, c.vocab_out, 99);
    const TinyTransformer modelf(c);
    TinyTransformerD model(modelf);  // the float model's weights, in double
    const bool training = true;
    const std::uint64_t drop_seed = 5;
    const LossStats st = model.loss_and_grad(batch, training, drop_seed);
    REQUIRE(std::isfinite(st.loss));
    REQUIRE(st.grad_logits_norm > 0);
    REQUIRE(st.grad_scores_norm == Approx(st.grad_logits_norm * (c.scale ? 0.5 : 1.0)).epsilon(1e-12));
    // Relu kinks: the MLP's pre-activations are random, |h| = 1e-5 crosses one with
    // probability ~1e-4 per unit; the seeds here do not.
    for (auto& p : model.params()) {
        MatrixD grad = p.grad;
        check_gradient(p.value, [&] { return model.loss(batch, training, drop_seed); }, grad, p.name);
    }

    // The float model (xsimd products, attn::attention) agrees with the double one.
    TinyTransformer mf(modelf);
    const LossStats sf = mf.loss_and_grad(batch, training, drop_seed);
    REQUIRE(sf.loss == Approx(st.loss).epsilon(1e-5));
    for (std::size_t k = 0; k < mf.params().size(); ++k)
        require_float_matches(mf.params()[k].grad, model.params()[k].grad, "float " + mf.params()[k].name);
}

TEST_CASE("softmax Jacobian: diagonal p(1 − p), full matrix against finite differences", "[grad]") {
    const Matrix s{{0.3f, -1.2f, 2.0f, 0.0f, 0.7f}};
    const Matrix p = softmax(s);
    const Matrix J = softmax_jacobian(p);
    const Matrix diag = softmax_jacobian_diag(p);
    const double h = 1e-3;
    for (std::size_t j = 0; j < 5; ++j) {
        // Central difference of softmax with respect to s_j, in double.
        auto soft = [&](double dj) {
            std::vector<double> e(5);
            double sum = 0;
            for (std::size_t k = 0; k < 5; ++k) sum += e[k] = std::exp(double(s(0, k)) + (k == j ? dj : 0.0));
            for (auto& v : e) v /= sum;
            return e;
        };
        const auto up = soft(h), down = soft(-h);
        for (std::size_t i = 0; i < 5; ++i) {
            INFO("dp_" << i << "/ds_" << j);
            // Central differences: error O(h²) ≈ 1e-6, float rounding of p ≈ 1e-7.
            REQUIRE_THAT(J(i, j), WithinAbs((up[i] - down[i]) / (2 * h), 2e-6));
        }
        REQUIRE(diag(0, j) == J(j, j));
    }
    // Each column of J sums to 0 (the weights always sum to 1).
    const Matrix cs = col_sums(J);
    for (std::size_t j = 0; j < 5; ++j) REQUIRE_THAT(cs(0, j), WithinAbs(0.0, 1e-7));
    REQUIRE_THROWS_AS(softmax_jacobian(Matrix(2, 3)), ShapeError);
}

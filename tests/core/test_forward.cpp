// Stage: every forward variant of forward.hpp (plain, output-only, tiled, training head,
// double, reference) on the same inputs. They share one set of rules (core/src/kernels/),
// so they must agree, on fuzzed inputs with NaN and ±∞, fully masked rows and every tile
// edge; and under causal no output may depend on a later token. tests/fuzz/fuzz_attention.cpp
// does the same on libFuzzer's inputs.
#include "helpers.hpp"

namespace {

// The six variants of forward.hpp on one problem: the output of each, and the masked scores
// and weights of those that keep them. The tiled kernel has no dropout: it is left out of
// problems with training dropout.
struct Outputs {
    Matrix plain, output_only, tiled, head, f64, ref;
    Trace trace, ref_trace;
    HeadTrace head_trace;
    f64::TraceD f64_trace;
    bool has_tiled = true;
};

struct Problem {
    std::uint32_t seed;
    Matrix Q, K, V;
    AttentionOptions o;
    std::size_t tile;
    bool specials;  // NaN or ±∞ somewhere in Q, K, V or the mask
};

// Fuzzed, seeded: T_q and T_k around the edges of a tile (1, tile − 1, tile, tile + 1, a
// few tiles plus a remainder), any d_k and d_v, causal or not, a custom mask with hidden
// keys, finite biases and fully hidden rows, a custom scale, training dropout, and NaN, +∞
// or −∞ dropped into Q, K, V or the mask. Where there are such values the inputs are kept
// small, so that no weight underflows to 0 in float while staying above 0 in double (a zero
// weight takes nothing from V, a tiny one multiplies an ∞ there).
Problem fuzz(std::uint32_t seed) {
    std::mt19937 rng(seed);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
    const std::size_t tiles[] = {1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, kDefaultRows};
    const std::size_t tile = tiles[pick(0, 11)];
    auto around = [&](std::size_t t) {
        const std::size_t c[] = {1, t > 1 ? t - 1 : 1, t, t + 1, 2 * t + 1, 3 * t - 1, pick(1, 70)};
        return std::min<std::size_t>(std::max<std::size_t>(c[pick(0, 6)], 1), 70);
    };
    const std::size_t Tq = around(tile), Tk = around(tile), dk = pick(1, 19), dv = pick(1, 11);
    const bool specials = pick(0, 2) == 0;
    const float mag = specials ? 0.5f : std::vector<float>{0.1f, 1.0f, 3.0f}[pick(0, 2)];
    Problem p{seed, random_matrix(Tq, dk, seed * 7 + 1, -mag, mag), random_matrix(Tk, dk, seed * 7 + 2, -mag, mag),
              random_matrix(Tk, dv, seed * 7 + 3, -5, 5), {}, tile, specials};
    p.o.causal = pick(0, 1) == 1;
    if (pick(0, 2) == 0) {
        Matrix M(Tq, Tk, 0.0f);
        for (std::size_t i = 0; i < Tq; ++i) {
            const bool all = pick(0, 5) == 0;
            for (std::size_t j = 0; j < Tk; ++j)
                if (all || pick(0, 3) == 0) M(i, j) = -kInf;
                else M(i, j) = float(pick(0, 4)) - 2.0f;
        }
        p.o.mask = M;
    }
    if (pick(0, 3) == 0) p.o.scale = std::vector<float>{0.0f, 0.25f, 1.0f, 2.0f}[pick(0, 3)];
    if (!specials && pick(0, 3) == 0) p.o.dropout = {0.3f, seed, true};
    if (specials) {
        const float values[] = {kNaN, kInf, -kInf};
        for (std::size_t n = pick(1, 3); n > 0; --n) {
            const std::size_t where = pick(0, p.o.mask ? 3 : 2);
            Matrix& m = where == 0 ? p.Q : where == 1 ? p.K : where == 2 ? p.V : *p.o.mask;
            // −∞ in the mask is an ordinary hidden key; NaN and +∞ are the special ones there.
            const float v = where == 3 ? values[pick(0, 1)] : values[pick(0, 2)];
            m(pick(0, m.rows() - 1), pick(0, m.cols() - 1)) = v;
        }
    }
    return p;
}

Outputs run_all(const Problem& p) {
    Outputs r;
    r.trace = attention(p.Q, p.K, p.V, p.o);
    r.plain = r.trace.output;
    r.output_only = attention_output(p.Q, p.K, p.V, p.o);
    r.has_tiled = !(p.o.dropout.training && p.o.dropout.rate > 0);
    if (r.has_tiled) {
        FlashOptions f;
        f.causal = p.o.causal;
        f.scale = p.o.scale;
        if (p.o.mask) f.mask = ConstMatrixView(*p.o.mask);
        f.tile = p.tile;
        r.tiled = flash_attention(p.Q, p.K, p.V, f);
    }
    r.head_trace = attention_head(p.Q, p.K, p.V, p.o);
    r.head = r.head_trace.output;
    f64::AttentionOptionsD d;
    d.causal = p.o.causal;
    d.scale = r.trace.scale;  // the float path's factor, exactly
    if (p.o.mask) d.mask = f64::MatrixD(*p.o.mask);
    d.dropout = p.o.dropout;
    r.f64_trace = f64::attention(f64::MatrixD(p.Q), f64::MatrixD(p.K), f64::MatrixD(p.V), d);
    r.f64 = r.f64_trace.output.to_float();
    r.ref_trace = reference::attention(p.Q, p.K, p.V, p.o);
    r.ref = r.ref_trace.output;
    return r;
}

// The largest finite |score| of each row of the masked scores: exp turns a score error δ
// into a relative weight error δ, and a float score of size m is off by ~ m · d_k · 2⁻²³.
std::vector<double> score_size(ConstMatrixView masked) {
    std::vector<double> m(masked.rows(), 0.0);
    for (std::size_t i = 0; i < masked.rows(); ++i)
        for (std::size_t j = 0; j < masked.cols(); ++j)
            if (std::isfinite(masked(i, j))) m[i] = std::max(m[i], double(std::abs(masked(i, j))));
    return m;
}

}  // namespace

// The variants must agree wherever they overlap: every output against the scalar
// reference, and the masked scores and weights of the variants that keep them. Equal
// non-finite entries (NaN rows where a NaN or +∞ reaches a row, zero rows where every key
// is hidden), finite ones within a tolerance that grows with the scores' size (see
// score_size) and with max|V|: the variants sum in different orders (packed GEMM, tiles
// with an online softmax, dot by dot in order, double).
TEST_CASE("property: every forward variant gives the same result on the same fuzzed inputs", "[forward][property]") {
    std::size_t with_specials = 0, fully_hidden_rows = 0, nan_rows = 0, tiled = 0;
    for (std::uint32_t seed = 1; seed <= 400; ++seed) {
        const Problem p = fuzz(seed);
        CAPTURE(seed, p.Q.shape(), p.K.shape(), p.V.shape(), p.tile, p.o.causal, bool(p.o.mask),
                p.o.scale.value_or(-1.0f), p.o.dropout.training, p.specials);
        const Outputs r = run_all(p);
        const std::vector<double> m = score_size(r.ref_trace.masked);
        double vmax = 1;
        for (std::size_t k = 0; k < p.V.size(); ++k)
            if (std::isfinite(p.V.data()[k])) vmax = std::max(vmax, double(std::abs(p.V.data()[k])));
        const double dk = double(p.Q.cols());
        const auto out_tol = [&](std::size_t i) { return 2e-6 * vmax * (4.0 + m[i] * dk); };
        const auto w_tol = [&](std::size_t i) { return 2e-6 * (4.0 + m[i] * dk); };
        const auto s_tol = [&](std::size_t i) { return 2e-6 * (1.0 + m[i] * dk); };
        require_agree(r.plain, r.ref, out_tol, 1e-5, "attention() output");
        require_agree(r.output_only, r.ref, out_tol, 1e-5, "attention_output()");
        if (r.has_tiled) require_agree(r.tiled, r.ref, out_tol, 1e-5, "flash_attention()");
        require_agree(r.head, r.ref, out_tol, 1e-5, "attention_head() output");
        require_agree(r.f64, r.ref, out_tol, 1e-5, "f64::attention() output");
        require_agree(r.trace.masked, r.ref_trace.masked, s_tol, 1e-5, "attention() masked");
        require_agree(r.head_trace.masked, r.ref_trace.masked, s_tol, 1e-5, "attention_head() masked");
        require_agree(r.f64_trace.masked.to_float(), r.ref_trace.masked, s_tol, 1e-5, "f64::attention() masked");
        require_agree(r.trace.weights, r.ref_trace.weights, w_tol, 1e-5, "attention() weights");
        require_agree(r.head_trace.weights, r.ref_trace.weights, w_tol, 1e-5, "attention_head() weights");
        require_agree(r.f64_trace.weights.to_float(), r.ref_trace.weights, w_tol, 1e-5, "f64::attention() weights");
        // What the fuzzing reached, so a change that stops it reaching the hard cases fails.
        with_specials += p.specials;
        tiled += r.has_tiled && p.tile < std::max(p.Q.rows(), p.K.rows());
        for (std::size_t i = 0; i < p.Q.rows(); ++i) {
            bool any = false;
            for (std::size_t j = 0; j < p.K.rows(); ++j) any = any || visible(p.o, i, j);
            fully_hidden_rows += !any;
            nan_rows += std::isnan(r.ref(i, 0)) ? 1 : 0;
        }
    }
    CAPTURE(with_specials, fully_hidden_rows, nan_rows, tiled);
    REQUIRE(with_specials > 100);
    REQUIRE(fully_hidden_rows > 50);
    REQUIRE(nan_rows > 50);
    REQUIRE(tiled > 150);
}

// Changing the tokens after i (their queries, keys and values, also to NaN or ±∞) changes
// no variant's output for tokens 0..i: bit for bit, except where a non-finite Value makes
// the plain output-only path and the tiled kernel skip zero weights one by one instead of
// multiplying them in the packed GEMM (another summation order): there, within rounding.
TEST_CASE("property: under causal, no variant's output for a token depends on the tokens after it", "[forward][property]") {
    const float specials[] = {kNaN, kInf, -kInf, 1e30f, -7.0f};
    for (std::uint32_t seed = 801; seed <= 1000; ++seed) {
        std::mt19937 rng(seed);
        const std::size_t T = std::uniform_int_distribution<std::size_t>(2, 45)(rng);
        const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, T - 2)(rng);  // rows <= cut kept
        const std::size_t d = std::uniform_int_distribution<std::size_t>(1, 13)(rng);
        const bool finite_change = seed % 2 == 0;
        Matrix Q = random_matrix(T, d, seed, -3, 3), K = random_matrix(T, d, seed + 1, -3, 3),
               V = random_matrix(T, 4, seed + 2, -3, 3);
        Problem p{seed, Q, K, V, {}, 1 + seed % 17, false};
        p.o.causal = true;
        const Outputs a = run_all(p);
        for (std::size_t i = cut + 1; i < T; ++i) {
            for (std::size_t j = 0; j < d; ++j) {
                p.Q(i, j) = finite_change ? p.Q(i, j) + 2.5f : specials[(i + j + seed) % 5];
                p.K(i, j) = finite_change ? p.K(i, j) - 1.5f : specials[(i + 2 * j + seed) % 5];
            }
            for (std::size_t j = 0; j < 4; ++j) p.V(i, j) = finite_change ? p.V(i, j) * 3.0f - 1.0f : specials[(3 * i + j + seed) % 5];
        }
        const Outputs b = run_all(p);
        CAPTURE(seed, T, cut, d, p.tile, finite_change);
        for (std::size_t i = 0; i <= cut; ++i) {
            CAPTURE(i);
            REQUIRE(rows_identical(a.plain, b.plain, i));
            REQUIRE(rows_identical(a.head, b.head, i));
            REQUIRE(rows_identical(a.f64, b.f64, i));
            REQUIRE(rows_identical(a.ref, b.ref, i));
            if (finite_change) {
                REQUIRE(rows_identical(a.output_only, b.output_only, i));
                REQUIRE(rows_identical(a.tiled, b.tiled, i));
            } else {
                for (std::size_t k = 0; k < 4; ++k) {
                    REQUIRE(b.output_only(i, k) == Approx(a.output_only(i, k)).margin(1e-5));
                    REQUIRE(b.tiled(i, k) == Approx(a.tiled(i, k)).margin(1e-5));
                }
            }
        }
    }
}

TEST_CASE("regression: a fully masked row holding a NaN is NaN in every variant", "[forward][regression]") {
    // The double path gave zeros here (std::max(−∞, NaN) keeps −∞) while every float path gave
    // NaN, before the row softmax became one kernel for all of them.
    const Matrix Q{{1, 0}, {0, 1}}, K{{1, 0}, {0, 1}}, V{{1, 2}, {3, 4}};
    Matrix M(2, 2, -kInf);
    M(1, 0) = kNaN;  // row 1: fully hidden but for a NaN
    M(0, 1) = 0.0f;  // row 0 sees key 1 only
    Problem p{0, Q, K, V, {}, 1, true};
    p.o.mask = M;
    const Outputs r = run_all(p);
    for (const Matrix* O : {&r.plain, &r.output_only, &r.tiled, &r.head, &r.f64, &r.ref})
        for (std::size_t k = 0; k < 2; ++k) {
            REQUIRE(std::isnan((*O)(1, k)));
            REQUIRE((*O)(0, k) == V(1, k));
        }
}

TEST_CASE("attention_head and f64::attention: the typed errors of attention()", "[forward]") {
    const Matrix A(3, 4, 1.0f), B(5, 2, 1.0f);
    REQUIRE_THROWS_WITH(attention_head(A, Matrix(3, 5), A), Contains("Q is 3x4") && Contains("K is 3x5"));
    REQUIRE_THROWS_AS(attention_head(A, A, B), ShapeError);
    REQUIRE_THROWS_AS(attention_head(Matrix(0, 4), A, A), ValueError);
    AttentionOptions bad;
    bad.mask = Matrix(2, 2);
    REQUIRE_THROWS_WITH(attention_head(A, A, A, bad), Contains("mask is 2x2"));
    bad = {};
    bad.dropout.rate = 1.0f;
    REQUIRE_THROWS_AS(attention_head(A, A, A, bad), ValueError);
    const f64::MatrixD a(3, 4, 1.0), b(5, 2, 1.0);
    REQUIRE_THROWS_AS(f64::attention(a, a, b, {}), ShapeError);
    f64::AttentionOptionsD nan;
    nan.scale = std::numeric_limits<double>::quiet_NaN();
    REQUIRE_THROWS_AS(f64::attention(a, a, a, nan), ValueError);
    REQUIRE_THROWS_WITH(f64::attention(f64::MatrixD(3, 0), f64::MatrixD(3, 0), a, {}), Contains("d_k = 0"));
}

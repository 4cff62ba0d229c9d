// Stage: the tiled kernel with an online softmax (flash.hpp), and attention_output, the plain
// output-only path, against attn::reference, on sizes chosen to hit every tile edge: one row,
// tile − 1, tile, tile + 1, several tiles plus a remainder; fully masked rows; rows whose
// first tiles are all masked; maxima that move up and down across tiles; memory.
// (Agreement of every variant on fuzzed inputs: test_forward.cpp.)
//
// Tolerance model: both kernels sum in float (the reference in double). The output is a
// convex combination of V rows, so the error is a few ulps of max|V| per row, not of
// the (possibly tiny) entry itself: |got − want| <= 1e-5·|want| + 1e-6·max|V|.
#include "helpers.hpp"

namespace {
struct Sweep {
    std::size_t Tq, Tk, dk, dv, tile;
    bool causal;
};
std::ostream& operator<<(std::ostream& os, const Sweep& c) {
    return os << "Tq=" << c.Tq << " Tk=" << c.Tk << " d_k=" << c.dk << " d_v=" << c.dv << " tile=" << c.tile
              << (c.causal ? " causal" : "");
}
}  // namespace

TEST_CASE("flash_attention and attention_output match the reference on swept sizes", "[flash]") {
    const std::size_t tile = GENERATE(1, 16, 32, 37);
    const std::size_t Tq = GENERATE(1, 31, 32, 33, 70);
    const std::size_t Tk = GENERATE(1, 15, 32, 33, 70);
    const std::size_t dk = GENERATE(1, 7, 64);
    const bool causal = GENERATE(false, true);
    const Sweep c{Tq, Tk, dk, dk == 7 ? 9 : dk, tile, causal};
    CAPTURE(c);
    const Matrix Q = random_matrix(c.Tq, c.dk, 1, -2, 2), K = random_matrix(c.Tk, c.dk, 2, -2, 2),
                 V = random_matrix(c.Tk, c.dv, 3);
    AttentionOptions ao;
    ao.causal = causal;
    const Matrix want = reference::attention(Q, K, V, ao).output;
    FlashOptions fo;
    fo.causal = causal;
    fo.tile = tile;
    require_output(flash_attention(Q, K, V, fo), want, V, "flash");
    require_output(attention_output(Q, K, V, ao), want, V, "plain");
}

TEST_CASE("flash_attention with the default tile on larger shapes", "[flash]") {
    // Several default tiles plus a remainder, d_h = 64 as in the benchmark; head views
    // with a stride (one head's columns of a wider matrix).
    const std::size_t T = GENERATE(kDefaultRows - 1, kDefaultRows + 1, kDefaultKeys + 1, 2 * kDefaultKeys + 17);
    const bool causal = GENERATE(false, true);
    CAPTURE(T, causal);
    const Matrix Qw = random_matrix(T, 128, 4, -3, 3), Kw = random_matrix(T, 128, 5, -3, 3),
                 Vw = random_matrix(T, 128, 6);
    const ConstMatrixView Q = Qw.cols_block(64, 64), K = Kw.cols_block(64, 64), V = Vw.cols_block(1, 64);
    AttentionOptions ao;
    ao.causal = causal;
    const Matrix want = reference::attention(Matrix(Q), Matrix(K), Matrix(V), ao).output;
    FlashOptions fo;
    fo.causal = causal;
    require_output(flash_attention(Q, K, V, fo), want, Matrix(V), "flash");
    require_output(attention_output(Q, K, V, ao), want, Matrix(V), "plain");
}

TEST_CASE("flash_attention: fully masked rows, masked first tiles, moving maxima", "[flash]") {
    const std::size_t tile = GENERATE(8, 16);
    // Keys come in tiles of `tile` rounded up to whole register blocks (up to 64 keys with
    // AVX-512): T = 150 is at least three key tiles on every build.
    const std::size_t T = 150, d = 8;
    CAPTURE(tile);
    Matrix Q = random_matrix(T, d, 7), K = random_matrix(T, d, 8), V = random_matrix(T, 5, 9, -4, 4);
    // Keys grow with their index for the first 3/5 of the queries' directions and shrink
    // for later keys, so a row's maximum moves up across tiles and later tiles are smaller.
    for (std::size_t j = 0; j < T; ++j)
        for (std::size_t c = 0; c < d; ++c) K(j, c) *= float(1 + (j < 90 ? j : 180 - j)) / 16.0f;
    Matrix M(T, T, 0.0f);
    for (std::size_t j = 0; j < T; ++j) M(3, j) = -kInf;                        // fully masked row
    for (std::size_t j = 0; j < T; ++j) M(17, j) = -kInf;                       // another one
    for (std::size_t j = 0; j < 2 * 64 + 3; ++j) M(20, j) = -kInf;              // first tiles masked
    for (std::size_t j = 0; j + 1 < T; ++j) M(40, j) = -kInf;                   // only the last key
    for (std::size_t j = 0; j < T; j += 3) M(25, j) = -1.5f;                    // finite mask values
    const bool causal = GENERATE(false, true);
    CAPTURE(causal);
    AttentionOptions ao;
    ao.causal = causal;
    ao.mask = M;
    const Matrix want = reference::attention(Q, K, V, ao).output;
    FlashOptions fo;
    fo.causal = causal;
    fo.mask = M.view();
    fo.tile = tile;
    const Matrix got = flash_attention(Q, K, V, fo);
    require_output(got, want, V, "flash");
    require_output(attention_output(Q, K, V, ao), want, V, "plain");
    for (std::size_t c = 0; c < 5; ++c) {
        REQUIRE(got(3, c) == 0.0f);   // a fully masked row is zero, not NaN
        REQUIRE(got(17, c) == 0.0f);
        if (!causal) REQUIRE(got(40, c) == Approx(V(T - 1, c)).epsilon(1e-6));  // its one visible key
    }
    // Under causal, row 40's last key (49) is in the future: the row is fully masked.
    if (causal)
        for (std::size_t c = 0; c < 5; ++c) REQUIRE(got(40, c) == 0.0f);
}

TEST_CASE("flash_attention: huge logits do not overflow, custom scale", "[flash]") {
    const Matrix Q = random_matrix(40, 4, 10, -30, 30), K = random_matrix(70, 4, 11, -30, 30),
                 V = random_matrix(70, 3, 12);
    AttentionOptions ao;
    ao.scale = 1.0f;  // logits up to ~3600
    FlashOptions fo;
    fo.scale = 1.0f;
    fo.tile = 16;
    const Matrix got = flash_attention(Q, K, V, fo);
    for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(std::isfinite(got.data()[i]));
    require_output(got, reference::attention(Q, K, V, ao).output, V, "scale 1");
}

TEST_CASE("flash_attention: each weight is accurate over 80 orders of e", "[flash]") {
    // V = I (T_k x T_k): an output row is that query's weight row. Scores 0 .. −84 spread
    // over two default tiles (the second holds the maximum, so the first tile's sum is
    // rescaled); with the causal mask, the last of T_k equal queries (it sees every key).
    // The exponential's error grows with |s − max| (the float rounding of s − max), so the
    // bound is relative to each weight, scaled by that distance; weights below e^−86.5 may be 0.
    const std::size_t Tk = kDefaultKeys + 88;
    const bool causal = GENERATE(false, true);
    const std::size_t Tq = causal ? Tk : 1;
    Matrix Q(Tq, 1, 1.0f), K(Tk, 1), V(Tk, Tk);
    for (std::size_t j = 0; j < Tk; ++j) {
        K(j, 0) = -84.0f * float((j * 37) % Tk) / float(Tk);
        V(j, j) = 1.0f;
    }
    K(Tk - 20, 0) = 3.0f;
    double l = 0;
    for (std::size_t j = 0; j < Tk; ++j) l += std::exp(double(K(j, 0)) - 3.0);
    FlashOptions fo;
    fo.scale = 1.0f;
    fo.causal = causal;
    const Matrix out = flash_attention(Q, K, V, fo);
    const float* got = out.row(Tq - 1);
    for (std::size_t j = 0; j < Tk; ++j) {
        const double d = 3.0 - double(K(j, 0)), want = std::exp(-d) / l;
        CAPTURE(causal, j, d, want, got[j]);
        if (d < 86.5) REQUIRE(std::abs(double(got[j]) - want) <= 4e-7 * want * (1 + d));
        else REQUIRE(got[j] <= 1e-37f);
        REQUIRE(got[j] >= 0.0f);
    }
}

TEST_CASE("flash_attention: NaN and ∞ reach only the outputs they should", "[flash]") {
    Matrix Q = random_matrix(40, 4, 13), K = random_matrix(40, 4, 14), V = random_matrix(40, 3, 15);
    FlashOptions fo;
    fo.tile = 16;
    SECTION("NaN in one query row poisons that row only") {
        Q(21, 2) = std::numeric_limits<float>::quiet_NaN();
        const Matrix O = flash_attention(Q, K, V, fo);
        for (std::size_t i = 0; i < 40; ++i)
            for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isnan(O(i, j)) == (i == 21));
    }
    SECTION("a NaN query row is NaN even when its visible keys are all masked so far") {
        Q(0, 0) = std::numeric_limits<float>::quiet_NaN();
        fo.causal = true;
        const Matrix O = flash_attention(Q, K, V, fo);
        for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isnan(O(0, j)));
        for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isfinite(O(1, j)));
    }
    SECTION("∞ in a masked-out Value does not reach earlier tokens") {
        V(39, 1) = kInf;
        fo.causal = true;
        const Matrix O = flash_attention(Q, K, V, fo);
        for (std::size_t i = 0; i < 39; ++i)
            for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isfinite(O(i, j)));
        REQUIRE(std::isinf(O(39, 1)));
        // The same outputs as without the ∞ for the rows that cannot see it (up to
        // summation order: with a non-finite V the product skips zero weights one by one).
        Matrix V2 = V;
        V2(39, 1) = 0.0f;
        const Matrix O2 = flash_attention(Q, K, V2, fo);
        const auto first39 = [](const Matrix& m) { return Matrix(ConstMatrixView(m.data(), 39, 3, 3)); };
        require_output(first39(O), first39(O2), V2, "rows before the ∞");
    }
    SECTION("a masked key's score never counts, even when it is NaN (documented)") {
        K(30, 0) = std::numeric_limits<float>::quiet_NaN();
        fo.causal = true;
        const Matrix O = flash_attention(Q, K, V, fo);
        for (std::size_t i = 0; i < 30; ++i)
            for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isfinite(O(i, j)));
        for (std::size_t j = 0; j < 3; ++j) REQUIRE(std::isnan(O(30, j)));
    }
}

TEST_CASE("flash_attention: errors name the shapes, the core keeps working", "[flash]") {
    using Catch::Matchers::Contains;
    const Matrix Q(3, 4, 1.0f), K(5, 4, 1.0f), V(5, 2, 1.0f);
    REQUIRE_THROWS_WITH(flash_attention(Q, Matrix(5, 3), V), Contains("Q is 3x4") && Contains("K is 5x3"));
    REQUIRE_THROWS_WITH(flash_attention(Q, K, Matrix(4, 2)), Contains("K is 5x4") && Contains("V is 4x2"));
    FlashOptions bad;
    const Matrix M(2, 2);
    bad.mask = M.view();
    REQUIRE_THROWS_WITH(flash_attention(Q, K, V, bad), Contains("mask is 2x2") && Contains("3x5"));
    FlashOptions big;
    big.tile = kMaxTile + 1;
    REQUIRE_THROWS_AS(flash_attention(Q, K, V, big), ValueError);
    FlashOptions nan;
    nan.scale = std::numeric_limits<float>::quiet_NaN();
    REQUIRE_THROWS_AS(flash_attention(Q, K, V, nan), ValueError);
    REQUIRE_THROWS_WITH(flash_attention(Matrix(0, 4), K, V), Contains("at least one token"));
    REQUIRE_THROWS_WITH(flash_attention(Matrix(3, 0), Matrix(5, 0), V), Contains("d_k = 0"));
    REQUIRE_THROWS_AS(attention_output(Q, Matrix(5, 3), V), ShapeError);
    // Still fine afterwards; d_v = 0 gives an empty output.
    REQUIRE(flash_attention(Q, K, V)(2, 1) == Approx(1.0f));
    REQUIRE(flash_attention(Q, K, Matrix(5, 0)).shape() == "3x0");
}

TEST_CASE("memory: the plain path holds T² floats, the tiled kernel O(T·d)", "[flash]") {
    const std::size_t T = 2048, d = 64;
    const Matrix Q = random_matrix(T, d, 22), K = random_matrix(T, d, 23), V = random_matrix(T, d, 24);
    const std::size_t held = memory_stats().current_bytes;
    reset_peak_memory();
    const Matrix plain = attention_output(Q, K, V);
    const std::size_t plain_bytes = memory_stats().peak_bytes - held;
    reset_peak_memory();
    const std::size_t held2 = memory_stats().current_bytes;
    const Matrix tiled = flash_attention(Q, K, V);
    const std::size_t tiled_bytes = memory_stats().peak_bytes - held2;
    INFO("plain " << plain_bytes << " bytes, tiled " << tiled_bytes << " bytes");
    REQUIRE(plain_bytes >= T * T * sizeof(float));
    // Output, packed K and V (3·T·d floats) plus one block of scores and statistics.
    REQUIRE(tiled_bytes <= 4 * T * d * sizeof(float) + 2 * kDefaultRows * kDefaultKeys * sizeof(float));
    require_output(tiled, plain, V, "tiled vs plain");
    // Everything the kernels allocated was released.
    REQUIRE(memory_stats().current_bytes == held + 2 * T * d * sizeof(float));
}

TEST_CASE("memory: n = 16384, h = 1, d_h = 64 runs tiled under 64 MiB", "[flash]") {
    const std::size_t T = 16384, d = 64;
    const Matrix Q = random_matrix(T, d, 25), K = random_matrix(T, d, 26), V = random_matrix(T, d, 27);
    reset_peak_memory();
    FlashOptions fo;
    fo.causal = true;  // half the work of the full matrix; the same memory
    const Matrix O = flash_attention(Q, K, V, fo);
    // Inputs (3 x 4 MiB) included: the whole run's peak.
    INFO("peak " << memory_stats().peak_bytes << " bytes");
    REQUIRE(memory_stats().peak_bytes < std::size_t(64) << 20);
    REQUIRE(std::isfinite(O(T - 1, d - 1)));
}

// Found by fuzz_attention (tests/fuzz/regressions/attention/variants-disagree-on-nan-rows):
// finite Q and K of −1e30 with a scale of 1.97e-24. Q·Kᵀ = 3e60 overflows float before it
// is scaled, so the plain path's scores are +∞ and its causal row 0 is NaN, with the Trace
// naming "scores" as where it happened (the documented rule for overflowing products). The
// tiled kernel natively scales Q first (base 2, flash.cpp), its scaled scores are finite
// (5.9e36), and its rows are the exact answer (the scalar and WebAssembly builds, without
// base 2, scale the product and give the plain path's NaN): row 0 sees key 0 alone, so it is V's row 0;
// rows 1 and 2 see equal scores, so they are the means of V's visible rows. The fuzz check
// now asks the variants to agree on NaN rows only where no score can overflow in one order
// of scaling and not in the other (docs/reliability.md, "Where the variants may differ").
TEST_CASE("regression (fuzz): a score that overflows only before scaling", "[flash][regression]") {
    const float scale = 1.96577e-24f;
    Matrix Q(3, 3), K(3, 3);
    for (std::size_t k = 0; k < Q.size(); ++k) Q.data()[k] = K.data()[k] = -1e30f;
    const Matrix V{{1.0f, -2.0f}, {3.0f, 0.5f}, {-4.0f, 8.0f}};
    AttentionOptions o;
    o.causal = true;
    o.scale = scale;
    const Trace t = attention(Q, K, V, o);
    REQUIRE(t.scores(0, 0) == kInf);
    REQUIRE(t.nonfinite.count == 0);
    REQUIRE_FALSE(t.nonfinite.stages.empty());
    REQUIRE(t.nonfinite.stages.front() == "scores");
    for (std::size_t k = 0; k < 2; ++k) REQUIRE(std::isnan(t.output(0, k)));

    FlashOptions fo;
    fo.causal = true;
    fo.scale = scale;
    fo.tile = GENERATE(std::size_t(0), std::size_t(1), std::size_t(12));
    CAPTURE(fo.tile);
    const Matrix F = flash_attention(Q, K, V, fo);
#if defined(ATTN_SCALAR) || defined(__wasm__)
    // Without base 2 (the scalar and WebAssembly builds) the tiled kernel scales the
    // product, as the plain path does: the same overflow, the same NaN row.
    for (std::size_t k = 0; k < 2; ++k) REQUIRE(std::isnan(F(0, k)));
    return;
#endif
    for (std::size_t k = 0; k < 2; ++k) {
        REQUIRE(F(0, k) == V(0, k));
        REQUIRE(F(1, k) == Approx((V(0, k) + V(1, k)) / 2).epsilon(1e-6));
        REQUIRE(F(2, k) == Approx((V(0, k) + V(1, k) + V(2, k)) / 3).epsilon(1e-6));
    }
}

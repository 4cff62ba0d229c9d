// libFuzzer target: attention and its stages on arbitrary shapes, options and bit
// patterns. Checks, beyond "no crash, no sanitizer report, no untyped exception":
// shapes; the documented rules of attention.hpp row by row (weights in [0, 1] summing
// to 1, hidden keys exactly 0, fully masked rows zero, non-finite values reaching only
// the rows they reach); the Trace's non-finite report; and every forward variant of
// forward.hpp (plain, output-only, tiled, training head, double, reference) on the same
// operands: typed errors for the same invalid inputs, fully masked rows zero in all, the
// same NaN rows in the float variants whenever the Values are finite, and, on tame inputs,
// the same numbers (as tests/core/test_forward.cpp does on seeded cases).
#include "fuzz_common.hpp"

using namespace attn;
using namespace attn::fuzz;

namespace {

void check_trace(const Trace& t, ConstMatrixView Q, ConstMatrixView K, ConstMatrixView V, const AttentionOptions& o,
                 bool tame) {
    const std::size_t Tq = Q.rows(), Tk = K.rows(), dv = V.cols();
    ATTN_CHECK(t.scores.rows() == Tq && t.scores.cols() == Tk);
    ATTN_CHECK(t.masked.rows() == Tq && t.masked.cols() == Tk);
    ATTN_CHECK(t.weights.rows() == Tq && t.weights.cols() == Tk);
    ATTN_CHECK(t.dropped.rows() == Tq && t.dropped.cols() == Tk);
    ATTN_CHECK(t.output.rows() == Tq && t.output.cols() == dv);

    // The report counts exactly the non-finite inputs and lists the first ones.
    const std::size_t n = count_nonfinite(Q, false) + count_nonfinite(K, false) + count_nonfinite(V, false) +
                          (o.mask ? count_nonfinite(*o.mask, true) : 0);
    ATTN_CHECK(t.nonfinite.count == n);
    ATTN_CHECK(t.nonfinite.entries.size() == std::min(n, NonFiniteReport::kMaxListed));
    for (const auto& e : t.nonfinite.entries) ATTN_CHECK(!std::isfinite(e.value));

    const bool training = o.dropout.training && o.dropout.rate > 0.0f;
    bool any_nonfinite_output = false;
    for (std::size_t i = 0; i < Tq; ++i) {
        // Hidden keys are −∞ in masked, whatever their score.
        for (std::size_t j = 0; j < Tk; ++j) {
            const bool hidden = (o.causal && j > i) || (o.mask && (*o.mask)(i, j) == kNegInf);
            if (hidden) ATTN_CHECK(t.masked(i, j) == kNegInf);
        }
        // A row whose masked scores hold no NaN / +∞ is an ordinary row (or fully masked).
        bool ordinary = true, any_visible = false;
        for (std::size_t j = 0; j < Tk; ++j) {
            const float s = t.masked(i, j);
            if (std::isnan(s) || s == INFINITY) ordinary = false;
            if (s != kNegInf) any_visible = true;
        }
        if (!ordinary) {
            for (std::size_t j = 0; j < Tk; ++j) ATTN_CHECK(std::isnan(t.weights(i, j)));
            continue;
        }
        double sum = 0;
        for (std::size_t j = 0; j < Tk; ++j) {
            if (t.masked(i, j) == kNegInf) ATTN_CHECK(t.weights(i, j) == 0.0f && t.dropped(i, j) == 0.0f);
            ATTN_CHECK(t.weights(i, j) >= 0.0f && t.weights(i, j) <= 1.0f);
            sum += t.weights(i, j);
        }
        if (!any_visible) {
            ATTN_CHECK(sum == 0.0);
            for (std::size_t k = 0; k < dv; ++k) ATTN_CHECK(t.output(i, k) == 0.0f);
            continue;
        }
        ATTN_CHECK(std::abs(sum - 1.0) <= 1e-5 * double(Tk));
        // The output row is finite when every Value row it takes from is finite and not
        // so large that the weighted sum (scaled by 1/(1 − rate) in training) overflows.
        bool values_ok = true;
        for (std::size_t j = 0; j < Tk; ++j)
            if (t.dropped(i, j) != 0.0f)
                for (std::size_t k = 0; k < dv; ++k)
                    if (!(std::abs(V(j, k)) <= 1e30f)) values_ok = false;
        if (values_ok) ATTN_CHECK(finite_row(t.output, i));
        // Outside training dropout, the output lies in the range of the Values it sees.
        if (values_ok && !training)
            for (std::size_t k = 0; k < dv; ++k) {
                float lo = INFINITY, hi = -INFINITY;
                for (std::size_t j = 0; j < Tk; ++j)
                    if (t.weights(i, j) != 0.0f) {
                        lo = std::min(lo, V(j, k));
                        hi = std::max(hi, V(j, k));
                    }
                const float slack = 1e-5f * std::max(std::abs(lo), std::abs(hi)) + 1e-30f;
                if (lo <= hi) ATTN_CHECK(t.output(i, k) >= lo - slack && t.output(i, k) <= hi + slack);
            }
        any_nonfinite_output = any_nonfinite_output || !finite_row(t.output, i);
    }
    if (t.nonfinite.clean()) ATTN_CHECK(!any_nonfinite_output);

    if (tame) {
        // Tame inputs: S is exact in float; the rest within a few ulps of the reference.
        const Trace r = reference::attention(Q, K, V, o);
        ATTN_CHECK(close(t.scores, r.scores, 0, 0));
        ATTN_CHECK(close(t.masked, r.masked, 1e-6, 1e-5));
        ATTN_CHECK(close(t.weights, r.weights, 1e-4, 5e-5));
        ATTN_CHECK(close(t.output, r.output, 1e-4, 1e-3));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    // Sizes from 0 (invalid for T and d_k: must throw ValueError) to 20, past the
    // 16-lane boundary of AVX-512 so both vector loops and scalar tails run.
    const std::size_t Tq = fdp.ConsumeIntegralInRange<std::size_t>(0, 20);
    const std::size_t Tk = fdp.ConsumeIntegralInRange<std::size_t>(0, 20);
    const std::size_t dk = fdp.ConsumeIntegralInRange<std::size_t>(0, 20);
    const std::size_t dk2 = fdp.ConsumeBool() ? dk : fdp.ConsumeIntegralInRange<std::size_t>(0, 20);
    const std::size_t Tv = fdp.ConsumeBool() ? Tk : fdp.ConsumeIntegralInRange<std::size_t>(0, 20);
    const std::size_t dv = fdp.ConsumeIntegralInRange<std::size_t>(0, 12);
    const Fill fill = pick_fill(fdp);

    AttentionOptions o;
    o.causal = fdp.ConsumeBool();
    const int scale_kind = fdp.ConsumeIntegralInRange<int>(0, 3);
    if (scale_kind == 1) o.scale = value(fdp, Fill::Bits);
    if (scale_kind == 2) o.scale = float(fdp.ConsumeIntegralInRange<int>(-32, 32)) / 8.0f;
    const int drop_kind = fdp.ConsumeIntegralInRange<int>(0, 3);
    if (drop_kind == 1) o.dropout.rate = value(fdp, Fill::Bits);
    if (drop_kind >= 2) o.dropout.rate = fdp.ConsumeProbability<float>() * 0.999f;
    o.dropout.training = fdp.ConsumeBool();
    o.dropout.seed = fdp.ConsumeIntegral<std::uint64_t>();
    const bool with_mask = fdp.ConsumeBool();
    const std::size_t mr = fdp.ConsumeBool() ? Tq : fdp.ConsumeIntegralInRange<std::size_t>(0, 20);
    const std::size_t mc = fdp.ConsumeBool() ? Tk : fdp.ConsumeIntegralInRange<std::size_t>(0, 20);

    const Matrix Q = matrix(fdp, Tq, dk, fill), K = matrix(fdp, Tk, dk2, fill), V = matrix(fdp, Tv, dv, fill);
    if (with_mask) {
        Matrix M(mr, mc);
        for (std::size_t k = 0; k < M.size(); ++k)
            M.data()[k] = fdp.ConsumeBool() ? 0.0f : fdp.ConsumeBool() ? kNegInf : value(fdp, fill);
        o.mask = std::move(M);
    }

    const bool valid_shapes = Tq > 0 && Tk > 0 && dk > 0 && dk == dk2 && Tv == Tk && (!with_mask || (mr == Tq && mc == Tk));
    const bool valid_scale = !o.scale || std::isfinite(*o.scale);
    const bool valid_rate = o.dropout.rate >= 0.0f && o.dropout.rate < 1.0f;
    try {
        const Trace t = attention(Q, K, V, o);
        ATTN_CHECK(valid_shapes && valid_scale && valid_rate);
        const bool tame = fill == Fill::Tame && (!o.scale || std::abs(*o.scale) <= 4.0f) &&
                          !(o.dropout.training && o.dropout.rate > 0.0f);
        check_trace(t, Q, K, V, o, tame);
    } catch (const ShapeError&) {
        ATTN_CHECK(!valid_shapes);
    } catch (const ValueError&) {
        ATTN_CHECK(!valid_shapes || !valid_scale || !valid_rate);
    }

    // Every other forward variant (forward.hpp) on the same operands, without dropout (the
    // tiled kernel has none): typed errors for the same invalid inputs; fully masked rows
    // zero; the same NaN rows where V is finite; on tame inputs the same numbers. Small
    // tiles make several tiles of these shapes.
    {
        FlashOptions f;
        f.causal = o.causal;
        f.scale = o.scale;
        if (o.mask) f.mask = ConstMatrixView(*o.mask);
        f.tile = fdp.ConsumeIntegralInRange<std::size_t>(0, 24);  // 0: the default tile
        AttentionOptions plain = o;
        plain.dropout = {};
        try {
            const Matrix F = flash_attention(Q, K, V, f);
            ATTN_CHECK(valid_shapes && valid_scale);
            ATTN_CHECK(F.rows() == Tq && F.cols() == dv);
            const Matrix A = attention_output(Q, K, V, plain);
            const Trace T = attention(Q, K, V, plain);
            const HeadTrace H = attention_head(Q, K, V, plain);
            f64::AttentionOptionsD od;
            od.causal = o.causal;
            od.scale = T.scale;
            if (o.mask) od.mask = f64::MatrixD(*o.mask);
            const Matrix D = f64::attention(f64::MatrixD(Q), f64::MatrixD(K), f64::MatrixD(V), od).output.to_float();
            const Matrix R = reference::attention(Q, K, V, plain).output;
            ATTN_CHECK(H.output.rows() == Tq && H.output.cols() == dv && D.rows() == Tq && D.cols() == dv);
            // A row with every key hidden (causal or −∞ in the mask) is 0 in every variant,
            // whatever its scores and whatever else the mask holds there (the mask replaces the score).
            for (std::size_t i = 0; i < Tq; ++i) {
                bool any_visible = false;
                for (std::size_t j = 0; j < Tk; ++j)
                    if (!((o.causal && j > i) || (o.mask && (*o.mask)(i, j) == kNegInf))) any_visible = true;
                if (!any_visible)
                    for (const Matrix* X : {&F, &A, &T.output, &H.output, &D, &R})
                        for (std::size_t k = 0; k < dv; ++k) ATTN_CHECK((*X)(i, k) == 0.0f);
            }
            // With finite Values a row is NaN exactly when a NaN or +∞ reached its visible scores:
            // the float variants agree on which rows (products of NaN, ±∞ and finite numbers give
            // the same non-finite sums in any order;
            // the double paths are left out: 1e30 · 1e30 overflows in float, not in double).
            // Only where no score can overflow in one variant and not in another: the tiled
            // kernel scales Q before the product (natively, in base 2), the others scale the
            // product, so with entries of 1e30 and a scale of 2e-24 the plain score overflows
            // to +inf (a NaN row) while the tiled one is finite and right (regression
            // variants-disagree-on-nan-rows; docs/reliability.md, "Where the variants may
            // differ"). Hence finite entries of at most 1e15 (products and their sums stay far
            // below the float limit at d_k <= 20) and a scale, if given, in [2^-10, 4] (so
            // Q·scale cannot underflow a 1e-40 to 0 and turn 0·∞ into a NaN).
            bool v_finite = true,
                 moderate = !o.scale || (std::abs(*o.scale) <= 4.0f && std::abs(*o.scale) >= 1.0f / 1024.0f);
            for (std::size_t k = 0; k < V.size(); ++k) v_finite = v_finite && std::isfinite(V.data()[k]);
            for (const Matrix* X : {&Q, &K})
                for (std::size_t k = 0; k < X->size(); ++k)
                    moderate = moderate && !(std::isfinite(X->data()[k]) && std::abs(X->data()[k]) > 1e15f);
            if (v_finite && moderate && fill != Fill::Bits && dv > 0)
                for (std::size_t i = 0; i < Tq; ++i) {
                    const bool nan = std::isnan(T.output(i, 0));
                    for (const Matrix* X : {&F, &A, &H.output}) ATTN_CHECK(std::isnan((*X)(i, 0)) == nan);
                }
            const bool tame = fill == Fill::Tame && (!o.scale || std::abs(*o.scale) <= 4.0f);
            if (tame) {
                ATTN_CHECK(close(F, A, 1e-4, 1e-4));
                ATTN_CHECK(close(A, T.output, 1e-5, 1e-5));
                ATTN_CHECK(close(H.output, T.output, 1e-4, 1e-4));
                ATTN_CHECK(close(D, R, 1e-4, 1e-4));
                ATTN_CHECK(close(T.output, R, 1e-4, 1e-3));
            }
        } catch (const ShapeError&) {
            ATTN_CHECK(!valid_shapes);
        } catch (const ValueError&) {
            ATTN_CHECK(!valid_shapes || !valid_scale);
        }
    }

    // The stages one by one on the same operands (errors must be typed, never a crash).
    try {
        const Matrix S = scores(Q, K);
        ATTN_CHECK(dk == dk2);
        const float f = o.scale.value_or(0.5f);
        const Matrix Ss = scale(S, f);
        ATTN_CHECK(std::isfinite(f));
        const Matrix Sm = add_mask(Ss, o.mask ? ConstMatrixView(*o.mask) : ConstMatrixView(causal_mask(Tq, Tk)));
        for (Axis axis : {Axis::Rows, Axis::Cols}) {
            const Matrix P = softmax(Sm, axis);
            if (fill == Fill::Tame) ATTN_CHECK(close(P, reference::softmax(Sm, axis), 1e-4, 5e-5));
        }
        const Matrix P = softmax(Sm);
        const Matrix O = weighted_sum(P, V);
        ATTN_CHECK(O.rows() == Tq && O.cols() == dv);
        const Matrix D = dropout(P, o.dropout.rate, o.dropout.seed);
        for (std::size_t k = 0; k < D.size(); ++k) ATTN_CHECK(D.data()[k] == 0.0f || P.data()[k] != 0.0f || std::isnan(D.data()[k]));
        ATTN_CHECK(transpose(transpose(Q)).to_vector().size() == Q.size());
        const Matrix QtK = matmul(transpose(Q), K.rows() == Q.rows() ? ConstMatrixView(K) : ConstMatrixView(Q));
        ATTN_CHECK(QtK.rows() == dk);
    } catch (const ShapeError&) {
    } catch (const ValueError&) {
    }
    return 0;
}

// libFuzzer target: split_heads, concat_heads and multi_head_attention on arbitrary
// shapes, head counts (0, huge, not dividing the width) and bit patterns. Checks typed
// errors for invalid input, the round trip split → concat, shapes, the non-finite
// report, and heads that never mix (head h's output only depends on head h's columns).
#include "fuzz_common.hpp"

using namespace attn;
using namespace attn::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    const std::size_t T = fdp.ConsumeIntegralInRange<std::size_t>(0, 12);
    const std::size_t d = fdp.ConsumeIntegralInRange<std::size_t>(0, 16);
    const std::size_t D = fdp.ConsumeIntegralInRange<std::size_t>(0, 16);
    const std::size_t Dv = fdp.ConsumeBool() ? D : fdp.ConsumeIntegralInRange<std::size_t>(0, 16);
    const std::size_t dout = fdp.ConsumeIntegralInRange<std::size_t>(0, 8);
    const std::size_t heads = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<std::size_t>(0, 17)
                                                : fdp.ConsumeIntegral<std::size_t>();
    const Fill fill = pick_fill(fdp);
    // Occasionally a weight whose rows do not chain.
    const std::size_t dq = fdp.ConsumeIntegralInRange<int>(0, 7) == 0 ? d + 1 : d;
    const Matrix X = matrix(fdp, T, d, fill);
    MultiHeadWeights w{matrix(fdp, dq, D, fill), matrix(fdp, d, D, fill), matrix(fdp, d, Dv, fill),
                       matrix(fdp, Dv, dout, fill)};
    MultiHeadOptions o;
    o.heads = heads;
    o.causal = fdp.ConsumeBool();
    o.dropout.rate = fdp.ConsumeBool() ? fdp.ConsumeProbability<float>() * 0.9f : 0.0f;
    o.dropout.training = fdp.ConsumeBool();
    o.dropout.seed = fdp.ConsumeIntegral<std::uint64_t>();

    const bool heads_ok = heads >= 1 && heads <= D && heads <= Dv && D % heads == 0 && Dv % heads == 0;
    try {
        const auto parts = split_heads(X, heads);
        ATTN_CHECK(heads >= 1 && heads <= d && d % heads == 0);
        ATTN_CHECK(parts.size() == heads);
        const Matrix back = concat_heads(parts);
        ATTN_CHECK(back.rows() == X.rows() && back.cols() == X.cols());
        for (std::size_t k = 0; k < X.size(); ++k)
            ATTN_CHECK(std::memcmp(back.data() + k, X.data() + k, sizeof(float)) == 0);  // bit-exact, NaN payloads too
    } catch (const ValueError&) {
        ATTN_CHECK(heads == 0 || heads > d || d % heads != 0);
    }

    try {
        const MultiHeadTrace t = multi_head_attention(X, w, o);
        ATTN_CHECK(dq == d && heads_ok && T > 0);
        ATTN_CHECK(t.heads.size() == heads);
        ATTN_CHECK(t.output.rows() == T && t.output.cols() == dout);
        ATTN_CHECK(t.concat.rows() == T && t.concat.cols() == Dv);
        const std::size_t n = count_nonfinite(X, false) + count_nonfinite(w.Wq, false) + count_nonfinite(w.Wk, false) +
                              count_nonfinite(w.Wv, false) + count_nonfinite(w.Wo, false);
        ATTN_CHECK(t.nonfinite.count == n);
        // Heads never mix: each head equals a single-head call on its own column block.
        const std::size_t dh = D / heads, dvh = Dv / heads;
        for (std::size_t h = 0; h < heads; ++h) {
            AttentionOptions ao;
            ao.causal = o.causal;
            ao.dropout = o.dropout;
            ao.dropout.seed = o.dropout.seed + h;
            const Trace one = attention(t.q.cols_block(h * dh, dh), t.k.cols_block(h * dh, dh),
                                        t.v.cols_block(h * dvh, dvh), ao);
            ATTN_CHECK(close(one.output, t.heads[h].output, 0, 0));
        }
    } catch (const ShapeError&) {
        ATTN_CHECK(dq != d);
    } catch (const ValueError&) {
        ATTN_CHECK(!heads_ok || T == 0 || dq != d);
    }
    return 0;
}

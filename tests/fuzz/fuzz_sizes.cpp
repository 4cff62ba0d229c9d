// libFuzzer target: every function that takes a size or a scalar option, with
// arbitrary values (0, huge, overflowing rows·cols, NaN, ±∞). Requests past
// kMaxElements must throw SizeError before touching memory; others must succeed or
// throw a typed error. Sizes between 4096 elements and the limit are skipped so the
// fuzzer spends its time on boundaries, not on filling gigabytes.
#include "fuzz_common.hpp"

using namespace attn;
using namespace attn::fuzz;

namespace {
std::size_t any_size(FuzzedDataProvider& fdp) {
    switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: return fdp.ConsumeIntegralInRange<std::size_t>(0, 64);
        case 1: return kMaxElements + fdp.ConsumeIntegralInRange<std::size_t>(0, 3);
        case 2: return (std::size_t{1} << fdp.ConsumeIntegralInRange<int>(0, 63)) + fdp.ConsumeIntegralInRange<int>(-1, 1);
        default: return fdp.ConsumeIntegral<std::size_t>();
    }
}
bool affordable(std::size_t r, std::size_t c) { return c == 0 || r <= 4096 / c; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    const std::size_t r = any_size(fdp), c = any_size(fdp);
    const bool exceeds = r > kMaxElements || c > kMaxElements ||
                         (c != 0 && (r > std::numeric_limits<std::size_t>::max() / c || r * c > kMaxElements));
    const int which = fdp.ConsumeIntegralInRange<int>(0, 6);
    if (!exceeds && !affordable(r, c)) return 0;
    try {
        switch (which) {
            case 0: {
                const Matrix m(r, c, value(fdp, Fill::Bits));
                ATTN_CHECK(m.size() == r * c);
                break;
            }
            case 1: {
                const Matrix m = causal_mask(r, c);
                // Over the entries, not the rows: a 2^28 x 0 mask has none.
                for (std::size_t k = 0; k < m.size(); ++k) ATTN_CHECK((m.data()[k] == 0.0f) == (k % c <= k / c));
                break;
            }
            case 2: {
                const double base = fdp.ConsumeBool() ? 10000.0 : fdp.ConsumeFloatingPoint<double>();
                const Matrix pe = sinusoidal_encoding(r, c, base);
                ATTN_CHECK(c > 0 && base > 0 && std::isfinite(base));
                for (std::size_t k = 0; k < pe.size(); ++k) ATTN_CHECK(std::abs(pe.data()[k]) <= 1.0f);
                break;
            }
            case 3: {
                const float lo = value(fdp, Fill::Bits), hi = value(fdp, Fill::Bits);
                const Matrix u = random_uniform(r, c, fdp.ConsumeIntegral<std::uint64_t>(), lo, hi);
                ATTN_CHECK(std::isfinite(lo) && std::isfinite(hi) && lo <= hi);
                for (std::size_t k = 0; k < u.size(); ++k) ATTN_CHECK(!std::isnan(u.data()[k]));
                break;
            }
            case 4: {
                const float mean = value(fdp, Fill::Bits), sd = value(fdp, Fill::Bits);
                const Matrix n = random_normal(r, c, fdp.ConsumeIntegral<std::uint64_t>(), mean, sd);
                ATTN_CHECK(std::isfinite(mean) && std::isfinite(sd) && sd >= 0);
                break;
            }
            case 5: {
                CostInput in{r, c, any_size(fdp), any_size(fdp), any_size(fdp)};
                const Cost k = cost(in);
                ATTN_CHECK(in.n && in.d_model && in.heads && in.layers && in.bytes_per_element && in.d_model % in.heads == 0);
                ATTN_CHECK(k.bytes_total >= 0 && k.flops_total >= 0);
                break;
            }
            default: {
                const Matrix m(std::min<std::size_t>(r, 8), std::min<std::size_t>(c, 8), 1.0f);
                const std::size_t c0 = any_size(fdp), n = any_size(fdp);
                const ConstMatrixView v = m.cols_block(c0, n);
                ATTN_CHECK(c0 <= m.cols() && n <= m.cols() - c0 && v.cols() == n);
                break;
            }
        }
        ATTN_CHECK(!exceeds || which == 5 || which == 6);
    } catch (const SizeError&) {
        ATTN_CHECK(exceeds);
    } catch (const ValueError&) {
    } catch (const ShapeError&) {
        ATTN_CHECK(which == 6);
    }
    return 0;
}

#include "nonfinite.hpp"

namespace attn::detail {

namespace {
// The entries' bits ORed together, one row at a time, or in one run when the rows are
// contiguous (the stride is the row length): no branch per entry.
template <bool MinusInfIsMask>
bool any_nonfinite_of(ConstMatrixView m) {
    std::uint32_t hit = 0;
    const bool flat = m.stride() == m.cols();
    const std::size_t rows = flat ? 1 : m.rows(), cols = flat ? m.rows() * m.cols() : m.cols();
    for (std::size_t i = 0; i < rows; ++i) {
        const float* row = m.row(i);
        for (std::size_t j = 0; j < cols; ++j) hit |= nonfinite_bit(row[j], MinusInfIsMask);
    }
    return hit != 0;
}
}  // namespace

bool any_nonfinite(ConstMatrixView m, bool minus_inf_is_mask) {
    return minus_inf_is_mask ? any_nonfinite_of<true>(m) : any_nonfinite_of<false>(m);
}

bool report_input(NonFiniteReport& r, const char* input, ConstMatrixView m, bool minus_inf_is_mask) {
    if (!any_nonfinite(m, minus_inf_is_mask)) return false;
    for (std::size_t i = 0; i < m.rows(); ++i) {
        const float* row = m.row(i);
        for (std::size_t j = 0; j < m.cols(); ++j) {
            if (!nonfinite_bit(row[j], minus_inf_is_mask)) continue;
            if (r.entries.size() < NonFiniteReport::kMaxListed) r.entries.push_back({input, i, j, row[j]});
            ++r.count;
        }
    }
    return true;
}

void report_stage(NonFiniteReport& r, const char* stage, ConstMatrixView m, bool minus_inf_is_mask) {
    if (any_nonfinite(m, minus_inf_is_mask)) r.stages.emplace_back(stage);
}

}  // namespace attn::detail

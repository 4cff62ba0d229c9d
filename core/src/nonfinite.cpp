#include "nonfinite.hpp"

#include <cmath>
#include <limits>

namespace attn::detail {

namespace {
bool counts(float x, bool minus_inf_is_mask) {
    if (std::isfinite(x)) return false;
    return !(minus_inf_is_mask && x == -std::numeric_limits<float>::infinity());
}
}  // namespace

void report_input(NonFiniteReport& r, const char* input, ConstMatrixView m, bool minus_inf_is_mask) {
    for (std::size_t i = 0; i < m.rows(); ++i) {
        const float* row = m.row(i);
        for (std::size_t j = 0; j < m.cols(); ++j) {
            if (!counts(row[j], minus_inf_is_mask)) continue;
            if (r.entries.size() < NonFiniteReport::kMaxListed) r.entries.push_back({input, i, j, row[j]});
            ++r.count;
        }
    }
}

void report_stage(NonFiniteReport& r, const char* stage, ConstMatrixView m, bool minus_inf_is_mask) {
    for (std::size_t i = 0; i < m.rows(); ++i) {
        const float* row = m.row(i);
        for (std::size_t j = 0; j < m.cols(); ++j)
            if (counts(row[j], minus_inf_is_mask)) {
                r.stages.emplace_back(stage);
                return;
            }
    }
}

}  // namespace attn::detail

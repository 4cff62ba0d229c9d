// Bindings of core/include/attn/reductions.hpp: row and column reductions and the
// element-wise helpers.
#include "bind.hpp"

namespace {

struct ColumnRange {
    attn::Matrix min, max;  // 1 x c each
};

// column_range's 2 x c as {min, max}.
ColumnRange column_range(attn::ConstMatrixView M) {
    const attn::Matrix r = attn::column_range(M);
    const auto row = [&](std::size_t i) { return attn::Matrix(attn::ConstMatrixView(r.row(i), 1, r.cols(), r.cols())); };
    return {row(0), row(1)};
}

}  // namespace

ATTN_BINDINGS(attn_reductions) {
    using namespace attn::wasm;
    object<ColumnRange>()
        .field("min", &ColumnRange::min)
        .field("max", &ColumnRange::max);

    bind<&attn::row_sums>("rowSums");
    bind<&attn::col_sums>("colSums");
    bind<&attn::row_max>("rowMax");
    bind<&attn::row_argmax>("rowArgmax");
    bind<&attn::row_dots>("rowDots");
    bind<&attn::row_norms>("rowNorms");
    bind<&attn::normalize_rows>("normalizeRows");
    bind<&attn::normalize_weights>("normalizeWeights");
    bind<&attn::difference>("difference");
    bind<&attn::add>("add");
    bind<&attn::max_abs_diff>("maxAbsDiff");
    bind<&attn::diagonal>("diagonal");
    bind<&attn::permute_rows>("permuteRows");
    bind<&column_range>("columnRange");
}

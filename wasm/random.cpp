// Bindings of core/include/attn/random.hpp.
#include "bind.hpp"

namespace {

using namespace attn::wasm;

// {rows, cols, seed, mean, std, lo, hi} (attn.mjs fills the defaults and checks them).
struct RandomArgs {
    std::size_t rows = 0, cols = 0;
    std::uint64_t seed = 0;
    float mean = 0, std = 1, lo = 0, hi = 1;
};

void read_js(Record& o, RandomArgs& a) {
    read_fields(o, "rows", a.rows, "cols", a.cols, "seed", a.seed, "mean", a.mean, "std", a.std, "lo", a.lo, "hi", a.hi);
}

attn::Matrix random_matrix(const std::string& dist, const RandomArgs& a) {
    if (dist == "uniform") return attn::random_uniform(a.rows, a.cols, a.seed, a.lo, a.hi);
    if (dist == "normal") return attn::random_normal(a.rows, a.cols, a.seed, a.mean, a.std);
    throw attn::ValueError("random: distribution must be 'normal' or 'uniform', got '" + dist + "'");
}

}  // namespace

ATTN_BINDINGS(attn_random) {
    using namespace attn::wasm;
    bind<&random_matrix>("random");
}

// Bindings of core/include/attn/random.hpp.
#include "bind.hpp"

namespace {

using namespace attn::wasm;

// {rows, cols, seed, distribution, mean, std, lo, hi} (attn.mjs fills the defaults).
attn::Matrix random_matrix(const In& o) {
    const std::size_t rows = Arg<std::size_t>::from(o["rows"]), cols = Arg<std::size_t>::from(o["cols"]);
    const std::uint64_t seed = Arg<std::uint64_t>::from(o["seed"]);
    const std::string dist = Arg<std::string>::from(o["distribution"]);
    const auto f = [&](const char* k) { return to_float(number(o[k], k)); };
    if (dist == "uniform") return attn::random_uniform(rows, cols, seed, f("lo"), f("hi"));
    if (dist == "normal") return attn::random_normal(rows, cols, seed, f("mean"), f("std"));
    throw attn::ValueError("random: distribution must be 'normal' or 'uniform', got '" + dist + "'");
}

}  // namespace

ATTN_BINDINGS(attn_random) {
    using namespace attn::wasm;
    bind<&random_matrix>("random");
}

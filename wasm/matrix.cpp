// Limits of core/include/attn/matrix.hpp, read by attn.mjs (it keeps no copy of them).
#include "bind.hpp"

ATTN_BINDINGS(attn_matrix) {
    using namespace attn::wasm;
    // The largest matrix the core allocates, in elements.
    constant("MAX_ELEMENTS", double(attn::kMaxElements));
    // The largest count a size_t holds here (n in the cost model is not a matrix size).
    constant("MAX_COUNT", double(std::numeric_limits<std::size_t>::max()));
}

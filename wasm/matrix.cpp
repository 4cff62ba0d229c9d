// Limits of core/include/attn/matrix.hpp, read by attn.mjs (it keeps no copy of them).
#include "bind.hpp"

EMSCRIPTEN_BINDINGS(attn_matrix) {
    // The largest matrix the core allocates, in elements.
    emscripten::constant("MAX_ELEMENTS", double(attn::kMaxElements));
    // The largest count a size_t holds here (n in the cost model is not a matrix size).
    emscripten::constant("MAX_COUNT", double(std::numeric_limits<std::size_t>::max()));
}

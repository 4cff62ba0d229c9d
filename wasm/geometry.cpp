// Bindings of core/include/attn/geometry.hpp: q·k as lengths and an angle, the diagonal
// check, the convex hull.
#include "bind.hpp"

ATTN_BINDINGS(attn_geometry) {
    using namespace attn::wasm;
    using attn::DiagonalCheck, attn::DotGeometry;
    object<DotGeometry>()
        .field("dot", &DotGeometry::dot)
        .field("normA", &DotGeometry::norm_a)
        .field("normB", &DotGeometry::norm_b)
        .field("cos", &DotGeometry::cos)
        .field("degrees", &DotGeometry::degrees);
    object<DiagonalCheck>()
        .field("diagonal", &DiagonalCheck::diagonal)
        .field("offMax", &DiagonalCheck::off_max)
        .field("margin", &DiagonalCheck::margin)
        .field("holds", &DiagonalCheck::holds);

    bind<&attn::dot_geometry>("dotGeometry");
    bind<&attn::convex_hull>("convexHull");
    bind<&attn::hull_distance>("hullDistance");
    bind<&attn::diagonal_check>("diagonalCheck");
}

// Stage of the per-instruction-set suites only (tests/CMakeLists.txt: core.isa.<name>): the
// core each one links was built for another instruction set than -march=native (AVX2 + FMA,
// SSE4.2 without FMA, or the scalar stand-in), so the stages it runs check those kernels.
#include <catch2/catch.hpp>

#include <string>

#include "attn/attn.hpp"

TEST_CASE("the suite runs the kernels of the instruction set it is named after", "[isa]") {
    const std::string isa = ATTN_TEST_ISA, name = attn::simd_name();
    CAPTURE(isa, name);
    CHECK(name.find("avx512") == std::string::npos);
    if (isa == "avx2") {
        CHECK(name.find("avx2") != std::string::npos);
#if !defined(__FMA__) || defined(__AVX512F__)
        FAIL("the avx2 suite must be compiled for AVX2 + FMA, without AVX-512");
#endif
    } else if (isa == "sse4.2") {
        CHECK(name.find("sse4.2") != std::string::npos);
#if defined(__FMA__) || defined(__AVX__)
        FAIL("the sse4.2 suite must be compiled without FMA and AVX");
#endif
    } else {
        CHECK(isa == "scalar");
        CHECK(name == "scalar");
    }
}

// Stage of attn_tests_avx2 only (tests/CMakeLists.txt): the core it links was built for
// AVX2 + FMA, not AVX-512, so the flash and softmax stages it runs check the AVX2 kernels.
#include <catch2/catch.hpp>

#include "attn/attn.hpp"

TEST_CASE("attn_tests_avx2 runs the AVX2 kernels", "[flash]") {
    CHECK(attn::simd_name().find("avx2") != std::string::npos);
    CHECK(attn::simd_name().find("avx512") == std::string::npos);
#if defined(__AVX512F__)
    FAIL("compiled with AVX-512");
#endif
}

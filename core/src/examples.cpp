#include "attn/examples.hpp"

namespace attn::examples {

CoreAttention core_attention() {
    CoreAttention ex;
    //           head 1 (d_h = 4)  | head 2 (d_h = 4)
    ex.Q = Matrix{{1, 0, 1, 0, /**/ 0, 1, 1, 0},
                  {3, 0, 2, -1, /**/ 1, 0, 0, 1},
                  {-1, 1, 1, 2, /**/ 1, 1, 0, -1}};
    ex.K = Matrix{{1, -1, 2, 1, /**/ 1, 0, 1, 0},
                  {1, 1, 0, 0, /**/ 0, 2, 0, 1},
                  {0, 2, 0, 2, /**/ 1, 1, -1, 0}};
    ex.V = Matrix{{1, 0, 0, 1, /**/ 2, 0, 1, 0},
                  {0, 1, 0, 1, /**/ 0, 1, 1, 0},
                  {0, 0, 1, 1, /**/ 1, 1, 0, 2}};
    return ex;
}

}  // namespace attn::examples

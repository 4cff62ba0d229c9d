// Umbrella header: the whole public API of the attention core.
#pragma once

#include "attn/attention.hpp"
#include "attn/cost.hpp"
#include "attn/dropout.hpp"
#include "attn/errors.hpp"
#include "attn/examples.hpp"
#include "attn/flash.hpp"
#include "attn/linalg.hpp"
#include "attn/matrix.hpp"
#include "attn/memory.hpp"
#include "attn/multihead.hpp"
#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "attn/simd.hpp"

// Umbrella header: the whole public API of the attention core, one header per concept.
//
//   matrix.hpp      Matrix, its views, f64::MatrixD; errors.hpp the error types;
//                   memory.hpp the memory counters; random.hpp seeded random matrices
//   linalg.hpp      matmul, matmul_bt, transpose, simd_name
//   attention.hpp   the stages (scores, scale, masks, softmax and its intermediates,
//                   weighted sum) and attention()
//   flash.hpp       the tiled kernel with an online softmax
//   forward.hpp     every forward variant and what each is for (and the training head's
//                   and the double path's)
//   multihead.hpp   split and concat heads, multi-head attention
//   positional.hpp  sinusoidal positional encoding
//   dropout.hpp     seeded inverted dropout
//   cost.hpp        the cost model of one layer
//   grad.hpp        the backward pass of every stage, float and double, the softmax Jacobian
//   model.hpp       the tiny trainable Transformer, its tasks, Adam, Trainer
//   text.hpp        the text model's tokenizer (characters, Hangul as jamo)
//   text_model.hpp  the text model's windows, loss in bits per character, file format
//   head_roles.hpp  measured head roles (pattern and induction scores), ablation
//   attribution.hpp attention x value norm, attention rollout, weights by character
//   reductions.hpp  row and column sums, maxima, norms, and element-wise helpers
//   statistics.hpp  moments and histograms of a matrix's entries
//   geometry.hpp    q·k as lengths and an angle, the diagonal check, the convex hull
//   score_scale.hpp the factor 1/√d_k: its effect on softmax and the variance behind it
//   recurrent.hpp   a recurrent state (exponential moving average), attention's baseline
//   constructed_heads.hpp  heads with hand-set W_Q, W_K that show a chosen pattern
//   examples.hpp    every worked example, as data
// (reference.hpp, the scalar oracle for tests, is not included here.)
#pragma once

#include "attn/attention.hpp"
#include "attn/attribution.hpp"
#include "attn/constructed_heads.hpp"
#include "attn/cost.hpp"
#include "attn/dropout.hpp"
#include "attn/errors.hpp"
#include "attn/examples.hpp"
#include "attn/flash.hpp"
#include "attn/forward.hpp"
#include "attn/geometry.hpp"
#include "attn/grad.hpp"
#include "attn/head_roles.hpp"
#include "attn/linalg.hpp"
#include "attn/matrix.hpp"
#include "attn/memory.hpp"
#include "attn/model.hpp"
#include "attn/multihead.hpp"
#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "attn/recurrent.hpp"
#include "attn/reductions.hpp"
#include "attn/score_scale.hpp"
#include "attn/statistics.hpp"
#include "attn/text.hpp"
#include "attn/text_model.hpp"

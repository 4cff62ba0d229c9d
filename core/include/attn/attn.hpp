// Umbrella header: the whole public API of the attention core, one header per concept.
//
//   matrix.hpp      Matrix, its views, f64::MatrixD; errors.hpp the error types;
//                   memory.hpp the memory counters; random.hpp seeded random matrices
//   linalg.hpp      matmul, matmul_bt, transpose, simd_name
//   attention.hpp   the stages (scores, scale, masks, softmax, weighted sum) and attention()
//   flash.hpp       the tiled kernel with an online softmax
//   forward.hpp     every forward variant and what each is for (and the training head's
//                   and the double path's)
//   multihead.hpp   split and concat heads, multi-head attention
//   positional.hpp  sinusoidal positional encoding
//   dropout.hpp     seeded inverted dropout
//   cost.hpp        the cost model of one layer
//   grad.hpp        the backward pass of every stage, float and double
//   model.hpp       the tiny trainable Transformer, its tasks, Adam, Trainer
//   text.hpp        the text model's tokenizer (characters, Hangul as jamo)
//   text_model.hpp  the text model's windows, loss in bits per character, file format
//   heads.hpp       measured head roles, ablation, attention x value norm, rollout
//   inspect.hpp     the numbers the page shows beside its figures
//   recurrent.hpp   the toy recurrent state attention is compared with
//   reading.hpp     constructed heads (hand-set W_Q, W_K)
//   examples.hpp    every worked example, as data
// (reference.hpp, the scalar oracle for tests, is not included here.)
#pragma once

#include "attn/attention.hpp"
#include "attn/cost.hpp"
#include "attn/dropout.hpp"
#include "attn/errors.hpp"
#include "attn/examples.hpp"
#include "attn/flash.hpp"
#include "attn/forward.hpp"
#include "attn/grad.hpp"
#include "attn/heads.hpp"
#include "attn/inspect.hpp"
#include "attn/linalg.hpp"
#include "attn/matrix.hpp"
#include "attn/memory.hpp"
#include "attn/model.hpp"
#include "attn/multihead.hpp"
#include "attn/positional.hpp"
#include "attn/random.hpp"
#include "attn/reading.hpp"
#include "attn/recurrent.hpp"
#include "attn/text.hpp"
#include "attn/text_model.hpp"

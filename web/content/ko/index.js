import common from './common.js';
import whyAttention from './why-attention.js';
import coreAttention from './core-attention.js';
import noWeights from './no-weights.js';
import projections from './projections.js';
import weightedSum from './weighted-sum.js';
import readingMatrix from './reading-matrix.js';
import oneHead from './one-head.js';
import multiHead from './multi-head.js';
import causalDropout from './causal-dropout.js';
import positionalEncoding from './positional-encoding.js';
import training from './training.js';
import review from './review.js';

export default {
  common,
  'why-attention': whyAttention,
  'core-attention': coreAttention,
  'no-weights': noWeights,
  'projections': projections,
  'weighted-sum': weightedSum,
  'reading-matrix': readingMatrix,
  'one-head': oneHead,
  'multi-head': multiHead,
  'causal-dropout': causalDropout,
  'positional-encoding': positionalEncoding,
  'training': training,
  'review': review,
};

import common from './common.js';
import coreAttention from './core-attention.js';
import noWeights from './no-weights.js';
import projections from './projections.js';
import causalDropout from './causal-dropout.js';
import multiHead from './multi-head.js';
import oneHead from './one-head.js';

export default {
  common,
  'core-attention': coreAttention,
  'no-weights': noWeights,
  projections,
  'causal-dropout': causalDropout,
  'multi-head': multiHead,
  'one-head': oneHead,
};

// The chapters of the page, in reading order. Each module exports {id, mount}; its
// text lives in web/content/<lang>/<id>.js.
import whyAttention from './why-attention.js';
import termsFormula from './terms-formula.js';
import twoKeys from './two-keys.js';
import coreAttention from './core-attention.js';
import whyQkv from './why-qkv.js';
import noWeights from './no-weights.js';
import projections from './projections.js';
import scaling from './scaling.js';
import softmax from './softmax.js';
import weightedSum from './weighted-sum.js';
import readingMatrix from './reading-matrix.js';
import cost from './cost.js';
import oneHead from './one-head.js';
import multiHead from './multi-head.js';
import causalDropout from './causal-dropout.js';
import positionalEncoding from './positional-encoding.js';
import training from './training.js';
import review from './review.js';

export default [
  whyAttention,
  termsFormula,
  twoKeys,
  coreAttention,
  whyQkv,
  noWeights,
  projections,
  scaling,
  softmax,
  weightedSum,
  readingMatrix,
  cost,
  oneHead,
  multiHead,
  causalDropout,
  positionalEncoding,
  training,
  review,
];

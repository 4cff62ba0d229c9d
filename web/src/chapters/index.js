// The chapters of the page, in reading order. Each module exports {id, mount}; its
// text lives in web/content/<lang>/<id>.js.
import coreAttention from './core-attention.js';
import noWeights from './no-weights.js';
import projections from './projections.js';
import causalDropout from './causal-dropout.js';
import multiHead from './multi-head.js';
import oneHead from './one-head.js';

export default [noWeights, projections, causalDropout, coreAttention, oneHead, multiHead];

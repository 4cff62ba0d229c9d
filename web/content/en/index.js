import common from './common.js';
import coreAttention from './core-attention.js';
import termsFormula from './terms-formula.js';
import twoKeys from './two-keys.js';
import whyQkv from './why-qkv.js';
import scaling from './scaling.js';
import softmax from './softmax.js';

export default {
  common, 'core-attention': coreAttention,
  'terms-formula': termsFormula, 'two-keys': twoKeys, 'why-qkv': whyQkv, scaling, softmax,
};

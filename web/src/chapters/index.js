// The chapters of the page, in reading order. Each module exports {id, mount}; its
// text lives in web/content/<lang>/<id>.js.
import coreAttention from './core-attention.js';
import termsFormula from './terms-formula.js';
import twoKeys from './two-keys.js';
import whyQkv from './why-qkv.js';
import scaling from './scaling.js';
import softmax from './softmax.js';

export default [termsFormula, twoKeys, whyQkv, scaling, softmax, coreAttention];

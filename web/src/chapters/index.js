// The chapters of the page, in reading order. Each module exports {id, mount}; its
// text lives in web/content/<lang>/<id>.js.
import coreAttention from './core-attention.js';
import cost from './cost.js';

export default [coreAttention, cost];

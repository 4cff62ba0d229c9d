// The chapters of the page, in reading order. Each module exports {id, mount}; its
// text lives in web/content/<lang>/<id>.js.
import coreAttention from './core-attention.js';
import review from './review.js';
import whyAttention from './why-attention.js';
import positionalEncoding from './positional-encoding.js';
import readingMatrix from './reading-matrix.js';
import weightedSum from './weighted-sum.js';

export default [coreAttention, weightedSum, readingMatrix, positionalEncoding, whyAttention, review];

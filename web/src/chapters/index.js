// The chapters of the page, in reading order. Each module exports {id, mount}; its
// text lives in web/content/<lang>/<id>.js.
import whyAttention from './why-attention.js';
import coreAttention from './core-attention.js';
import weightedSum from './weighted-sum.js';
import readingMatrix from './reading-matrix.js';
import positionalEncoding from './positional-encoding.js';
import review from './review.js';

export default [whyAttention, coreAttention, weightedSum, readingMatrix, positionalEncoding, review];

import common from './common.js';
import coreAttention from './core-attention.js';
import review from './review.js';
import whyAttention from './why-attention.js';
import positionalEncoding from './positional-encoding.js';
import readingMatrix from './reading-matrix.js';
import weightedSum from './weighted-sum.js';

export default { common, 'core-attention': coreAttention, 'review': review, 'why-attention': whyAttention, 'positional-encoding': positionalEncoding, 'reading-matrix': readingMatrix, 'weighted-sum': weightedSum };

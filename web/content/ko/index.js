import common from './common.js';
import coreAttention from './core-attention.js';
import training from './training.js';

export default { common, 'core-attention': coreAttention, training };

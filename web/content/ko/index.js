import common from './common.js';
import coreAttention from './core-attention.js';
import cost from './cost.js';

export default { common, 'core-attention': coreAttention, cost };

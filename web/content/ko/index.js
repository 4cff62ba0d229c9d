import common from './common.js';
import coreAttention from './core-attention.js';

export default { common, 'core-attention': coreAttention };

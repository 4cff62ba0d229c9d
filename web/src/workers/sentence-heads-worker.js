// The trained-heads chapter's Web Worker: the measurer (sentence-heads.js) in its own
// thread, so typing a sentence never stalls the page while its head roles are measured.
// Built by scripts/build.mjs into dist/sentence-heads.js, next to attn.mjs, which it imports
// (the core with the trainer: loadModel).
import createAttention from './attn.mjs';
import { createSentenceHeads } from './sentence-heads.js';

const measurer = createSentenceHeads({ ready: createAttention(), post: (msg) => postMessage(msg) });
self.onmessage = (e) => measurer.receive(e.data);

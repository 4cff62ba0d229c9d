// The real-model chapter's Web Worker (docs/real-models.md): the learner's checkpoint read
// into this worker's own module and every head computed here, so the page thread stays free
// while hundreds of megabytes load and 144 heads are measured. Built by scripts/build.mjs into
// dist/real-model.js (the tokenizer library bundled in: it loads only with this worker), next
// to pretrained.mjs and attn-pretrained.mjs/.wasm (wasm/pretrained/), which it imports.
import createPretrained from './pretrained.mjs';
import { createRealModel } from './real-model.js';

const core = createPretrained();
core.catch((e) => postMessage({ type: 'error', id: null, of: 'core', error: { kind: 'core', message: String(e?.message ?? e) } }));
const rm = createRealModel({ core, post: (msg, transfer) => postMessage(msg, transfer ?? []) });
self.onmessage = (e) => rm.receive(e.data);

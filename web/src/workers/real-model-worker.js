// The real-model chapter's Web Worker (docs/real-models.md): the learner's checkpoint read
// into this worker's own module and every head computed here, so the page thread stays free
// while hundreds of megabytes load and 144 heads are measured. Built by scripts/build.mjs into
// dist/real-model.js (the tokenizer library bundled in: it loads only with this worker), next
// to pretrained.mjs and attn-pretrained.mjs/.wasm (wasm/pretrained/), which it imports.
import createPretrained from './pretrained.mjs';
import { createRealModel } from './real-model.js';

const core = createPretrained();
core.catch((e) => postMessage({ type: 'error', id: null, of: 'core', error: { kind: 'core', message: String(e?.message ?? e) } }));
// The ablation's next piece waits behind the messages already queued for this worker: a
// message to ourselves through a channel is queued after them (a timer's task may run first,
// and a "Stop" sent with the request would then be seen pieces late).
const channel = new MessageChannel();
const next = [];
channel.port1.onmessage = () => next.shift()();
const defer = (f) => {
  next.push(f);
  channel.port2.postMessage(0);
};
const rm = createRealModel({ core, post: (msg, transfer) => postMessage(msg, transfer ?? []), defer });
self.onmessage = (e) => rm.receive(e.data);

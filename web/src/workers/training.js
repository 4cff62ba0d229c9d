// The training chapter's Web Worker: the trainer (trainer.js) in its own thread, so the
// page stays responsive while two models train. Built by esbuild into
// dist/training-worker.js; attn.mjs sits next to it.
import createAttention from './attn.mjs';
import { createTrainer } from './trainer.js';

const trainer = createTrainer({ ready: createAttention(), post: (msg) => postMessage(msg) });
self.onmessage = (e) => trainer.receive(e.data);

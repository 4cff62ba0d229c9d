// One Web Worker of the attention pool (pool.js): the cost chapter's live run spreads the
// heads of each measurement over a few of these, each with its own instance of the core.
// Inputs and outputs arrive and leave as transferred ArrayBuffers (no SharedArrayBuffer,
// so no cross-origin isolation is needed). The page cancels by terminating the workers.
//
// Messages in:  {type: 'heads', id, heads: [{q, k, v, head, row, count}], rows, cols, kernel, causal, progress}
//               (a head's `count` query rows from `row` of q, all `rows` keys: heads-task.js)
// Messages out: {type: 'ready', simd} once the core is loaded and warmed up;
//               {type: 'progress', id, done, of} after each part, when the call asked (progress: true);
//               {type: 'result', id, heads: [{output, ms, workBytes, q, k, v}], at: [start, end]};
//               {type: 'error', id, message, name, kind} (id absent: the core did not load;
//               then file names the file that did not load, attn.mjs, attn-core.mjs or a
//               .wasm: createAttention's error.file).
// Built by scripts/build.mjs into dist/cost-run.js, next to attn.mjs, which it imports.
import { serveHeads, warmUp } from './heads-task.js';

// The page's core (attn-core-lite.wasm): no trainer needed. Warmed up before 'ready', so
// that no measurement meets the baseline compiler. attn.mjs is imported here, not above: a
// folder without it is then said as that file missing (error.file), not as this script
// failing to load.
const ready = import('./attn.mjs').catch((e) => {
  throw Object.assign(new Error(`could not load attn.mjs: ${e?.message ?? e}`, { cause: e }), { file: 'attn.mjs' });
}).then(({ default: createAttention }) => createAttention({ training: false })).then((attn) => {
  warmUp(attn);
  return attn;
});
ready.then(
  (attn) => self.postMessage({ type: 'ready', simd: attn.simd }),
  (e) => self.postMessage({ type: 'error', message: e?.message ?? String(e), file: e?.file ?? null }),
);

self.onmessage = serveHeads(ready, (m, transfer) => self.postMessage(m, transfer));

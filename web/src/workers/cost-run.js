// Web Worker of the "n² cost" chapter's live run: plain and tiled attention for growing
// n, measured by the core (profileAttention: the kernel's time and the memory it needed
// beyond its inputs), so the page stays responsive while the kernels run. The page
// cancels a run by terminating the worker.
//
// Messages in:  {type: 'run', sizes: [n...], dHead, causal, seed}
// Messages out: {type: 'ready', simd} once the module is loaded;
//               {type: 'start', n, kernel} before each kernel; {type: 'result', n, kernel, ms, workBytes};
//               {type: 'fail', n, kernel, message, kind} when the plain kernel no longer fits;
//               {type: 'done'}; {type: 'error', message} for anything unexpected.
// Built by scripts/build.mjs into dist/cost-run.js, next to attn.mjs, which it imports.
import createAttention from './attn.mjs';

const ready = createAttention({ training: false }); // the page's core (attn-core-lite.wasm): no trainer needed
ready.then(
  (attn) => self.postMessage({ type: 'ready', simd: attn.simd }),
  (e) => self.postMessage({ type: 'error', message: e.message }),
);

self.onmessage = async ({ data }) => {
  if (data?.type !== 'run') return;
  try {
    const attn = await ready;
    const { sizes, dHead = 64, causal = false, seed = 1 } = data;
    // Warm-up: the engine compiles hot WebAssembly functions with its optimising tier
    // only after a few calls; the first calls would measure the baseline compiler.
    // Repeat a small run for a quarter of a second (at least 10 times) before measuring.
    {
      const w = attn.random({ rows: 256, cols: dHead, seed });
      const t0 = performance.now();
      for (let i = 0; i < 10 || performance.now() - t0 < 250; i++)
        for (const kernel of ['plain', 'tiled']) attn.profileAttention(w, w, w, { kernel, causal });
    }
    let plainFits = true;
    for (const n of sizes) {
      const Q = attn.random({ rows: n, cols: dHead, seed });
      const K = attn.random({ rows: n, cols: dHead, seed: seed + 1 });
      const V = attn.random({ rows: n, cols: dHead, seed: seed + 2 });
      for (const kernel of ['plain', 'tiled']) {
        if (kernel === 'plain' && !plainFits) continue;
        self.postMessage({ type: 'start', n, kernel });
        try {
          // Best of up to 3 runs while they are short (< 30 ms in all), one run otherwise.
          let r = attn.profileAttention(Q, K, V, { kernel, causal });
          for (let rep = 1, spent = r.ms; rep < 3 && spent < 30; rep++) {
            const again = attn.profileAttention(Q, K, V, { kernel, causal });
            spent += again.ms;
            if (again.ms < r.ms) r = again;
          }
          self.postMessage({ type: 'result', n, kernel, ms: r.ms, workBytes: r.workBytes });
        } catch (e) {
          if (kernel !== 'plain' || !(e instanceof RangeError)) throw e;
          plainFits = false;
          self.postMessage({ type: 'fail', n, kernel, message: e.message, kind: e.kind });
        }
      }
    }
    self.postMessage({ type: 'done' });
  } catch (e) {
    self.postMessage({ type: 'error', message: e?.message ?? String(e) });
  }
};

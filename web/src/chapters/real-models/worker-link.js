// The real-models chapter's line to its worker (web/src/workers/real-model.js, built as
// dist/real-model.js): the worker started when a model is first opened (one per mount: a
// widget on a course page has its own), the requests (open, analyse, ablate; cancel and
// stopAblation) numbered from one counter, and each answer handed on only while it answers
// the latest request of its kind (a load, a sentence, an ablation): an older one is dropped.
// tests/web/real-models-link.test.mjs (a stand-in Worker).
//
//   const link = workerLink({
//     spawn: () => new Worker(new URL('./real-model.js', import.meta.url), { type: 'module' }),
//     on: {
//       progress(m), loaded(m), cancelled(m),       // the latest open's
//       heads(m), roles(m),                         // the latest analyse's
//       ablating(m), ablationStopped(m), ablation(m), // the latest ablate's
//       openFailed(error), analyseFailed(error), rolesFailed(error), ablateFailed(error),
//     },
//   });
//   link.open(source); link.openId   // (the number of the latest open)
//
// A worker that fails (its script or its module did not load: an engine without module
// workers cannot open a model) is an error of kind 'core', said as the open's error through
// the same line; the worker is ended and the next request starts another. A spawn that throws
// throws from the request that started it (open: the chapter says it as a 'core' error).
const OF_OPEN = new Set(['progress', 'loaded', 'cancelled']);
const OF_ANALYSE = new Set(['heads', 'roles']);
const OF_ABLATE = new Set(['ablating', 'ablationStopped', 'ablation']);
const FAILED = { open: 'openFailed', analyse: 'analyseFailed', roles: 'rolesFailed', ablate: 'ablateFailed' }; // (of: handler)

export function workerLink({ spawn, on }) {
  let worker = null, nextId = 1;
  let openId = 0, analyseId = 0, ablateId = 0;

  function receive(m) {
    if (OF_OPEN.has(m.type) ? m.id === openId : OF_ANALYSE.has(m.type) ? m.id === analyseId : OF_ABLATE.has(m.type) && m.id === ablateId) {
      on[m.type](m);
      return;
    }
    if (m.type !== 'error') return;
    if (m.of === 'core') {
      worker?.terminate();
      worker = null;
      on.openFailed(m.error);
    } else if ((m.of === 'open' && m.id === openId) || ((m.of === 'analyse' || m.of === 'roles') && m.id === analyseId) ||
      (m.of === 'ablate' && m.id === ablateId)) on[FAILED[m.of]](m.error);
  }
  function start() {
    const w = spawn();
    w.onmessage = (e) => receive(e.data);
    w.onerror = (e) => {
      e.preventDefault?.();
      receive({ type: 'error', id: null, of: 'core', error: { kind: 'core', detail: e.message ?? 'worker error' } });
    };
    return w;
  }
  const send = (msg) => {
    if (!worker) worker = start();
    worker.postMessage(msg);
  };
  return {
    get openId() {
      return openId;
    },
    // (openId is the new one even when the send throws)
    open(source) {
      openId = nextId++;
      send({ type: 'open', id: openId, source });
    },
    // (an empty text too: the worker stops an ablation under way and answers 'empty')
    analyse(text) {
      analyseId = nextId++;
      send({ type: 'analyse', id: analyseId, text });
    },
    ablate() {
      ablateId = nextId++;
      send({ type: 'ablate', id: ablateId });
    },
    // stops the ablation between two pieces (the worker runs it a few heads at a time)
    stopAblation: () => send({ type: 'stopAblation', id: ablateId }),
    cancel: () => send({ type: 'cancel' }),
  };
}

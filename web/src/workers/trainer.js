// The training chapter's trainer (run by its Web Worker, or on the page when no worker can start): it owns two models of the same configuration and
// seed, one with the 1/√d_k scale and one without, trains them side by side and posts a
// snapshot at least ten times a second. The page thread only draws.
//
// Messages in:  {type: 'configure', config}  (re)creates both models at step 0
//               {type: 'start'} | {type: 'pause'} | {type: 'step', steps}
//               {type: 'probe', id, tokens}   both models on one sequence
//               {type: 'prefetch', configs}   builds these configurations' untrained pairs
//                                             ahead, one per task while idle (see below)
// Messages out: {type: 'ready', simd}
//               {type: 'snapshot', ...}       see snapshot() below (reason 'prefetch', with
//                                             key, the JSON of the configuration as asked:
//                                             one built ahead, not the current one)
//               {type: 'probe', id, on, off} | {type: 'probe', id, error}
//               {type: 'error', message}
// createTrainer({ready, post}) -> {receive(msg)}: ready resolves to the attn API, post
// sends a message out. web/src/workers/training.js wraps it in a Web Worker.

// Untrained configurations a trainer keeps (models and first snapshot), and the page with
// it (their first snapshots): see `fresh` below for why 28.
export const FRESH_KEPT = 28; // (a model of the default size has 6 794 parameters, 4 heads 19 082)

export function createTrainer({ ready, post }) {

  const CHUNK_MS = 40; // training time between two snapshots
  const EVAL_MS = 100; // the held-out evaluation runs at most this often while training
  const MAX_STEPS = 3000; // stops by itself here, so a forgotten tab does not burn a core
  // Held-out sequences the heads' role scores average over: about 8 induction rows each;
  // 32 of them cost about half of one evaluation of the page's 128 (docs/training.md).
  const ROLE_SEQUENCES = 32;

  let models = null; // {on, off}: the same configuration with and without 1/√d_k
  // The last configurations' models that have not trained yet, with their first
  // snapshot: going back to one (a select stepped through and back, a toggle clicked twice)
  // takes them instead of building and evaluating two models again. The models are
  // deterministic under their configuration (seed included), so they and the snapshot are
  // what a new configure would give; a pair leaves the cache when it trains.
  // Prefetched pairs (the page asks for the configurations one edit away, about 13, while
  // the models are idle) live here too, so it keeps two such neighbourhoods. The core lets 64
  // models live at once: 28 pairs, the current pair and one being built are 60.
  const fresh = new Map(); // JSON of the config -> {models, snapshot}
  let freshKey = null; // the cached entry the current models are (null: not cached)
  let probeTokens = [];
  let running = false;
  let elapsedMs = 0;
  let pending = { on: emptySeries(), off: emptySeries() };
  let lastEval = null; // {on, off, step}
  let lastEvalAt = -Infinity;

  function emptySeries() {
    return { loss: [], accuracy: [], gradLogits: [], gradScores: [] };
  }

  const disposePair = (pair) => {
    pair.on.dispose();
    pair.off.dispose();
  };
  // The scaled and unscaled models of one configuration (neither left alive if one fails).
  function createPair(attn, config) {
    const on = attn.createModel({ ...config, scale: true });
    try {
      return { on, off: attn.createModel({ ...config, scale: false }) };
    } catch (e) {
      on.dispose();
      throw e;
    }
  }
  function dispose() {
    if (!models) return;
    if (freshKey === null) disposePair(models); // a cached pair stays for a later configure
    models = null;
    freshKey = null;
  }
  // The current models are about to change (training): they are no longer a fresh pair.
  function leaveCache() {
    if (freshKey !== null) fresh.delete(freshKey);
    freshKey = null;
  }

  // -> true when the models (and the first snapshot) came from the cache
  function configure(attn, config) {
    dispose();
    running = false;
    elapsedMs = 0;
    pending = { on: emptySeries(), off: emptySeries() };
    lastEval = null;
    const key = JSON.stringify(config);
    const cached = fresh.get(key);
    if (cached) {
      fresh.delete(key); // most recently used last
      fresh.set(key, cached);
      models = cached.models;
      freshKey = key;
      probeTokens = models.on.task.probe;
      lastEval = cached.snapshot.eval;
      lastEvalAt = performance.now();
      return cached;
    }
    models = createPair(attn, config);
    probeTokens = models.on.task.probe;
    return null;
  }
  function remember(config, snapshotMsg) {
    const key = JSON.stringify(config);
    fresh.set(key, { models, snapshot: snapshotMsg });
    freshKey = key;
    evict();
  }
  // The oldest pairs go, never the current one.
  function evict() {
    for (const [k, old] of fresh) {
      if (fresh.size <= FRESH_KEPT) break;
      if (k === freshKey) continue;
      fresh.delete(k);
      disposePair(old.models);
    }
  }

  // Configurations one edit away, built ahead while the models are idle: one per task (a
  // message that arrives meanwhile, a configure or start, is handled between two), each kept
  // with its first snapshot, which is also posted (reason 'prefetch') so that the page can
  // draw it at once when the learner picks it. Models and snapshot are what configure would
  // give (deterministic under the configuration). A configure or start drops the list.
  let ahead = [];
  let aheadTimer = null;
  function prefetchSoon(attn) {
    if (aheadTimer !== null || !ahead.length) return;
    aheadTimer = setTimeout(() => {
      aheadTimer = null;
      if (running) return (ahead = []);
      for (;;) {
        const config = ahead.shift();
        if (!config) return;
        const key = JSON.stringify(config);
        if (fresh.has(key)) continue;
        try {
          const msg = buildAhead(attn, config);
          fresh.set(key, msg.entry);
          evict();
          post({ ...msg.snapshot, key });
        } catch { /* an invalid neighbour: the page never shows it */ }
        break;
      }
      prefetchSoon(attn);
    }, 0);
  }
  // A pair and its first snapshot, built aside: the current models stay current.
  function buildAhead(attn, config) {
    const keep = { models, probeTokens, elapsedMs, pending, lastEval, lastEvalAt, stepCount };
    const pair = createPair(attn, config);
    try {
      models = pair;
      probeTokens = pair.on.task.probe;
      elapsedMs = 0;
      pending = { on: emptySeries(), off: emptySeries() };
      lastEval = null;
      stepCount = 0;
      const snap = snapshotOf('prefetch');
      const entry = { models: pair, snapshot: { ...snap, reason: 'configure' } };
      return { entry, snapshot: snap };
    } catch (e) {
      disposePair(pair);
      throw e;
    } finally {
      ({ models, probeTokens, elapsedMs, pending, lastEval, lastEvalAt, stepCount } = keep);
    }
  }

  // The probe with the tokens at T−3 and T−2 swapped: does the prediction at T−1 follow?
  // (Without positional encoding one layer cannot: causal attention sees the earlier tokens
  // as a set; a second layer can, through the prefixes the first one averaged.) Not
  // meaningful for sorting, whose answer ignores the input order by design.
  function swapCheck() {
    if (models.on.config.task === 'sort' || probeTokens.length < 3) return null;
    const n = probeTokens.length;
    const a = n - 3, b = n - 2, c = n - 1;
    const tokens = probeTokens.slice();
    [tokens[a], tokens[b]] = [tokens[b], tokens[a]];
    return { a, b, c, tokens, on: models.on.probe(tokens), off: models.off.probe(tokens) };
  }

  function trainSteps(n) {
    leaveCache();
    for (const key of ['on', 'off']) {
      const r = models[key].train(n);
      const s = pending[key];
      for (const name of ['loss', 'accuracy', 'gradLogits', 'gradScores']) s[name].push(...r[name]);
    }
  }

  // Loss and accuracy on the held-out sequences, recomputed when stale (at most every
  // EVAL_MS while training, always when paused, stepped or reconfigured). For induction
  // also every head's role scores (previous token, induction) on ROLE_SEQUENCES of them,
  // at the same ticks: about as costly as one evaluation of that many sequences.
  function evaluation(force) {
    const now = performance.now();
    if (force || !lastEval || lastEval.step !== stepCount && now - lastEvalAt >= EVAL_MS) {
      lastEval = { on: models.on.evaluate(), off: models.off.evaluate(), step: stepCount };
      if (models.on.config.task === 'induction')
        lastEval.heads = { on: models.on.heads(ROLE_SEQUENCES), off: models.off.heads(ROLE_SEQUENCES) };
      lastEvalAt = performance.now();
    }
    return lastEval;
  }

  // Everything the page draws: the per-step series since the last snapshot, the held-out
  // evaluation and both models' attention on the probe sequence.
  // t0: when the current stretch of training began (its time, evaluation included, is
  // added to elapsedMs before posting).
  function snapshot(reason, t0 = null) {
    const msg = snapshotOf(reason, t0);
    post(msg);
    return msg;
  }
  function snapshotOf(reason, t0 = null) {
    const msg = {
      type: 'snapshot',
      reason,
      running,
      step: stepCount,
      elapsedMs,
      series: pending,
      eval: evaluation(reason !== 'tick'),
      probe: { on: models.on.probe(probeTokens), off: models.off.probe(probeTokens) },
      swap: swapCheck(),
      config: models.on.config,
      parameters: models.on.parameters,
      task: models.on.task,
    };
    pending = { on: emptySeries(), off: emptySeries() };
    if (t0 !== null) elapsedMs += performance.now() - t0;
    msg.elapsedMs = elapsedMs;
    return msg;
  }

  let stepCount = 0;

  function loop() {
    if (!running || !models) return;
    const t0 = performance.now();
    // One step at a time until the chunk's time is used up (at least one step).
    do {
      trainSteps(1);
      stepCount += 1;
    } while (performance.now() - t0 < CHUNK_MS && stepCount < MAX_STEPS);
    if (stepCount >= MAX_STEPS) running = false;
    snapshot(running ? 'tick' : 'limit', t0);
    // Yield to the message queue (pause, probe, configure) before the next chunk.
    if (running) setTimeout(loop, 0);
  }

  function handle(attn, msg) {
    switch (msg.type) {
      case 'configure': {
        ahead = [];
        stepCount = 0;
        const cached = configure(attn, msg.config);
        if (cached) post(structuredClone(cached.snapshot)); // (on the page, post hands over the object itself)
        else remember(msg.config, snapshot('configure'));
        break;
      }
      case 'start':
        ahead = [];
        if (!models || running) break;
        if (stepCount >= MAX_STEPS) break;
        running = true;
        setTimeout(loop, 0);
        break;
      case 'pause':
        if (!running) break;
        running = false;
        snapshot('pause');
        break;
      case 'step': {
        if (!models || running) break;
        const k = Math.max(1, Math.min(msg.steps ?? 1, MAX_STEPS - stepCount));
        if (stepCount >= MAX_STEPS) break;
        const t0 = performance.now();
        trainSteps(k);
        stepCount += k;
        snapshot('step', t0);
        break;
      }
      case 'prefetch':
        if (running || !models) break;
        ahead = msg.configs.slice();
        prefetchSoon(attn);
        break;
      case 'probe':
        try {
          post({ type: 'probe', id: msg.id, on: models.on.probe(msg.tokens), off: models.off.probe(msg.tokens) });
        } catch (e) {
          post({ type: 'probe', id: msg.id, error: e.message });
        }
        break;
      default:
        throw new Error(`training worker: unknown message ${String(msg.type)}`);
    }
  }

  let queue = Promise.resolve();
  // Messages are handled in order, after the core has loaded.
  function receive(msg) {
    queue = queue.then(async () => {
      const attn = await ready;
      try {
        handle(attn, msg);
      } catch (err) {
        running = false;
        post({ type: 'error', message: err.message, kind: err.kind ?? err.name });
      }
    });
  }
  ready.then(
    (attn) => post({ type: 'ready', simd: attn.simd }),
    (err) => post({ type: 'error', message: `could not load the core: ${err.message}` }),
  );
  return { receive };
}

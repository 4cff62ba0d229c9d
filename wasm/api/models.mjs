// The model handles: createModel() (the live-training core's tiny Transformer) and
// loadModel() (the project's trained text model), each a frozen plain object holding the
// model's id in the module, with dispose().

import { Mat } from './boundary.mjs';
import { describe, fail, named } from './checks.mjs';

// The handle of a model living in the module (createModel, loadModel): a frozen plain
// object holding only its id and `fields`; each method (name -> [arity, f]) throws once the
// model is disposed and names itself in its errors; dispose() frees the model (safe twice)
// and `finalizer` frees it if the handle is dropped without.
export function moduleHandle(id, fields, methods, free, finalizer, what, again) {
  let disposed = false;
  const handle = { id, ...fields };
  for (const [name, [arity, f]] of Object.entries(methods))
    handle[name] = named(name, (...args) => {
      if (disposed) throw new Error(`${what} ${id} was disposed: ${again}`);
      return f(...args);
    }, arity);
  /** Frees the model in the module; later calls throw. Safe to call twice. */
  handle.dispose = () => {
    if (disposed) return;
    disposed = true;
    finalizer?.unregister(handle);
    free(id);
  };
  Object.defineProperty(handle, 'disposed', { get: () => disposed, enumerable: true });
  finalizer?.register(handle, id, handle);
  return Object.freeze(handle);
}

// The message of createModel() on a core loaded with {training: false} (attn-core-lite).
// The message of loadModel() on a core loaded with {training: false}: the text model's
// bindings ride with the trainer (wasm/CMakeLists.txt).
const WITHOUT_TEXT_MODEL = 'loadModel: this core was loaded with {training: false}, which leaves the trained ' +
  'text model out; load the whole core (createAttention() without that option) to use it';
const WITHOUT_TRAINER = 'createModel: this core was loaded with {training: false}, which leaves the trainer out; ' +
  'call createAttention() without it to train models';

// createModel's defaults: the training chapter's default configuration.
export const MODEL_DEFAULTS = Object.freeze({
  task: 'previous-token', seed: 1, heads: 1, layers: 1, dModel: 32, dK: 64, dV: 0, mlpHidden: 0,
  positional: true, scale: true, dropout: 0, lr: 0.01, batch: 32, evalSize: 256,
});

// createModel and loadModel on a connected module (raw), its limits (L) and the checks.
export function modelApi(raw, L, { checkCount, checkSeed, checkRate }) {
  // Frees a model whose handle was garbage-collected without dispose().
  const finalizer = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((id) => raw.modelDispose(id)) : null;
  const textFinalizer = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((id) => raw.textModelDispose(id)) : null;
  const checkText = (text, what) => {
    if (typeof text !== 'string') throw fail('TypeError', `${what} must be a string, got ${describe(text)}`);
    // UTF-8 bytes: at most 3 per UTF-16 unit, so only a long string needs the exact count
    if (text.length * 3 > raw.TEXT_MAX_BYTES && new TextEncoder().encode(text).length > raw.TEXT_MAX_BYTES)
      throw fail('SizeError', `${what} is longer than the limit of ${raw.TEXT_MAX_BYTES} bytes (UTF-8)`);
    return text;
  };
  const api = {
    /**
     * A tiny Transformer and its Adam optimiser, living inside the module. Returns a plain
     * object: train(steps), evaluate(), probe(tokens), heads(sequences), dispose(). No object of the module
     * is handed out; the handle holds only the model's id.
     */
    createModel(config = {}) {
      if (!raw.modelCreate) throw new Error(WITHOUT_TRAINER);
      if (config === null || typeof config !== 'object' || Array.isArray(config))
        throw fail('TypeError', `expects an object, got ${describe(config)}`);
      const c = { ...MODEL_DEFAULTS, ...config };
      if (typeof c.task !== 'string') throw fail('TypeError', `task must be a string, got ${typeof c.task}`);
      checkSeed(c.seed, 'seed');
      // the core's ranges (attn::limits in model.hpp, read from the module)
      for (const [k, min, max] of L.modelRanges) checkCount(c[k], k, { min, max });
      for (const k of ['positional', 'scale'])
        if (typeof c[k] !== 'boolean') throw fail('TypeError', `${k} must be true or false, got ${typeof c[k]}`);
      checkRate(c.dropout, 'dropout');
      if (typeof c.lr !== 'number') throw fail('TypeError', `lr must be a number, got ${describe(c.lr)}`);
      if (!(Math.fround(c.lr) > 0 && c.lr <= L.maxLr)) // the core works in float: 1e-300 is 0 there
        throw fail('ValueError', `lr (the learning rate) must be in (0, ${L.maxLr}] (and at least ~1.4e-45), got ${c.lr}`);
      const r = raw.modelCreate(c.task, {
        seed: c.seed, heads: c.heads, layers: c.layers, dModel: c.dModel, dK: c.dK, dV: c.dV,
        mlpHidden: c.mlpHidden, positional: c.positional, scale: c.scale, dropout: c.dropout, lr: c.lr,
        batch: c.batch, evalSize: c.evalSize,
      });
      return moduleHandle(r.id, { config: Object.freeze(r.config), task: Object.freeze(r.task), parameters: r.parameters }, {
        /** Runs `steps` Adam steps; per-step loss, batch accuracy and gradient norms. */
        train: [1, (steps = 1) => raw.modelTrain(r.id, checkCount(steps, 'steps', { min: 1, max: L.maxTrainSteps }))],
        /** Loss and accuracy on the task's held-out sequences. */
        evaluate: [0, () => raw.modelEvaluate(r.id)],
        /** Every head's weights and the predictions on one sequence of token ids. */
        probe: [1, (tokens) => {
          if (!Array.isArray(tokens) && !(ArrayBuffer.isView(tokens) && !(tokens instanceof DataView)))
            throw fail('TypeError', `expects an array of token ids, got ${describe(tokens)}`);
          const t = r.task;
          if (tokens.length < t.minLen || tokens.length > t.maxLen)
            throw fail('ValueError', `${t.name} takes ${t.minLen} to ${t.maxLen} tokens, got ${tokens.length}`);
          for (let i = 0; i < tokens.length; i++) {
            const x = tokens[i];
            if (typeof x !== 'number') throw fail('TypeError', `token ${i + 1} must be a number, got ${describe(x)}`);
            if (!Number.isInteger(x) || x < 0 || x >= t.vocabIn)
              throw fail('ValueError', `token ${i + 1} is ${x}; tokens are 0..${t.vocabIn - 1}`);
          }
          return raw.modelProbe(r.id, Array.from(tokens));
        }],
        /** Every head's role scores (head_roles.hpp; Olsson et al. 2022 for induction) on the first
         *  `sequences` held-out sequences of the task: {heads: [{layer, head, previousToken,
         *  firstToken, local, induction, role}] (layer-major, from 0; role '' for none), rows,
         *  inductionRows, sequences}. */
        heads: [1, (sequences = 64) => raw.modelHeads(r.id, checkCount(sequences, 'sequences', { min: 1, max: L.modelRanges.find((x) => x[0] === 'evalSize')[2] }))],
      }, raw.modelDispose, finalizer, 'model', 'create a new one with createModel()');
    },
  };
  /**
   * The project's trained text model from its file (docs/text-model.md: "ATTNTXT", version 1,
   * binary16, CRC-32), e.g. the bytes of models/text-model/model.bin. Returns a handle like
   * createModel's: probe(text), evaluate(text), heads(text), dispose(). Throws TypeError when
   * bytes is not a Uint8Array or ArrayBuffer, SizeError past TEXT_MODEL_MAX_BYTES, and
   * RangeError (ValueError) with the reader's message for a damaged or foreign file (a
   * changed byte fails the checksum).
   */
  api.loadModel = named('loadModel', (bytes) => {
    if (!raw.textModelLoad) throw new Error(WITHOUT_TEXT_MODEL);
    if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
    if (!(bytes instanceof Uint8Array))
      throw fail('TypeError', `expects the model file as a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
    if (bytes.length > raw.TEXT_MODEL_MAX_BYTES)
      throw fail('SizeError', `${bytes.length} bytes is more than the limit of ${raw.TEXT_MODEL_MAX_BYTES} for a model file`);
    // the bytes cross as one row of a matrix (staging copies the Uint8Array's values into floats)
    const r = raw.textModelLoad(new Mat(1, bytes.length, bytes));
    const config = Object.freeze({
      kind: 'text', vocab: r.vocab, maxLen: r.maxLen, dModel: r.dModel, heads: r.heads, dK: r.dK, dV: r.dV,
      layers: r.layers, mlpHidden: r.mlpHidden, layerNorm: r.layerNorm,
    });
    return moduleHandle(r.id, { config, parameters: r.parameters, symbols: Object.freeze(r.symbols) }, {
      /** Every head's weights on [<s>, the text's first maxLen − 1 tokens], with each token's
       *  character; {off: h} zeroes head h's output (layer·heads + head), as heads() does. */
      probe: [1, (text, options) => {
        const t = checkText(text, 'text');
        if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options)))
          throw fail('TypeError', `options must be an object, got ${describe(options)}`);
        const off = options?.off ?? -1;
        if (typeof off !== 'number') throw fail('TypeError', `off must be a number, got ${describe(off)}`);
        return raw.textModelProbe(r.id, t, off);
      }],
      /** Loss on the whole text: nats per token and bits per character. */
      evaluate: [1, (text) => raw.textModelEvaluate(r.id, checkText(text, 'text'))],
      /** Each head's role scores on the text and the loss with that head zeroed. */
      heads: [1, (text) => raw.textModelHeads(r.id, checkText(text, 'text'))],
    }, raw.textModelDispose, textFinalizer, 'text model', 'load it again with loadModel()');
  }, 1);
  api.createModel = named('createModel', api.createModel, 1);
  return api;
}

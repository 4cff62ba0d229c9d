// The public JavaScript API of the attention core (see attn.d.ts and docs/js-api.md).
//
//   import createAttention from './attn.mjs';
//   const attn = await createAttention();
//   const t = attn.attention(Q, K, V, {causal: true});   // {scores, scaled, masked, weights, dropped, output}
//
// A matrix is a plain object {rows, cols, data: Float32Array} in row-major order.
// Every result is a fresh copy owned by JS. Bad arguments throw a TypeError (wrong
// type) or a RangeError (wrong shape, size or value) whose message comes from the
// core; the module keeps working after any error.
//
// The API is made of six parts (web/scripts/build.mjs bundles them into dist/attn.mjs):
//   api/simd.mjs        the engine probes (SIMD128, relaxed SIMD)
//   api/boundary.mjs    the memory transfer: the module's Embind functions (wasm/bind.hpp)
//                       as JS functions of checked arguments (inputs copied into the
//                       module's arena, results read out into fresh objects)
//   api/checks.mjs      every argument check the JS side makes, and the error kinds
//   api/signatures.mjs  the signature table: most functions are one row (their parameters,
//                       each with an argument kind), made a function by one generic wrapper
//   api/models.mjs      createModel() and loadModel(): handles of models in the module
//   api/hot.mjs         the calls a chapter makes on every edit (attention, attentionOutput,
//                       flashAttention, scores, softmax): the same checks and transfer as
//                       their SIGNATURES rows, written out per function (faster)
// and this file, which loads a build of the core and puts the API together. The core's
// limits (matrix size, tile, model ranges...) are read from the module, not copied here.
// tests/wasm/types.test.mjs keeps attn.d.ts equal to what this returns.
//
// Works unchanged in browsers, workers and Node >= 20: in Node the wasm bytes are read
// from the file next to this module and handed to the Emscripten loader.
// The builds of the core sit next to this file: attn-core.{mjs,wasm} (WebAssembly SIMD128
// kernels), attn-core-relaxed.wasm (the same, its matrix products multiply-adding with
// relaxed SIMD's f32x4.relaxed_madd), the -lite variants of both (no trainer), and
// attn-core-scalar.{mjs,wasm} (plain loops, for engines without SIMD).
// createAttention() probes for relaxed SIMD and SIMD and loads one that runs; attn.simd says which.

import { connect, INTO } from './api/boundary.mjs';
import { checks, describe, fail, limitsOf, named, renamed, MAX_ELEMENTS, MAX_TRAIN_STEPS } from './api/checks.mjs';
import { hotApi } from './api/hot.mjs';
import { modelApi, MODEL_DEFAULTS } from './api/models.mjs';
import { binding, SIGNATURES } from './api/signatures.mjs';
import { relaxedSimdSupported, simdSupported } from './api/simd.mjs';

export { MAX_ELEMENTS, MAX_TRAIN_STEPS, MODEL_DEFAULTS, relaxedSimdSupported, simdSupported };

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

function makeApi(raw) {
  const L = limitsOf(raw);
  const { kinds, checkCount, checkMatrix, checkSeed, checkRate } = checks(L);
  const api = {
    /** Which instruction set the core was built for, e.g. "wasm-simd128". */
    simd: raw.simd(),
    /** Memory in use: the heap's size, bytes allocated by malloc now, results the boundary
     *  still holds (0 between calls), and the core's own matrices and kernel buffers now
     *  and at their peak. */
    memoryStats: () => ({
      heapBytes: raw.heapBytes(),
      mallocBytes: raw.mallocBytes(),
      handles: raw.heldResults(),
      ...raw.memoryStats(),
    }),
    /** A rows x cols matrix, zero-filled or copied from data (no call into the core). */
    matrix(rows, cols, data) {
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      if (rows * cols > L.maxElements) throw fail('SizeError', `a ${rows}x${cols} matrix is more than the limit of ${L.maxElements} elements`);
      if (data === undefined) return { rows, cols, data: new Float32Array(rows * cols) };
      const m = checkMatrix({ rows, cols, data }, 'matrix');
      return { rows, cols, data: Float32Array.from(m.data) };
    },
  };
  Object.assign(api, modelApi(raw, L, { checkCount, checkSeed, checkRate }));
  api.memoryStats = named('memoryStats', api.memoryStats, 0);
  api.matrix = named('matrix', api.matrix, 3);
  for (const [name, params] of Object.entries(SIGNATURES)) api[name] = binding(raw, name, params, kinds);
  // The hot calls, the same checks written out per function (api/hot.mjs).
  Object.assign(api, hotApi(raw, kinds, checkMatrix));
  // flashAttention(Q, K, V, {out}): the output written into the caller's Float32Array of
  // T_q·d_v values (no fresh array per call; a benchmark's or worker's loop reuses one).
  const flash = api.flashAttention;
  api.flashAttention = function flashAttention(Q, K, V, options) {
    const out = options !== null && typeof options === 'object' ? options.out : undefined;
    if (out === undefined || out === null) return flash(Q, K, V, options);
    try {
      if (!(out instanceof Float32Array)) throw fail('TypeError', `out must be a Float32Array, got ${describe(out)}`);
      const q = checkMatrix(Q, 'Q'), v = checkMatrix(V, 'V');
      if (out.length !== q.rows * v.cols)
        throw fail('ShapeError', `out has ${out.length} values but the ${q.rows}x${v.cols} output needs ${q.rows * v.cols}`);
    } catch (e) {
      throw renamed(e, 'flashAttention');
    }
    raw[INTO](out);
    try {
      return flash(Q, K, V, options);
    } finally {
      raw[INTO](null);
    }
  };
  return Object.freeze(api);
}

// A core that did not load (its .wasm or its loader .mjs missing, a server's 404 page in its
// place, a damaged copy, an engine refusing an instruction): an Error naming the file
// (error.file: its name, null for a caller's wasmBinary) and saying why, in place of the
// loader's "Aborted(CompileError: ... expected magic word ...)"; the loader's error is error.cause.
function loadFailed(e, file) {
  if (e instanceof Error && typeof e.file === 'string') return e; // (named already: a loader's own, as the widget's scalar stand-in)
  const why = String(e?.message ?? e).replace(/^Aborted\((.*)\)[^)]*$/s, '$1').split('\n')[0]
    .replace(/^(RuntimeError|CompileError|LinkError): /, '').replace(/^WebAssembly\.instantiate\(\): /, '');
  const missing = /expected magic word|ENOENT|both async and sync fetching|failed to load wasm|404|Failed to fetch dynamically imported module|Cannot find module|ERR_MODULE_NOT_FOUND|is not a valid JavaScript MIME type/i.test(why);
  const error = new Error(file
    ? `createAttention: could not load the core ${file}: ${!missing ? why : file.endsWith('.wasm') ? 'the file is missing or is not WebAssembly' : 'the file is missing or could not be run'}`
    : `createAttention: could not load the given wasmBinary: ${missing ? 'the bytes are not WebAssembly' : why}`, { cause: e });
  error.file = file;
  return error;
}

/**
 * Loads the WebAssembly core and returns the API.
 * @param {object} [options]
 *   simd: 'auto' (default: SIMD128 when the engine has it, else the scalar build; with
 *         training: false, the relaxed-SIMD build first where the engine has relaxed SIMD,
 *         and the SIMD128 one where that file cannot be loaded),
 *         'relaxed' (the relaxed-SIMD build: the matrix products multiply-add with
 *         f32x4.relaxed_madd; fails without relaxed SIMD), true (SIMD128 build; fails
 *         without SIMD) or false (scalar build);
 *   training: true (default) or false: false loads the SIMD core without the trainer
 *         (attn-core-lite.wasm, a quarter smaller; createModel() then throws; everything
 *         else, task() included, is the same). The scalar build always has the trainer.
 *         'auto' keeps the whole core on SIMD128: the trainer's runs stay the same bits on
 *         every engine with SIMD (a seed names one run).
 *   other keys go to the Emscripten loader (e.g. wasmBinary, locateFile).
 * Rejects with loadFailed()'s Error (error.file names the .wasm or loader that did not load).
 */
export default async function createAttention(options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`createAttention: options must be an object, got ${describe(options)}`);
  const { simd = 'auto', training = true, ...moduleArgs } = options;
  if (simd !== 'auto' && simd !== 'relaxed' && simd !== true && simd !== false)
    throw new TypeError(`createAttention: simd must be 'auto', 'relaxed', true or false, got ${describe(simd)}`);
  if (training !== true && training !== false)
    throw new TypeError(`createAttention: training must be true or false, got ${describe(training)}`);
  if (simd === true && !simdSupported())
    throw new Error('createAttention: this engine has no WebAssembly SIMD; use {simd: false} or the default \'auto\'');
  if (simd === 'relaxed' && !relaxedSimdSupported())
    throw new Error('createAttention: this engine has no WebAssembly relaxed SIMD (Node 20: --experimental-wasm-relaxed-simd); use {simd: true} or the default \'auto\'');
  const kind = simd === 'auto'
    ? (!training && relaxedSimdSupported() ? 'relaxed' : simdSupported() ? 'simd' : 'scalar')
    : simd === 'relaxed' ? 'relaxed' : simd ? 'simd' : 'scalar';
  const load = async (kind) => {
    const file = kind === 'scalar' ? 'attn-core-scalar'
      : `attn-core${training ? '' : '-lite'}${kind === 'relaxed' ? '-relaxed' : ''}`;
    // (its loader missing, a folder copied without it: said as that file, as a .wasm is below)
    const loader = kind === 'scalar' ? 'attn-core-scalar.mjs' : 'attn-core.mjs';
    let createAttnCore;
    try {
      ({ default: createAttnCore } = kind === 'scalar' ? await import('./attn-core-scalar.mjs') : await import('./attn-core.mjs'));
    } catch (e) {
      throw loadFailed(e, loader);
    }
    const args = { ...moduleArgs };
    // The lite and relaxed cores are loaded by attn-core.mjs (the loaders differ only in the file name).
    if (file !== 'attn-core' && file !== 'attn-core-scalar' && !args.wasmBinary && !args.locateFile &&
        !args.instantiateWasm && !isNode)
      args.locateFile = () => new URL(`./${file}.wasm`, import.meta.url).href;
    // The file actually asked for (a caller's locateFile may name another), for the error below.
    let wasm = `${file}.wasm`;
    if (args.locateFile && !args.wasmBinary && !args.instantiateWasm) {
      const locate = args.locateFile;
      args.locateFile = (path, prefix) => {
        const where = locate(path, prefix);
        if (path.endsWith('.wasm')) wasm = String(where).split(/[?#]/)[0].split('/').pop() || wasm;
        return where;
      };
    }
    try {
      if (isNode && !args.wasmBinary && !args.locateFile && !args.instantiateWasm) {
        const { readFile } = await import('node:fs/promises');
        args.wasmBinary = await readFile(new URL(`./${file}.wasm`, import.meta.url));
      }
      return makeApi(connect(await createAttnCore(args)));
    } catch (e) {
      throw loadFailed(e, moduleArgs.wasmBinary ? null : wasm);
    }
  };
  // 'auto' chose the relaxed build as the faster one: where its file cannot be loaded (a copy
  // of the files without it), the SIMD128 build does the same work.
  if (simd === 'auto' && kind === 'relaxed' && !moduleArgs.wasmBinary && !moduleArgs.instantiateWasm)
    return load('relaxed').catch(() => load('simd'));
  return load(kind);
}

// Its declared arity (options is optional), which tests/wasm/types.test.mjs compares with attn.d.ts.
Object.defineProperty(createAttention, 'length', { value: 1 });

export { createAttention };

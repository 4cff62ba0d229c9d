// The implementations the WebAssembly benchmark compares, each in its fastest
// formulation, all single-threaded. Every one is set up once per shape and then called
// as run() -> Float32Array output in head-major layout [h][n][d_h]:
//
//   ours/tiled   attn.flashAttention per head (online softmax, causal tiles skipped), each
//                head's output copied out of wasm memory into its part of run()'s array
//                (the {out} option: no fresh array per head)
//   ours/plain   attn.attentionOutput per head (one n x n buffer)
//   plain-js     straightforward loops over Float32Array (a causal row stops at its diagonal)
//   tfjs-wasm    TensorFlow.js 4.22, wasm backend (XNNPACK, SIMD, 1 thread): per head
//                tf.matMul(Q, Kᵀ) on 2-D tensors without transpose flags (its fast path:
//                Kᵀ is handed over pre-transposed), mul by the scale, add the mask (causal),
//                tf.softmax, tf.matMul(P, V); the result downloaded with dataSync()
//   onnxruntime  onnxruntime-web 1.30, wasm EP (SIMD, 1 thread): an ONNX graph
//                FusedMatMul(transB, alpha) → (Add mask) → Softmax → MatMul over [h, n, d_h]
//                (the faster of the two graphs tried; see onnx-model.mjs)
//
// Inputs start as Float32Arrays in every case. Ours, plain JS and onnxruntime copy them
// into their memory inside run(); TensorFlow.js gets them as tensors uploaded before
// timing (its resident-tensor use), and its output download is timed.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attentionModel } from './onnx-model.mjs';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const require = createRequire(join(web, 'package.json'));

// Q, K, V per head as n x d_h Float32Arrays, seeded, N(0, 1).
export function makeInputs(attn, n, heads, dh, seed = 1) {
  const make = (s) => Array.from({ length: heads }, (_, h) => attn.random({ rows: n, cols: dh, seed: s * 1000 + h }).data);
  return { n, heads, dh, Q: make(seed), K: make(seed + 1), V: make(seed + 2) };
}

const causalMask = (n) => {
  const m = new Float32Array(n * n);
  for (let i = 0; i < n; i++) m.fill(-Infinity, i * n + i + 1, (i + 1) * n);
  return m;
};

export function ours(attn, kind, prefix = 'ours') {
  return {
    name: `${prefix}/${kind}`,
    async setup({ n, heads, dh, Q, K, V }, causal) {
      const mat = (data) => ({ rows: n, cols: dh, data });
      const fn = kind === 'tiled' ? attn.flashAttention : attn.attentionOutput;
      // flashAttention writes each head's output into its part of out ({out}); a core
      // without that option returns a fresh array, copied in as attentionOutput's is.
      return () => {
        const out = new Float32Array(heads * n * dh);
        for (let h = 0; h < heads; h++) {
          const part = out.subarray(h * n * dh, (h + 1) * n * dh);
          const r = fn(mat(Q[h]), mat(K[h]), mat(V[h]), kind === 'tiled' ? { causal, out: part } : { causal });
          if (r.data !== part) part.set(r.data);
        }
        return out;
      };
    },
  };
}

export function plainJs() {
  // Row by row: scores against every visible key, a max-subtracted softmax, then the
  // weighted sum of Value rows into a local accumulator (offsets hoisted, doubles).
  function head(Q, K, V, n, d, causal, out, off) {
    const scale = 1 / Math.sqrt(d);
    const s = new Float64Array(n);
    const acc = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      const end = causal ? i + 1 : n;
      const qi = i * d;
      let m = -Infinity;
      for (let j = 0; j < end; j++) {
        const kj = j * d;
        let dot = 0;
        for (let c = 0; c < d; c++) dot += Q[qi + c] * K[kj + c];
        dot *= scale;
        s[j] = dot;
        if (dot > m) m = dot;
      }
      let sum = 0;
      for (let j = 0; j < end; j++) {
        const e = Math.exp(s[j] - m);
        s[j] = e;
        sum += e;
      }
      acc.fill(0);
      for (let j = 0; j < end; j++) {
        const p = s[j], vj = j * d;
        for (let c = 0; c < d; c++) acc[c] += p * V[vj + c];
      }
      const o = off + qi;
      for (let c = 0; c < d; c++) out[o + c] = acc[c] / sum;
    }
  }
  return {
    name: 'plain-js',
    // headsTimed < heads: only the first headsTimed heads run (the benchmark scales the
    // time by heads / headsTimed; the heads are independent and identical in cost).
    async setup({ n, heads: allHeads, dh, Q, K, V }, causal, { headsTimed = allHeads } = {}) {
      const heads = Math.min(allHeads, headsTimed);
      return () => {
        const out = new Float32Array(heads * n * dh);
        for (let h = 0; h < heads; h++) head(Q[h], K[h], V[h], n, dh, causal, out, h * n * dh);
        return out;
      };
    },
  };
}

export async function tfjs() {
  const tf = await import(require.resolve('@tensorflow/tfjs-core'));
  const wasm = await import(require.resolve('@tensorflow/tfjs-backend-wasm'));
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  const info = {
    backend: tf.getBackend(),
    threads: wasm.getThreadsCount(),
    simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
  };
  let resident = [];
  return {
    name: 'tfjs-wasm',
    info,
    async setup({ n, heads, dh, Q, K, V }, causal) {
      for (const t of resident) t.dispose();
      const transpose = (k) => {
        const t = new Float32Array(dh * n);
        for (let i = 0; i < n; i++) for (let c = 0; c < dh; c++) t[c * n + i] = k[i * dh + c];
        return t;
      };
      const q = Q.map((x) => tf.tensor2d(x, [n, dh]));
      const kt = K.map((x) => tf.tensor2d(transpose(x), [dh, n]));
      const v = V.map((x) => tf.tensor2d(x, [n, dh]));
      const scale = tf.scalar(1 / Math.sqrt(dh));
      const mask = causal ? tf.tensor2d(causalMask(n), [n, n]) : null;
      resident = [...q, ...kt, ...v, scale, ...(mask ? [mask] : [])];
      return () => {
        const out = new Float32Array(heads * n * dh);
        for (let h = 0; h < heads; h++) {
          const o = tf.tidy(() => {
            let s = tf.mul(tf.matMul(q[h], kt[h]), scale);
            if (mask) s = tf.add(s, mask);
            return tf.matMul(tf.softmax(s), v[h]);
          });
          out.set(o.dataSync(), h * n * dh);
          o.dispose();
        }
        return out;
      };
    },
  };
}

export async function onnxruntime(form = 'ops') {
  const ort = await import(require.resolve('onnxruntime-web'));
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  let session = null;
  return {
    name: form === 'ops' ? 'onnxruntime' : `onnxruntime/${form}`,
    info: { version: ort.env.versions?.web ?? '', threads: ort.env.wasm.numThreads },
    async setup({ n, heads, dh, Q, K, V }, causal) {
      if (session) await session.release();
      session = await ort.InferenceSession.create(attentionModel({ heads, n, dh, causal, form }), {
        executionProviders: ['wasm'],
        graphOptimizationLevel: 'all',
      });
      const headMajor = (xs) => {
        const t = new Float32Array(heads * n * dh);
        xs.forEach((x, h) => t.set(x, h * n * dh));
        return t;
      };
      // 'mha' takes [1, n, h·d_h] (heads side by side in each row).
      const tokenMajor = (xs) => {
        const t = new Float32Array(heads * n * dh);
        xs.forEach((x, h) => {
          for (let i = 0; i < n; i++) t.set(x.subarray(i * dh, (i + 1) * dh), i * heads * dh + h * dh);
        });
        return t;
      };
      const shape = form === 'mha' ? [1, n, heads * dh] : [heads, n, dh];
      const layout = form === 'mha' ? tokenMajor : headMajor;
      const q = layout(Q), k = layout(K), v = layout(V);
      const mask = causal ? causalMask(n) : null;
      return async () => {
        const feeds = {
          Q: new ort.Tensor('float32', q, shape),
          K: new ort.Tensor('float32', k, shape),
          V: new ort.Tensor('float32', v, shape),
        };
        if (mask) feeds.mask = new ort.Tensor('float32', mask, form === 'mha' ? [1, 1, n, n] : [n, n]);
        const { O } = await session.run(feeds);
        if (form !== 'mha') return O.data;
        const out = new Float32Array(heads * n * dh); // back to head-major for the check
        for (let i = 0; i < n; i++)
          for (let h = 0; h < heads; h++)
            out.set(O.data.subarray(i * heads * dh + h * dh, i * heads * dh + (h + 1) * dh), h * n * dh + i * dh);
        return out;
      };
    },
  };
}

// onnxruntime-node: the native CPU build that ships inside the npm package (run in the
// native part of `make bench`), the standard ONNX Attention op (opset 23) on [1, h, n, d_h]
// with is_causal, one intra-op and one inter-op thread.
export async function onnxruntimeNode() {
  const ort = require('onnxruntime-node');
  let session = null;
  return {
    name: 'onnxruntime_node',
    info: { version: ort.env.versions?.node ?? require('onnxruntime-node/package.json').version, threads: 1 },
    async setup({ n, heads, dh, Q, K, V }, causal) {
      if (session) await session.release();
      session = await ort.InferenceSession.create(attentionModel({ heads, n, dh, causal, form: 'attention' }), {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        executionMode: 'sequential',
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
      });
      const headMajor = (xs) => {
        const t = new Float32Array(heads * n * dh);
        xs.forEach((x, h) => t.set(x, h * n * dh));
        return t;
      };
      const shape = [1, heads, n, dh];
      const feeds = { Q: new ort.Tensor('float32', headMajor(Q), shape), K: new ort.Tensor('float32', headMajor(K), shape), V: new ort.Tensor('float32', headMajor(V), shape) };
      return async () => (await session.run(feeds)).O.data;
    },
  };
}

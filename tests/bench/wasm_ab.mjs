// Before/after comparison of wasm core builds (never a test): each .wasm file given is
// loaded through web/dist/attn.mjs, or through the attn.mjs saved next to it (with its
// attn-core.mjs), relaxed SIMD unless its name contains "simd128", and its flashAttention
// timed per head as wasm_bench.mjs times ours/tiled (peers.mjs: h = 8, d_h = 64, inputs
// copied in and the output out), next to TensorFlow.js and onnxruntime-web
// with --peers, in interleaved rounds (one run of each per round, best process CPU time),
// so that builds compared on this shared machine see the same load.
//
//   node --experimental-wasm-relaxed-simd tests/bench/wasm_ab.mjs before.wasm after.wasm [--peers]
//        [--sizes 128,512,1024,2048,4096] [--rounds 10]
//
// Prints ms and GFLOP/s (4·h·n²·d_h) per build and, with --peers, the faster peer's time
// divided by each build's. Every output is checked against the first build's first.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import createAttention from '../../web/dist/attn.mjs';
import { makeInputs, ours, tfjs, onnxruntime } from './peers.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => {
  const i = args.indexOf(`--${k}`);
  return i >= 0 ? args[i + 1] : d;
};
const files = args.filter((a) => a.endsWith('.wasm'));
const SIZES = opt('sizes', '128,512,1024,2048,4096').split(',').map(Number);
const ROUNDS = Number(opt('rounds', 10));
const HEADS = 8, DH = 64;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const load = async () => (await readFile('/proc/loadavg', 'utf8').catch(() => '?')).trim();

const impls = [];
for (const f of files) {
  // A build saved with its own JS API (attn.mjs and attn-core.mjs next to the .wasm) is
  // loaded through it, so that changes on the JS side of the wire are compared too.
  const api = join(dirname(resolve(f)), 'attn.mjs');
  const create = existsSync(api) ? (await import(pathToFileURL(api).href)).default : createAttention;
  const attn = await create({ simd: f.includes('simd128') || 'relaxed', wasmBinary: await readFile(f) });
  impls.push({ ...ours(attn, 'tiled', f.split('/').pop().replace(/\.wasm$/, '')), attn });
}
const peers = args.includes('--peers') ? [await tfjs(), await onnxruntime('ops')] : [];
impls.push(...peers);
console.log(`${new Date().toISOString()} load ${await load()}`);
// Warm-up as in wasm_bench.mjs: V8 tiers the code up in the background.
const warm = makeInputs(impls[0].attn, 128, HEADS, DH);
for (const impl of impls) {
  for (const causal of [false, true]) {
    const run = await impl.setup(warm, causal);
    for (const t0 = cpuMs(); cpuMs() - t0 < 700;) await run();
  }
}
for (const causal of [false, true]) {
  for (const n of SIZES) {
    const inputs = makeInputs(impls[0].attn, n, HEADS, DH);
    const runs = [];
    for (const impl of impls) runs.push(await impl.setup(inputs, causal));
    const want = await runs[0]();
    for (let k = 1; k < runs.length; k++) {
      const got = await runs[k]();
      let e = 0;
      for (let i = 0; i < want.length; i++) e = Math.max(e, Math.abs(got[i] - want[i]) / (1 + Math.abs(want[i])));
      if (!(e <= 1e-4)) throw new Error(`${impls[k].name}, n = ${n}: output differs by ${e}`);
    }
    const best = impls.map(() => Infinity);
    const reps = n <= 128 ? 20 : n <= 512 ? 4 : 1;
    const rounds = n <= 512 ? ROUNDS : n <= 1024 ? 5 : 3;
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < runs.length; k++) {
        const t0 = cpuMs();
        for (let q = 0; q < reps; q++) await runs[k]();
        best[k] = Math.min(best[k], (cpuMs() - t0) / reps);
      }
    }
    const gflops = (ms) => (4 * HEADS * n * n * DH) / ms / 1e6;
    const peer = peers.length ? Math.min(...best.slice(files.length)) : NaN;
    const cells = impls.map((impl, k) => `${impl.name} ${best[k].toFixed(3)} ms ${gflops(best[k]).toFixed(1)}` +
      (peers.length && k < files.length ? ` ${(peer / best[k]).toFixed(2)}x` : ''));
    console.log(`${causal ? 'causal' : 'full  '} n=${n}: ${cells.join(' | ')}`);
  }
}
console.log(`${new Date().toISOString()} load ${await load()}`);

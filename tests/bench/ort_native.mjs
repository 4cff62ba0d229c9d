// onnxruntime-node, native CPU (run by `make bench` right after attn_bench, so that the two
// native runs are minutes apart at most; never a test): the standard ONNX Attention op
// (opset 23), h = 8, d_h = 64, one thread, n in {128, 512, 1024, 2048, 4096}, causal and
// not. Its output is checked against our plain path (the wasm module; max |a − b| / (1 + |b|)
// <= 1e-4) before it is timed; times are the best process CPU time of several runs, as in
// wasm_bench.mjs. report.mjs puts the rows beside attn_bench's and checks issue 16's targets.
//
//   node tests/bench/ort_native.mjs [--out build/bench/ort-native.json] [--sizes 512,1024]
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import createAttention from '../../web/dist/attn.mjs';
import { makeInputs, ours, onnxruntimeNode } from './peers.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SIZES = arg('sizes', '128,512,1024,2048,4096').split(',').map(Number);
const OUT = resolve(arg('out', join(root, 'build', 'bench', 'ort-native.json')));
const HEADS = 8, DH = 64, MIN_SECONDS = 0.6, MIN_REPS = 4, MAX_REPS = 30;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};

const attn = await createAttention();
const ort = await onnxruntimeNode();
const results = [];
for (const causal of [false, true]) {
  for (const n of SIZES) {
    const inputs = makeInputs(attn, n, HEADS, DH);
    const run = await ort.setup(inputs, causal);
    const got = await run();
    const want = await (await ours(attn, 'plain').setup(inputs, causal))();
    let err = 0;
    for (let i = 0; i < want.length; i++) {
      const d = Math.abs(got[i] - want[i]) / (1 + Math.abs(want[i]));
      if (!(d <= err)) err = d;
    }
    if (!(err <= 1e-4)) throw new Error(`onnxruntime-node, n = ${n}, causal = ${causal}: output differs from ours by ${err}`);
    const cpu = [];
    while (cpu.length < MAX_REPS && (cpu.length < MIN_REPS || cpu.reduce((a, b) => a + b, 0) < MIN_SECONDS * 1e3)) {
      const t0 = cpuMs();
      await run();
      cpu.push(cpuMs() - t0);
    }
    const best = Math.min(...cpu);
    const r = { impl: ort.name, causal, n, heads: HEADS, dh: DH, cpuMs: best, reps: cpu.length, gflops: (4 * HEADS * n * n * DH) / best / 1e6, maxErr: err };
    results.push(r);
    console.log(`  ${causal ? 'causal' : 'full  '} n=${String(n).padStart(4)} ${r.impl} ${best.toFixed(1).padStart(9)} ms ${r.gflops.toFixed(1).padStart(6)} GFLOP/s  (${r.reps} runs, err ${err.toExponential(1)})`);
  }
}
await mkdir(dirname(OUT), { recursive: true });
await writeFile(OUT, JSON.stringify({ date: new Date().toISOString(), onnxruntime: ort.info, results }, null, 2));
console.log(`wrote ${OUT}`);

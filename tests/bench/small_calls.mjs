// The page's small calls (run by `make bench` through wasm_bench.mjs; never a test): what one
// call of the public API costs at the sizes an edit on the page computes, T = 3 tokens,
// d = 4, so the boundary (argument checks, copying into and out of wasm memory, the Embind
// call, result objects), not the arithmetic, is what is timed. Also Embind's own cost per
// call (measureEmbindOverhead).
//
//   node tests/bench/small_calls.mjs        prints the table
//
// Each figure is the best of 7 rounds of 20,000 calls (after 20,000 to warm the JIT up), in
// CPU time of the calling thread per call (from /proc/thread-self/schedstat, nanoseconds, on
// Linux; elsewhere the process's CPU time). The process's CPU time (every thread) and the
// median wall time per call are recorded too. Why the thread's: the process's counts V8's
// background threads as well (its optimising compiler, the garbage collector's helpers),
// which on a loaded machine run late, during the timed rounds. In one `make bench` run
// (14:46 UTC, load 5-9) every small call read about twice its usual process CPU time
// (attention() 5.97 µs instead of 3.3-3.7), with the same build, the calls first in the
// process as always; a first round right after loading reads 8.8 µs of process time but
// 4.3 µs of the calling thread's. Issue 16's target: attention() with its trace, causal,
// ≤ 5 µs of the calling thread's CPU time.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const processUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
// The calling thread's CPU time in µs (Linux), or null where it cannot be read.
const threadUs = (() => {
  const read = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e3;
  try {
    return Number.isFinite(read()) ? read : null;
  } catch {
    return null;
  }
})();
/** Which clock cpuUs is: 'thread' (the calling thread's CPU time) or 'process'. */
export const CPU_CLOCK = threadUs ? 'thread' : 'process';
const cpuUs = threadUs ?? processUs;

function time(f, { calls = 20000, rounds = 7 } = {}) {
  for (let i = 0; i < calls; i++) f();
  const cpu = [], proc = [], wall = [];
  for (let r = 0; r < rounds; r++) {
    const c = cpuUs(), p = processUs(), w = performance.now();
    for (let i = 0; i < calls; i++) f();
    cpu.push((cpuUs() - c) / calls);
    proc.push((processUs() - p) / calls);
    wall.push(((performance.now() - w) * 1e3) / calls);
  }
  wall.sort((a, b) => a - b);
  return { cpuUs: Math.min(...cpu), processCpuUs: Math.min(...proc), wallUs: wall[wall.length >> 1], clock: CPU_CLOCK };
}

// {name, what, cpuUs, processCpuUs, wallUs, clock} per call kind.
export function measureSmallCalls(attn, { calls: n = 20000, rounds = 7 } = {}) {
  const m = (r, c, s) => attn.matrix(r, c, Array.from({ length: r * c }, (_, i) => Math.sin(1.3 * i + s)));
  const Q = m(3, 4, 1), K = m(3, 4, 2), V = m(3, 4, 3);
  const causal = { causal: true };
  const calls = [
    ['attention', 'attention(Q, K, V, {causal}) with its trace, T = 3, d = 4', () => attn.attention(Q, K, V, causal)],
    ['attentionOutput', 'attentionOutput(Q, K, V, {causal}), output only', () => attn.attentionOutput(Q, K, V, causal)],
    ['flashAttention', 'flashAttention(Q, K, V, {causal}), the tiled kernel', () => attn.flashAttention(Q, K, V, causal)],
    ['softmax', 'softmax(S), S 3 x 3', () => attn.softmax(Q)],
    ['scores', 'scores(Q, K), 3 x 3', () => attn.scores(Q, K)],
  ];
  return calls.map(([name, what, f]) => ({ name, what, ...time(f, { calls: n, rounds }) }));
}

export function printSmallCalls(rows) {
  console.log(`\nSmall calls (T = 3, d = 4), per call: CPU µs (${CPU_CLOCK}) | CPU µs (process) | median wall µs`);
  for (const r of rows) console.log(`  ${r.name.padEnd(16)} ${r.cpuUs.toFixed(2).padStart(7)} | ${r.processCpuUs.toFixed(2).padStart(7)} | ${r.wallUs.toFixed(2).padStart(7)}   ${r.what}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { default: createAttention } = await import('../../web/dist/attn.mjs');
  printSmallCalls(measureSmallCalls(await createAttention()));
  const o = await measureEmbindOverhead(fileURLToPath(new URL('../../web/dist/', import.meta.url)));
  if (o) console.log(`\nattention() (T = 3, d = 4, causal), CPU µs (${o.clock}): plain wasm export ${o.rawUs.toFixed(2)}, ` +
    `Embind function ${o.embindUs.toFixed(2)} (Embind's own cost ${(o.embindUs - o.rawUs).toFixed(2)}), whole public call ${o.apiUs.toFixed(2)}`);
}

// Embind's own cost per call: the same traced attention() (T = 3, d = 4, causal, inputs
// already in wasm memory) through the Embind function Module.attention and through the
// plain wasm export _attn_raw_attention (wasm/attention.cpp), which run the same C++;
// and the whole public call, attn.attention(), on the same module. dir: a web/dist.
export async function measureEmbindOverhead(dir) {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { default: createAttnCore } = await import(pathToFileURL(join(dir, 'attn-core.mjs')).href);
  const module = await createAttnCore({ wasmBinary: await readFile(join(dir, 'attn-core.wasm')) });
  if (!module._attn_raw_attention) return null;
  const { functions, records } = JSON.parse(module.describe());
  const kinds = functions.find(([name]) => name === 'attention')[1];
  const layout = records[Number(kinds[3].slice(1))];
  const base = module.arena(1 << 16), H = module.HEAPF64, F = module.HEAPF32;
  const matrix = (at, s) => {
    H[at / 8] = 3;
    H[at / 8 + 1] = 4;
    for (let i = 0; i < 12; i++) F[at / 4 + 4 + i] = Math.sin(1.3 * i + s);
    return at;
  };
  const Q = matrix(base, 1), K = matrix(base + 256, 2), V = matrix(base + 512, 3), o = base + 768;
  layout.forEach(([key], k) => {
    H[o / 8 + 2 * k] = key === 'causal' ? 1 : 0;
    H[o / 8 + 2 * k + 1] = key === 'causal' ? 1 : 0;
  });
  const { default: createAttention } = await import(pathToFileURL(join(dir, 'attn.mjs')).href);
  const attn = await createAttention();
  const m = (s) => attn.matrix(3, 4, Array.from({ length: 12 }, (_, i) => Math.sin(1.3 * i + s)));
  const [Qm, Km, Vm] = [m(1), m(2), m(3)], causal = { causal: true };
  const rows = { embind: [], raw: [], api: [] };
  for (let r = 0; r < 4; r++) { // alternating, best of each
    rows.raw.push(time(() => module._attn_raw_attention(Q, K, V, o), { rounds: 3 }).cpuUs);
    rows.embind.push(time(() => module.attention(Q, K, V, o), { rounds: 3 }).cpuUs);
    rows.api.push(time(() => attn.attention(Qm, Km, Vm, causal), { rounds: 3 }).cpuUs);
  }
  const best = (a) => Math.min(...a);
  return { rawUs: best(rows.raw), embindUs: best(rows.embind), apiUs: best(rows.api), clock: CPU_CLOCK };
}

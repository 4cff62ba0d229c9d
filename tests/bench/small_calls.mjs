// The page's small calls (run by `make bench` through wasm_bench.mjs; never a test): what one
// call of the public API costs at the sizes an edit on the page computes, T = 3 tokens,
// d = 4, so the boundary (argument checks, encoding, decoding, result objects), not the
// arithmetic, is what is timed.
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
export function measureSmallCalls(attn) {
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
  return calls.map(([name, what, f]) => ({ name, what, ...time(f) }));
}

export function printSmallCalls(rows) {
  console.log(`\nSmall calls (T = 3, d = 4), per call: CPU µs (${CPU_CLOCK}) | CPU µs (process) | median wall µs`);
  for (const r of rows) console.log(`  ${r.name.padEnd(16)} ${r.cpuUs.toFixed(2).padStart(7)} | ${r.processCpuUs.toFixed(2).padStart(7)} | ${r.wallUs.toFixed(2).padStart(7)}   ${r.what}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { default: createAttention } = await import('../../web/dist/attn.mjs');
  printSmallCalls(measureSmallCalls(await createAttention()));
}

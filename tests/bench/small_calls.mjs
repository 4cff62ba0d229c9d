// The page's small calls (run by `make bench` through wasm_bench.mjs; never a test): what one
// call of the public API costs at the sizes an edit on the page computes, T = 3 tokens,
// d = 4, so the boundary (argument checks, encoding, decoding, result objects), not the
// arithmetic, is what is timed.
//
//   node tests/bench/small_calls.mjs        prints the table
//
// Each figure is the best of 7 rounds of 20,000 calls (after 20,000 to warm the JIT up),
// in process CPU time per call (the machine may be shared; the median wall time per call is
// recorded too). Issue 16's target: attention() with its trace, causal, ≤ 5 µs.
import { fileURLToPath } from 'node:url';

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

function time(f, { calls = 20000, rounds = 7 } = {}) {
  for (let i = 0; i < calls; i++) f();
  const cpu = [], wall = [];
  for (let r = 0; r < rounds; r++) {
    const c = cpuUs(), w = performance.now();
    for (let i = 0; i < calls; i++) f();
    cpu.push((cpuUs() - c) / calls);
    wall.push(((performance.now() - w) * 1e3) / calls);
  }
  wall.sort((a, b) => a - b);
  return { cpuUs: Math.min(...cpu), wallUs: wall[wall.length >> 1] };
}

// {name, what, cpuUs, wallUs} per call kind.
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
  console.log('\nSmall calls (T = 3, d = 4), per call: CPU µs | median wall µs');
  for (const r of rows) console.log(`  ${r.name.padEnd(16)} ${r.cpuUs.toFixed(2).padStart(7)} | ${r.wallUs.toFixed(2).padStart(7)}   ${r.what}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { default: createAttention } = await import('../../web/dist/attn.mjs');
  printSmallCalls(measureSmallCalls(await createAttention()));
}

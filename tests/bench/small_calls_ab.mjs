// The small calls of two builds of the API compared in one process (never a test): each
// folder holds an attn.mjs with its attn-core.mjs and attn-core.wasm (a web/dist, or a
// copy of one); the calls of tests/bench/small_calls.mjs are timed on each in turn, A, B,
// A, B..., so that both see the same load on a shared machine, and the best round of each
// is kept (CPU time of the calling thread per call).
//
//   node tests/bench/small_calls_ab.mjs A-folder B-folder [--rounds 6]
//
// docs/benchmarks.md, "Small calls on Embind", records a run (A: the wire build of the
// commit before the Embind boundary, B: the Embind one).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureSmallCalls, CPU_CLOCK } from './small_calls.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const ROUNDS = at >= 0 ? Number(args[at + 1]) : 6;
const dirs = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds');
if (dirs.length !== 2) throw new Error('usage: small_calls_ab.mjs A-folder B-folder [--rounds n]');
const sides = [];
for (const d of dirs) {
  const { default: createAttention } = await import(pathToFileURL(resolve(d, 'attn.mjs')).href);
  sides.push({ dir: d, attn: await createAttention() });
}
const best = sides.map(() => new Map());
for (let r = 0; r < ROUNDS; r++) {
  sides.forEach((side, s) => {
    for (const row of measureSmallCalls(side.attn, { calls: 20000, rounds: 2 })) {
      const b = best[s].get(row.name);
      if (!b || row.cpuUs < b.cpuUs) best[s].set(row.name, row);
    }
  });
}
console.log(`Small calls (T = 3, d = 4), best CPU µs (${CPU_CLOCK}) per call over ${ROUNDS} alternating rounds`);
console.log(`  A = ${sides[0].dir}\n  B = ${sides[1].dir}`);
console.log(`  ${'call'.padEnd(16)} ${'A'.padStart(7)} ${'B'.padStart(7)}   B/A`);
for (const [name, a] of best[0]) {
  const b = best[1].get(name);
  console.log(`  ${name.padEnd(16)} ${a.cpuUs.toFixed(2).padStart(7)} ${b.cpuUs.toFixed(2).padStart(7)}   ${(b.cpuUs / a.cpuUs).toFixed(2)}`);
}

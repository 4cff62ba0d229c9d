// Two builds of the page, edit for edit (a tool for working on the render path, as
// page-profile.mjs): for each chapter and kind of edit, a fresh page of build A, then of
// build B (the order alternating by round), each making the edits bench-page makes; prints
// per build the median and p95 of edit → next paint over all rounds, and counts that move
// less with the machine's load: DOM mutation records per edit, and from the DevTools
// Performance metrics the main thread's style recalcs and layouts per edit and their time.
//   node tests/bench/page-ab.mjs --a <dist dir> --b <dist dir> --cases scaling:slider,training:select
//        [--rounds 3] [--edits 20] [--alone] (each chapter alone, ?embed=, instead of the full page)
//        [--json <file>] (every sample, for merging runs)
import { resolve } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';
import { editProbe, openChapter } from './page-probes.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const builds = { A: resolve(arg('a', 'web/dist')), B: resolve(arg('b', 'web/dist')) };
const cases = arg('cases', 'core-attention:cell').split(',').map((c) => c.split(':'));
const ROUNDS = Number(arg('rounds', 3)), EDITS = Number(arg('edits', 20));
const ALONE = process.argv.includes('--alone');
const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};

const servers = { A: await startServer({ port: 0, dir: builds.A }), B: await startServer({ port: 0, dir: builds.B }) };
const browser = await launchChromium();
const out = {}; // "id kind" -> build -> {ms: [], mutations, edits, metrics}
console.log(`A = ${builds.A}\nB = ${builds.B}\nload average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const [id, kind] of cases) {
      for (const b of r % 2 ? ['B', 'A'] : ['A', 'B']) {
        const { context, page } = await openChapter(browser, servers[b].url, id, { alone: ALONE });
        await page.waitForTimeout(1500);
        await page.evaluate(editProbe);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
        const m0 = await metrics();
        const samples = await page.evaluate(([i, k, n]) => window.__bench.edits(i, k, n, 100), [id, kind, EDITS]);
        const m1 = await metrics();
        await context.close();
        const o = ((out[`${id} ${kind}`] ??= {})[b] ??= { ms: [], mutations: 0, edits: 0, m: {} });
        o.ms.push(...samples.map((s) => s.ms));
        o.mutations += samples.reduce((a, s) => a + s.mutations, 0);
        o.edits += samples.length;
        for (const k of ['RecalcStyleCount', 'LayoutCount', 'RecalcStyleDuration', 'LayoutDuration', 'ScriptDuration', 'TaskDuration']) o.m[k] = (o.m[k] ?? 0) + (m1[k] - m0[k]);
      }
    }
  }
} finally {
  await browser.close();
  await servers.A.close();
  await servers.B.close();
}
console.log(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (arg('json', null)) await writeFile(arg('json'), JSON.stringify({ builds, cases: out }));
console.log('\nper edit: median / p95 ms; DOM mutation records; style recalcs, layouts; ms of style, layout, script, all tasks (DevTools metrics, the edits and the gaps between them)');
for (const [name, by] of Object.entries(out)) {
  for (const b of ['A', 'B']) {
    const o = by[b];
    if (!o) continue;
    const per = (x) => (x / Math.max(1, o.edits));
    console.log(`${name.padEnd(26)} ${b}: ${q(o.ms, 0.5).toFixed(1).padStart(6)} / ${q(o.ms, 0.95).toFixed(1).padStart(6)} ms (n ${o.edits}); ${per(o.mutations).toFixed(0).padStart(4)} writes; ${per(o.m.RecalcStyleCount).toFixed(2)} recalcs, ${per(o.m.LayoutCount).toFixed(2)} layouts; style ${(per(o.m.RecalcStyleDuration) * 1000).toFixed(1)}, layout ${(per(o.m.LayoutDuration) * 1000).toFixed(1)}, script ${(per(o.m.ScriptDuration) * 1000).toFixed(1)}, tasks ${(per(o.m.TaskDuration) * 1000).toFixed(1)} ms`);
  }
}

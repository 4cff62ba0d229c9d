// Benchmark of the training chapter in headless Chromium (make bench-training):
// how long the default task (previous token, seed 1, both models training side by side)
// takes to reach 99% accuracy on held-out sequences, as reported by the core in the
// worker; how often the page received a snapshot; and how long the page's main thread
// was ever blocked (largest gap between animation frames) while training ran.
// Also the raw step time of one model in Node for reference. Reports, never asserts.
//   node tests/bench/training.mjs [--runs 3] [--json build/bench/training.json]
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import os from 'node:os';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium, openPage } from '../../web/scripts/browser.mjs';
import createAttention from '../../web/dist/attn.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const RUNS = Number(arg('runs', 3));
const JSON_OUT = resolve(arg('json', 'build/bench/training.json'));
const TARGET = 0.99;
const TIMEOUT_MS = 120000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function browserRun(browser, url) {
  const { page, errors } = await openPage(browser, url, { width: 1280, height: 900 });
  await page.waitForSelector('[data-status="training"][data-step="0"]', { timeout: 60000 });
  await page.locator('#training').scrollIntoViewIfNeeded();
  // Page-side probes: snapshot arrivals (data-step changes) and animation-frame gaps.
  await page.evaluate(() => {
    const el = document.querySelector('[data-status="training"]');
    window.__bench = { updates: [], frames: [], reached: null, draws: [], snaps: [] };
    new MutationObserver(() => window.__bench.snaps.push([performance.now(), Number(el.dataset.snapshots)]))
      .observe(el, { attributes: true, attributeFilter: ['data-snapshots'] });
    new MutationObserver(() => {
      const t = performance.now();
      window.__bench.updates.push(t);
      window.__bench.draws.push(Number(el.dataset.drawMs));
      if (!window.__bench.reached && Number(el.dataset.accuracyOn) >= 0.99)
        window.__bench.reached = { t, step: Number(el.dataset.step), elapsedMs: Number(el.dataset.elapsedMs), accuracy: Number(el.dataset.accuracyOn) };
    }).observe(el, { attributes: true, attributeFilter: ['data-step'] });
    const frame = (t) => {
      window.__bench.frames.push(t);
      if (!window.__bench.stop) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const t0 = await page.evaluate(() => performance.now());
  await page.click('[data-control="start"]');
  await page.waitForFunction(() => window.__bench.reached, null, { timeout: TIMEOUT_MS, polling: 100 }).catch(() => null);
  const b = await page.evaluate((start) => {
    window.__bench.stop = true;
    const { updates, frames, reached, draws, snaps } = window.__bench;
    const during = (xs) => xs.filter((t) => t >= start && (!reached || t <= reached.t));
    const u = during(updates), f = during(frames);
    let gap = 0;
    for (let i = 1; i < f.length; i++) gap = Math.max(gap, f[i] - f[i - 1]);
    const span = (u.at(-1) ?? start) - start;
    const d = draws.filter(Number.isFinite).sort((a, b) => a - b);
    const sn = snaps.filter(([t]) => t >= start && (!reached || t <= reached.t));
    const snapSpan = sn.length > 1 ? (sn.at(-1)[0] - sn[0][0]) / 1000 : 0;
    const snapshotsPerSecond = snapSpan > 0 ? (sn.at(-1)[1] - sn[0][1]) / snapSpan : 0;
    return {
      reached, wallMs: reached ? reached.t - start : null, updatesPerSecond: span > 0 ? (u.length - 1) / (span / 1000) : 0,
      snapshotsPerSecond, maxFrameGapMs: gap, drawMsMedian: d[Math.floor(d.length / 2)] ?? null, drawMsMax: d.at(-1) ?? null,
    };
  }, t0);
  await page.click('[data-control="start"]'); // pause
  await page.close();
  return { ...b, errors };
}

async function nodeStepTime() {
  const attn = await createAttention();
  const m = attn.createModel();
  m.train(5); // warm up
  const t = performance.now();
  m.train(50);
  const perStep = (performance.now() - t) / 50;
  const e = performance.now();
  m.evaluate();
  const evalMs = performance.now() - e;
  m.dispose();
  return { perStepMs: perStep, evaluateMs: evalMs };
}

const server = await startServer({ port: 0 });
const browser = await launchChromium();
const runs = [];
try {
  for (let r = 0; r < RUNS; r++) {
    // At its fragment: the chapter starts its worker when it comes near the screen.
    const res = await browserRun(browser, `${server.url}#training`);
    runs.push(res);
    const line = res.reached
      ? `step ${res.reached.step}, ${(res.reached.elapsedMs / 1000).toFixed(2)} s of training (worker), ${(res.wallMs / 1000).toFixed(2)} s wall`
      : `not reached within ${TIMEOUT_MS / 1000} s`;
    console.log(`run ${r + 1}: ${TARGET * 100}% held-out accuracy: ${line}; ${res.snapshotsPerSecond.toFixed(1)} snapshots/s from the worker, ${res.updatesPerSecond.toFixed(1)} drawn/s; longest frame gap ${res.maxFrameGapMs.toFixed(0)} ms; drawing a snapshot ${res.drawMsMedian} ms (median), ${res.drawMsMax} ms (max)${res.errors.length ? `; console errors: ${res.errors.join(' | ')}` : ''}`);
  }
} finally {
  await browser.close();
  await server.close();
}
const node = await nodeStepTime();
const ok = runs.filter((r) => r.reached);
const summary = {
  task: 'previous-token (seed 1, lr 0.01, 1 head, d_k 64; with and without 1/sqrt(d_k) trained side by side)',
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() },
  runs,
  medianTrainingSeconds: ok.length ? median(ok.map((r) => r.reached.elapsedMs)) / 1000 : null,
  medianWallSeconds: ok.length ? median(ok.map((r) => r.wallMs)) / 1000 : null,
  medianUpdatesPerSecond: median(runs.map((r) => r.updatesPerSecond)),
  node,
};
console.log(`median: ${summary.medianTrainingSeconds?.toFixed(2) ?? '–'} s of training to ${TARGET * 100}% (target: within 10 s); ` +
  `${summary.medianUpdatesPerSecond.toFixed(1)} updates/s (target: >= 10); one model's step in Node: ${node.perStepMs.toFixed(1)} ms, evaluate(): ${node.evaluateMs.toFixed(1)} ms; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
await mkdir(dirname(JSON_OUT), { recursive: true });
await writeFile(JSON_OUT, JSON.stringify(summary, null, 2));
console.log(`wrote ${JSON_OUT}`);

// make bench-model: the real-models chapter in headless Chromium on a GPT-2-small-shaped
// checkpoint with random weights (12 layers × 12 heads, d_model 768, vocabulary 50,257, 1,024
// positions; the tensors, names, order and buffers of gpt2's model.safetensors, F32, ≈ 548 MB;
// GPT-2's own vocabulary from js-tiktoken's r50k_base as vocab.json + merges.txt), written under
// build/bench/ when the benchmark runs and deleted afterwards (never committed), opened from
// disk through the chapter's file picker. Measured: the load (the worker's time, the page's
// wall time and how often the progress bar moved), all 144 heads of a 16-token sentence and the
// role scores (the worker's time of each), the longest task on the page thread meanwhile
// (PerformanceObserver 'longtask'), and the peak resident memory of the browser's processes
// (sampled from /proc) against the file's size; then an ablation stopped after its first layer
// (that layer's time, and how long "Stop" took). Prints a table; --json writes the figures.
// --dist DIR serves another build of the page (main's web/dist, for a before/after trace).
// --layers N writes an N-layer checkpoint of the same shape otherwise (a quick look at the page
// thread); --trace out.json records a Chromium trace of the whole run (CDP Tracing) and prints
// the page thread's tasks over 50 ms with what ran inside them (tools/pretrained/trace_tasks.mjs).
//   node tools/pretrained/bench_page.mjs [--json out.json] [--keep] [--layers N] [--trace out.json]
import { mkdir, rm, writeFile, open as openFile, readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';
import { BYTE_TO_CHAR } from '../../web/real-models/tokenizer.js';
import { TRACE_CATEGORIES, pageTasks, describeTasks } from './trace_tasks.mjs';
import { gpt2Tensors, safetensorsHeader } from './gpt2-layout.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  // (the usage is the file's opening comment)
  const head = (await readFile(fileURLToPath(import.meta.url), 'utf8')).split('\n').filter((l) => l.startsWith('//'));
  console.log(head.map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const keep = process.argv.includes('--keep');
const reuse = process.argv.includes('--reuse'); // a checkpoint left by --keep is used again
const LAYERS = Number(arg('layers', 12));
const trace = arg('trace');
const dir = resolve(root, 'build', 'bench', LAYERS === 12 ? 'gpt2-small-random-page' : `gpt2-${LAYERS}-layers-random-page`);
const require = createRequire(join(root, 'web', 'package.json'));

// ---- the checkpoint ---------------------------------------------------------------------------
async function writeCheckpoint() {
  const L = LAYERS, d = 768, V = 50257, P = 1024;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify({
    model_type: 'gpt2', architectures: ['GPT2LMHeadModel'], n_layer: L, n_head: 12, n_embd: d, n_positions: P, n_ctx: P,
    vocab_size: V, layer_norm_epsilon: 1e-5, activation_function: 'gelu_new', bos_token_id: 50256, eos_token_id: 50256,
  }, null, 2));
  const specs = gpt2Tensors({ layers: L, d, vocab: V, positions: P, buffers: true });
  const { prefix, dataBytes } = safetensorsHeader(specs);
  const f = await openFile(join(dir, 'model.safetensors'), 'w');
  await f.write(prefix);
  // xorshift; normal(0, 0.02) by Box–Muller
  let s = 0x9e3779b9 | 0;
  const u = () => {
    s ^= s << 13; s ^= s >>> 17; s ^= s << 5;
    return ((s >>> 0) + 1) / 4294967297;
  };
  const CH = 1 << 22;
  for (const [, shape, kind] of specs) {
    const count = shape.reduce((a, b) => a * b, 1);
    for (let o = 0; o < count; o += CH) {
      const m = Math.min(CH, count - o);
      const v = new Float32Array(m);
      if (kind === 'normal') for (let i = 0; i < m; i++) v[i] = 0.02 * Math.sqrt(-2 * Math.log(u())) * Math.cos(6.283185307179586 * u());
      else if (kind === 'ones') v.fill(1);
      else if (kind === 'causal') for (let i = 0; i < m; i++) { const q = o + i, r = Math.floor(q / P) % P, c = q % P; v[i] = c <= r ? 1 : 0; }
      await f.write(new Uint8Array(v.buffer));
    }
  }
  await f.close();
  // GPT-2's tokenizer: r50k_base (js-tiktoken) as vocab.json + merges.txt, as tests/web/tokenizer.test.mjs
  const { Tiktoken } = require('js-tiktoken/lite');
  const enc = new Tiktoken(require('js-tiktoken/ranks/r50k_base'));
  const bytesOf = [];
  for (const [rank, bytes] of enc.textMap) bytesOf[rank] = Array.from(bytes);
  const key = (b) => b.join(',');
  const rankOf = new Map(bytesOf.map((b, r) => [key(b), r]));
  const vocab = {};
  bytesOf.forEach((b, r) => (vocab[b.map((x) => BYTE_TO_CHAR[x]).join('')] = r));
  vocab['<|endoftext|>'] = 50256;
  const merges = [];
  for (let r = 256; r < bytesOf.length; ++r) {
    let parts = bytesOf[r].map((x) => [x]);
    for (;;) {
      let best = -1, at2 = -1;
      for (let i = 0; i + 1 < parts.length; ++i) {
        const m = rankOf.get(key([...parts[i], ...parts[i + 1]]));
        if (m !== undefined && m < r && (best < 0 || m < best)) (best = m), (at2 = i);
      }
      if (at2 < 0) break;
      parts.splice(at2, 2, [...parts[at2], ...parts[at2 + 1]]);
    }
    merges.push(parts.map((p) => p.map((x) => BYTE_TO_CHAR[x]).join('')).join(' '));
  }
  await writeFile(join(dir, 'vocab.json'), JSON.stringify(vocab));
  await writeFile(join(dir, 'merges.txt'), `#version: 0.2\n${merges.join('\n')}\n`);
  return prefix.length + dataBytes;
}

// ---- memory of the browser's processes ---------------------------------------------------------
// The resident memory of Chromium's processes (this process's descendants but itself).
async function treeRss(pid) {
  const kids = new Map();
  for (const p of await readdir('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = await readFile(`/proc/${p}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(p));
    } catch { /* gone */ }
  }
  let total = 0, largest = 0;
  const each = {}; // pid -> [kind, bytes]: the browser, the GPU process, the renderers…
  const walk = async (p) => {
    if (p !== pid) try {
      const st = await readFile(`/proc/${p}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(st)?.[1] ?? 0);
      total += kb * 1024;
      largest = Math.max(largest, kb * 1024);
      if (kb) {
        const cmd = await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '');
        each[p] = [/--type=([\w-]+)/.exec(cmd)?.[1] ?? (/chrom/.test(cmd) ? 'browser' : cmd.split('\0')[0].split('/').pop()), kb * 1024];
      }
    } catch { /* gone */ }
    for (const k of kids.get(p) ?? []) await walk(k);
  };
  await walk(pid);
  return { total, largest, each };
}

// ---- the run ------------------------------------------------------------------------------------
const t0 = Date.now();
let fileBytes;
try {
  if (!reuse) throw new Error('write');
  fileBytes = (await import('node:fs')).statSync(join(dir, 'model.safetensors')).size;
  await readFile(join(dir, 'merges.txt'));
} catch {
  fileBytes = await writeCheckpoint();
}
const load = await readFile('/proc/loadavg', 'utf8');
console.log(`wrote ${dir} (model.safetensors ${(fileBytes / 1e6).toFixed(1)} MB) in ${((Date.now() - t0) / 1000).toFixed(1)} s; load average ${load.split(' ').slice(0, 3).join(' ')}`);
// --dist <dir>: serve another build of the page (an A/B of the page thread against main's)
const server = await startServer({ port: 0, ...(arg('dist') ? { dir: resolve(arg('dist')) } : {}) });
const browser = await launchChromium();
const pid = process.pid; // Chromium runs as this process's children
let peak = { total: 0, largest: 0 }, base = null;
let sampling = true;
const timeline = []; // [ms since the files were given, total, {pid: [kind, bytes]}] (--memory out.json)
let given = null;
const sampler = (async () => {
  while (sampling && pid) {
    const r = await treeRss(pid);
    if (given) timeline.push([Date.now() - given, r.total, r.each]);
    if (r.total > peak.total) peak = { ...peak, total: r.total };
    if (r.largest > peak.largest) peak = { ...peak, largest: r.largest };
    await new Promise((res) => setTimeout(res, 100));
  }
})();
const out = { fileBytes, loadavg: load.trim() };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    window.__longest = 0;
    window.__longTasks = [];
    window.__since = Infinity;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
        if (e.startTime >= window.__since) window.__longest = Math.max(window.__longest, e.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${server.url}?embed=real-models&lang=en#real-models`);
  await page.waitForSelector('#real-models [data-control="model-files"]', { state: 'attached', timeout: 60000 });
  base = pid ? await treeRss(pid) : null;
  // the progress bar, every value it takes
  await page.evaluate(() => {
    const bar = document.querySelector('#real-models [data-progress="model"]');
    window.__progress = [];
    new MutationObserver(() => window.__progress.push([performance.now(), Number(bar.value), Number(bar.max)]))
      .observe(bar, { attributes: true, attributeFilter: ['value', 'max'] });
    window.__since = performance.now(); // long tasks from here on (the page's boot is not measured)
  });
  if (trace) await browser.startTracing(page, { path: resolve(trace), categories: TRACE_CATEGORIES });
  const files = ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt'].map((f) => join(dir, f));
  const start = Date.now();
  given = start;
  await page.setInputFiles('#real-models input[data-control="model-files"]', files);
  await page.waitForFunction(() => document.querySelector('#real-models [data-check="model"]')?.dataset.state === 'loaded', null, { timeout: 600000 });
  const loadWall = (Date.now() - start) / 1000;
  const progress = await page.evaluate(() => window.__progress);
  const summary = await page.textContent('#real-models [data-check="model-summary"]');
  // a 16-token sentence (with <|endoftext|> first): every head, then the roles
  const sentence = 'The cat sat on the mat because it was tired and wanted a nap.';
  await page.fill('#real-models textarea[data-control="text"]', sentence);
  await page.waitForFunction(([s, n]) => document.querySelector('#real-models [data-check="tokens"]')?.textContent.includes('nap') &&
    (document.querySelector('#real-models [data-heads="model-view"]')?.dataset.painted ??
     String(document.querySelectorAll('#real-models [data-heads="model-view"] canvas').length)) === String(12 * n), [sentence, LAYERS], { timeout: 600000 });
  // the chosen head's two grids, as a learner scrolls to them (written when near the screen)
  await page.$eval('#real-models [data-grid="rm-P"]', (e) => e.scrollIntoView({ block: 'nearest' }));
  await page.waitForFunction(() => (document.querySelector('#real-models [data-grids="head"]')?.dataset.filled ?? 'true') === 'true', null, { timeout: 600000 });
  const tokens = await page.textContent('#real-models [data-check="tokens"]');
  const headsMs = Number(await page.getAttribute('#real-models [data-check="tokens"]', 'data-ms'));
  await page.waitForFunction(() => document.querySelector('#real-models [data-check="roles"]')?.dataset.state === 'done', null, { timeout: 600000 });
  const rolesMs = Number(await page.getAttribute('#real-models [data-check="roles"]', 'data-ms'));
  const rolesLine = await page.textContent('#real-models [data-check="roles"]');
  await page.waitForTimeout(500); // (long-task entries arrive after the task)
  const longest = await page.evaluate(() => window.__longest);
  if (trace) {
    await browser.stopTracing();
    out.traceTasks = await pageTasks(resolve(trace));
    out.mostTaskCpuMs = Math.max(0, ...(await pageTasks(resolve(trace), 10)).map((t) => t.cpuMs));
  }
  out.longTasks = await page.evaluate(() => window.__longTasks.filter(([t]) => t >= window.__since));
  const seconds = Number(/read in ([\d.]+) s/.exec(summary)?.[1]);
  Object.assign(out, {
    loadWorkerSeconds: seconds, loadWallSeconds: loadWall, progressUpdates: progress.length,
    tokens: Number(/^(\d+) tokens/.exec(tokens.trim())?.[1]), headsMs, rolesMs, rolesLine: rolesLine.trim(),
    longestPageTaskMs: longest, peakRssBytes: peak.total, peakLargestProcessBytes: peak.largest, baseRssBytes: base?.total ?? null,
  });
  // the ablation started, then stopped after its first layer: how long that layer took, and how
  // long "Stop" took to be obeyed (the worker sees it between two layers); the model stays open
  const abl = '#real-models [data-check="ablation"]';
  const bar = '#real-models [data-control="ablate"] ~ progress';
  const t1 = Date.now();
  await page.click('#real-models [data-control="ablate"]');
  await page.waitForFunction((b) => Number(document.querySelector(b)?.value) >= 12, bar, { timeout: 600000 });
  const t2 = Date.now();
  await page.click('#real-models [data-control="ablate-stop"]');
  await page.waitForFunction((a) => document.querySelector(a)?.dataset.state === 'stopped', abl, { timeout: 600000 });
  const t3 = Date.now();
  out.ablationStopped = (await page.textContent(abl)).trim();
  Object.assign(out, { ablationFirstLayerMs: t2 - t1, ablationStopMs: t3 - t2 });
} finally {
  sampling = false;
  await sampler;
  await browser.close();
  await server.close();
  if (!keep) await rm(dir, { recursive: true, force: true });
}
const mb = (b) => (b / 1e6).toFixed(0);
console.log(`| step | measured | target |
| --- | --- | --- |
| load ${mb(fileBytes)} MB from a file (worker; page wall time) | ${out.loadWorkerSeconds.toFixed(2)} s; ${out.loadWallSeconds.toFixed(2)} s, progress bar moved ${out.progressUpdates} times | ≤ 10 s |
| all ${12 * LAYERS} heads of ${out.tokens} tokens (worker) | ${out.headsMs} ms | ≤ 1 s |
| role scores, every head (worker) | ${(out.rolesMs / 1000).toFixed(2)} s | ≤ 10 s |
| ablation: its first layer's 12 heads (page wall time); "Stop" obeyed after | ${(out.ablationFirstLayerMs / 1000).toFixed(2)} s; ${(out.ablationStopMs / 1000).toFixed(2)} s | |
| longest task on the page thread${out.traceTasks ? ' (the most CPU time in one, from the trace)' : ''} | ${out.longestPageTaskMs.toFixed(0)} ms${out.traceTasks ? ` (${out.mostTaskCpuMs} ms)` : ''} | ≤ 100 ms |
| peak memory of the browser (all processes; largest one) | ${mb(out.peakRssBytes)} MB; ${mb(out.peakLargestProcessBytes)} MB (before opening: ${mb(out.baseRssBytes ?? 0)} MB): grew by ${mb(out.peakRssBytes - (out.baseRssBytes ?? 0))} MB = ${((out.peakRssBytes - (out.baseRssBytes ?? 0)) / fileBytes).toFixed(2)}× the file | growth ≤ 1.5× the file |`);
console.log(out.rolesLine);
if (out.traceTasks) console.log(describeTasks(out.traceTasks));
console.log(`long tasks on the page thread after the files were given (start ms, duration ms): ${JSON.stringify(out.longTasks)}`);
// --memory out.json: every sample of every process's resident memory, and each process's peak
// above its size before opening (where the growth is)
if (base) {
  const growth = {};
  for (const [, , each] of timeline)
    for (const [p, [kind, bytes]] of Object.entries(each)) {
      const b0 = base.each[p]?.[1] ?? 0;
      const g = (growth[p] ??= { kind, before: b0, peak: 0, at: 0 });
      if (bytes > g.peak) Object.assign(g, { peak: bytes, at: timeline.find((x) => x[2][p]?.[1] === bytes)?.[0] });
    }
  out.processGrowth = growth;
  console.log(`per process (MB: before opening → peak, at ms after the files were given): ${Object.entries(growth)
    .filter(([, g]) => g.peak - g.before > 5e6).map(([p, g]) => `${g.kind} ${p}: ${mb(g.before)} → ${mb(g.peak)} (+${mb(g.peak - g.before)}) at ${g.at}`).join('; ')}`);
}
if (arg('memory')) await writeFile(resolve(arg('memory')), JSON.stringify(timeline.map(([t, total, each]) => [t, total, Object.fromEntries(Object.entries(each).map(([p, [k, b]]) => [`${k} ${p}`, b]))])));
const json = arg('json');
if (json) {
  await mkdir(dirname(resolve(json)), { recursive: true });
  await writeFile(resolve(json), JSON.stringify(out, null, 2));
}

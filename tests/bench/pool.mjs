// The worker pool benchmark (make bench-pool): the cost chapter's live run in headless
// Chromium (playwright-core, as the browser tests), h = 8 heads of d_h = 64 up to n = 4096,
// with 1 worker and with 2, alternating (1, 2, 2, 1, 1, 2, ...) so that a drift in the
// machine's load falls on both. Reports, never asserts.
//
//   node tests/bench/pool.mjs [--repeats 5] [--workers 2] [--json build/bench/pool.json] [--no-docs] [--dist web/dist]
//
// --dist serves another build of the page (an older one, for a before/after comparison);
// --heads 1 (or 2, 4, 16: what the chapter offers) times another head count, and then the
// docs are left alone (their table is for 8 heads).
//
// Each run is what a learner gets from the "Run" button (?embed=cost, largest n 4096,
// 8 heads): per n and kernel the wall time of one pool call over all 8 heads, measured on
// the page's main thread from posting the inputs to holding every output (transfers
// included), best of up to 3 calls while they are short. The speed-up of a pair of runs
// is t(1 worker) / t(2 workers); the table gives its median over the pairs and the range,
// and how much of a call was spent outside the kernels: its wall time less the time its
// slowest worker spent in the core's kernel calls (messages, copies, waking the workers,
// making and reading the results).
// The "Worker pool" section of docs/benchmarks.md is rewritten; every sample goes to the JSON.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { execSync } from 'node:child_process';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const REPEATS = Number(arg('repeats', 5));
const WORKERS = Number(arg('workers', 2));
const HEADS = Number(arg('heads', 8));
const JSON_OUT = resolve(root, arg('json', 'build/bench/pool.json'));
const DOCS = join(root, 'docs', 'benchmarks.md');
const SIZES = [1024, 4096];
const KERNELS = ['plain', 'tiled'];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
const log = (...a) => console.error(...a);

const DIST = arg('dist', null);
const server = await startServer({ port: 0, ...(DIST ? { dir: resolve(DIST) } : {}) });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
await page.goto(`${server.url}?embed=cost&lang=en`);
await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
const cores = await page.evaluate(() => navigator.hardwareConcurrency);
const offered = await page.$$eval('#cost [data-control="liveWorkers"] option', (o) => o.map((x) => Number(x.value)));
if (!offered.includes(WORKERS)) throw new Error(`the page offers ${offered.join(', ')} workers (navigator.hardwareConcurrency = ${cores}), not ${WORKERS}`);
await page.selectOption('#cost [data-control="liveMaxN"]', '4096');
await page.selectOption('#cost [data-control="liveHeads"]', String(HEADS));

// One live run with `workers` workers: {n: {plain, tiled}} in ms.
async function liveRun(workers) {
  await page.selectOption('#cost [data-control="liveWorkers"]', String(workers));
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => /^(Done|The run stopped)/.test(document.querySelector('#cost .live-status').textContent), null, { timeout: 600000 });
  const status = await page.textContent('#cost .live-status');
  if (!status.startsWith('Done')) throw new Error(status);
  if (!status.includes(`workers: ${workers})`)) throw new Error(`asked for ${workers} workers: ${status}`);
  return page.$$eval('#cost [data-table="live"] tbody tr', (rows) => Object.fromEntries(rows.map((r) => {
    const td = r.querySelectorAll('td');
    return [r.querySelector('th').textContent.replace(/\D/g, ''), {
      plain: Number(td[0].dataset.ms), tiled: Number(td[2].dataset.ms),
      plainCore: Number(td[0].dataset.coreMs), tiledCore: Number(td[2].dataset.coreMs),
    }];
  })));
}

const load = { start: await loadavg() };
const runs = [];
log(`load average ${load.start}; ${REPEATS} pairs of runs (1 and ${WORKERS} workers)`);
for (let rep = 0; rep < REPEATS; rep++) {
  const order = rep % 2 ? [WORKERS, 1] : [1, WORKERS];
  const pair = {};
  for (const w of order) {
    pair[w] = await liveRun(w);
    const t = (x, core) => `${x.toFixed(0)} (kernels ${core.toFixed(0)})`;
    log(`pair ${rep + 1}, ${w} worker(s): ${SIZES.map((n) => `n=${n} plain ${t(pair[w][n].plain, pair[w][n].plainCore)} tiled ${t(pair[w][n].tiled, pair[w][n].tiledCore)} ms`).join('; ')}  (load ${await loadavg()})`);
  }
  runs.push({ one: pair[1], many: pair[WORKERS], load: await loadavg() });
}
load.end = await loadavg();
await browser.close();
await server.close();
if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

const rows = [];
for (const n of SIZES)
  for (const kernel of KERNELS) {
    const one = runs.map((r) => r.one[n][kernel]), many = runs.map((r) => r.many[n][kernel]);
    const speedups = runs.map((r) => r.one[n][kernel] / r.many[n][kernel]);
    // outside the core: the call's wall time less its slowest worker's time in the kernels
    const outside = (side) => median(runs.map((r) => r[side][n][kernel] - r[side][n][`${kernel}Core`]));
    rows.push({ n, kernel, one: median(one), many: median(many), speedup: median(speedups), min: Math.min(...speedups), max: Math.max(...speedups),
      outsideOne: outside('one'), outsideMany: outside('many') });
  }
let commit = '';
try { commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim(); } catch { /* not a checkout */ }
const result = { date: new Date().toISOString(), commit, cpu: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`, cores, workers: WORKERS, heads: HEADS, dHead: 64, load, runs, rows };
await mkdir(dirname(JSON_OUT), { recursive: true });
await writeFile(JSON_OUT, JSON.stringify(result, null, 1));

const f = (ms) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));
const text = [
  `Measured ${result.date.slice(0, 16).replace('T', ' ')} UTC, commit ${commit}, ${result.cpu} (navigator.hardwareConcurrency = ${cores}), load average ${load.start} at start, ${load.end} at end; ${REPEATS} pairs of runs, ${HEADS} head${HEADS > 1 ? 's' : ''}, d_h = 64, not causal.`,
  '',
  `| n | kernel | 1 worker (ms, median) | ${WORKERS} workers (ms, median) | speed-up (median of pairs) | range | outside the kernels, 1 / ${WORKERS} workers (ms, median) | target |`,
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.n} | ${r.kernel} | ${f(r.one)} | ${f(r.many)} | **${r.speedup.toFixed(2)}×** | ${r.min.toFixed(2)}–${r.max.toFixed(2)} | ${Number.isNaN(r.outsideOne + r.outsideMany) ? '—' : `${r.outsideOne.toFixed(1)} / ${r.outsideMany.toFixed(1)}`} | ≥ 1.7× |`),
].join('\n');
console.log(text);
if (!process.argv.includes('--no-docs') && HEADS === 8) {
  const docs = await readFile(DOCS, 'utf8');
  const section = `<!-- bench-pool:begin (generated by tests/bench/pool.mjs; JSON in ${relative(root, JSON_OUT)}) -->\n${text}\n<!-- bench-pool:end -->`;
  const b = docs.indexOf('<!-- bench-pool:begin'), e = docs.indexOf('<!-- bench-pool:end -->');
  const updated = b >= 0 && e > b ? docs.slice(0, b) + section + docs.slice(e + '<!-- bench-pool:end -->'.length)
    : `${docs.trimEnd()}\n\n## Worker pool\n\n${section}\n`;
  await writeFile(DOCS, updated);
  log('docs/benchmarks.md: Worker pool section rewritten');
}

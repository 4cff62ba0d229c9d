// The page's thread during the cost chapter's live run (issue 26, item 2): the whole page at
// ?lang=en#cost, 1280 px, headless Chromium, the run's defaults (largest n 32,768, 8 heads,
// one worker per core but one) unless told; from the click on Run to "Done" it collects the gaps between
// requestAnimationFrame callbacks and the long tasks (PerformanceObserver 'longtask') in
// the page, and prints them with the load average and the chapter's table. Reports, never
// asserts (timings follow the machine's load: compare builds alternated, --dist). The frames
// of the 3 s after "Done" count too: the workers' teardown (freeing up to 2 GB) falls there.
//
//   node tests/bench/pool-frames.mjs [--dist web/dist] [--largest 32768] [--workers 2] [--trace FILE]
//
// --trace writes a Chrome trace (devtools.timeline, v8) of the run, for what the long tasks were.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const dist = resolve(arg('dist', resolve(root, 'web', 'dist')));
const largest = arg('largest', '32768'), workers = arg('workers', null), traceFile = arg('trace', null); // (workers: the chapter's default unless given)
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const server = await startServer({ port: 0, dir: dist });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
await page.goto(`${server.url}?lang=en#cost`);
await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
await page.locator('#cost [data-action="run"]').scrollIntoViewIfNeeded();
await page.selectOption('#cost [data-control="liveMaxN"]', largest);
if (workers) await page.selectOption('#cost [data-control="liveWorkers"]', workers);
let cdp;
if (traceFile) {
  cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.execute,toplevel', transferMode: 'ReturnAsStream' });
}
await page.evaluate(() => {
  window.__gaps = [];
  window.__long = [];
  let last = performance.now();
  const f = () => {
    const now = performance.now();
    window.__gaps.push([now - last, now]);
    last = now;
    if (!window.__stop) requestAnimationFrame(f);
  };
  requestAnimationFrame(f);
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.duration, e.startTime]); }).observe({ type: 'longtask' });
});
const t0 = await page.evaluate(() => performance.now());
const loadStart = load();
await page.click('#cost [data-action="run"]');
await page.waitForFunction(() => /^(Done|The run stopped)/.test(document.querySelector('#cost .live-status').textContent), null, { timeout: 1800000, polling: 1000 });
const status = await page.textContent('#cost .live-status');
// and 3 s more: the workers' teardown after the run (freeing their wasm memory) is part of it
await page.waitForTimeout(3000);
const table = await page.$$eval('#cost [data-table="live"] tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent).join(' ')));
const r = await page.evaluate((t0) => {
  window.__stop = true;
  const at = (x) => [Math.round(x[0]), +((x[1] - t0) / 1000).toFixed(1)]; // [ms, s after the click]
  const g = window.__gaps.filter((x) => x[1] > t0).sort((a, b) => b[0] - a[0]);
  const lt = window.__long.filter((x) => x[1] > t0).sort((a, b) => b[0] - a[0]);
  return { seconds: Math.round((performance.now() - t0) / 1000), frames: g.length, longestGaps: g.slice(0, 5).map(at),
    gapsOver50: g.filter((x) => x[0] > 50).length, gapsOver100: g.filter((x) => x[0] > 100).length,
    longTasks: lt.length, longestTasks: lt.slice(0, 5).map(at) };
}, t0);
if (cdp) {
  const done = new Promise((res) => cdp.once('Tracing.tracingComplete', res));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let data = '';
  for (;;) {
    const c = await cdp.send('IO.read', { handle: stream });
    data += c.data;
    if (c.eof) break;
  }
  writeFileSync(traceFile, data);
}
console.log(JSON.stringify({ dist, largest: Number(largest), workers: workers ? Number(workers) : "default", load: [loadStart, load()], status, ...r, errors }, null, 1));
console.log(table.join('\n'));
await browser.close();
await server.close();

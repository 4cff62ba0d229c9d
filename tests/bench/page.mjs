// The page benchmark (make bench-page): headless Chromium through playwright-core, as the
// browser tests, against the built site in web/dist. Reports, never asserts.
//
//   node tests/bench/page.mjs [--edits 20] [--boots 3] [--only id,id] [--full all|none|<ids>]
//                             [--json build/bench/page.json] [--baseline file.json] [--docs]
//                             [--dist <dir>] (serve another build than web/dist: an A/B)
//   node tests/bench/page.mjs --from build/bench/page.json [--baseline file.json]   (report only)
//
// What it measures (docs/benchmarks.md, "Page", explains how to read it):
//   edit → next paint: each chapter opened alone (?embed=<id>), and on the full page,
//     ≥ N edits of each kind the chapter offers (cell, toggle, slider, select, number);
//     every edit is made at the start of an animation frame, as Chromium dispatches input
//     events, and timed until the end of the last frame in which the chapter's DOM changed
//     (a frame ends after style, layout and paint: a message task posted from its rAF);
//   boot: time until the chapter in the URL fragment (or the first) has content and the
//     main thread is free to paint it (the first animation frame after that), long tasks
//     (PerformanceObserver 'longtask'), LCP, layout shift (CLS), and how many chapters were
//     mounted once loading settled;
//   language switch: click on the toggle → the end of the last frame that changed the DOM,
//     and of the last that changed what was on screen (the chapters in the viewport);
//   bytes: every response of the first load (no scrolling) and of a page with one
//     <attention-explorer> widget, raw and gzip (level 9, as precompressed files), and
//     what the server actually sent.
// The table goes to stdout, and with --docs (make bench-page) to the "Page" section of
// docs/benchmarks.md (a partial or A/B run leaves it alone); the JSON keeps every sample.
// A --baseline JSON (an earlier run) adds a "before" column.
import { mkdir, readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir, cpus } from 'node:os';
import { gzipSync } from 'node:zlib';
import { execSync } from 'node:child_process';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';
import { bootProbe, editProbe } from './page-probes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const flag = (name) => process.argv.includes(`--${name}`);
const EDITS = Number(arg('edits', 20));
const BOOTS = Number(arg('boots', 3));
const ONLY = arg('only', '') ? arg('only').split(',') : null;
const FULL = arg('full', 'all');
const JSON_OUT = resolve(root, arg('json', 'build/bench/page.json'));
const BASELINE = arg('baseline', null);
const FROM = arg('from', null);
const DOCS = join(root, 'docs', 'benchmarks.md');
const VIEW = { width: 1280, height: 900 };
const KINDS = ['cell', 'toggle', 'slider', 'select', 'number'];

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => (xs.length ? sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))] : null);
const median = (xs) => quantile(xs, 0.5);
const loadavg = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
const log = (...a) => console.error(...a);

// ---- helpers -----------------------------------------------------------------------------------
async function newPage(browser, url, { probe = true } = {}) {
  const context = await browser.newContext({ viewport: VIEW });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const responses = [];
  page.on('response', (r) => responses.push(r));
  if (probe) await page.addInitScript(bootProbe);
  await page.goto(url);
  return { page, context, errors, responses };
}

// Loading has settled when there was no long task, no new response and no DOM change for
// `quiet` ms (max `limit` ms).
async function settle(page, { quiet = 1200, limit = 30000 } = {}) {
  await page.waitForLoadState('load');
  await page.evaluate(async ([q, lim]) => {
    let lastChange = performance.now();
    const mo = new MutationObserver(() => (lastChange = performance.now()));
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const start = performance.now();
    await new Promise((r) => {
      const tick = () => {
        const lastLong = (window.__boot?.long.at(-1) ?? [0, 0]).reduce((a, b) => a + b);
        const lastRes = Math.max(0, ...performance.getEntriesByType('resource').map((e) => e.responseEnd));
        const t = performance.now();
        if (t - Math.max(lastChange, lastLong, lastRes) >= q || t - start > lim) r();
        else setTimeout(tick, 100);
      };
      tick();
    });
    mo.disconnect();
  }, [quiet, limit]);
}

const KIND_OF = (url, type) => {
  const p = new URL(url).pathname;
  if (/\.wasm$/.test(p)) return 'wasm';
  if (/\.(m?js)$/.test(p) || type === 'script') return 'js';
  if (/\.css$/.test(p)) return 'css';
  if (/\.(woff2?|ttf|otf)$/.test(p)) return 'font';
  if (/\.html?$|\/$/.test(p) || type === 'document') return 'html';
  return 'other';
};
// `starts` (path -> ms after navigation) and `cutoff`: "first" counts what was requested by
// then (the page's first load; the idle prefetch that follows is counted in "all" only).
async function weigh(responses, { starts = new Map(), cutoff = Infinity } = {}) {
  const files = [];
  for (const r of responses) {
    const url = r.url();
    if (!url.startsWith('http')) continue;
    let body;
    try {
      body = await r.body();
    } catch {
      continue; // redirects, aborted requests
    }
    const sizes = await r.request().sizes().catch(() => ({ responseBodySize: body.length }));
    files.push({
      path: new URL(url).pathname, kind: KIND_OF(url, r.request().resourceType()), raw: body.length,
      gzip: body.length ? gzipSync(body, { level: 9 }).length : 0, sent: sizes.responseBodySize,
      encoding: r.headers()['content-encoding'] ?? null, start: starts.get(new URL(url).pathname) ?? 0,
    });
  }
  const by = {};
  for (const f of files) {
    by[f.kind] ??= { raw: 0, gzip: 0, sent: 0, n: 0 };
    for (const k of ['raw', 'gzip', 'sent']) by[f.kind][k] += f[k];
    by[f.kind].n++;
  }
  const first = {};
  for (const f of files.filter((x) => x.start <= cutoff)) {
    first[f.kind] ??= { raw: 0, gzip: 0, sent: 0, n: 0 };
    for (const k of ['raw', 'gzip', 'sent']) first[f.kind][k] += f[k];
    first[f.kind].n++;
  }
  const sum = (t, kinds, k) => kinds.reduce((a, x) => a + (t[x]?.[k] ?? 0), 0);
  const tot = (t, kinds) => ({ raw: sum(t, kinds, 'raw'), gzip: sum(t, kinds, 'gzip'), sent: sum(t, kinds, 'sent') });
  return { files, cutoff, by, first, core: tot(first, ['js', 'wasm', 'css']), firstAll: tot(first, Object.keys(first)),
    all: tot(by, Object.keys(by)), allCore: tot(by, ['js', 'wasm', 'css']) };
}

async function boot(browser, url) {
  const { page, context, errors, responses } = await newPage(browser, url);
  await page.waitForFunction(() => window.__boot.ready !== null, null, { timeout: 60000 });
  await settle(page);
  const b = await page.evaluate(() => {
    const w = window.__boot;
    w.stop = true;
    return { ready: w.ready, target: w.target, mountedAtReady: w.mountedAtReady, long: w.long, lcp: w.lcp, cls: +w.cls.toFixed(4), shifts: w.shifts,
      mounted: [...document.querySelectorAll('section.chapter')].filter(w.filled).length, chapters: document.querySelectorAll('section.chapter').length,
      res: performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, Math.round(e.startTime)]),
      scrollY: Math.round(scrollY), top: (() => {
        const s = location.hash && document.getElementById(location.hash.slice(1));
        return s ? Math.round(s.getBoundingClientRect().top) : null;
      })() };
  });
  const weight = await weigh(responses, { starts: new Map(b.res), cutoff: b.ready + 1000 });
  delete b.res;
  await context.close();
  return { ...b, maxLong: Math.max(0, ...b.long.map((l) => l[1])), weight, errors };
}

async function editsIn(page, ids, gap) {
  const out = {};
  await page.evaluate(editProbe);
  for (const id of ids) {
    await page.evaluate((i) => document.getElementById(i)?.scrollIntoView(), id);
    await page.waitForFunction((i) => {
      const s = document.getElementById(i);
      return s && window.__boot.filled(s);
    }, id, { timeout: 30000 });
    const kinds = await page.evaluate((i) => window.__bench.kinds(i), id);
    out[id] = {};
    for (const kind of KINDS) {
      if (!kinds[kind]) continue;
      const samples = await page.evaluate(([i, k, n, g]) => window.__bench.edits(i, k, n, g), [id, kind, EDITS, gap]);
      const ms = samples.map((s) => s.ms);
      out[id][kind] = { n: ms.length, median: median(ms), p95: quantile(ms, 0.95), max: Math.max(...ms), frames: median(samples.map((s) => s.frames)), samples: ms.map((x) => +x.toFixed(1)) };
      log(`  ${id} ${kind}: n=${ms.length} median ${out[id][kind].median.toFixed(1)} ms, p95 ${out[id][kind].p95.toFixed(1)} ms`);
    }
  }
  return out;
}

// ---- the run -----------------------------------------------------------------------------------
async function measure() {
const widgetDir = await mkdtemp(join(tmpdir(), 'bench-page-'));
await writeFile(join(widgetDir, 'widget.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>widget</title>
<script type="module" src="attention-explorer.js"></script></head><body><h1>Course notes</h1>
<attention-explorer chapter="core-attention"></attention-explorer></body></html>`);
// The light widget (dist/widget/, docs/embedding.md): the same page, the folder's entry.
await writeFile(join(widgetDir, 'widget-light.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>widget</title>
<script type="module" src="/widget/attention-explorer.js"></script></head><body><h1>Course notes</h1>
<attention-explorer chapter="core-attention"></attention-explorer></body></html>`);
const server = await startServer({ port: 0, mounts: { '/bench/': widgetDir }, ...(arg('dist', null) && { dir: resolve(root, arg('dist')) }) });
const browser = await launchChromium();
const load = { start: await loadavg() };
const result = { date: new Date().toISOString(), commit: execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim(), dirty: execSync('git status --porcelain --untracked-files=no -- web wasm core', { cwd: root }).toString().trim() !== '', chromium: browser.version(), cpu: `${cpus()[0]?.model} × ${cpus().length}`, edits: EDITS };

try {
  // The chapter list: the page's table of contents.
  const first = await newPage(browser, server.url, { probe: true });
  await first.page.waitForSelector('#toc a[href^="#"]');
  let ids = await first.page.$$eval('#toc a[href^="#"]', (as) => as.map((a) => a.getAttribute('href').slice(1)));
  await first.context.close();
  if (ONLY) ids = ids.filter((i) => ONLY.includes(i));

  // Boot: the full page at the top and at a fragment, and one chapter alone.
  log('boot …');
  const mid = ids.includes('multi-head') ? 'multi-head' : ids[Math.floor(ids.length / 2)];
  result.boot = {};
  for (const [name, path] of [['top', ''], ['fragment', `#${mid}`], ['embed', `?embed=${ids.includes('core-attention') ? 'core-attention' : ids[0]}`]]) {
    const runs = [];
    for (let r = 0; r < BOOTS; r++) runs.push(await boot(browser, `${server.url}${path}`));
    result.boot[name] = { path, runs, ready: median(runs.map((x) => x.ready)), maxLong: median(runs.map((x) => x.maxLong)), lcp: median(runs.map((x) => x.lcp)),
      cls: median(runs.map((x) => x.cls)), mounted: median(runs.map((x) => x.mounted)), chapters: runs[0].chapters, top: runs[0].top };
    log(`  ${name}: ready ${result.boot[name].ready} ms, longest task ${result.boot[name].maxLong} ms, LCP ${result.boot[name].lcp} ms, CLS ${result.boot[name].cls}, mounted ${result.boot[name].mounted}/${result.boot[name].chapters}`);
  }
  result.weight = { page: result.boot.top.runs[0].weight };
  for (const [key, file] of [['widget', 'widget.html'], ['widgetLight', 'widget-light.html']]) {
    const { page, context, responses } = await newPage(browser, `${server.url}bench/${file}`, { probe: false });
    await page.waitForFunction(() => document.querySelector('attention-explorer')?.dataset.ready === 'true', null, { timeout: 60000 });
    await settle(page);
    result.weight[key] = await weigh(responses);
    await context.close();
  }

  // Language switch: full page at the top and at the fragment, two round trips each.
  log('language switch …');
  result.lang = {};
  for (const [name, path] of [['top', ''], ['fragment', `#${mid}`]]) {
    const { page, context } = await newPage(browser, `${server.url}${path}`);
    await page.waitForFunction(() => window.__boot.ready !== null, null, { timeout: 60000 });
    await settle(page);
    await page.evaluate(editProbe);
    const ms = [], shown = [];
    for (let k = 0; k < 4; k++) {
      const r = await page.evaluate((g) => window.__bench.lang(g), 300);
      ms.push(r.ms);
      shown.push(r.msScoped);
    }
    result.lang[name] = {
      samples: ms.map((x) => +x.toFixed(1)), median: median(ms), max: Math.max(...ms),
      // until the last frame that changed what was on screen (the chapters in the viewport)
      onScreen: { samples: shown.map((x) => +x.toFixed(1)), median: median(shown), max: Math.max(...shown) },
    };
    log(`  ${name}: ${ms.map((x) => x.toFixed(0)).join(', ')} ms; on screen ${shown.map((x) => x.toFixed(0)).join(', ')} ms`);
    await context.close();
  }

  // Edits, each chapter alone.
  log('edits, each chapter alone …');
  result.embed = {};
  for (const id of ids) {
    const { page, context, errors } = await newPage(browser, `${server.url}?embed=${id}#${id}`);
    await page.waitForFunction(() => window.__boot.ready !== null, null, { timeout: 60000 });
    await settle(page, { quiet: 600 });
    Object.assign(result.embed, await editsIn(page, [id], 180));
    if (errors.length) result.embed[id].errors = errors;
    await context.close();
  }
  // Edits on the full page (one page, chapter after chapter).
  const fullIds = FULL === 'none' ? [] : FULL === 'all' ? ids : FULL.split(',');
  if (fullIds.length) {
    log('edits, full page …');
    const { page, context, errors } = await newPage(browser, server.url);
    await page.waitForFunction(() => window.__boot.ready !== null, null, { timeout: 60000 });
    await settle(page);
    result.full = await editsIn(page, fullIds, 180);
    if (errors.length) result.fullErrors = errors;
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
load.end = await loadavg();
result.load = load;

await mkdir(dirname(JSON_OUT), { recursive: true });
await writeFile(JSON_OUT, JSON.stringify(result, null, 1));
return result;
}
const result = FROM ? JSON.parse(await readFile(resolve(root, FROM), 'utf8')) : await measure();

// ---- the report --------------------------------------------------------------------------------
const before = BASELINE ? JSON.parse(await readFile(resolve(root, BASELINE), 'utf8')) : null;
// A run from before the first-load split: everything it loaded was its first load.
for (const w of [result, before].filter(Boolean).flatMap((r) => [r.weight.page, r.weight.widget, r.weight.widgetLight]).filter(Boolean)) {
  w.first ??= w.by;
  w.firstAll ??= w.all;
  w.allCore ??= w.core;
}
const ms = (x) => (x == null ? '–' : `${Math.round(x)}`);
const kb = (x) => (x == null ? '–' : `${(x / 1024).toFixed(0)}`);
const fmtEdit = (e) => (e ? `${ms(e.median)} / ${ms(e.p95)}` : '–');

function editTable(run, prev, which) {
  const rows = [];
  const ids = Object.keys(run[which] ?? {});
  if (!ids.length) return '';
  const kinds = KINDS.filter((k) => ids.some((id) => run[which][id][k]));
  rows.push(`| chapter | ${kinds.map((k) => `${k}${prev ? ' (before → now)' : ''}`).join(' | ')} |`);
  rows.push(`| --- | ${kinds.map(() => '---').join(' | ')} |`);
  for (const id of ids) {
    const cells = kinds.map((k) => {
      const now = run[which][id][k];
      const was = prev?.[which]?.[id]?.[k];
      return prev ? (now || was ? `${fmtEdit(was)} → ${fmtEdit(now)}` : '–') : fmtEdit(now);
    });
    rows.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  const all = ids.flatMap((id) => kinds.flatMap((k) => run[which][id][k]?.samples ?? []));
  return `${rows.join('\n')}\n\nAll ${all.length} edits: median ${ms(median(all))} ms, p95 ${ms(quantile(all, 0.95))} ms, max ${ms(Math.max(...all))} ms.`;
}

function summaryRows(run) {
  const b = run.boot, w = run.weight;
  const core = (x) => `${kb(x.core.gzip)} KB (${['js', 'wasm', 'css'].map((k) => `${k} ${kb(x.first?.[k]?.gzip ?? 0)}`).join(', ')})`;
  const all = (x) => `${kb(x.all.gzip)} KB gzip, ${kb(x.all.raw)} KB raw, ${kb(x.all.sent)} KB sent`;
  const firstAll = (x) => `${kb(x.firstAll.gzip)} KB gzip, ${kb(x.firstAll.raw)} KB raw, ${kb(x.firstAll.sent)} KB sent`;
  return [
    ['boot, full page: first chapter interactive', `${ms(b.top.ready)} ms`, '≤ 1000 ms'],
    ['boot, full page at #fragment: that chapter interactive', `${ms(b.fragment.ready)} ms`, '≤ 1000 ms'],
    ['boot, one chapter alone (?embed): interactive', `${ms(b.embed.ready)} ms`, '≤ 1000 ms'],
    ['boot, full page: longest task', `${ms(b.top.maxLong)} ms`, '≤ 200 ms'],
    ['boot, full page at #fragment: longest task', `${ms(b.fragment.maxLong)} ms`, '≤ 200 ms'],
    ['boot, full page: LCP', `${ms(b.top.lcp)} ms`, ''],
    ['boot, full page: layout shift (CLS)', `${b.top.cls}`, 'no reflow when fonts arrive'],
    ['boot, full page at #fragment: CLS / chapter top after load', `${b.fragment.cls} / ${b.fragment.top} px`, '0 px: the fragment stays in place'],
    ['boot, full page: chapters mounted once loading settled', `${b.top.mounted} of ${b.top.chapters}`, 'those near the screen'],
    ['language switch, full page at the top (median / max)', `${ms(run.lang.top.median)} / ${ms(run.lang.top.max)} ms`, '≤ 200 ms'],
    ['language switch, full page at #fragment (median / max)', `${ms(run.lang.fragment.median)} / ${ms(run.lang.fragment.max)} ms`, '≤ 200 ms'],
    ['language switch, full page at the top: what is on screen (median / max)', run.lang.top.onScreen ? `${ms(run.lang.top.onScreen.median)} / ${ms(run.lang.top.onScreen.max)} ms` : '–', '≤ 200 ms'],
    ['language switch, full page at #fragment: what is on screen (median / max)', run.lang.fragment.onScreen ? `${ms(run.lang.fragment.onScreen.median)} / ${ms(run.lang.fragment.onScreen.max)} ms` : '–', '≤ 200 ms'],
    ['first load (requested until 1 s after the first chapter is interactive), JS + wasm + CSS, gzip', core(w.page), '≤ 300 KB'],
    ['first load, everything (HTML, fonts too)', firstAll(w.page), ''],
    ['page at the top once settled, without scrolling (incl. idle prefetch), JS + wasm + CSS', `${kb(w.page.allCore.gzip)} KB gzip`, ''],
    ['page with one widget, everything', all(w.widget), '≤ 400 KB gzip'],
    ['page with one widget, light mode (dist/widget/), everything', w.widgetLight ? all(w.widgetLight) : '–', '≤ 400 KB gzip'],
  ];
}

function report(run, prev) {
  const rows = summaryRows(run);
  const prevRows = prev ? summaryRows(prev) : null;
  const head = prev ? '| figure | before | now | target |\n| --- | --- | --- | --- |' : '| figure | now | target |\n| --- | --- | --- |';
  const body = rows.map(([name, now, target], i) => (prev ? `| ${name} | ${prevRows[i][1]} | ${now} | ${target} |` : `| ${name} | ${now} | ${target} |`)).join('\n');
  const when = (r) => `${r.date.slice(0, 16).replace('T', ' ')} UTC, commit ${r.commit}${r.dirty ? ' (+ uncommitted changes)' : ''}, load average ${r.load.start} at start, ${r.load.end} at end`;
  return [
    `Measured ${when(run)}; ${run.chromium ? `Chromium ${run.chromium}` : ''} headless, ${run.cpu}.`,
    prev ? `Before: ${when(prev)}.` : '',
    '',
    head,
    body,
    '',
    `Edit → next paint, each chapter opened alone (?embed=<id>): median / p95 in ms over ${run.edits}+ edits of each kind (target: median ≤ 16, p95 ≤ 33).`,
    '',
    editTable(run, prev, 'embed'),
    run.full ? '\nThe same edits on the full page (every chapter on one page):\n' : '',
    run.full ? editTable(run, prev, 'full') : '',
  ].join('\n');
}

const text = report(result, before);
console.log(text);
if (flag('docs')) {
  const docs = await readFile(DOCS, 'utf8');
  const section = `<!-- bench-page:begin (generated by tests/bench/page.mjs; JSON in ${relative(root, FROM ? resolve(root, FROM) : JSON_OUT)}) -->\n${text}\n<!-- bench-page:end -->`;
  const b = docs.indexOf('<!-- bench-page:begin'), e = docs.indexOf('<!-- bench-page:end -->');
  const updated = b >= 0 && e > b ? docs.slice(0, b) + section + docs.slice(e + '<!-- bench-page:end -->'.length)
    : `${docs.trimEnd()}\n\n## Page\n\n${section}\n`;
  await writeFile(DOCS, updated);
  log(`docs/benchmarks.md: Page section rewritten`);
}

// The one helper module of the browser tests (tests/e2e/*.test.mjs and each chapter's
// web/src/chapters/<id>/<id>.test.mjs). Not a test file itself: ctest registers only *.test.mjs.
//
//   const env = await harness({ mounts, core });   // one server and one Chromium per test file
//   env.open('?lang=en#two-keys')                   // the whole page (any path under the server)
//   env.openChapter('softmax', { query, width })    // one chapter alone (?embed=<id>#<id>)
//   openIsolated(env.browser, url, { init, route }) // a fresh context; records foreign requests
//
// Every wait is for the state the next step needs (an attribute the page sets when it is
// done, the whole URL state), never for a time. A wait's own limit is only a guard against a
// hang (WAIT_MS, default 4 min, far past what a loaded machine needs), so that the failure
// names the wait before ctest's limit for the whole file ends the process.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium, eagerFigures } from '../../web/scripts/browser.mjs';
import { fmt } from '../../web/src/format.js';

export { fmt, eagerFigures };
export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const shots = process.env.ATTN_SCREENSHOT_DIR ?? join(process.cwd(), 'screenshots');
export const WAIT_MS = Number(process.env.ATTN_E2E_WAIT_MS ?? 240000);

// A notebook's output or an anywidget runs inline and blob: scripts; the generated host
// pages get that policy, everything else the page's own (web/scripts/serve.mjs).
export const LAX_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline' blob: 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'";

// ---- set-up ---------------------------------------------------------------------------------
// One served page (with the test host pages under /fixtures/ and `mounts`, {'/prefix/': folder
// or {dir, csp}}) and one headless Chromium per test file, closed after its last test.
// `core: true` also loads the core in Node (env.attn), to compute what the page must show.
// A temporary folder (generated pages, a copied site) that is removed when the file's tests end.
export async function tempDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  test.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export async function harness({ mounts = {}, core = false } = {}) {
  await mkdir(shots, { recursive: true });
  const server = await startServer({ port: 0, mounts: { '/fixtures/': join(here, 'fixtures'), ...mounts } });
  const browser = await launchChromium();
  // every page's waits get the guard (also pages a test opens with browser.newPage); the
  // page loads (documents, frames included) are counted, the cost a test file adds
  const newContext = browser.newContext.bind(browser);
  let loads = 0;
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_MS);
    context.on('request', (r) => r.resourceType() === 'document' && loads++);
    return context;
  };
  test.after(async () => {
    console.log(`# browser: 1 Chromium, ${loads} page loads`);
    await browser.close();
    await server.close();
  });
  const attn = core ? await (await import('../../web/dist/attn.mjs')).default() : null;
  return {
    server, browser, attn,
    // The whole page, or any path the server serves.
    open: (path = '', opts) => openPage(browser, `${server.url}${path}`, opts),
    // The chapter alone (?embed=<id>, the page's iframe mode): the same chapter code and DOM,
    // without the other chapters; `query` adds to the URL.
    openChapter: async (id, opts = {}) => {
      const r = await openPage(browser, `${server.url}${embedQuery(id, opts.query)}#${id}`, opts);
      await r.page.waitForSelector(`section#${id} h2`);
      return r;
    },
  };
}

export function embedQuery(id, query = '') {
  const q = new URLSearchParams(query);
  q.set('embed', id);
  return `?${q}`;
}

// Opens a page (figures drawn eagerly: eagerFigures) that records console errors and uncaught
// exceptions into `errors`, and waits until it is ready (body[data-ready]). `init` runs in the
// page before its scripts.
export async function openPage(browser, url, { width = 1280, height = 900, colorScheme, init } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme });
  page.setDefaultTimeout(WAIT_MS);
  await page.addInitScript(eagerFigures);
  if (init) await page.addInitScript(init);
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await pageReady(page);
  return { page, errors };
}

// Opens url in a fresh context; `errors` collects console errors, page errors and `foreign`
// any request to another origin (data: and blob: stay in the page, so they count as local).
// `init` runs in the page before its scripts; `route(context)` may intercept requests.
// window.__wasmInstances counts the WebAssembly modules the page instantiates.
export async function openIsolated(browser, url, { width = 1280, height = 900, init, route, permissions = [] } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true, permissions });
  context.setDefaultTimeout(WAIT_MS);
  if (route) await route(context);
  await context.addInitScript(eagerFigures);
  const page = await context.newPage();
  const errors = [];
  const foreign = [];
  const origin = new URL(url).origin;
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith('data:') || u.startsWith('blob:')) return;
    if (new URL(u).origin !== origin) foreign.push(u);
  });
  await page.addInitScript(() => {
    window.__wasmInstances = 0;
    for (const name of ['instantiate', 'instantiateStreaming']) {
      const orig = WebAssembly[name];
      WebAssembly[name] = function (...args) {
        window.__wasmInstances++;
        return orig.apply(this, args);
      };
    }
  });
  if (init) await page.addInitScript(init);
  await page.goto(url);
  return { page, context, errors, foreign, close: () => context.close() };
}

// ---- waiting for the page's own "done" ---------------------------------------------------------
// A host page as a teacher's course notes would be: <main> under a heading, holding one
// <attention-explorer> per chapter that the widget `script` registers (or those of `ids`:
// one it does not register throws), in each of `langs`; body[data-chapters] lists what it
// registers, body[data-uncovered] those left out by `ids`.
export const widgetsHtml = ({ script = './attention-explorer.js', langs = ['en'], ids = null } = {}) =>
  `<!doctype html><html lang="${langs[0]}"><head><meta charset="utf-8"><title>course notes</title></head><body>
  <main><h1>Course notes</h1>
  <script type="module">
    import { CHAPTERS } from '${script}';
    const ids = ${JSON.stringify(ids)} ?? CHAPTERS;
    document.body.dataset.chapters = CHAPTERS.join(' ');
    document.body.dataset.uncovered = CHAPTERS.filter((id) => !ids.includes(id)).join(' ');
    for (const lang of ${JSON.stringify(langs)})
      for (const id of ids) {
        if (!CHAPTERS.includes(id)) throw new Error('the widget has no chapter ' + id);
        const w = document.createElement('attention-explorer');
        w.setAttribute('chapter', id);
        w.setAttribute('lang', lang);
        document.querySelector('main').append(w);
      }
  </script></main></body></html>`;

export const pageReady = (page) => page.waitForSelector('body[data-ready="true"]');

// Every widget rendered; one that could not show its chapter (data-ready="failed") fails the
// wait at once with what it shows, rather than a timeout.
export const widgetsReady = async (page) => {
  const failed = await (await page.waitForFunction(() => {
    const ws = [...document.querySelectorAll('attention-explorer')];
    const bad = ws.filter((w) => w.dataset.ready === 'failed');
    if (bad.length) return bad.map((w) => `${w.getAttribute('chapter')}: ${w.shadowRoot?.querySelector('.boot-status')?.textContent ?? ''}`);
    return ws.length > 0 && ws.every((w) => w.dataset.ready === 'true') && [];
  })).jsonValue();
  if (failed.length) throw new Error(`widgets could not show their chapter: ${failed.join('; ')}`);
};

// Two painted frames: what the last change scheduled for "the next frame" (observers'
// reports, a scroll cue) has run.
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r)))));

// Resolves once every timer the page has set to fire within `ms` from now has run (a message
// shown after a pause, the address bar written after an edit): a timer of the page's own, so
// ordered after theirs however loaded the machine is (a wait in Node is not).
export const afterTimers = (page, ms) => page.evaluate((t) => new Promise((r) => setTimeout(r, t)), ms);

// The page has stopped moving: the fonts are in, the observers have reported the last scroll
// (two frames), and no chapter near the screen is waiting to be mounted or redrawn
// (body[data-settled], web/src/lazy-chapters.js).
export async function settled(page) {
  await page.evaluate(() => document.fonts.ready.then(() => {}));
  await frames(page);
  await page.waitForSelector('body[data-settled="true"]', { state: 'attached' });
}

// An element's top as the reader sees it: read after a painted frame, until two frames
// agree. (A chapter that mounts above the fragment moves the page back before the next
// paint, from a ResizeObserver; a read between that mount and the next frame would see the
// unpainted, uncorrected layout.)
export const paintedTop = (page, selector) => page.$eval(selector, async (n) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
  let prev = NaN;
  for (let k = 0; k < 30; k++) {
    await frame();
    const top = n.getBoundingClientRect().top;
    if (Math.abs(top - prev) < 0.5) return top;
    prev = top;
  }
  return prev;
});

// Brings each chapter of `ids` into view in turn and waits until it is mounted (an error
// names the chapter that was not).
export async function mountChapters(page, ids) {
  for (const id of ids) {
    await page.evaluate((i) => document.getElementById(i).scrollIntoView(), id);
    let failed = null;
    try {
      // (a chapter whose load failed says so at once, with what the page showed)
      const done = await page.waitForFunction((i) => {
        const s = document.getElementById(i);
        if (s.dataset.mounted === 'failed') return { error: s.querySelector('.chapter-error')?.textContent ?? s.textContent };
        return s.dataset.mounted === 'true' && {};
      }, id);
      failed = (await done.jsonValue()).error ?? null;
    } catch (e) {
      // (what the page looked like then, for a failure that a rerun does not repeat)
      const state = await page.evaluate((i) => {
        const r = document.getElementById(i).getBoundingClientRect();
        const mounted = [...document.querySelectorAll('section.chapter')].map((s) => `${s.id}:${s.dataset.mounted ?? '-'}`).join(' ');
        return `scrollY ${Math.round(scrollY)}, #${i} at ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}, ` +
          `settled ${document.body.dataset.settled}, ready ${document.body.dataset.ready}; ${mounted}`;
      }, id).catch((err) => `(state unreadable: ${err.message})`);
      throw new Error(`#${id} was not mounted after it was scrolled into view: ${e.message}\n  page: ${state}`);
    }
    if (failed !== null) throw new Error(`#${id} failed to mount: ${failed}`);
  }
}

// Every chapter of the whole page mounted: each brought into view in turn (each waits for
// its own mount, so no chapter is passed over between two frames), then back to the top.
export async function mountAll(page) {
  const ids = await page.$$eval('section.chapter:not([data-mounted="true"])', (s) => s.map((x) => x.id));
  await mountChapters(page, ids);
  await page.evaluate(() => scrollTo(0, 0));
}

// The language toggle loads the other language's prose before it switches: this clicks it
// and waits until the page speaks the other language.
export async function toggleLang(page) {
  const before = await page.evaluate(() => document.documentElement.lang);
  await page.click('#lang-toggle');
  await page.waitForFunction((b) => document.documentElement.lang !== b, before);
}

// Waits until the address bar's query string is exactly `search` (the page writes the URL a
// moment after the last change; a prefix or a part of it may be an older state).
export const urlIs = (page, search) => page.waitForFunction((s) => location.search === s, search)
  .catch(async (e) => {
    throw new Error(`location.search stayed ${JSON.stringify(await page.evaluate(() => location.search))}, not ${JSON.stringify(search)}: ${e.message}`);
  });

// ---- reading the page ------------------------------------------------------------------------------
// Texts of a grid's number cells, of row `row` (from 1) or of every row.
export const cells = (page, grid, row) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr${row ? `:nth-child(${row})` : ''} td .v`, (ns) => ns.map((n) => n.textContent));
// The same as numbers (typographic minus allowed).
export const numbers = async (page, grid, row) => (await cells(page, grid, row)).map(num);
// Texts of row `row` of a grid, input cells giving their values.
export const cellTexts = (page, grid, row) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${row}) td`, (tds) =>
    tds.map((td) => td.querySelector('input')?.value ?? td.querySelector('.v')?.textContent));
export const cellInput = (grid, row, col) => `[data-grid="${grid}"] tbody tr:nth-child(${row}) td:nth-of-type(${col}) input`;
// Texts of the cells of row `row` of grid `grid` inside widget `sel`.
export const widgetCells = (page, sel, grid, row) =>
  page.evaluate(([s, g, r]) => [...document.querySelector(s).shadowRoot
    .querySelectorAll(`[data-grid="${g}"] tbody tr:nth-child(${r}) td .v`)].map((n) => n.textContent), [sel, grid, row]);
export const text = (page, selector) => page.textContent(selector).then((t) => t.replace(/\s+/g, ' ').trim());
// A number parsed from displayed text (typographic minus allowed).
export const num = (s) => Number(String(s).replace('\u2212', '-'));
// What the core computed, as the page prints it.
export const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
export const shown = (m, i, opts) => rowOf(m, i).map((x) => fmt(x, opts));
// |shown − printed| ≤ half a unit in the document's last printed place.
export const near = (got, want, decimals, what) =>
  assert.ok(Math.abs(got - want) <= 0.5 * 10 ** -decimals + 1e-9, `${what}: page shows ${got}, document ${want}`);

// ---- editing the page ------------------------------------------------------------------------------
// Sets a range input (the `nth` match of `selector`) and fires the input event, as dragging
// the thumb does.
export const setSlider = (page, selector, value, nth = 0) =>
  page.$$eval(selector, (els, [v, k]) => {
    els[k].value = String(v);
    els[k].dispatchEvent(new Event('input', { bubbles: true }));
  }, [value, nth]);
export const setRange = (page, control, value, nth = 0) => setSlider(page, `[data-control="${control}"]`, value, nth);

// What a paste from the clipboard delivers to a cell.
export function pasteInto(page, selector, text) {
  return page.$eval(selector, (input, t) => {
    input.focus();
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

// The d_k sweep of the scaling chapter is sampled when it comes near the screen.
export async function completeSweep(page) {
  await page.$eval('[data-plot="scaling-sweep"]', (n) => n.scrollIntoView());
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]');
}

// ---- checks ----------------------------------------------------------------------------------------
// The chapter's section is the fragment target and lies at the top of the window after
// load; opened alone (?embed=<id>) the chapter is the page's only section.
export async function assertAtFragment(page, id) {
  assert.equal(await page.evaluate(() => location.hash), `#${id}`);
  if (new URL(page.url()).searchParams.get('embed') === id) {
    assert.deepEqual(await page.$$eval('section.chapter', (ns) => ns.map((n) => n.id)), [id]);
    return;
  }
  const top = await paintedTop(page, `#${id}`);
  assert.ok(Math.abs(top) < 5, `#${id} is scrolled to the top (top = ${top})`);
}

// axe-core on one section (WCAG 2 A/AA rules); serious or critical findings fail.
const requireWeb = createRequire(new URL('../../web/package.json', import.meta.url));
let axeSourceText;
export const axeSource = async () => (axeSourceText ??= await readFile(requireWeb.resolve('axe-core/axe.min.js'), 'utf8'));
export async function assertAccessible(page, id) {
  await page.evaluate(await axeSource());
  const result = await page.evaluate(async (sel) => {
    const r = await window.axe.run(sel, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`);
  }, `#${id}`);
  assert.deepEqual(result, [], `accessibility of #${id}`);
}

// Desktop (1280 px) and phone (360 px) screenshots of section #id of an open page, into
// `${id}-desktop${suffix}.png` and `${id}-phone${suffix}.png`; at 360 px nothing may widen
// the page.
export async function screenshotSection(page, id, suffix = '') {
  await page.setViewportSize({ width: 1280, height: 900 });
  await (await page.$(`#${id}`)).screenshot({ path: join(shots, `${id}-desktop${suffix}.png`) });
  await page.setViewportSize({ width: 360, height: 780 });
  await (await page.$(`#${id}`)).screenshot({ path: join(shots, `${id}-phone${suffix}.png`) });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`#${id} is ${overflow}px wider than a 360px phone`);
}

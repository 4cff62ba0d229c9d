// Shared by the embedding tests (widget, permalink, grid tools, examples): a server with
// the test host pages mounted, pages that record console errors and every request that
// leaves the page's origin, and readers for numbers inside a widget's shadow root.
import { dirname, join, resolve } from 'node:path';
import { eagerFigures } from '../../web/scripts/browser.mjs';
import { fileURLToPath } from 'node:url';
import { harness, shots } from './harness.mjs';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export { shots };

// A notebook's output or an anywidget runs inline and blob: scripts; the generated host
// pages get that policy, everything else the page's own (web/scripts/serve.mjs).
export const LAX_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline' blob: 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'";

export const setup = (extraMounts = {}) => harness({ mounts: { '/fixtures/': join(here, 'fixtures'), ...extraMounts } });

// Opens url in a fresh context; `errors` collects console errors, page errors and any
// request to another origin (data: and blob: stay in the page, so they count as local).
// `init` runs in the page before its scripts; `route(context)` may intercept requests.
export async function open(browser, url, { width = 1280, height = 900, init, route, permissions = [] } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true, permissions });
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
  // How many WebAssembly modules the page instantiates (one core shared by all widgets).
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

export const widgetsReady = (page, timeout = 30000) =>
  page.waitForFunction(() => {
    const ws = [...document.querySelectorAll('attention-explorer')];
    return ws.length > 0 && ws.every((w) => w.dataset.ready === 'true');
  }, null, { timeout });

// Texts of the cells of row `row` (from 1) of grid `grid` inside widget `sel`.
export const widgetCells = (page, sel, grid, row) =>
  page.evaluate(([s, g, r]) => [...document.querySelector(s).shadowRoot
    .querySelectorAll(`[data-grid="${g}"] tbody tr:nth-child(${r}) td .v`)].map((n) => n.textContent), [sel, grid, row]);

export const pageCells = (page, grid, row) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${row}) td .v`, (ns) => ns.map((n) => n.textContent));

export const pageReady = (page) => page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });

// The page and the widget run the Embind core under the page's Content-Security-Policy
// (web/scripts/serve.mjs: script-src 'self' 'wasm-unsafe-eval', no 'unsafe-eval'): Embind's
// generated JS, built with -sDYNAMIC_EXECUTION=0, makes no function from a string, so
// nothing is blocked, and an edit recomputes through the core (docs/architecture.md,
// "WebAssembly boundary").
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, root, widgetsReady, widgetCells, WAIT_MS } from './harness.mjs';
import { eagerFigures } from '../../web/scripts/browser.mjs';
import { CSP } from '../../web/scripts/serve.mjs';

const { server, browser } = await harness();

async function open(url, ready) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript(eagerFigures);
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const res = await page.goto(url);
  assert.equal(res.headers()['content-security-policy'], CSP, `${url} is served under the page's policy`);
  await ready(page);
  return { page, errors, close: () => context.close() };
}

test('the built core is the Embind module, and the policy has no unsafe-eval', async () => {
  assert.match(CSP, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.doesNotMatch(CSP, /'unsafe-eval'/);
  const loader = await readFile(join(root, 'web', 'dist', 'attn-core.mjs'), 'utf8');
  assert.match(loader, /_embind_register_function/, 'attn-core.mjs registers its functions with Embind');
});

test('the page computes under the policy: no violation, an edit recomputes', async () => {
  const Q = '[data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input';
  const S = (page) => page.$$eval('[data-grid="S"] tbody tr:nth-child(3) td .v', (ns) => ns.map((n) => n.textContent));
  const { page, errors, close } = await open(`${server.url}#core-attention`,
    (p) => p.waitForSelector('body[data-ready="true"]'));
  await page.waitForSelector('#core-attention[data-mounted="true"]');
  const before = await S(page);
  assert.equal(before.length, 3);
  await page.fill(Q, '5');
  await page.waitForFunction((b) => [...document.querySelectorAll('[data-grid="S"] tbody tr:nth-child(3) td .v')]
    .map((n) => n.textContent).join() !== b, before.join());
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  assert.deepEqual(errors, []);
  await close();
});

test('the widget computes under the policy: no violation, an edit recomputes', async () => {
  const { page, errors, close } = await open(`${server.url}examples/plain.html`, (p) => widgetsReady(p));
  const sel = 'attention-explorer';
  const before = await widgetCells(page, sel, 'S', 3);
  assert.equal(before.length, 3);
  await page.evaluate((s) => {
    const input = document.querySelector(s).shadowRoot.querySelector('[data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input');
    input.value = '5';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, sel);
  await page.waitForFunction(([s, b]) => [...document.querySelector(s).shadowRoot
    .querySelectorAll('[data-grid="S"] tbody tr:nth-child(3) td .v')].map((n) => n.textContent).join() !== b,
  [sel, before.join()]);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  assert.deepEqual(errors, []);
  await close();
});

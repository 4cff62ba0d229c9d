// Shared set-up of the browser tests of the article chapters (terms-formula, two-keys,
// why-qkv, scaling, softmax; sources seeds/001 and seeds/004): a served page, headless
// Chromium, and readers for the numbers the core put on the page. Not a test file itself.
import assert from 'node:assert/strict';
import { openPage } from '../../web/scripts/browser.mjs';
import { harness, shots, paintedTop } from './harness.mjs';

export { shots };

// Starts the server and the browser once per test file; closed after its last test.
export async function setup() {
  const { server, browser } = await harness();
  return { server, browser, open: (path = '', opts) => openPage(browser, `${server.url}${path}`, opts) };
}

export const cells = (page, grid, row = 1) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${row}) td .v`, (ns) => ns.map((n) => n.textContent));
export const numbers = async (page, grid, row = 1) => (await cells(page, grid, row)).map((t) => Number(t.replace('\u2212', '-')));
// |shown − printed| ≤ half a unit in the document's last printed place.
export const near = (got, want, decimals, what) =>
  assert.ok(Math.abs(got - want) <= 0.5 * 10 ** -decimals + 1e-9, `${what}: page shows ${got}, document ${want}`);
export const cellInput = (grid, i, j) => `[data-grid="${grid}"] tbody tr:nth-child(${i}) td:nth-of-type(${j}) input`;
// The chapter's section is scrolled to the top of the viewport by its fragment.
export async function atFragment(page, id) {
  const top = await paintedTop(page, `#${id}`);
  assert.ok(Math.abs(top) < 40, `#${id} is at the top of the viewport (top = ${top})`);
}
export const setRange = (page, control, value, nth = 0) =>
  page.$$eval(`[data-control="${control}"]`, (els, [v, k]) => {
    els[k].value = String(v);
    els[k].dispatchEvent(new Event('input', { bubbles: true }));
  }, [value, nth]);
// The d_k sweep of the scaling chapter is sampled when it comes near the screen.
export async function completeSweep(page) {
  await page.$eval('[data-plot="scaling-sweep"]', (n) => n.scrollIntoView());
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]', { timeout: 60000 });
}

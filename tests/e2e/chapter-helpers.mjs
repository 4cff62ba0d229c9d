// Shared set-up for the browser tests of the chapters on heads, masking and dropout:
// one served page and one Chromium per test file, the core loaded in Node to compute
// the numbers the page must show, and small DOM readers.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { openPage } from '../../web/scripts/browser.mjs';
import createAttention from '../../web/dist/attn.mjs';
import { fmt } from '../../web/src/format.js';

export { fmt };
import { harness, shots, paintedTop } from './harness.mjs';

export { shots };

export async function setup() {
  const { server, browser } = await harness();
  const attn = await createAttention();
  return {
    server, browser, attn,
    // The chapter alone (?embed=<id>, the page's iframe mode): the same chapter code and DOM,
    // without computing every other chapter on each load.
    open: (id, opts) => openPage(browser, `${server.url}${embedQuery(id, opts?.query)}#${id}`, opts),
  };
}

// Texts of row `row` (1-based) of a grid; inputs give their values.
export function embedQuery(id, query = '') {
  const q = new URLSearchParams(query);
  q.set('embed', id);
  return `?${q}`;
}

export const cellTexts = (page, grid, row) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${row}) td`, (tds) =>
    tds.map((td) => td.querySelector('input')?.value ?? td.querySelector('.v')?.textContent));
export const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
export const shown = (m, i, opts) => rowOf(m, i).map((x) => fmt(x, opts));
export const cellInput = (grid, row, col) => `[data-grid="${grid}"] tbody tr:nth-child(${row}) td:nth-of-type(${col}) input`;

// The chapter's section is the fragment target and lies in view after load.
// (Opened alone with ?embed=<id>, the chapter is the page's only section.)
export async function assertVisitedByFragment(page, id) {
  assert.equal(await page.evaluate(() => location.hash), `#${id}`);
  if (new URL(page.url()).searchParams.get('embed') === id) {
    assert.deepEqual(await page.$$eval('section.chapter', (ns) => ns.map((n) => n.id)), [id]);
    return;
  }
  const top = await paintedTop(page, `#${id}`);
  assert.ok(Math.abs(top) < 5, `#${id} is scrolled to the top (top = ${top})`);
}

// axe-core on one section (WCAG 2 A/AA rules); serious or critical findings fail.
// Resolved from web/ (where npm installs it), whatever the working directory (ctest runs in build/).
const require = createRequire(new URL('../../web/package.json', import.meta.url));
let axeSource;
export async function assertAccessible(page, id) {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const result = await page.evaluate(async (sel) => {
    const r = await window.axe.run(sel, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0].target.join(' ')})`);
  }, `#${id}`);
  assert.deepEqual(result, [], `accessibility of #${id}`);
}

// Desktop and 360 px screenshots of the section; at 360 px nothing may widen the page.
export { screenshotSection as screenshots } from './harness.mjs';

// Shared by the lecture chapters' browser tests (not a test file itself: ctest registers
// only *.test.mjs). Starts the server and Chromium once per test file.
import { openPage } from '../../web/scripts/browser.mjs';
import { harness, shots } from './harness.mjs';

export { shots };

export async function setup() {
  const { server, browser } = await harness();
  // Opens the page at a chapter's fragment; the section must be the one scrolled to.
  const open = async (id, { query = '', width, height } = {}) => {
    // The chapter alone (?embed=<id>), except the review, whose links need the other chapters.
    const q = new URLSearchParams(query);
    if (id !== 'review') q.set('embed', id);
    const r = await openPage(browser, `${server.url}${q.size ? `?${q}` : ''}#${id}`, { width, height });
    await r.page.waitForSelector(`section#${id} h2`);
    return r;
  };
  return { server, browser, open };
}

// Texts of a grid's cells, row by row (1-based row), or all rows.
export const cells = (page, grid, row) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr${row ? `:nth-child(${row})` : ''} td .v`, (ns) => ns.map((n) => n.textContent));

// Sets a range input and fires the input event, as dragging the thumb does.
export const setSlider = (page, selector, value) =>
  page.$eval(selector, (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);

export const text = (page, selector) => page.textContent(selector).then((t) => t.replace(/\s+/g, ' ').trim());

// A number parsed from displayed text (typographic minus allowed).
export const num = (s) => Number(String(s).replace('\u2212', '-'));

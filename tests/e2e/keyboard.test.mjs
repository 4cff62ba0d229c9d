// Every grid by keyboard alone (the WAI-ARIA grid pattern, matrix-grid.js): one tab stop per
// grid, computed grids included; arrow keys, Home/End inside; focus on a cell does what a
// click does, so the worked explanations that follow a click (core-attention step ①,
// positional-encoding's cell) follow the keyboard too.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { harness, shots, openPage } from './harness.mjs';

const { server, browser } = await harness();
const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  const td = a?.closest('td[data-i]');
  return { grid: a?.closest('[data-grid]')?.dataset.grid ?? null, i: td ? Number(td.dataset.i) : null, j: td ? Number(td.dataset.j) : null, tag: a?.tagName };
});
async function tabUntil(page, grid, max = 80) {
  for (let n = 0; n < max; n++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.grid === grid && f.i !== null) return n + 1;
  }
  throw new Error(`Tab never reached ${grid}`);
}

test('core-attention: each grid is one tab stop; step ①\'s worked dot product follows the arrow keys', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=core-attention&lang=en#core-attention`);
  // One element of each grid's table is in the Tab order.
  const stops = await page.$$eval('[data-grid] table', (ts) => ts.filter((t) => t.getClientRects().length).map((t) => [t.closest('[data-grid]').dataset.grid,
    [...t.querySelectorAll('input, td')].filter((n) => n.tabIndex >= 0 && n.getClientRects().length).length]));
  assert.ok(stops.length > 10);
  for (const [grid, n] of stops) assert.equal(n, 1, `tab stops in grid ${grid}`);
  assert.equal(await page.getAttribute('[data-grid="S"] table', 'role'), 'grid');
  // From the first Q cell, one Tab leaves the grid (to its tools menu, then K).
  await page.focus('[data-grid="input-Q"] tbody input');
  await page.keyboard.press('Tab');
  assert.notEqual((await focused(page)).grid === 'input-Q' && (await focused(page)).tag === 'INPUT', true, 'Tab leaves the Q grid');
  // In an editable grid: → at the end of the text moves, ↑ nudges, Alt+↓ and Enter move down.
  await page.focus('[data-grid="input-Q"] tbody input');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focused(page), { grid: 'input-Q', i: 0, j: 1, tag: 'INPUT' });
  await page.keyboard.press('Alt+ArrowDown');
  await page.keyboard.press('Enter');
  assert.deepEqual(await focused(page), { grid: 'input-Q', i: 2, j: 1, tag: 'INPUT' });
  // The grid remembers its cell: Shift+Tab out and Tab back in lands there.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  assert.deepEqual(await focused(page), { grid: 'input-Q', i: 2, j: 1, tag: 'INPUT' });
  // Step ①: Tab from the stepper into S; focus selects the cell as a click does.
  await page.focus('[data-stepper="core-attention"] [role="tab"][data-step="scores"]');
  await tabUntil(page, 'S');
  const title = () => page.textContent('[data-worked="dot"] .worked-title');
  // (Tab enters at the selected cell, the chapter's default: token 3's query, token 1's key)
  assert.deepEqual(await focused(page), { grid: 'S', i: 2, j: 0, tag: 'TD' });
  assert.match(await title(), /query of token 3 · key of token 1/);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  assert.match(await title(), /query of token 1 · key of token 2/);
  assert.equal(await page.$$eval('[data-grid="step-K"] tbody tr:nth-child(2) td.hl', (n) => n.length), 4, 'the key row lights up as on hover');
  await page.keyboard.press('Control+End');
  assert.match(await title(), /query of token 3 · key of token 3/);
  await page.keyboard.press('Home');
  assert.deepEqual(await focused(page), { grid: 'S', i: 2, j: 0, tag: 'TD' });
  assert.match(await title(), /query of token 3 · key of token 1/);
  // what the arrow keys select is read out: the worked box is a polite live region while
  // focus is in S, and quiet once focus leaves (an edit elsewhere does not announce it)
  const live = () => page.getAttribute('[data-worked="dot"]', 'aria-live');
  assert.equal(await live(), 'polite');
  // A computed grid without a selection moves the same way.
  await page.focus('[data-grid="H"] tbody td');
  assert.equal(await live(), null);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  assert.deepEqual(await focused(page), { grid: 'H', i: 1, j: 7, tag: 'TD' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('positional-encoding: a PE cell explains itself when reached by the keyboard', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=positional-encoding&lang=en#positional-encoding`);
  await page.focus('#positional-encoding [data-control="d"]');
  await tabUntil(page, 'pe-grid');
  const worked = () => page.textContent('#positional-encoding [data-worked="pe"]');
  const first = await worked();
  const at = await focused(page); // the selected cell: Tab enters the grid there
  await page.keyboard.press('ArrowDown');
  if (at.j % 2 === 0) await page.keyboard.press('ArrowRight'); // to an odd column: a cosine
  const to = { grid: 'pe-grid', i: at.i + 1, j: at.j % 2 ? at.j : at.j + 1, tag: 'TD' };
  assert.deepEqual(await focused(page), to);
  assert.notEqual(await worked(), first);
  assert.match(await worked(), new RegExp(`${to.i}, ${to.j}`));
  assert.match(await worked(), /cos/);
  assert.equal(await page.getAttribute('#positional-encoding [data-worked="pe"]', 'aria-live'), 'polite', 'the explanation is read out as focus selects');
  assert.deepEqual(errors, []);
  await page.close();
});

test('softmax: the worked row is read out while the arrow keys pick it in P, quiet after', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=softmax&lang=en#softmax`);
  const cell = '#softmax [data-grid$="-P"] tbody td[tabindex="0"]';
  await page.waitForSelector(cell);
  const live = () => page.getAttribute('#softmax .worked-pair', 'aria-live');
  assert.equal(await live(), null, 'quiet before focus: an edit elsewhere is not announced');
  await page.focus(cell);
  await page.keyboard.press('ArrowUp');
  assert.equal(await live(), 'polite');
  await page.keyboard.press('Tab');
  assert.equal(await live(), null);
  assert.deepEqual(errors, []);
  await page.close();
});

// A tab stop reached by Tab while it sits at the bottom edge of the window (or under the
// top edge) is scrolled fully into view with its 3 px focus ring and 2 px offset (the
// scroll-margin in styles.css), at phone and desktop width.
test('Tab scrolls a cell or a control at the window\'s edge fully into view, focus ring included (390 and 1280 px)', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=softmax&lang=en#softmax`);
  const targets = ['[data-grid="softmax-S"] td[data-i] input[tabindex="0"]', '#softmax [data-control]', '#softmax button'];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 700 });
    for (const sel of targets) {
      for (const edge of ['bottom', 'top']) {
        // the tab stop before the target gets the focus without scrolling; the target is
        // put across the window's edge; then Tab
        const ok = await page.$eval(sel, (t, where) => {
          const stops = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
            .filter((n) => n.tabIndex >= 0 && !n.disabled && n.checkVisibility({ checkVisibilityCSS: true }));
          const prev = stops[stops.indexOf(t) - 1];
          if (!prev) return false;
          const r = t.getBoundingClientRect();
          scrollBy(0, where === 'bottom' ? r.top - (innerHeight - r.height / 2) : r.top + r.height / 2);
          prev.focus({ preventScroll: true });
          return true;
        }, edge);
        assert.ok(ok, sel);
        await page.keyboard.press('Tab');
        const r = await page.$eval(sel, (t) => {
          const b = t.getBoundingClientRect();
          const bar = document.querySelector('body.docked:not(.tucked) .tool-row')?.getBoundingClientRect().bottom ?? 0;
          return { focused: document.activeElement === t, top: b.top, bottom: b.bottom, h: innerHeight, bar };
        });
        assert.ok(r.focused, `${sel} takes the focus`);
        assert.ok(r.bottom + 5 <= r.h, `${width} px, ${sel} from the ${edge} edge: its ring ends at ${r.bottom + 5} of ${r.h}`);
        assert.ok(r.top - 5 >= r.bar, `${width} px, ${sel} from the ${edge} edge: its ring starts at ${r.top - 5}, under ${r.bar}`);
      }
    }
    await page.screenshot({ path: join(shots, `focus-edge-${width}.png`) });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a figure\'s ⋯ tools menu: Enter opens it, Escape closes it and gives the focus back to ⋯', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=core-attention#core-attention`, { width: 390, height: 800 });
  const menu = page.locator('[data-grid] details[data-tools]').first();
  await menu.locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await menu.evaluate((d) => d.open), true);
  await page.keyboard.press('Tab'); // into the menu's first button
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'BUTTON');
  await page.keyboard.press('Escape');
  assert.equal(await menu.evaluate((d) => d.open), false, 'Escape closes the menu');
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY', 'the focus is back on ⋯');
  assert.deepEqual(errors, []);
  await page.close();
});

// The served page in headless Chromium: the Core Attention walkthrough.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage } from '../../../scripts/browser.mjs';
import { harness, shots, toggleLang } from '../../../../tests/e2e/harness.mjs';

const { server, browser } = await harness();

const cellTexts = (page, grid, row) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${row}) td .v`, (ns) => ns.map((n) => n.textContent));

test('Core Attention renders the document numbers, computed by the core', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#core-attention`);
  // Chromium has relaxed SIMD: the page's core is the relaxed-SIMD build (attn-core-lite-relaxed.wasm).
  assert.match(await page.textContent('#simd-badge'), /wasm-relaxed-simd/);
  await page.click('[data-stepper="core-attention"] [role="tab"][data-step="softmax"]');
  assert.deepEqual(await cellTexts(page, 'P', 3), ['0.114', '0.042', '0.844']);
  assert.deepEqual(await cellTexts(page, 'P', 2), ['0.818', '0.182', '0.000']);
  assert.deepEqual(await cellTexts(page, 'S', 3), ['2', '0', '6']);
  assert.deepEqual(await cellTexts(page, 'masked', 2), ['3', '1.5', '−∞']);
  assert.deepEqual(await cellTexts(page, 'P-sums', 3), ['1.000']);
  await page.click('[data-stepper="core-attention"] [role="tab"][data-step="output"]');
  assert.deepEqual(await cellTexts(page, 'O', 3), ['0.114', '0.042', '0.844', '1']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('editing a Q cell changes S and P; a malformed entry keeps the last good state', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=core-attention`);
  const cell = '[data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input'; // token 3, component 4
  const S3 = await cellTexts(page, 'S', 3);
  const P3 = await cellTexts(page, 'P', 3);
  await page.fill(cell, '5');
  const S3b = await cellTexts(page, 'S', 3);
  assert.notDeepEqual(S3b, S3);
  assert.notDeepEqual(await cellTexts(page, 'P', 3), P3);
  // Arrow up nudges by 1.
  await page.focus(cell);
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.inputValue(cell), '6');
  const good = await cellTexts(page, 'S', 3);
  for (const garbage of ['1,,2', 'abc', '-', '1e999']) {
    await page.fill(cell, garbage);
    assert.equal(await page.getAttribute(cell, 'aria-invalid'), 'true', garbage);
    // "-" may become a number: its message waits for a pause in typing.
    await page.waitForSelector('[data-grid="input-Q"] .grid-error', { state: 'visible', timeout: 3000 });
    assert.deepEqual(await cellTexts(page, 'S', 3), good, `state kept for ${garbage}`);
  }
  // Typed key by key, "1,,2" first commits the valid prefix "1"; leaving the cell
  // restores the value the cell had before the edit.
  await page.fill(cell, '');
  await page.keyboard.press('Tab');
  await page.focus(cell);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1,,2');
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue(cell), '6');
  assert.deepEqual(await cellTexts(page, 'S', 3), good);
  await page.fill(cell, '2');
  assert.equal(await page.isVisible('[data-grid="input-Q"] .grid-error'), false);
  assert.deepEqual(await cellTexts(page, 'S', 3), S3);
  assert.deepEqual(errors, []);
  await page.close();
});

// A worked formula whose structure changes (the other head: other signs) keeps the nodes
// of the structures it showed (kit/prose.js, setParts with keep): coming back to a head
// puts its formula's nodes back with the digits of now, instead of typesetting it anew
// and morphing it into the old one's nodes.
test('the other head and back: the dot product\'s formula comes back as its own nodes, with the numbers of now', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=core-attention`);
  const bold = () => page.$$eval('[data-worked="dot"] .katex-html .mord.mathbf', (ns) => ns.map((n) => n.textContent).join(''));
  const nodes = (k) => page.$eval('[data-worked="dot"] .worked-math', (m, key) => {
    window.__dot ??= {};
    const was = window.__dot[key];
    window.__dot[key] = [...m.querySelectorAll('.katex')];
    return was ? was.length === window.__dot[key].length && was.every((n, j) => n === window.__dot[key][j]) : null;
  }, k);
  const seen = {};
  // (pass 0: the formula first drawn is typeset as KaTeX does, without slots, and is not kept)
  for (const pass of [0, 1, 2]) {
    if (pass === 2) { // head 1's q3, twice as large (the same sign: the same structure, new digits)
      const cell = '[data-grid="input-Q"] tbody tr:nth-child(3) td:nth-child(2) input';
      const v = Number((await page.inputValue(cell)).replace('\u2212', '-'));
      await page.fill(cell, String(v === 0 ? 1 : 2 * v));
    }
    for (const head of [1, 2]) {
      await page.check(`[data-control="head-${head}"]`);
      const b = await bold();
      // the sum shown is the core's entry of S (the grid beside it)
      assert.equal(b, (await page.$$eval('[data-grid="S"] td.sel .v', (ns) => ns.map((n) => n.textContent))).join(''), `head ${head}, pass ${pass}`);
      const same = await nodes(head);
      if (pass === 2) assert.equal(same, true, `head ${head}: its formula's nodes came back`);
      seen[`${pass}${head}`] = b;
    }
  }
  assert.notEqual(seen['21'], seen['11'], 'the edit changed head 1\'s sum');
  // not one set of nodes morphed from head to head
  assert.ok(await page.evaluate(() => window.__dot[1][0] !== window.__dot[2][0]), 'each head has its own formula nodes');
  assert.deepEqual(errors, []);
  await page.close();
});

test('hovering an output cell highlights the row and column that produced it', async () => {
  const { page } = await openPage(browser, `${server.url}?embed=core-attention`);
  await page.hover('[data-grid="S"] tbody tr:nth-child(3) td:nth-of-type(1)');
  assert.equal(await page.$$eval('[data-grid="step-Q"] tbody tr:nth-child(3) td.hl', (n) => n.length), 4);
  assert.equal(await page.$$eval('[data-grid="step-K"] tbody tr:nth-child(1) td.hl', (n) => n.length), 4);
  await page.close();
});

test('keyboard: a score cell can be chosen without a mouse; stepper tabs take Home/End', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=core-attention`);
  await page.focus('[data-grid="S"] tbody tr:nth-child(1) td:nth-of-type(1)');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.match(await page.textContent('[data-worked="dot"] .worked-title'), /2.*2|token 2.*token 2|토큰 2.*토큰 2/);
  await page.focus('[data-stepper="core-attention"] [role="tab"][data-step="scores"]');
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('[data-stepper="core-attention"] [role="tab"][data-step="output"]', 'aria-selected'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the language toggle switches the prose; screenshots at desktop and phone width', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=core-attention`);
  const ko = await page.textContent('#core-attention h2');
  await toggleLang(page);
  const en = await page.textContent('#core-attention h2');
  assert.notEqual(en, ko);
  assert.match(en, /Core attention/);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.match(page.url(), /lang=en/);
  await page.screenshot({ path: join(shots, 'core-attention-desktop-en.png'), fullPage: true });
  await toggleLang(page);
  assert.equal(await page.textContent('#core-attention h2'), ko);
  await page.screenshot({ path: join(shots, 'core-attention-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.screenshot({ path: join(shots, 'core-attention-phone.png'), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than a 360px phone`);
  assert.deepEqual(errors, []);
  await page.close();
});

// What a first try found (issue 15), each where it occurred, in the state that showed it:
// dark-mode heatmaps, figures that are empty until started, prose that contradicted the
// numbers beside it, headings with typed-in figures. (Inputs, keyboard, axe and layout:
// inputs, keyboard and every-chapter tests; marks: positional-encoding's; the naive
// overflow: softmax's; the widget's notices: widget's; plurals: tests/web/chapters.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, shots, eagerFigures, settled } from './harness.mjs';
import { join } from 'node:path';

const { server, browser } = await harness();

async function open(query, { width = 1280, height = 900, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  await context.addInitScript(eagerFigures);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}${query}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors, close: () => context.close() };
}

// WCAG relative luminance of a CSS rgb() colour.
const luminance = (rgb) => {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

test('dark mode: a heatmap\'s "nothing" is the background, its largest value stands out (weights and signed scores)', async () => {
  for (const colorScheme of ['dark', 'light']) {
    const { page, errors, close } = await open('?embed=core-attention&lang=en#core-attention', { colorScheme });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    for (const grid of ['P', 'S']) {
      const cells = await page.$$eval(`[data-grid="${grid}"] tbody td[data-i]`, (tds) => tds
        .filter((td) => td.style.backgroundColor)
        .map((td) => ({ v: Math.abs(Number(td.querySelector('.v')?.textContent.replace('\u2212', '-'))), bg: td.style.backgroundColor, fg: getComputedStyle(td).color })));
      assert.ok(cells.length > 4, `${grid} is coloured`);
      const finite = cells.filter((c) => Number.isFinite(c.v));
      const small = finite.reduce((a, c) => (c.v < a.v ? c : a));
      const large = finite.reduce((a, c) => (c.v > a.v ? c : a));
      // (grids whose smallest |value| is not near 0 are compared by order only)
      if (small.v < 0.05 * large.v) assert.ok(contrast(small.bg, bg) < 1.35, `${colorScheme} ${grid}: the cell nearest 0 (${small.bg}) is close to the background ${bg}`);
      assert.ok(contrast(large.bg, bg) > contrast(small.bg, bg) + 1, `${colorScheme} ${grid}: the largest value stands out more than the smallest`);
      for (const c of finite) assert.ok(contrast(c.bg, c.fg) >= 4.5, `${colorScheme} ${grid}: text on ${c.bg} is readable`);
    }
    assert.deepEqual(errors, []);
    await close();
  }
});

test('figures that start empty say what they will show and how to start them', async () => {
  // cost: the live timing plots before Run
  let { page, errors, close } = await open('?embed=cost&lang=en#cost');
  for (const plot of ['live-time', 'live-memory']) {
    assert.match(await page.textContent(`[data-plot="${plot}"] .plot-message`), /Press “Run”/);
    assert.match(await page.textContent(`[data-plot="${plot}"] svg desc`), /Press “Run” above: .* appears here/);
  }
  assert.deepEqual(errors, []);
  await close();
  // training: the curves before Start (in the widget's language too)
  ({ page, errors, close } = await open('?embed=training#training'));
  for (const plot of ['training-loss', 'training-accuracy', 'training-grad'])
    assert.match(await page.textContent(`[data-plot="${plot}"] svg desc`), /“시작”을 누르세요/);
  assert.deepEqual(errors, []);
  await close();
  // scaling: the d_k sweep before it comes into view, and after
  ({ page, errors, close } = await open('?embed=scaling&lang=en#scaling', { height: 500 }));
  const pending = '#scaling [data-out="sweep-pending"]';
  if ((await page.getAttribute('[data-plot="scaling-sweep"]', 'data-complete')) !== 'true') {
    assert.equal(await page.isVisible(pending), true);
    assert.match(await page.textContent(pending), /sampled when this figure comes into view/);
    assert.equal(await page.isVisible('[data-plot="scaling-sweep"] .plot-message'), true);
    assert.match(await page.textContent('[data-plot="scaling-sweep"] svg desc'), /sampled when this figure comes into view/);
  }
  await page.$eval('[data-plot="scaling-sweep"]', (n) => n.scrollIntoView());
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]');
  await page.waitForFunction((sel) => document.querySelector(sel)?.hidden, pending);
  assert.equal(await page.$$eval('[data-plot="scaling-sweep"] .plot-message', (n) => n.length), 0);
  assert.equal(await page.$$eval('[data-grid="scaling-sweep-table"] tbody tr', (n) => n.length), 8);
  assert.deepEqual(errors, []);
  await close();
});

test('prose follows the state beside it: scaling\'s "over 700×" note, cost\'s growth sentence, multi-head\'s heading', async () => {
  // scaling: the note about the document's 700× only at its own example (d_k = 64)
  let { page, errors, close } = await open('?embed=scaling&lang=en#scaling');
  const note = '#scaling [data-out="rounding"]';
  assert.equal(await page.isVisible(note), true);
  await close();
  ({ page, errors, close } = await open('?embed=scaling&lang=en&scaling=dkExp:9#scaling'));
  assert.equal(await page.isVisible(note), false, 'hidden at d_k = 512, after the kit\'s render');
  assert.deepEqual(errors, []);
  await close();
  // cost: each figure in the growth sentence says what it measures
  ({ page, errors, close } = await open('?embed=cost&lang=en#cost'));
  const growth = (await page.textContent('#cost .cost-growth')).replace(/\s+/g, ' ');
  const m = /a whole layer grows by ([\d.]+).*the added tokens cost ([\d.]+) times what the first 1,024 did in the two products, and ([\d.]+) times for the whole layer/.exec(growth);
  assert.ok(m, growth);
  assert.equal(Number(m[2]), 3);
  assert.ok(Math.abs(Number(m[3]) - (Number(m[1]) - 1)) < 0.011, growth);
  assert.notEqual(m[3], m[2]);
  assert.deepEqual(errors, []);
  await close();
  // multi-head: the heading's d_model, h and d_k follow the fields
  ({ page, errors, close } = await open('?embed=multi-head&lang=en#multi-head'));
  const title = '#multi-head [data-out="cost-title"]';
  const plain = async () => page.$eval(title, (n) => { const c = n.cloneNode(true); c.querySelectorAll('.katex-html').forEach((k) => k.remove()); return c.textContent.replace(/\s+/g, ''); });
  assert.match(await plain(), /original.*d_\{model\}=512.*h=8.*d_k=64/);
  await page.fill('#multi-head [data-control="mh-dmodel"]', '256');
  await page.waitForFunction((sel) => /256/.test(document.querySelector(sel).textContent), title);
  const after = await plain();
  assert.match(after, /d_\{model\}=256/);
  assert.doesNotMatch(after, /original|512/);
  assert.deepEqual(errors, []);
  await close();
});

test('the page\'s tools stay within reach: docked once the header scrolls away, tucked on a phone while scrolling down', async () => {
  for (const width of [1280, 390]) {
    const { page, errors, close } = await open('?lang=en', { width, height: 844 });
    const inView = (sel) => page.$eval(sel, (n) => { const r = n.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; });
    // (what the window and the bar did, for a failure a rerun does not repeat: every scroll
    // position and every change of the body's classes, with the time)
    await page.evaluate(() => {
      const log = (window.__barLog = []);
      const t0 = performance.now();
      addEventListener('scroll', () => log.push(`${Math.round(performance.now() - t0)} y=${scrollY}`), { passive: true });
      new MutationObserver(() => log.push(`${Math.round(performance.now() - t0)} body: ${document.body.className}`)).observe(document.body, { attributes: true, attributeFilter: ['class'] });
    });
    const barLog = () => page.evaluate(() => window.__barLog.slice(-40).join('; '));
    await page.evaluate(() => scrollTo(0, 6000));
    await page.waitForFunction(() => document.body.classList.contains('docked'));
    // (the chapters near y = 6,000 mounted and drawn first: the bar's answer to the reader's
    // scrolling is what is checked, not the page's corrections while chapters arrive)
    await settled(page);
    await page.evaluate(() => scrollBy(0, -200)); // (on the way up the bar shows on a phone too)
    await page.waitForFunction(() => ['#lang-toggle', '#copy-link', '#exercise-toggle'].every((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
    }));
    for (const sel of ['#lang-toggle', '#copy-link', '#exercise-toggle']) if (!await inView(sel)) assert.fail(`${sel} at ${width}px: not in view; ${await barLog()}`);
    const bar = await page.$eval('.tool-row', (n) => n.getBoundingClientRect().height);
    assert.ok(bar < (width < 500 ? 80 : 50), `the bar is ${bar}px tall at ${width}px`);
    // It works from there: the link panel opens in view, the language switches.
    await page.click('#copy-link');
    assert.equal(await inView('#share-link'), true);
    await page.click('#share-close');
    await page.click('#lang-toggle');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    if (width < 500) {
      await page.evaluate(() => document.activeElement.blur());
      await page.evaluate(() => scrollBy(0, 400));
      await page.waitForFunction(() => document.body.classList.contains('tucked'));
      await page.evaluate(() => scrollBy(0, -100));
      await page.waitForFunction(() => !document.body.classList.contains('tucked'));
      // making an exercise: the bar stays (its toggle ends it), the hint under it moves out of
      // the way while scrolling down (it covered a figure) and comes back on the way up
      await page.click('#exercise-toggle');
      await page.waitForSelector('#exercise-help:not([hidden])');
      await page.evaluate(() => document.activeElement.blur());
      await page.evaluate(() => scrollBy(0, 400));
      await page.waitForFunction(() => document.getElementById('exercise-help').getBoundingClientRect().bottom <= 0);
      assert.equal(await inView('#exercise-toggle'), true, 'the bar stays while an exercise is made');
      await page.evaluate(() => scrollBy(0, -100));
      await page.waitForFunction(() => document.getElementById('exercise-help').getBoundingClientRect().top >= 0);
      await page.click('#exercise-toggle');
      await page.waitForSelector('#exercise-help', { state: 'hidden' });
    }
    // Back at the top, the buttons are in the header again.
    await page.evaluate(() => scrollTo(0, 0));
    await page.waitForFunction(() => !document.body.classList.contains('docked'));
    assert.deepEqual(errors, []);
    await close();
  }
});

test('maths keeps its pixels: two-keys step ④\'s stacked fractions do not touch, nothing is cut', async () => {
  for (const width of [1280, 390]) {
    const { page, errors, close } = await open('?embed=two-keys&lang=en#two-keys', { width });
    // The text boxes of the first fraction's denominator and the second's numerator (KaTeX's
    // innermost .mord spans) overlapped by 3.7 px with no room between the rows.
    const boxes = await page.$eval('#two-keys [data-step="weights"] .worked-math', (m) => [...m.querySelectorAll('.katex-html .mfrac')].map((f) => {
      const r = [...f.querySelectorAll('.mord')].filter((n) => !n.querySelector('.mord')).map((n) => n.getBoundingClientRect());
      return { top: Math.min(...r.map((x) => x.top)), bottom: Math.max(...r.map((x) => x.bottom)) };
    }));
    assert.equal(boxes.length, 2);
    assert.ok(boxes[1].top - boxes[0].bottom >= 2, `${width}px: the fractions' digits are ${boxes[1].top - boxes[0].bottom}px apart`);
    const cut = await page.$eval('#two-keys [data-step="weights"] .worked-math', (m) => {
      const box = m.getBoundingClientRect();
      const f = m.querySelector('.katex-display').getBoundingClientRect();
      return [...m.querySelectorAll('.katex-html .mfrac')].some((x) => x.getBoundingClientRect().top < f.top || x.getBoundingClientRect().top < box.top);
    });
    assert.equal(cut, false);
    assert.deepEqual(errors, []);
    await close();
  }
});

test('a wide table on a phone: it says that it scrolls, its caption wraps in view, its first column stays', async () => {
  const { page, errors, close } = await open('?embed=multi-head#multi-head', { width: 390, height: 844 });
  const box = '#multi-head .table-scroll';
  await page.$eval(box, (n) => n.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((sel) => document.querySelector(sel).classList.contains('scrolls'), box);
  const fits = () => page.$eval(box, (n) => {
    const b = n.getBoundingClientRect();
    const cap = n.querySelector('caption').getBoundingClientRect();
    const first = n.querySelector('tbody tr :first-child').getBoundingClientRect();
    return { cap: cap.left >= b.left - 1 && cap.right <= b.right + 1, first: first.left >= b.left - 1 && first.right <= b.right + 1 };
  });
  assert.deepEqual(await fits(), { cap: true, first: true });
  // a fade alone went unnoticed: a line just above the box says in words that it scrolls,
  // visible in the box's width, until the box is scrolled to its end
  const hint = () => page.$eval(box, (n) => {
    const h = n.previousElementSibling;
    if (!h?.classList.contains('scroll-hint')) return null;
    const r = h.getBoundingClientRect(), b = n.getBoundingClientRect();
    const shown = getComputedStyle(h).display !== 'none' && r.height > 0 && r.right <= b.right + 1 && r.bottom <= b.top + 1;
    return shown ? h.textContent : '';
  });
  assert.equal(await hint(), '→ 옆으로 밀면 열이 더 있습니다');
  // the fade is on the side where more hides: the right, then both sides, then the left
  const mask = () => page.$eval(box, (n) => [n.classList.contains('scrolled'), n.classList.contains('at-end')]);
  assert.deepEqual(await mask(), [false, false]);
  await page.screenshot({ path: join(shots, 'multi-head-phone-flop-hint.png') });
  await page.$eval(box, (n) => { n.scrollLeft = n.scrollWidth; });
  await page.waitForFunction((sel) => document.querySelector(sel).classList.contains('at-end'), box);
  assert.deepEqual(await mask(), [true, true]);
  assert.equal(await hint(), '', 'scrolled to the end: the hint is gone');
  assert.deepEqual(await fits(), { cap: true, first: true }, 'scrolled to the end: caption and first column still in view');
  assert.deepEqual(errors, []);
  await close();
});

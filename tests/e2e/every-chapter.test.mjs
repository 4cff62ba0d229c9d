// Every chapter, opened alone (?embed=<id>) in one browser, in both languages, at phone and
// desktop width, light and dark, and every chapter in the widget: what a first try finds.
//   - axe-core: no serious or critical violation (and none of the rules the first try
//     tripped, whatever their impact: a page without <h1>, an unlabelled field, a header
//     cell without text, a table with children it may not have, a name that differs from
//     the visible label, a scroll box without a keyboard way in);
//   - every grid is one tab stop (the WAI-ARIA grid pattern);
//   - no input cuts the number it holds, no formula loses pixels, no wide table, formula or
//     code block scrolls without saying so or without a keyboard way in;
//   - at 360 px (the layout floor, DESIGN.md) the page is no wider than the phone.
// Three passes per chapter in two page loads: Korean at 360 px (light); English at 360 px
// (dark), then at 1280 px (light). The layout checks run on all three passes; axe (about 1 s
// a run) scans the whole document on the first two only, and on the third only what the
// wide layout shows that the narrow one did not:
//   - Korean, 360 px, light: everything in Korean; light colour contrast at the narrow
//     width, where the text is smallest (so the stricter threshold) and the scroll boxes
//     most (the scroll-box rules);
//   - English, 360 px, dark: everything in English (names and labels in the other
//     language), dark colour contrast, the scroll boxes again;
//   - English, 1280 px, light: the same elements, in the same language, were scanned at
//     360 px, and their light colours in Korean (the colours do not depend on the
//     language): axe scans each element rendered here that was not rendered at 360 px
//     (hidden, or clipped to a pixel, there: the wide formulas, a table's stacked-away
//     header) or that the page created anew since (a chapter that redraws at the new width).
//     None such: no run.
// (Screenshots of every chapter at both widths: `make screenshots`.) The chapters' own
// tests check only their chapter: these sweeps live here, in one browser.
// The article and lecture chapters fail at any impact (they were scanned so before).
// And the whole page once: its contents list every chapter, and at 360 px in English it is
// no wider than the phone.
//
// ctest runs the file as two halves side by side (ATTN_EVERY_PART=1/2 and 2/2, ctest
// e2e.every-chapter.1 and .2): each takes every other chapter, on the page and in the widget;
// the second also the whole page. Run by hand without it, the file checks everything.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harness, eagerFigures, frames, openPage, WAIT_MS, tempDir, widgetsHtml } from './harness.mjs';

const chaptersDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'src', 'chapters');
const ids = (await Promise.all((await readdir(chaptersDir)).map(async (id) =>
  [id, JSON.parse(await readFile(join(chaptersDir, id, 'chapter.json'), 'utf8')).order]))).sort((a, b) => a[1] - b[1]).map(([id]) => id);
const [part, parts] = (process.env.ATTN_EVERY_PART ?? '1/1').split('/').map(Number);
if (!(parts >= 1 && part >= 1 && part <= parts)) throw new Error(`ATTN_EVERY_PART=${process.env.ATTN_EVERY_PART}: want k/n, 1 <= k <= n`);
const mine = ids.filter((_, i) => i % parts === part - 1); // every parts-th chapter, from the part-th
const withPage = part === parts; // the whole page in the last part
const axeSource = await readFile(createRequire(new URL('../../web/package.json', import.meta.url)).resolve('axe-core/axe.min.js'), 'utf8');
const gen = await tempDir('attn-every-');
const LAX_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'";
const { server, browser } = await harness({ mounts: { '/generated/': { dir: gen, csp: LAX_CSP } } });

// Rules the first try tripped: they fail at any impact.
const ALWAYS = ['page-has-heading-one', 'label', 'empty-table-header', 'aria-required-children', 'label-content-name-mismatch', 'scrollable-region-focusable'];
// What a chapter shows once its own data has come (scanned then, not half-filled).
// (training's predictions come from its model's worker after the page is ready; at 360 px
// their grid scrolls, and its cue follows a frame after it is drawn)
const DONE = {
  'trained-heads': '#trained-heads [data-check="sentence-roles"][data-state="done"]',
  training: '#training [data-pred="probe"] .grid-scroll',
};
// Chapters with no violation at any impact inside their section.
const STRICT = ['terms-formula', 'two-keys', 'why-qkv', 'scaling', 'softmax', 'why-attention', 'weighted-sum', 'reading-matrix', 'positional-encoding', 'review'];
// `only`: axe scans only the elements `rendered` picked (axe's page-wide rules do not run
// then); none picked: no run.
async function axe(page, strictIn = null, only = false) {
  if (!await page.evaluate(() => !!window.axe)) await page.evaluate(axeSource); // (once a load)
  return page.evaluate(async ([always, strict, only]) => {
    const context = only ? (window.__wideOnly ?? []).filter((n) => n.isConnected) : document;
    if (only && !context.length) return [];
    const r = await window.axe.run(context, { resultTypes: ['violations'] });
    const inStrict = (v) => strict && v.nodes.some((n) => n.target.length === 1 && document.querySelector(n.target[0])?.closest(`#${strict}`));
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || always.includes(v.id) || inStrict(v))
      .map((v) => `${v.id} (${v.impact}) ${v.nodes.length}×: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  }, [ALWAYS, strictIn, only]);
}

// Rendered: a box larger than a pixel (a header clipped away to 1 px counts as not), not
// hidden. `remember` (in the narrow pass) keeps the elements rendered now; otherwise it picks
// each element rendered now that was not then (the outermost of them), and returns how many.
const rendered = (remember) => {
  const shown = (n) => n.checkVisibility({ visibilityProperty: true }) && (({ width, height }) => width > 1 && height > 1)(n.getBoundingClientRect());
  const all = [...document.body.querySelectorAll('*')].filter(shown);
  if (remember) {
    window.__narrow = new WeakSet(all);
    return 0;
  }
  const added = all.filter((n) => !window.__narrow?.has(n));
  const set = new Set(added);
  const top = added.filter((n) => { for (let p = n.parentElement; p; p = p.parentElement) if (set.has(p)) return false; return true; });
  window.__wideOnly = top;
  return top.length;
};

// What the layout checks find, in the page (or a widget's shadow root).
function layoutProblems(root) {
  const out = [];
  const visible = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden';
  const where = (n) => `${n.closest('[data-grid]')?.dataset.grid ?? n.closest('[data-worked]')?.dataset.worked ?? n.closest('section')?.id ?? ''} ${n.tagName.toLowerCase()}.${[...n.classList].join('.')}`;
  for (const t of root.querySelectorAll('[data-grid] table')) {
    if (!visible(t) || !t.querySelector('td[data-i]')) continue; // (a grid with no cells yet has nothing to focus)
    if (t.getAttribute('role') !== 'grid') out.push(`grid ${where(t)} is not role=grid`);
    const stops = [...t.querySelectorAll('input, td')].filter((n) => n.tabIndex >= 0 && n.hasAttribute('tabindex') && visible(n)).length;
    if (stops !== 1) out.push(`grid ${where(t)} has ${stops} tab stops`);
  }
  for (const i of root.querySelectorAll('[data-grid] input')) if (visible(i) && i.scrollWidth > i.clientWidth + 1) out.push(`input ${where(i)} cuts "${i.value}"`);
  // A formula never loses pixels: nothing hidden above or below; when wider than its box
  // it scrolls, with a keyboard way in and a name.
  for (const f of root.querySelectorAll('.katex-display, .worked-math, .formula, .table-scroll, .grid-scroll, pre')) {
    if (!visible(f)) continue;
    const cs = getComputedStyle(f);
    if (f.scrollHeight > f.clientHeight + 1 && cs.overflowY !== 'visible') out.push(`${where(f)} cuts ${f.scrollHeight - f.clientHeight}px vertically`);
    if (f.scrollWidth > f.clientWidth + 1) {
      if (cs.overflowX === 'hidden' || cs.overflowX === 'clip') out.push(`${where(f)} cuts ${f.scrollWidth - f.clientWidth}px horizontally`);
      else if (!f.classList.contains('scrolls')) out.push(`${where(f)} scrolls ${f.scrollWidth - f.clientWidth}px without a cue`);
      // (a box with a tab stop inside, such as a grid, scrolls to it when it takes focus)
      else if (!f.querySelector('input, button, select, textarea, a[href], [tabindex]:not([tabindex="-1"])') && (f.tabIndex < 0 || !f.getAttribute('aria-label')))
        out.push(`${where(f)} scrolls without a keyboard way in or a name`);
    }
  }
  return out;
}

// Korean at 360 px (light); English at 360 px (dark), then at 1280 px (light), in the same
// load (the viewport and the colour scheme change under the page, as a reader's do).
const LOADS = [
  { lang: 'ko', passes: [{ width: 360, height: 780, colorScheme: 'light' }] },
  { lang: 'en', passes: [{ width: 360, height: 780, colorScheme: 'dark' }, { width: 1280, height: 800, colorScheme: 'light' }] },
];

test(`${mine.length === ids.length ? 'every chapter' : `chapters ${part} of every ${parts}`} (${mine.length} of ${ids.length}) in both languages, at 360 and 1280 px, light and dark: axe, grids, inputs, formulas, code, tables`, async () => {
  const problems = [];
  const page = await browser.newPage();
  await page.addInitScript(eagerFigures);
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  for (const id of mine) {
    for (const { lang, passes } of LOADS) {
      for (const [k, pass] of passes.entries()) {
        await page.setViewportSize({ width: pass.width, height: pass.height });
        await page.emulateMedia({ colorScheme: pass.colorScheme });
        if (k === 0) {
          await page.goto(`${server.url}?embed=${id}&lang=${lang}#${id}`);
          await page.waitForSelector('body[data-ready="true"]');
          if (DONE[id]) await page.waitForSelector(DONE[id], { state: 'attached' });
        }
        await frames(page); // layout after the first draw (or the new viewport)
        const at = `${id} (${lang}, ${pass.width}px, ${pass.colorScheme})`;
        // (the header comment: which pass scans what)
        const wideOnly = lang === 'en' && k === 1;
        if (lang === 'en') {
          const n = await page.evaluate(rendered, !wideOnly);
          if (process.env.ATTN_EVERY_DEBUG && wideOnly) console.log(`# ${id}: ${n} elements only at 1280 px`);
        }
        for (const p of await axe(page, STRICT.includes(id) ? id : null, wideOnly)) problems.push(`${at}: axe ${p}`);
        for (const p of await page.evaluate(layoutProblems.toString().replace(/^function layoutProblems/, '(function') + ')(document)')) problems.push(`${at}: ${p}`);
        if (pass.width < 500 && await page.evaluate(() => document.documentElement.scrollWidth > innerWidth)) problems.push(`${at}: the page is wider than the phone`);
        for (const e of errors.splice(0)) problems.push(`${at}: console ${e}`);
      }
    }
  }
  await page.close();
  assert.deepEqual(problems, []);
});

test(`${mine.length === ids.length ? 'every chapter' : `chapters ${part} of every ${parts}`} in the widget, in both languages: axe, grids, inputs, formulas, tables`, async () => {
  const problems = [];
  for (const lang of ['ko', 'en']) {
    await writeFile(join(gen, `part-${part}-${lang}.html`), widgetsHtml({ langs: [lang], ids: mine }));
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    await page.addInitScript(eagerFigures);
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(`${server.url}generated/part-${part}-${lang}.html`);
    await page.waitForFunction((n) => document.querySelectorAll('attention-explorer[data-ready="true"]').length === n, mine.length);
    // trained-heads draws its grids once its model has loaded (the whole core and the
    // weights, seconds on a loaded machine), and a box's scroll cue follows one frame after
    // a render: wait for the maps, then two frames
    await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer[chapter="trained-heads"]')]
      .every((w) => w.shadowRoot?.querySelector('[data-heads="small"] canvas')));
    await frames(page);
    // (the parts together cover the widget's every chapter)
    const uncovered = (await page.$eval('body', (b) => b.dataset.chapters)).split(' ').filter((id) => !ids.includes(id)).join(' ');
    if (uncovered) problems.push(`widget (${lang}): chapters no part checks: ${uncovered}`);
    for (const p of await axe(page)) problems.push(`widget (${lang}): axe ${p}`);
    const layout = await page.evaluate(`[...document.querySelectorAll('attention-explorer')].flatMap((w) => (${layoutProblems.toString()})(w.shadowRoot).map((p) => w.getAttribute('chapter') + ': ' + p))`);
    for (const p of layout) problems.push(`widget (${lang}) ${p}`);
    for (const e of errors) problems.push(`widget (${lang}): console ${e}`);
    await page.close();
  }
  assert.deepEqual(problems, []);
});

if (withPage) test('the whole page: its contents list every chapter, each one section; at 360 px in English no wider than the phone', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=en#review`, { width: 360, height: 780 });
  const toc = await page.$$eval('#toc a', (as) => as.map((a) => a.getAttribute('href')));
  for (const id of ids) {
    assert.ok(toc.includes(`#${id}`), `${id} in the table of contents`);
    assert.equal(await page.$$eval(`section#${id}`, (n) => n.length), 1, `one section #${id}`);
  }
  await page.waitForSelector('#review[data-mounted="true"]');
  assert.match(await page.textContent('#review h2'), /Review/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than a 360px phone`);
  assert.deepEqual(errors, []);
  await page.close();
});

// What a new user's first try found (issue 26), each in the state that showed it: a
// malformed fragment, a chapter's data missing from an embedding, stale numbers off screen,
// the page's thread during the cost chapter's live run, prose about numbers the learner
// changed, the keyboard's way out of the link panel and back to the tools. Each test failed
// on the code before its fix.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eagerFigures } from '../../web/scripts/browser.mjs';
import { harness } from './harness.mjs';
import { LAX_CSP } from './embed-helpers.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
// A course site: the light widget's folder copied as docs/embedding.md says, served as it is
// (no file of web/dist/ behind it).
const site = await mkdtemp(join(tmpdir(), 'attn-site-'));
await cp(join(dist, 'widget'), join(site, 'widget'), { recursive: true });
const { server, browser } = await harness({ mounts: { '/site/': { dir: site, csp: LAX_CSP, alone: true } } });

async function open(url, { width = 1280, height = 900, route, ready = true, eager = true, init } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  if (eager) await context.addInitScript(eagerFigures);
  if (init) await context.addInitScript(init);
  if (route) await route(context);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${server.url}${url}`);
  if (ready) await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors, close: () => context.close() };
}

test('a malformed % escape in the fragment: the page boots, no exception (issue 26, 1)', async () => {
  for (const [url, lang] of [['#two-keys%', 'ko'], ['#%%', 'ko'], ['?lang=en#%E0%A4%A', 'en'], ['?lang=en#two-keys%2', 'en']]) {
    const { page, errors, close } = await open(url);
    assert.equal(await page.$('#boot-status'), null, `${url}: the loading line is gone`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.ok(await page.$$eval('section.chapter[data-mounted="true"] :is(table, svg)', (t) => t.length) > 0, `${url}: figures are drawn`);
    // and a malformed fragment set later (a hand-edited address, a link on the page)
    await page.evaluate(() => (location.hash = '#%E0%A4'));
    await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
    await page.goBack();
    await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
    assert.deepEqual(errors, [], url);
    await close();
  }
});

// Every chapter in a widget loaded from a copy of the folder, and what a chapter without its
// data shows.
test('the light widget folder, copied alone, carries what every chapter needs (issue 26, 5)', async () => {
  await writeFile(join(site, 'all.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>all</title></head><body>
    <script type="module">
      import { CHAPTERS } from './widget/attention-explorer.js';
      for (const id of CHAPTERS) {
        const w = document.createElement('attention-explorer');
        w.setAttribute('chapter', id);
        w.setAttribute('lang', 'en');
        document.body.append(w);
      }
    </script></body></html>`);
  const { page, errors, close } = await open('site/all.html', { ready: false });
  const missing = [];
  page.on('response', (r) => r.status() >= 400 && missing.push(new URL(r.url()).pathname));
  await page.waitForFunction(() => {
    const ws = [...document.querySelectorAll('attention-explorer')];
    return ws.length > 10 && ws.every((w) => w.dataset.ready === 'true');
  }, null, { timeout: 90000 });
  await page.waitForFunction(() => document.querySelector('attention-explorer[chapter="trained-heads"]')
    .shadowRoot.querySelectorAll('.head-thumb').length > 0, null, { timeout: 60000 });
  const report = await page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((w) => ({
    id: w.getAttribute('chapter'),
    failed: [...w.shadowRoot.querySelectorAll('[data-failure="true"], .chapter-error:not([hidden])')].map((e) => e.textContent).join(' '),
    templates: (w.shadowRoot.querySelector('section')?.innerText ?? '').match(/\{\w+(\|[^|{}]*\|[^|{}]*)?\}/g),
  })));
  for (const r of report) {
    assert.equal(r.failed, '', `${r.id}: ${r.failed}`);
    assert.equal(r.templates, null, `${r.id} shows templates`);
  }
  assert.deepEqual(missing, []);
  assert.deepEqual(errors, []);
  await close();
});

test('trained-heads without its model file: the error, not half-filled prose (issue 26, 5)', async () => {
  const route = (context) => context.route('**/text-model.bin', (r) => r.fulfill({ status: 404, body: 'not found' }));
  for (const lang of ['en', 'ko']) {
    const { page, close } = await open(`?embed=trained-heads&lang=${lang}#trained-heads`, { route });
    await page.waitForSelector('#trained-heads [data-failure="true"]', { timeout: 30000 });
    const seen = await page.$eval('#trained-heads', (s) => s.innerText);
    assert.match(seen, /text-model\.bin/, 'the error names the file');
    assert.doesNotMatch(seen, /\{\w+(\|[^|{}]*\|[^|{}]*)?\}/, 'no template is shown');
    // only the title, the lead and the error line are shown
    const shown = await page.$$eval('#trained-heads > *', (ns) => ns.filter((n) => n.getClientRects().length > 0).map((n) => n.tagName));
    assert.deepEqual(shown, ['H2', 'P', 'P']);
    await close();
  }
});

test('Escape closes the link panel from inside it; Alt+Shift+T and the footer link go back to the tools (issue 26, 9)', async () => {
  const { page, errors, close } = await open('?lang=en');
  await page.focus('#copy-link');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#share-panel:not([hidden])');
  for (const inside of ['#share-link', '#share-widget', '#share-close']) {
    if (await page.isHidden('#share-panel')) {
      await page.focus('#copy-link');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#share-panel:not([hidden])');
    }
    await page.focus(inside);
    await page.keyboard.press('Escape');
    assert.equal(await page.isHidden('#share-panel'), true, `Escape in ${inside} closes the panel`);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'copy-link', 'the focus is back on the button');
    assert.equal(await page.getAttribute('#copy-link', 'aria-expanded'), 'false');
  }
  // From the last control of the page, one shortcut (announced on the button it lands on)
  // brings the tools back, without moving the reading position.
  await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(300);
  await page.waitForFunction(() => document.querySelector('main section.chapter:last-of-type').dataset.mounted === 'true');
  const last = await page.evaluate(() => {
    const all = [...document.querySelectorAll('main :is(button, input, select, textarea, a[href], [tabindex="0"])')]
      .filter((n) => !n.disabled && n.getClientRects().length > 0);
    const n = all.at(-1);
    n.focus();
    return document.activeElement === n ? n.outerHTML.slice(0, 80) : '';
  });
  assert.ok(last, 'a control of the last chapter has the focus');
  const y = await page.evaluate(() => scrollY);
  await page.keyboard.press('Alt+Shift+KeyT');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lang-toggle');
  assert.equal(await page.getAttribute('#lang-toggle', 'aria-keyshortcuts'), 'Alt+Shift+T');
  await page.waitForFunction(() => /tools at the top/.test(document.getElementById('tools-said').textContent));
  assert.ok(Math.abs((await page.evaluate(() => scrollY)) - y) < 50, 'the reading position stays');
  const box = await page.$eval('#lang-toggle', (b) => b.getBoundingClientRect().toJSON());
  assert.ok(box.top >= 0 && box.bottom <= 900, 'the focused button is in the window');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'copy-link');
  // the link at the foot of the page, one Tab after the last chapter
  await page.focus('#to-tools');
  assert.match(await page.textContent('#to-tools'), /Alt\+Shift\+T/);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lang-toggle');
  assert.deepEqual(errors, []);
  await close();
});

// A figure far from the screen is drawn when it comes near (components/nearby.js); until
// then what a screen reader reads of it is no number at all, not an old one.
test('a figure off screen never offers a stale number to a screen reader (issue 26, 7)', async () => {
  const { page, errors, close } = await open('?lang=en#two-keys', { height: 500, eager: false });
  const cellIn = (grid, i, j) => `[data-grid="${grid}"] tbody tr:nth-child(${i}) td:nth-of-type(${j}) input`;
  const readable = (grid) => page.$$eval(`[data-grid="${grid}"] tbody td .v`, (ns) => ns
    .filter((n) => getComputedStyle(n).visibility !== 'hidden').map((n) => n.textContent));
  const alpha = 'two-keys-weights';
  assert.deepEqual(await readable(alpha), ['0.330', '0.670']);
  // the inputs on screen, step ④ (α) more than a screen below
  await page.$eval(cellIn('two-keys-K', 1, 1), (n) => n.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => scrollBy(0, -40));
  await page.waitForTimeout(300);
  const gap = await page.$eval(`[data-grid="${alpha}"]`, (g) => g.getBoundingClientRect().top - innerHeight);
  assert.ok(gap > 250, `α is far below the window (${gap} px)`);
  // k1 = [3, 0]: the weights swap (0.670, 0.330)
  await page.fill(cellIn('two-keys-K', 1, 1), '3');
  await page.fill(cellIn('two-keys-K', 1, 2), '0');
  await page.waitForTimeout(200);
  const seen = await readable(alpha);
  assert.ok(seen.length === 0 || seen.join() === '0.670,0.330', `off screen, α reads ${seen}`);
  if (!seen.length) assert.equal(await page.getAttribute(`[data-grid="${alpha}"]`, 'aria-busy'), 'true');
  // in view: the new numbers, readable, not busy
  await page.$eval(`[data-grid="${alpha}"]`, (g) => g.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((g) => !document.querySelector(`[data-grid="${g}"]`).hasAttribute('aria-busy'), alpha);
  assert.deepEqual(await readable(alpha), ['0.670', '0.330']);
  assert.deepEqual(errors, []);
  await close();
});

// The live run's workers compute; the page's thread only asks them and draws the results.
// What it is asked to do is measured, not timed (timings flake on a loaded machine): every
// message the page posts to a worker is counted in bytes of the buffers it carries. Before,
// the page drew each size's inputs itself and sent them over (n x 64 floats per head and
// matrix: 1 MB each at n = 4,096, 4 MB at 16,384: hundreds of ms to 2 s of the page's
// thread); now the workers draw them, and a message is a few hundred bytes at any n. The
// long tasks seen are reported, for a look, not judged.
test('the cost chapter\'s live run sends no n x d buffer from the page (issue 26, 2)', async () => {
  const init = () => {
    window.__posted = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, transfer) {
      let bytes = 0;
      const seen = new Set();
      const walk = (v, depth) => {
        if (depth > 8 || v == null || typeof v !== 'object' || seen.has(v)) return;
        seen.add(v);
        if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) bytes += v.byteLength;
        else for (const x of Object.values(v)) walk(x, depth + 1);
      };
      walk(msg, 0);
      window.__posted.push({ type: msg?.type, bytes });
      return post.call(this, msg, transfer);
    };
    window.__long = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(Math.round(e.duration)))).observe({ type: 'longtask', buffered: true });
  };
  const { page, errors, close } = await open('?embed=cost&lang=en', { init });
  await page.selectOption('#cost [data-control="liveMaxN"]', '4096');
  await page.selectOption('#cost [data-control="liveHeads"]', '2');
  await page.selectOption('#cost [data-control="liveWorkers"]', '1');
  await page.evaluate(() => (window.__long.length = 0));
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => /Done/.test(document.querySelector('#cost .live-status').textContent), null, { timeout: 180000 });
  assert.equal(await page.$$eval('#cost [data-table="live"] tbody tr', (r) => r.length), 5); // 256 ... 4096
  const posted = await page.evaluate(() => window.__posted);
  assert.ok(posted.filter((m) => m.type === 'heads').length >= 10, JSON.stringify(posted));
  const largest = Math.max(...posted.map((m) => m.bytes));
  assert.ok(largest < 1024, `the page posted a message carrying ${largest} bytes of buffers`);
  const long = await page.evaluate(() => window.__long);
  console.log(`page-thread long tasks during the run (ms): ${long.join(', ') || 'none'}`);
  assert.deepEqual(errors, []);
  await close();
});

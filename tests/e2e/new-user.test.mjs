// What a new user's first try found (issue 26), each in the state that showed it: a
// malformed fragment, a chapter's data missing from an embedding, stale numbers off screen,
// the page's thread during the cost chapter's live run, prose about numbers the learner
// changed, the keyboard's way out of the link panel and back to the tools. Each test failed
// on the code before its fix.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cp, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eagerFigures } from '../../web/scripts/browser.mjs';
import { harness, LAX_CSP, WAIT_MS, frames, settled, tempDir, widgetsHtml, widgetsReady } from './harness.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
// A course site: the light widget's folder copied as docs/embedding.md says, served as it is
// (no file of web/dist/ behind it).
const site = await tempDir('attn-site-');
await cp(join(dist, 'widget'), join(site, 'widget'), { recursive: true });
// The one file with the side files the cost chapter's live run needs (docs/embedding.md).
const one = await tempDir('attn-one-');
for (const f of ['attention-explorer.js', 'cost-run.js', 'attn.mjs', 'attn-core.mjs', 'attn-core-lite.wasm', 'attn-core-lite-relaxed.wasm'])
  await cp(join(dist, f), join(one, f));
await writeFile(join(one, 'cost.html'), widgetsHtml({ script: './attention-explorer.js', ids: ['cost'] }));
const { server, browser } = await harness({ mounts: {
  '/site/': { dir: site, csp: LAX_CSP, alone: true },
  '/one/': { dir: one, csp: LAX_CSP, alone: true },
} });

async function open(url, { width = 1280, height = 900, route, ready = true, eager = true, init } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  context.setDefaultTimeout(WAIT_MS);
  if (eager) await context.addInitScript(eagerFigures);
  if (init) await context.addInitScript(init);
  if (route) await route(context);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${server.url}${url}`);
  if (ready) await page.waitForSelector('body[data-ready="true"]');
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
    await frames(page); // the hashchange handled
    await page.goBack();
    await frames(page); // the popstate handled
    assert.deepEqual(errors, [], url);
    await close();
  }
});

// Every chapter in a widget loaded from a copy of the folder, and what a chapter without its
// data shows.
test('the light widget folder, copied alone, carries what every chapter needs (issue 26, 5)', async () => {
  await writeFile(join(site, 'all.html'), widgetsHtml({ script: './widget/attention-explorer.js' }));
  const { page, errors, close } = await open('site/all.html', { ready: false });
  const missing = [];
  page.on('response', (r) => r.status() >= 400 && missing.push(new URL(r.url()).pathname));
  await page.waitForFunction(() => {
    const ws = [...document.querySelectorAll('attention-explorer')];
    return ws.length > 10 && ws.every((w) => w.dataset.ready === 'true');
  }, null);
  await page.waitForFunction(() => document.querySelector('attention-explorer[chapter="trained-heads"]')
    .shadowRoot.querySelectorAll('.head-thumb').length > 0, null);
  const report = await page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((w) => ({
    id: w.getAttribute('chapter'),
    failed: [...w.shadowRoot.querySelectorAll('[data-failure="true"], .chapter-error:not([hidden])')].map((e) => e.textContent).join(' '),
    templates: (w.shadowRoot.querySelector('section')?.innerText ?? '').match(/\{\w+(\|[^|{}]*\|[^|{}]*)?\}/g),
  })));
  for (const r of report) {
    assert.equal(r.failed, '', `${r.id}: ${r.failed}`);
    assert.equal(r.templates, null, `${r.id} shows templates`);
  }
  // and what its workers load: the cost chapter's live run (its smallest, one head) runs to
  // the end from the folder's files
  const status = await page.evaluate(runCost);
  assert.match(status, /^Done/, status);
  assert.deepEqual(missing, []);
  assert.deepEqual(errors, []);
  await close();
});

// The cost chapter's live run in the page's only widget, at its smallest (one head, n up to
// 4,096): the status line once it ends.
async function runCost() {
  const root = document.querySelector('attention-explorer[chapter="cost"]').shadowRoot;
  const set = (control, value) => {
    const s = root.querySelector(`[data-control="${control}"]`);
    s.value = String(value);
    s.dispatchEvent(new Event('change', { bubbles: true }));
  };
  set('liveMaxN', 4096);
  set('liveHeads', 1);
  root.querySelector('[data-action="run"]').click();
  const line = root.querySelector('.live-status');
  for (let t = 0; t < 1200 && !/^(Done|The run stopped)/.test(line.textContent); t++) await new Promise((r) => setTimeout(r, 100));
  return line.textContent;
}

// A chapter whose own files cannot be fetched (its code's chunk, a copy of the folder with a
// file left out) says so: not that the computing core failed.
test('the light widget: a chapter whose code cannot be fetched names its code, not the core', async () => {
  await writeFile(join(site, 'late.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>late</title>
    <script type="module" src="./widget/attention-explorer.js"></script></head><body><main><h1>Notes</h1></main></body></html>`);
  const { page, close } = await open('site/late.html', { ready: false });
  await page.waitForFunction(() => customElements.get('attention-explorer'));
  // the element and its shared code are in; what a chapter imports from now on is not
  await page.route('**/widget/chunk-*.js', (r) => r.fulfill({ status: 404, body: 'not found' }));
  const failed = await page.evaluate(async () => {
    const w = document.createElement('attention-explorer');
    w.setAttribute('chapter', 'softmax');
    w.setAttribute('lang', 'en');
    document.querySelector('main').append(w);
    const why = await w.ready.then(() => 'resolved', (e) => e.message);
    return { why, shown: w.shadowRoot.querySelector('.boot-status')?.textContent ?? '', mark: w.dataset.ready };
  });
  assert.equal(failed.mark, 'failed', 'data-ready says it too (a wait for the widget ends)');
  // and the tests' wait for widgets fails at once with what the widget shows
  await assert.rejects(widgetsReady(page), /widgets could not show their chapter: softmax: Could not load this chapter's code or words/);
  assert.match(failed.shown, /^Could not load this chapter's code or words/, failed.shown);
  assert.doesNotMatch(failed.shown, /computing core/);
  assert.equal(failed.why, failed.shown, 'ready rejects with what the widget shows');
  await close();
});

// A worker whose script does not load (a widget's folder without cost-run.js): said in the
// page's language, naming the file, not in the pool's English.
test('the cost chapter without its worker script: the run stops, said in Korean, naming the file', async () => {
  const route = (context) => context.route('**/cost-run.js', (r) => r.fulfill({ status: 404, body: 'not found' }));
  const { page, errors, close } = await open('?embed=cost&lang=ko', { route });
  await page.selectOption('#cost [data-control="liveMaxN"]', '4096');
  await page.selectOption('#cost [data-control="liveHeads"]', '1');
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => document.querySelector('#cost .live-status').dataset.state === 'error' || /멈췄/.test(document.querySelector('#cost .live-status').textContent), null);
  const line = await page.textContent('#cost .live-status');
  assert.match(line, /워커 1이\(가\) 멈췄습니다\. 스크립트\(cost-run\.js\)를 불러오지 못했거나/, line);
  assert.doesNotMatch(line, /attention pool|worker|crashed/, line);
  assert.deepEqual(errors.filter((e) => !/cost-run\.js|404|Failed to load/.test(e)), []);
  await close();
});

// The one-file widget with the side files docs/embedding.md lists for the cost chapter's live
// run, copied into a course's folder; and what the run says when the workers' core is missing.
test('the one-file widget with the cost run\'s files as docs/embedding.md lists: the run ends; without one it names the file', async () => {
  // (a file the workers load, answered 404 with a page, as a folder copied without it is)
  for (const [lacking, named] of [[null], ['**/one/attn-core-lite*.wasm', 'attn-core-lite.wasm'], ['**/one/attn.mjs', 'attn.mjs'], ['**/one/attn-core.mjs', 'attn-core.mjs']]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const missing = [];
    if (lacking) await context.route(lacking, (r) => r.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><title>Not Found</title>' }));
    const page = await context.newPage();
    page.on('response', (r) => r.status() >= 400 && missing.push(new URL(r.url()).pathname));
    await page.goto(`${server.url}one/cost.html`);
    await page.waitForFunction(() => document.querySelector('attention-explorer')?.dataset.ready === 'true', null);
    const status = await page.evaluate(runCost);
    if (!lacking) {
      assert.match(status, /^Done/, status);
      assert.deepEqual(missing, []);
    } else {
      assert.equal(status, `The run stopped: worker 1 could not load the computing core (${named}): the file is missing or damaged.`, lacking);
    }
    await context.close();
  }
});

// The same in Korean, on the page: the workers' core answered 404 once the page is up (the
// page's own core has loaded).
test('the cost chapter whose workers cannot load their core: the run stops, said in Korean, naming the file', async () => {
  const { page, errors, close } = await open('?embed=cost&lang=ko');
  await page.context().route('**/attn-core-lite*.wasm', (r) => r.fulfill({ status: 404, body: 'not found' }));
  await page.selectOption('#cost [data-control="liveMaxN"]', '4096');
  await page.selectOption('#cost [data-control="liveHeads"]', '1');
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => document.querySelector('#cost .live-status').dataset.state === 'error' || /불러오지 못했/.test(document.querySelector('#cost .live-status').textContent), null);
  const line = await page.textContent('#cost .live-status');
  assert.match(line, /워커 1이\(가\) 계산 코어\(attn-core-lite\.wasm\)를 불러오지 못했습니다\. 파일이 없거나 손상되었습니다/, line);
  assert.doesNotMatch(line, /Aborted|CompileError|worker|attention pool/, line);
  assert.deepEqual(errors.filter((e) => !/attn-core-lite|404|Failed to load|Aborted|prepare wasm|magic word/.test(e)), []);
  await close();
});

// Run and Cancel are each disabled while the other is the one to press: the keyboard's focus
// goes with them, not to the top of the page.
test('the cost run by keyboard: Enter on Run puts focus on Cancel, Enter on Cancel back on Run', async () => {
  const { page, errors, close } = await open('?embed=cost&lang=en');
  const active = () => page.evaluate(() => document.activeElement?.dataset?.action ?? document.activeElement?.tagName);
  await page.focus('#cost [data-action="run"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#cost [data-action="cancel"]').disabled === false);
  assert.equal(await active(), 'cancel');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^Cancelled/.test(document.querySelector('#cost .live-status').textContent));
  assert.equal(await active(), 'run');
  assert.deepEqual(errors, []);
  await close();
});

// A link's value that no control of the chapter could set (n = 0, h = 3 where d_model = 8,
// a dropout rate of 1) was refused by the core, in its English, and every setting of the
// link went back to its default. Now it is said in the page's words, and only that setting
// goes back.
test('a link\'s value no control could set: said in the page\'s language; the link\'s other settings kept', async () => {
  const notice = (page) => page.evaluate(() => [...document.querySelectorAll('#notice li')].map((n) => n.textContent).join('\n'));
  let { page, errors, close } = await open('?embed=cost&cost=n:0;dModel:256');
  assert.equal(await notice(page), 'n²의 비용: n: 0은(는) 1부터 1,048,576까지의 정수가 아닙니다');
  assert.equal(await page.inputValue('#cost [data-control="n"]'), '1024');
  assert.equal(await page.inputValue('#cost [data-control="dModel"]'), '256');
  assert.deepEqual(errors, []);
  await close();
  for (const [q, said] of [
    ['multi-head=heads:3', /^Multi-head attention.*: heads: 3 is not one of 1, 2, 4, 8$/],
    ['causal-dropout=rate:1', /^Causal attention and dropout: rate: 1 is not a value of its slider \(0 to 0\.9, in steps of 0\.05\)$/],
    ['cost=heads:7', /^The cost of n²: heads: h = 7 does not divide d_model = 512/],
    // a matrix of another shape than the chapter's (the chapter's code met it: "Cannot read
    // properties of undefined (reading 'toFixed')"), and what only the core can refuse
    ['core-attention=Q:2x8,1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8', /^Core attention[^\n]*: Q: a 2×8 matrix where this chapter has a 3×8 one$/],
    ['multi-head=dModel:7', /^Multi-head attention.*: the chapter cannot compute with the link's values \(the core says: .*d_model = 7\)$/],
  ]) {
    ({ page, errors, close } = await open(`?lang=en&embed=${q.split('=')[0]}&${q}`));
    const text = await notice(page);
    assert.match(text, said, q);
    assert.doesNotMatch(text, /must be|got|multi_head_attention|dropout\.rate|toFixed/, q);
    assert.deepEqual(errors, [], q);
    await close();
  }
});

test('a copy of the folder without the relaxed-SIMD core: the workers load the SIMD one', async () => {
  await writeFile(join(site, 'cost.html'), widgetsHtml({ script: './widget/attention-explorer.js', ids: ['cost'] }));
  const route = (context) => context.route('**/attn-core-lite-relaxed.wasm', (r) => r.fulfill({ status: 404, body: 'not found' }));
  const { page, close } = await open('site/cost.html', { ready: false, route });
  await page.waitForFunction(() => document.querySelector('attention-explorer')?.dataset.ready === 'true', null);
  const status = await page.evaluate(runCost);
  assert.match(status, /^Done/, status);
  await close();
});

test('trained-heads without its model file or its results file: the error names that file, not half-filled prose (issue 26, 5)', async () => {
  const files = ['text-model.bin', 'text-model-results.json'];
  for (const file of files) {
    const route = (context) => context.route(`**/${file}`, (r) => r.fulfill({ status: 404, body: 'not found' }));
    const name = file.replaceAll('.', '\\.');
    for (const lang of ['en', 'ko']) {
      const { page, close } = await open(`?embed=trained-heads&lang=${lang}#trained-heads`, { route });
      await page.waitForSelector('#trained-heads [data-failure="true"]');
      const seen = await page.$eval('#trained-heads', (s) => s.innerText);
      // the error names the file missing, and not the other one (which is there)
      const line = await page.$eval('#trained-heads [data-failure="true"]', (n) => n.textContent);
      assert.match(line, lang === 'en' ? new RegExp(`\\((${name}: )?HTTP 404\\)\\. The page needs the file ${name} next to its script\\.$`)
        : new RegExp(`\\((${name}: )?HTTP 404\\)\\. 스크립트와 같은 폴더에 ${name} 파일이 있어야 합니다\\.$`), `${lang}: the error names ${file}: ${line}`);
      for (const other of files.filter((f) => f !== file)) assert.ok(!line.includes(other), `${lang}: the error names ${other}: ${line}`);
      assert.doesNotMatch(seen, /\{\w+(\|[^|{}]*\|[^|{}]*)?\}/, 'no template is shown');
      // only the title, the lead and the error line are shown
      const shown = await page.$$eval('#trained-heads > *', (ns) => ns.filter((n) => n.getClientRects().length > 0).map((n) => n.tagName));
      assert.deepEqual(shown, ['H2', 'P', 'P']);
      await close();
    }
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
  // open, the focus gone elsewhere (a chapter's heading, a cell with nothing to undo): Escape
  // still closes it, the focus stays; in a cell with an edit to undo, Escape is the cell's
  await page.focus('#copy-link');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#share-panel:not([hidden])');
  await page.$eval('main section.chapter h2', (h) => { h.tabIndex = -1; h.focus(); });
  await page.keyboard.press('Escape');
  assert.equal(await page.isHidden('#share-panel'), true, 'Escape outside the panel closes it');
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'H2', 'the focus stays');
  const cell = '#core-attention [data-grid="input-Q"] tbody tr:nth-child(1) td:nth-of-type(1) input';
  await page.$eval('#core-attention', (n) => n.scrollIntoView());
  await page.waitForSelector(cell);
  await page.focus('#copy-link');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#share-panel:not([hidden])');
  await page.focus(cell);
  await page.keyboard.type('7');
  await page.keyboard.press('Escape');
  assert.equal(await page.isHidden('#share-panel'), false, 'Escape that undoes an edit is the cell\'s');
  await page.keyboard.press('Escape');
  assert.equal(await page.isHidden('#share-panel'), true, 'Escape in a cell with nothing to undo closes it');
  assert.equal(await page.evaluate((c) => document.activeElement === document.querySelector(c), cell), true, 'the focus stays');
  // open while the learner edits: the link follows the edits, and says to copy it again
  await page.focus('#copy-link');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#share-panel:not([hidden])');
  const before = await page.inputValue('#share-link');
  await page.$eval('#core-attention', (n) => n.scrollIntoView());
  await page.waitForSelector('#core-attention [data-control="causal"]');
  await page.click('#core-attention [data-control="causal"]');
  await page.waitForFunction((b) => document.querySelector('#share-link').value !== b, before);
  assert.match(await page.inputValue('#share-link'), /core-attention=/);
  assert.match(await page.textContent('#share-status'), /copy it again/);
  await page.focus('#share-link');
  await page.keyboard.press('Escape');
  // From the last control of the page, one shortcut (announced on the button it lands on)
  // brings the tools back, without moving the reading position.
  await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => document.querySelector('main section.chapter:last-of-type').dataset.mounted === 'true');
  await settled(page);
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
  await frames(page); // (the observers have reported where the figures are)
  const gap = await page.$eval(`[data-grid="${alpha}"]`, (g) => g.getBoundingClientRect().top - innerHeight);
  assert.ok(gap > 250, `α is far below the window (${gap} px)`);
  // k1 = [3, 0]: the weights swap (0.670, 0.330)
  await page.fill(cellIn('two-keys-K', 1, 1), '3');
  await page.fill(cellIn('two-keys-K', 1, 2), '0');
  await frames(page); // (the edit's frames painted: what is readable now must not be stale)
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
  await page.waitForFunction(() => /Done/.test(document.querySelector('#cost .live-status').textContent), null);
  assert.equal(await page.$$eval('#cost [data-table="live"] tbody tr', (r) => r.length), 5); // 256 ... 4096
  // the run's clock, hidden once it ends, holds no stale "… s so far" for a reader of the DOM
  assert.deepEqual(await page.$eval('#cost .live-clock', (c) => [c.hidden, c.textContent]), [true, '']);
  const posted = await page.evaluate(() => window.__posted);
  assert.ok(posted.filter((m) => m.type === 'heads').length >= 10, JSON.stringify(posted));
  const largest = Math.max(...posted.map((m) => m.bytes));
  assert.ok(largest < 1024, `the page posted a message carrying ${largest} bytes of buffers`);
  const long = await page.evaluate(() => window.__long);
  console.log(`page-thread long tasks during the run (ms): ${long.join(', ') || 'none'}`);
  assert.deepEqual(errors, []);
  await close();
});

// Sentences that state a value or a comparison follow the state, or say that they describe
// the example's numbers (the kit's describesExample), in every chapter where the learner
// can make them untrue.
test('prose that states a value follows the state or says it describes the example (issue 26, 6)', async () => {
  const cellIn = (grid, i, j) => `[data-grid="${grid}"] tbody tr:nth-child(${i}) td:nth-of-type(${j}) input`;
  // a paragraph's words, its formulas read once (KaTeX's MathML copy left out)
  const words = (n) => {
    const c = n.cloneNode(true);
    c.querySelectorAll('.katex-mathml').forEach((m) => m.remove());
    return c.textContent.replace(/\s+/g, ' ');
  };
  const say = (page, sel) => page.$eval(sel, (n, w) => (n.hidden ? '' : new Function(`return ${w}`)()(n)), words.toString());
  const slide = (page, sel, v) => page.$eval(sel, (el, x) => {
    el.value = String(x);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  const para = (page, has) => page.$$eval('section.chapter p', (ps, [h, w]) => ps.map(new Function(`return ${w}`)()).filter((t) => t.includes(h)).join(' '), [has, words.toString()]);

  // softmax: the row whose scores are all equal, from the state
  let { page, errors, close } = await open('?embed=softmax&lang=en');
  const even = '#softmax [data-check="even-row"]';
  assert.match(await say(page, even), /In row 2 every score is 0, and each of its 4 weights is 0\.250/);
  await page.fill(cellIn('softmax-S', 2, 1), '5');
  await page.waitForFunction((s) => /No row has equal scores now/.test(document.querySelector(s).textContent), even);
  assert.doesNotMatch(await say(page, even), /In row 2/);
  await page.fill(cellIn('softmax-S', 1, 1), '7');
  await page.fill(cellIn('softmax-S', 1, 2), '7');
  await page.fill(cellIn('softmax-S', 1, 3), '7');
  await page.fill(cellIn('softmax-S', 1, 4), '7');
  await page.waitForFunction((s) => /In row 1 every score is 7/.test(document.querySelector(s).textContent), even);
  // (a row of equal scores that are not 0 says nothing of a score of 0)
  assert.doesNotMatch(await say(page, even), /score of 0/);
  assert.match(await say(page, even), /whatever the score is/);
  assert.deepEqual(errors, []);
  await close();

  // multi-head: the continuity with the core-attention chapter, there and here
  ({ page, errors, close } = await open('?lang=en&core-attention=Q:~19_5#multi-head'));
  await page.waitForSelector('#multi-head [data-check="continued"]');
  const cont = '#multi-head [data-check="continued"]';
  assert.match(await say(page, cont), /you have changed its numbers there, so it now shows others/);
  await page.close();
  ({ page, errors, close } = await open('?embed=multi-head&lang=en'));
  assert.match(await say(page, cont), /, the values of the Core Attention chapter\.$/);
  assert.doesNotMatch(await para(page, 'How this example was built'), /describes the example/);
  await page.fill(cellIn('mh-X', 1, 1), '3');
  await page.waitForFunction((s) => /With the numbers you edited here/.test(document.querySelector(s).textContent), cont);
  // (how the example was built is said of the example's numbers once X is edited, from its
  // first words, and the example's text comes back with the example's numbers)
  assert.equal(await page.$$eval('#multi-head p', (ps) => ps.filter((p) => p.textContent.startsWith('How this example was built')).length), 0);
  assert.match(await para(page, 'How the example was built'), /^How the example was built \(you have since edited X or W[^)]*this is about the example’s numbers, not the ones on screen/);
  await page.click("#multi-head button.reset");
  await page.waitForFunction(() => [...document.querySelectorAll('#multi-head p')].some((p) => p.textContent.startsWith('How this example was built')));
  assert.doesNotMatch(await para(page, 'How this example was built'), /describes the example|since edited/);
  assert.deepEqual(errors, []);
  await close();
  // and on the page, an edit in core-attention reaches multi-head's sentence at once
  ({ page, errors, close } = await open('?lang=en#multi-head'));
  await page.waitForSelector(cont);
  await page.evaluate(() => document.getElementById('core-attention').scrollIntoView());
  await page.waitForSelector('#core-attention[data-mounted="true"]');
  await page.fill(cellIn('input-Q', 3, 4), '5');
  await page.waitForFunction((s) => /you have changed its numbers there/.test(document.querySelector(s).textContent), cont);
  assert.deepEqual(errors, []);
  await close();

  // one-head: what the example's weights do, said of the example once they are edited
  ({ page, errors, close } = await open('?embed=one-head&lang=en'));
  assert.doesNotMatch(await para(page, 'gives the verb two questions'), /describes the example/);
  await page.$eval('#one-head details.weights-details', (d) => (d.open = true));
  await page.fill(cellIn('oh-Wq', 1, 1), '9');
  await page.waitForFunction(() => [...document.querySelectorAll('#one-head p')].some((p) => p.textContent.includes('gives the verb two questions') && p.textContent.includes('This describes the example')));
  assert.deepEqual(errors, []);
  await close();
  // the other sentence (a choice the chapter offers, not an edit) keeps the words
  ({ page, errors, close } = await open('?embed=one-head&lang=en'));
  await page.check('#one-head [data-choice="oh-sentence"] input[value="1"]');
  await page.waitForFunction(() => document.querySelector('#one-head [data-choice="oh-sentence"] input[value="1"]').checked);
  assert.doesNotMatch(await para(page, 'Columns 1–2 of the output'), /describes the example/);
  assert.deepEqual(errors, []);
  await close();

  // reading-matrix: two stacked heads' claim, checked at the strength set
  ({ page, errors, close } = await open('?embed=reading-matrix&lang=en'));
  assert.match(await para(page, 'Layers are stacked'), /in the mixing through both layers, P ?P, token i−2 has the largest share/);
  assert.doesNotMatch(await para(page, 'Layers are stacked'), /does not hold/);
  await slide(page, '#reading-matrix [data-control="strength"]', 0);
  await page.waitForFunction(() => [...document.querySelectorAll('#reading-matrix p')].some((p) => /at strength 0 with these tokens that does not hold/.test(p.textContent)));
  assert.deepEqual(errors, []);
  await close();

  // causal-dropout: at rate 0 nothing is dropped, and the rows still sum to 1
  ({ page, errors, close } = await open('?embed=causal-dropout&lang=en'));
  assert.match(await para(page, 'Training mode'), /the rows no longer sum to 1/);
  await slide(page, '#causal-dropout [data-control="cd-rate"]', 0);
  await page.waitForFunction(() => [...document.querySelectorAll('#causal-dropout p')].some((p) => /nothing is dropped/.test(p.textContent)));
  assert.doesNotMatch(await para(page, 'Training mode'), /no longer sum to 1/);
  assert.deepEqual(errors, []);
  await close();
});

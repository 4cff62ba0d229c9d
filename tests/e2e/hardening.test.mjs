// The page under bad input, without SIMD, and under its Content-Security-Policy:
// garbage typed and pasted into cells, sliders at their extremes, a browser without
// WebAssembly SIMD, no eval, no CSP violation, no request beyond the page's own files.
// The page and the widget run the Embind core under that policy (script-src 'self'
// 'wasm-unsafe-eval', no 'unsafe-eval'): Embind's generated JS, built with
// -sDYNAMIC_EXECUTION=0, makes no function from a string, so nothing is blocked, and an
// edit recomputes through the core (docs/architecture.md, "WebAssembly boundary").
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP } from '../../web/scripts/serve.mjs';
import { harness, mountAll, toggleLang, openPage, eagerFigures, widgetsReady, widgetCells, WAIT_MS } from './harness.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
const { server, browser } = await harness();
const origin = new URL(server.url).origin;
const tried = { typed: 0, pasted: 0, sliders: 0 };
test.after(() => console.log(`bad inputs tried at the page: ${tried.typed + tried.pasted + tried.sliders} (${JSON.stringify(tried)})`));

// Records CSP violations and every request the page makes.
// At the Core Attention chapter, which most of these tests use: opened alone (?embed=, the
// same document, policy and core choice), or on the whole page where a test needs the
// page's tools or every chapter.
const PAGE = `${server.url}#core-attention`;
async function open(url = `${server.url}?embed=core-attention#core-attention`, { noSimd = false, noRelaxed = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(eagerFigures);
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  await context.addInitScript(([noSimd, noRelaxed]) => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    // A browser without WebAssembly SIMD: the probe module (and any SIMD module) fails to validate.
    if (noSimd) WebAssembly.validate = () => false;
    // A browser with SIMD128 but without relaxed SIMD: a module holding f32x4.relaxed_madd
    // (FD 85 02, attn.mjs's relaxed probe) fails to validate.
    const validate = WebAssembly.validate;
    if (noRelaxed) WebAssembly.validate = (b) => !new Uint8Array(b).some((x, i, a) => x === 253 && a[i + 1] === 133 && a[i + 2] === 2) && validate(b);
  }, [noSimd, noRelaxed]);
  const { page, errors } = await openPage(context, url);
  return { page, errors, requests, close: () => context.close() };
}

const Q_CELL = '[data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input';
const texts = (page, grid, row) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${row}) td .v`, (ns) => ns.map((n) => n.textContent));

test('garbage typed into a cell: inline message, last good state kept, no uncaught error', async () => {
  const { page, errors, close } = await open();
  const good = await texts(page, 'S', 3);
  const garbage = ['1,,2', '1e999', '-1e999', 'NaN', 'Infinity', '-', '+', '.', '😀', '1😀', '0x1F', '1e', '--2',
    '\u0000', 'x'.repeat(10000), '9'.repeat(10000), '<img src=x onerror=alert(1)>', '${1}'];
  for (const g of garbage) {
    tried.typed++;
    await page.fill(Q_CELL, g);
    // (a half-typed number such as "-" or "1e" is marked and explained after a short pause)
    await page.waitForSelector('[data-grid="input-Q"] .grid-error:not([hidden])');
    assert.equal(await page.getAttribute(Q_CELL, 'aria-invalid'), 'true', g.slice(0, 20));
    const msg = await page.textContent('[data-grid="input-Q"] .grid-error');
    assert.ok(msg.length > 10, `message for ${g.slice(0, 20)}`);
    assert.ok(msg.length < 400, 'the message quotes a long entry only in part');
    assert.deepEqual(await texts(page, 'S', 3), good, `state kept for ${g.slice(0, 20)}`);
  }
  // Typed key by key, as a learner would (emoji and all).
  await page.fill(Q_CELL, '');
  await page.focus(Q_CELL);
  await page.keyboard.type('1,,2😀');
  tried.typed++;
  assert.equal(await page.getAttribute(Q_CELL, 'aria-invalid'), 'true');
  // Leaving the cell restores the value from before the edit, and says so; the page still computes.
  await page.focus('[data-grid="input-Q"] tbody tr:nth-child(1) td:nth-of-type(1) input');
  assert.equal(await page.getAttribute(Q_CELL, 'aria-invalid'), null);
  assert.equal(await page.inputValue(Q_CELL), '2');
  assert.match(await page.textContent('[data-grid="input-Q"] .grid-error'), /“1,,2😀”은\(는\) 쓰지 않았습니다.*: 2\./);
  await page.fill(Q_CELL, '5');
  assert.notDeepEqual(await texts(page, 'S', 3), good);
  assert.equal(await page.$$eval('.chapter-error:not([hidden])', (n) => n.length), 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  await close();
});

test('malformed matrices pasted into a cell: nothing changes, no uncaught error', async () => {
  const { page, errors, close } = await open();
  const good = await texts(page, 'S', 3);
  const hasPaste = (await page.$('[data-grid="input-Q"] [data-tools]')) !== null; // the grid's paste tool, where present
  const malformed = ['1 2\n3', '1e999 2\n3 4', 'NaN 1\n2 3', '😀 2', '[[1, 2], [3]]', '- 1', `${'1 '.repeat(5000)}x`,
    '1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11', 'a,b,c\nd,e,f'];
  for (const text of malformed) {
    tried.pasted++;
    await page.$eval(Q_CELL, (input, text) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, text);
    assert.deepEqual(await texts(page, 'S', 3), good, `state kept after pasting ${JSON.stringify(text.slice(0, 20))}`);
    if (hasPaste) assert.ok(await page.isVisible('[data-grid="input-Q"] .grid-error'), `message for ${JSON.stringify(text.slice(0, 20))}`);
  }
  assert.deepEqual(errors, []);
  await close();
});

test('every slider dragged to its extremes and past them: no uncaught error, the page keeps computing', async (t) => {
  const { page, errors, close } = await open(PAGE);
  await mountAll(page);
  const sliders = await page.$$('input[type="range"]');
  if (sliders.length === 0) {
    t.skip('no slider on the page on this branch');
    await close();
    return;
  }
  for (const s of sliders) {
    if (!(await s.isVisible())) continue; // a control the chapter hides in its current mode
    await s.scrollIntoViewIfNeeded();
    const box = await s.boundingBox();
    for (const key of ['End', 'Home', 'PageUp', 'PageDown']) {
      await s.focus();
      await page.keyboard.press(key);
      tried.sliders++;
    }
    if (box) for (const x of [box.x - 50, box.x + box.width + 50]) {
      // Drag from the middle to beyond each end.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(x, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      tried.sliders++;
    }
    // Values past the range, set by script as a broken embed might: the browser clamps.
    for (const v of ['1e9', '-1e9', 'NaN', '']) {
      await s.evaluate((el, v) => { el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); }, v);
      tried.sliders++;
    }
  }
  await page.fill(Q_CELL, '4');
  assert.deepEqual(errors, []);
  await close();
});

test('without relaxed SIMD the page loads the SIMD128 core without the trainer and computes the same numbers', async () => {
  const { page, errors, requests, close } = await open(undefined, { noRelaxed: true });
  assert.match(await page.textContent('#simd-badge'), /wasm-simd128/);
  assert.ok(requests.some((u) => u.endsWith('/attn-core-lite.wasm')), 'the SIMD128 lite module was fetched');
  assert.ok(!requests.some((u) => /-relaxed\.wasm$/.test(u)), 'no relaxed module was fetched');
  await page.click('[data-stepper="core-attention"] [role="tab"][data-step="softmax"]');
  assert.deepEqual(await texts(page, 'P', 3), ['0.114', '0.042', '0.844']);
  assert.deepEqual(errors, []);
  await close();
});

test('without WebAssembly SIMD the page loads the scalar core, says so, and computes the same numbers', async () => {
  const { page, errors, requests, close } = await open(undefined, { noSimd: true });
  assert.match(await page.textContent('#simd-badge'), /scalar/);
  assert.ok(requests.some((u) => u.endsWith('/attn-core-scalar.wasm')), 'the scalar module was fetched');
  assert.ok(!requests.some((u) => /\/attn-core(-lite)?(-relaxed)?\.wasm$/.test(u)), 'no SIMD module was fetched');
  await page.click('[data-stepper="core-attention"] [role="tab"][data-step="softmax"]');
  assert.deepEqual(await texts(page, 'P', 3), ['0.114', '0.042', '0.844']);
  const before = await texts(page, 'S', 3);
  await page.fill(Q_CELL, '5');
  assert.notDeepEqual(await texts(page, 'S', 3), before);
  assert.deepEqual(errors, []);
  await close();
});

test('the Content-Security-Policy is sent and holds: no violation, no request beyond the page\'s files', async () => {
  const res = await fetch(server.url);
  assert.equal(res.headers.get('content-security-policy'), CSP);
  assert.match(CSP, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.doesNotMatch(CSP, /'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  const { page, errors, requests, close } = await open(PAGE);
  await toggleLang(page);
  for (const step of ['output', 'softmax', 'mask', 'scale', 'scores'])
    await page.click(`[data-stepper="core-attention"] [role="tab"][data-step="${step}"]`);
  await page.hover('[data-grid="S"] tbody tr:nth-child(2) td:nth-of-type(2)');
  // an edit recomputes through the core
  const before = await texts(page, 'S', 3);
  assert.equal(before.length, 3);
  await page.fill(Q_CELL, '5');
  await page.waitForFunction((b) => [...document.querySelectorAll('[data-grid="S"] tbody tr:nth-child(3) td .v')]
    .map((n) => n.textContent).join() !== b, before.join());
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation while the page is used');
  const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'every request goes to the page\'s own origin');
  assert.ok(requests.length > 3);
  // Control: the policy is live in this browser (an inline script is blocked and reported).
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.append(s);
  });
  await page.waitForFunction(() => window.__csp.length > 0);
  assert.equal(await page.evaluate(() => window.__inlineRan), undefined);
  assert.deepEqual(errors.filter((e) => !/Content Security Policy/.test(e)), []);
  await close();
});

test('no eval-style code in the built scripts', async () => {
  const files = (await readdir(dist)).filter((f) => /\.(m?js)$/.test(f));
  assert.ok(files.includes('app.js') && files.includes('attn.mjs') && files.includes('attn-core.mjs') && files.includes('attn-core-scalar.mjs'));
  const evalLike = /\beval\s*\(|\bnew\s+Function\s*\(|(?<![\w.$])Function\s*\(\s*["'`]|set(Timeout|Interval)\s*\(\s*["'`]|document\.write\s*\(|execScript/;
  for (const f of files) {
    const src = await readFile(join(dist, f), 'utf8');
    const m = src.match(evalLike);
    assert.equal(m, null, `${f}: ${m && src.slice(Math.max(0, m.index - 60), m.index + 60)}`);
  }
});

test('the built core is the Embind module, and the policy has no unsafe-eval', async () => {
  assert.doesNotMatch(CSP, /'unsafe-eval'/);
  const loader = await readFile(join(dist, 'attn-core.mjs'), 'utf8');
  assert.match(loader, /_embind_register_function/, 'attn-core.mjs registers its functions with Embind');
});

test('the widget computes under the policy: no violation, an edit recomputes', async () => {
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
  const res = await page.goto(`${server.url}examples/plain.html`);
  assert.equal(res.headers()['content-security-policy'], CSP, 'the example is served under the page\'s policy');
  await widgetsReady(page);
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
  await context.close();
});

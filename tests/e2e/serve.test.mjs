// `make serve` as a static host should be: every text and wasm file is sent precompressed
// (.br or .gz from the build, with Content-Encoding and Vary: Accept-Encoding) to a client
// that accepts it and plain to one that does not, always with its own type
// (application/wasm for the core); the page boots over it; the KaTeX fonts that index.html
// preloads are fetched once and used at boot, and cover the maths of the first screen.
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { harness, root, openPage } from './harness.mjs';

const dist = join(root, 'web', 'dist');
const { server, browser } = await harness();

// A GET with exactly the Accept-Encoding given (none when undefined): fetch() would add
// its own and decode the body.
const get = (path, acceptEncoding) => new Promise((ok, fail) => {
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  http.get(new URL(path, server.url), { headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
  }).on('error', fail);
});

const FILES = [
  ['', 'index.html', /^text\/html/],
  ['app.js', 'app.js', /^text\/javascript/],
  ['styles.css', 'styles.css', /^text\/css/],
  ['attn.mjs', 'attn.mjs', /^text\/javascript/],
  ['attn-core.wasm', 'attn-core.wasm', /^application\/wasm$/],
  ['attn-core-lite.wasm', 'attn-core-lite.wasm', /^application\/wasm$/],
  ['attn-core-lite-relaxed.wasm', 'attn-core-lite-relaxed.wasm', /^application\/wasm$/],
  ['attn-core-scalar.wasm', 'attn-core-scalar.wasm', /^application\/wasm$/],
  ['katex/katex.min.css', 'katex/katex.min.css', /^text\/css/],
  ['attention-explorer.js', 'attention-explorer.js', /^text\/javascript/],
  // the widget as the embedding examples get it (served next to them)
  ['examples/attention-explorer.js', 'attention-explorer.js', /^text\/javascript/],
  ['examples/attention-explorer-scalar.js', 'attention-explorer-scalar.js', /^text\/javascript/],
];

test('each file: brotli, gzip or plain as the client accepts, its own type, Vary: Accept-Encoding', async () => {
  for (const [path, file, type] of FILES) {
    const bytes = await readFile(join(dist, file));
    for (const [accept, encoding, decode] of [
      [undefined, undefined, (b) => b],
      ['identity', undefined, (b) => b],
      ['gzip', 'gzip', gunzipSync],
      ['gzip, deflate', 'gzip', gunzipSync],
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['br', 'br', brotliDecompressSync],
    ]) {
      const what = `/${path} with Accept-Encoding: ${accept ?? '(none)'}`;
      const res = await get(path, accept);
      assert.equal(res.status, 200, what);
      assert.equal(res.headers['content-encoding'], encoding, what);
      assert.match(res.headers['content-type'], type, what);
      assert.match(res.headers.vary ?? '', /Accept-Encoding/i, what);
      assert.equal(Number(res.headers['content-length']), res.body.length, what);
      assert.ok(decode(res.body).equals(bytes), `${what}: the body is the file`);
      if (encoding) assert.ok(res.body.length < bytes.length * 0.8, `${what}: ${res.body.length} of ${bytes.length} bytes`);
      assert.ok(res.headers['content-security-policy'], what);
    }
  }
  // fonts are compressed already (woff2): sent as they are
  const font = await get('katex/fonts/KaTeX_Main-Regular.woff2', 'gzip, deflate, br');
  assert.equal(font.headers['content-encoding'], undefined);
  assert.equal(font.headers['content-type'], 'font/woff2');
});

const preloads = async () => [...(await readFile(join(dist, 'index.html'), 'utf8'))
  .matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin>/g)].map((m) => m[1]);

test('the page boots over compressed responses; preloaded fonts are fetched once, used, and cover the first screen', async () => {
  const fonts = await preloads();
  assert.ok(fonts.length >= 1, 'index.html preloads KaTeX fonts');
  // the top of the page, and a chapter opened by its fragment (maths on the first screen)
  for (const fragment of ['', '#core-attention']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const responses = [];
    context.on('response', (r) => responses.push({ url: r.url(), encoding: r.headers()['content-encoding'], type: r.headers()['content-type'] }));
    const { page, errors } = await openPage(context, server.url + fragment);
    await page.evaluate(() => document.fonts.ready);
    const got = (name) => responses.filter((r) => new URL(r.url).pathname === `/${name}`);
    // (the page's core is the one without the trainer, relaxed SIMD in Chromium: attn-core-lite-relaxed.wasm)
    for (const name of ['app.js', 'attn-core-lite-relaxed.wasm', 'styles.css']) {
      assert.equal(got(name).length, 1, name);
      assert.match(got(name)[0].encoding ?? '', /^(gzip|br)$/, `${name} came compressed`);
    }
    assert.equal(got('attn-core-lite-relaxed.wasm')[0].type, 'application/wasm');
    assert.equal(got('attn-core.wasm').length, 0, 'the whole core (with the trainer) is not loaded by the page');
    // a font preloaded without the matching crossorigin mode would be fetched twice
    for (const href of fonts) assert.equal(got(href).length, 1, `${href} fetched once`);
    const faces = await page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family.replace(/"/g, '')}-${f.style === 'italic' ? 'Italic' : f.weight === '700' || f.weight === 'bold' ? 'Bold' : 'Regular'}`));
    for (const href of fonts) {
      const face = /KaTeX_([\w-]+)\.woff2$/.exec(href)[1];
      assert.ok(faces.includes(`KaTeX_${face}`), `preloaded ${href} is used (${faces.join(', ')})`);
    }
    // every KaTeX face that the maths inside the first screen uses is preloaded
    const firstScreen = await page.evaluate(() => {
      const used = new Set();
      for (const el of document.querySelectorAll('.katex-html *')) {
        if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const r = el.getBoundingClientRect();
        if (r.bottom < 0 || r.top > innerHeight || r.width === 0) continue;
        const cs = getComputedStyle(el);
        const family = cs.fontFamily.split(',')[0].replace(/"/g, '').trim();
        if (family.startsWith('KaTeX_')) used.add(`${family}-${cs.fontStyle === 'italic' ? 'Italic' : Number(cs.fontWeight) >= 600 ? 'Bold' : 'Regular'}`);
      }
      return [...used];
    });
    if (fragment) assert.ok(firstScreen.length > 0, `${fragment}: maths on the first screen`);
    for (const face of firstScreen) assert.ok(fonts.some((f) => f.endsWith(`/${face}.woff2`)), `${fragment}: ${face} is on the first screen but not preloaded`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// The chapter folders (web/src/chapters/<id>/) and the list the build generates from them
// (web/scripts/chapters.mjs), in Node: every folder is a whole chapter, the Korean and
// English prose have the same keys, the page's own text too, and a broken folder fails
// the build with a message that names it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, cp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { readChapters, chapterList, pageShell, CHAPTERS_DIR } from '../../web/scripts/chapters.mjs';

const keys = (o, p = '') => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? keys(v, `${p}${k}.`) : [`${p}${k}`])).sort();

test('every chapter folder has its module, prose, test and order; ko and en have the same keys', async () => {
  const chapters = await readChapters();
  assert.ok(chapters.length >= 18, `${chapters.length} chapters`);
  for (const c of chapters) {
    assert.deepEqual(keys(c.text.en), keys(c.text.ko), `${c.id}: en.js and ko.js have the same keys`);
    assert.ok(existsSync(join(CHAPTERS_DIR, c.id, `${c.id}.test.mjs`)), `${c.id} has its browser test`);
  }
  const orders = chapters.map((c) => c.order);
  assert.deepEqual(orders, [...orders].sort((a, b) => a - b));
  assert.equal(chapters[0].id, 'why-attention');
  assert.equal(chapters.at(-1).id, 'review');
  const ko = (await import('../../web/src/kit/ko.js')).default;
  const en = (await import('../../web/src/kit/en.js')).default;
  assert.deepEqual(keys(en), keys(ko), 'the page text (kit/en.js, kit/ko.js) has the same keys');
});

test('the generated list imports each chapter lazily, in reading order', async () => {
  const src = await chapterList();
  const ids = [...src.matchAll(/id: "([a-z0-9-]+)"/g)].map((m) => m[1]);
  assert.deepEqual(ids, (await readChapters()).map((c) => c.id));
  assert.match(src, /load: \(\) => import\("\.\/core-attention\/index\.js"\)/);
  assert.match(src, /en: \(\) => import\("\.\/core-attention\/en\.js"\)/);
  assert.doesNotMatch(src, /^import /m, 'no chapter is imported statically');
});

test('a folder that is not a whole chapter fails with its name; so do duplicate orders and unknown needs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chapters-'));
  try {
    await cp(join(CHAPTERS_DIR, 'softmax'), join(dir, 'softmax'), { recursive: true });
    await mkdir(join(dir, 'half'));
    await writeFile(join(dir, 'half', 'index.js'), 'export default {};');
    await assert.rejects(readChapters(dir), /chapter half: chapter\.json is missing/);
    await cp(join(CHAPTERS_DIR, 'softmax'), join(dir, 'half'), { recursive: true });
    await assert.rejects(readChapters(dir), /same order/);
    await writeFile(join(dir, 'half', 'chapter.json'), '{ "order": 1, "needs": ["nowhere"] }');
    await assert.rejects(readChapters(dir), /needs "nowhere"/);
    await writeFile(join(dir, 'half', 'chapter.json'), '{ "order": 1 }');
    await writeFile(join(dir, 'half', 'en.js'), 'export default { toc: "x" };');
    await assert.rejects(readChapters(dir), /en\.js has no "title"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the page shell: the table of contents and a placeholder per chapter are in the HTML', async () => {
  const chapters = await readChapters();
  const html = await readFile(new URL('../../web/index.html', import.meta.url), 'utf8');
  const out = pageShell(html, chapters);
  for (const c of chapters) {
    assert.match(out, new RegExp(`<li><a href="#${c.id}">`), `${c.id} in the table of contents`);
    assert.match(out, new RegExp(`<section id="${c.id}" class="chapter placeholder"[^>]*--reserve-wide:${c.height[0]}px;--reserve-narrow:${c.height[1]}px"><h2>`), `${c.id}: placeholder`);
  }
  assert.ok(out.indexOf('<section id="why-attention"') < out.indexOf('<section id="review"'), 'in reading order');
  assert.throws(() => pageShell('<html><body></body></html>', chapters), /no <nav id="toc">/);
});

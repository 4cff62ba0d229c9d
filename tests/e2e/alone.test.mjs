// Every chapter alone, as a teacher embeds it: in the <attention-explorer> widget and in an
// ?embed=<id> frame, in both languages. A chapter alone has no chapter before or after it,
// so its visible prose (folds opened) names none as the previous, the next or an earlier
// one, nor the rest of "this page" (ctx.onPage chooses the paragraph's second form), and no
// link in it points at an id the document does not hold, nor is anything a link made by
// script (role=link). (On the full page the prose may point there: each chapter's own test.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, root, LAX_CSP, tempDir, WAIT_MS, widgetsHtml } from './harness.mjs';

const chaptersDir = join(root, 'web', 'src', 'chapters');
const ids = (await Promise.all((await readdir(chaptersDir)).map(async (id) =>
  [id, JSON.parse(await readFile(join(chaptersDir, id, 'chapter.json'), 'utf8')).order]))).sort((a, b) => a[1] - b[1]).map(([id]) => id);
const gen = await tempDir('attn-alone-');
const { server, browser } = await harness({ mounts: { '/generated/': { dir: gen, csp: LAX_CSP } } });

// What a chapter alone must not say (the words it used for its neighbours on the page).
const POINTERS = {
  en: '\\b(previous|next|earlier|last) chapters?\\b|\\bas before\\b|elsewhere on this page|rest of the page|other chapters on this page',
  ko: '(앞|다음|이전|지난) 장|페이지의 다른',
};

// In the page: the problems of the chapter `id` under `root` (the document or a widget's
// shadow root): a pointer in its visible text, a link to an id that is not there.
function aloneProblems([id, pattern, where]) {
  const host = where ? document.querySelector(where) : null;
  const root = host ? host.shadowRoot : document;
  const section = root.querySelector(`section#${id}`);
  if (!section) return [`no section #${id}`];
  const out = [];
  for (const d of section.querySelectorAll('details')) d.open = true; // folded prose counts
  const re = new RegExp(pattern, 'i');
  for (const line of section.innerText.split('\n')) {
    const m = re.exec(line);
    if (m) out.push(`says "${m[0]}": ${line.trim().slice(0, 160)}`);
  }
  for (const a of section.querySelectorAll('a[href^="#"]')) {
    const target = decodeURIComponent(a.getAttribute('href').slice(1));
    if (target && !root.getElementById(target)) out.push(`links to #${target}, which is not there ("${a.textContent.trim()}")`);
  }
  // (a link made by script, such as terms-formula's symbols where two-keys is there)
  for (const n of section.querySelectorAll('[role="link"]')) out.push(`has a link to nowhere: ${n.outerHTML.slice(0, 80)}`);
  return out;
}

test('every chapter alone in the widget, in both languages: no chapter named as previous or next, no link to a missing id', async () => {
  const problems = [];
  for (const lang of ['ko', 'en']) {
    await writeFile(join(gen, `alone-${lang}.html`), widgetsHtml({ langs: [lang] }));
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}generated/alone-${lang}.html`);
    await page.waitForFunction(() => document.body.dataset.chapters
      && document.querySelectorAll('attention-explorer[data-ready="true"]').length === document.body.dataset.chapters.split(' ').length);
    const inWidget = (await page.$eval('body', (b) => b.dataset.chapters)).split(' ');
    assert.deepEqual([...inWidget].sort(), [...ids].sort(), 'the widget has every chapter');
    for (const id of inWidget)
      for (const p of await page.evaluate(aloneProblems, [id, POINTERS[lang], `attention-explorer[chapter="${id}"]`]))
        problems.push(`widget ${id} (${lang}): ${p}`);
    for (const e of errors) problems.push(`widget (${lang}): console ${e}`);
    await page.close();
  }
  assert.deepEqual(problems, []);
});

test('every chapter alone in an ?embed= frame, in both languages: no chapter named as previous or next, no link to a missing id', async () => {
  const problems = [];
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  page.setDefaultTimeout(WAIT_MS);
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  for (const id of ids)
    for (const lang of ['ko', 'en']) {
      await page.goto(`${server.url}?embed=${id}&lang=${lang}#${id}`);
      await page.waitForSelector('body[data-ready="true"]');
      for (const p of await page.evaluate(aloneProblems, [id, POINTERS[lang], null])) problems.push(`?embed=${id} (${lang}): ${p}`);
      for (const e of errors.splice(0)) problems.push(`?embed=${id} (${lang}): console ${e}`);
    }
  await page.close();
  assert.deepEqual(problems, []);
});

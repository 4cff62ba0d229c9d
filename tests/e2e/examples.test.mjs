// Every example under docs/examples (the hosts of docs/embedding.md) loads the widget
// from a relative path and renders the core's numbers; none makes a request off its
// origin. Plain HTML and reveal.js pages are opened as they are; for Quarto, MkDocs and
// Jupyter the page the tool would produce is built from the example's own HTML (Quarto's
// raw blocks and header, MkDocs' raw HTML and extra_javascript, the notebook's cells run
// by python3 with IPython's display stubbed, shown the way JupyterLab runs output scripts).
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdir, readFile, readdir, writeFile, copyFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { harness, openIsolated, widgetsReady, widgetCells, shots, root, LAX_CSP, frames, tempDir } from './harness.mjs';

const examples = join(root, 'docs', 'examples');
const gen = await tempDir('attn-examples-');
const env = await harness({ mounts: { '/generated/': { dir: gen, csp: LAX_CSP } } });
const { server, browser } = env;

const P3 = ['0.114', '0.042', '0.844'];
const covered = new Set(['slides.js']); // loaded by reveal.html

async function check(url, name, { width = 1280, before } = {}) {
  const { page, errors, foreign, close } = await openIsolated(browser, url, { width, height: 900 });
  if (before) await before(page);
  await widgetsReady(page);
  const n = await page.$$eval('attention-explorer', (ws) => ws.length);
  assert.ok(n >= 1, `${name}: no widget`);
  const first = await page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('[data-grid="P"]') !== null);
  if (first) assert.deepEqual(await widgetCells(page, 'attention-explorer', 'P', 3), P3, `${name}: the core's numbers`);
  const notices = await page.$$eval('attention-explorer', (ws) => ws.map((w) => (w.shadowRoot.querySelector('.notice').hidden ? '' : w.shadowRoot.querySelector('.notice').textContent)).filter(Boolean));
  assert.deepEqual(notices, [], name);
  return { page, errors, foreign, close };
}
const done = async ({ page, errors, foreign, close }, name, shot = true) => {
  if (shot) await page.screenshot({ path: join(shots, `example-${name}.png`), fullPage: true });
  assert.deepEqual(errors, [], name);
  assert.deepEqual(foreign, [], name);
  await close();
};

test('plain HTML page, desktop and 360 px', async () => {
  covered.add('plain.html');
  const r = await check(`${server.url}examples/plain.html`, 'plain');
  assert.equal(await r.page.evaluate(() => window.__wasmInstances), 1);
  await r.page.screenshot({ path: join(shots, 'example-plain-desktop.png'), fullPage: true });
  await r.page.setViewportSize({ width: 360, height: 780 });
  await frames(r.page);
  const overflow = await r.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${overflow}px too wide at 360 px`);
  await done(r, 'plain-phone');
});

test('reveal.js slides: widgets on slides, dark theme followed', async () => {
  covered.add('reveal.html');
  const r = await check(`${server.url}examples/reveal.html#/weights`, 'reveal', {
    before: (page) => page.waitForFunction(() => window.Reveal?.isReady?.(), null),
  });
  assert.equal(await r.page.evaluate(() => Reveal.getCurrentSlide().id), 'weights');
  assert.equal(await r.page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('.ae-root').dataset.scheme), 'dark');
  assert.ok(await r.page.isVisible('#weights attention-explorer'));
  await r.page.screenshot({ path: join(shots, 'example-reveal-weights.png') });
  // editing Q on the next slide changes its scores (two widgets, each its own state)
  await r.page.evaluate(() => Reveal.next());
  const S = await widgetCells(r.page, '#scores attention-explorer[figure="S"]', 'S', 3);
  assert.deepEqual(S, ['2', '0', '6']);
  // arrow keys typed into a cell stay in the widget instead of changing slides
  const cell = '#scores attention-explorer[figure="input-Q"] [data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input';
  await r.page.focus(cell);
  await r.page.keyboard.press('End');
  await r.page.keyboard.press('ArrowRight');
  await r.page.keyboard.press('ArrowLeft');
  assert.equal(await r.page.evaluate(() => Reveal.getCurrentSlide().id), 'scores');
  await r.page.fill(cell, '5');
  assert.equal(await r.page.inputValue(cell), '5');
  await done(r, 'reveal', false);
});

test('Quarto: the raw HTML blocks and header of quarto.qmd', async () => {
  covered.add('quarto.qmd');
  const qmd = await readFile(join(examples, 'quarto.qmd'), 'utf8');
  const header = /include-in-header:\s*\n\s*text:\s*\|\s*\n([\s\S]*?)\n(?=\S|\s*\S+:)/.exec(qmd)[1].trim();
  assert.match(header, /<script type="module" src="attention-explorer.js"><\/script>/);
  assert.match(qmd, /resources:\s*\n\s*- attention-explorer.js/, 'Quarto copies the widget next to the page');
  const blocks = [...qmd.matchAll(/```\{=html\}\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 2);
  await mkdir(join(gen, 'quarto'), { recursive: true });
  await writeFile(join(gen, 'quarto', 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>quarto</title>${header}</head><body>${blocks.join('<p>…</p>')}</body></html>`);
  const r = await check(`${server.url}generated/quarto/index.html`, 'quarto');
  await done(r, 'quarto');
});

test('MkDocs: docs/index.md raw HTML with mkdocs.yml extra_javascript (type: module)', async () => {
  covered.add('mkdocs');
  const yml = await readFile(join(examples, 'mkdocs', 'mkdocs.yml'), 'utf8');
  const scripts = [...yml.matchAll(/- path: (\S+)\s*\n\s*type: module/g)].map((m) => m[1]);
  assert.deepEqual(scripts, ['attention-explorer.js']);
  const md = await readFile(join(examples, 'mkdocs', 'docs', 'index.md'), 'utf8');
  // Python-Markdown passes block-level HTML through untouched; the rest is prose
  const body = md.split(/\n\s*\n/).map((b) => (b.startsWith('<') ? b : b.startsWith('# ') ? `<h1>${b.slice(2)}</h1>` : `<p>${b}</p>`)).join('\n');
  await mkdir(join(gen, 'mkdocs'), { recursive: true });
  await writeFile(join(gen, 'mkdocs', 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mkdocs</title></head><body>${body}${scripts.map((s) => `<script src="${s}" type="module"></script>`).join('')}</body></html>`);
  const r = await check(`${server.url}generated/mkdocs/index.html`, 'mkdocs');
  // the exercise widget: the two hidden weights are answer fields
  assert.equal(await r.page.evaluate(() => document.querySelectorAll('attention-explorer')[1].shadowRoot.querySelectorAll('input.answer:not([hidden])').length), 2);
  await done(r, 'mkdocs');
});

const python = spawnSync('python3', ['--version']).status === 0;
test('Jupyter: the notebook cells run by python3, their HTML outputs shown as JupyterLab does', { skip: python ? false : 'python3 is not installed' }, async () => {
  covered.add('jupyter.ipynb');
  const nb = JSON.parse(await readFile(join(examples, 'jupyter.ipynb'), 'utf8'));
  const code = nb.cells.filter((c) => c.cell_type === 'code').map((c) => c.source.join('')).join('\n\n');
  const dir = join(gen, 'jupyter');
  await mkdir(join(dir, 'IPython'), { recursive: true });
  await writeFile(join(dir, 'IPython', '__init__.py'), '');
  await writeFile(join(dir, 'IPython', 'display.py'),
    'import json, sys\nclass HTML:\n    def __init__(self, data):\n        self.data = data\n' +
    'def display(*objs):\n    for o in objs:\n        sys.stdout.write(json.dumps(o.data) + "\\n")\n');
  await copyFile(join(root, 'web', 'dist', 'attention-explorer.js'), join(dir, 'attention-explorer.js'));
  const run = spawnSync('python3', ['-c', code], { cwd: dir, env: { ...process.env, PYTHONPATH: dir }, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, run.stderr);
  const outputs = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(outputs.length, 3);
  assert.ok(!outputs[0].slice(0, -9).includes('</script'), 'the inlined script cannot end early');
  await writeFile(join(dir, 'outputs.json'), JSON.stringify(outputs));
  // JupyterLab sets an output's HTML, then re-creates its script elements so they run
  await writeFile(join(dir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>notebook</title></head><body>
    <main id="notebook"></main>
    <script type="module">
      const outputs = await (await fetch('outputs.json')).json();
      for (const html of outputs) {
        const area = document.createElement('div');
        area.className = 'jp-OutputArea-output';
        area.innerHTML = html;
        for (const old of area.querySelectorAll('script')) {
          const s = document.createElement('script');
          for (const a of old.attributes) s.setAttribute(a.name, a.value);
          s.textContent = old.textContent;
          old.replaceWith(s);
        }
        document.getElementById('notebook').append(area);
      }
    </script></body></html>`);
  const r = await check(`${server.url}generated/jupyter/index.html`, 'jupyter');
  assert.equal(await r.page.$$eval('attention-explorer', (ws) => ws.length), 2);
  assert.deepEqual(await r.page.evaluate(() => [...document.querySelectorAll('attention-explorer')][1].getAttribute('figure')), 'P');
  await done(r, 'jupyter');
});

test('no example is left untested', async () => {
  for (const name of await readdir(examples)) assert.ok(covered.has(name) || (name === 'jupyter.ipynb' && !python), `no test opens docs/examples/${name}`);
});

// The matrix tools every grid has: copy as text, paste text in (whole matrix, block,
// malformed text refused inline with the state kept), LaTeX / Markdown / CSV exports
// whose text matches what the grid shows, SVG and PNG files of the figure.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { encodeSlice } from '../../web/src/kit/url-state.js';
import { pasteInto, harness, openIsolated, pageReady, cells } from './harness.mjs';

const env = await harness();
const { server, browser } = env;

const Qcell = (i, j) => `[data-grid="input-Q"] tbody tr:nth-child(${i}) td:nth-of-type(${j}) input`;
const qValues = (page) => page.$$eval('[data-grid="input-Q"] tbody input', (ns) => ns.map((n) => n.value));
const menu = async (page, grid, act) => {
  await page.click(`[data-grid="${grid}"] .grid-tools summary`);
  await page.click(`[data-grid="${grid}"] [data-act="${act}"]`);
};
const exported = (page, grid) => page.inputValue(`[data-grid="${grid}"] .grid-io textarea`);

test('exports: plain text, LaTeX, Markdown and CSV hold the numbers the grid shows', async () => {
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}?lang=en#core-attention`, { permissions: ['clipboard-read', 'clipboard-write'] });
  await pageReady(page);
  await page.click('[data-stepper="core-attention"] [role="tab"][data-step="softmax"]');
  const shown = await Promise.all([1, 2, 3].map((r) => cells(page, 'P', r)));
  const ascii = (s) => s.replace('\u2212', '-');

  await menu(page, 'P', 'latex');
  const latex = await exported(page, 'P');
  assert.equal(latex, `\\begin{bmatrix}\n${shown.map((r) => `  ${r.map(ascii).join(' & ')}`).join(' \\\\\n')}\n\\end{bmatrix}`);
  assert.match(latex, /0\.114 & 0\.042 & 0\.844/);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), latex);
  assert.match(await page.textContent('[data-grid="P"] .grid-io-status'), /Copied/);

  await menu(page, 'P', 'markdown');
  const md = (await exported(page, 'P')).split('\n');
  assert.equal(md[0], '|  | k1 | k2 | k3 |');
  assert.equal(md[1], '|---|---:|---:|---:|');
  assert.equal(md[4], `| q3 | ${shown[2].join(' | ')} |`);

  await menu(page, 'P', 'csv');
  const csv = (await exported(page, 'P')).split(/\r?\n/).map((l) => l.split(',').map(Number)); // a textarea shows CRLF as LF
  assert.equal(csv.length, 3);
  csv.forEach((row, i) => row.forEach((x, j) => assert.equal(x.toFixed(3), shown[i][j], `CSV (${i + 1}, ${j + 1}) at full precision`)));
  assert.ok(csv[2].some((x) => String(x).length > 5), 'CSV keeps full float32 precision');

  await menu(page, 'masked-4', 'copy');
  const text = await exported(page, 'masked-4');
  assert.equal(text.split('\n')[1], '3 1.5 -inf');

  // Ctrl+C on a grid with nothing selected copies the whole matrix
  await page.focus('[data-grid="P"] tbody td');
  await page.keyboard.press('Control+C');
  const copied = (await page.evaluate(() => navigator.clipboard.readText())).split('\n').map((l) => l.split(' ').map(Number));
  assert.deepEqual(copied.map((r) => r.map((x) => x.toFixed(3))), shown);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

test('figures: SVG and PNG files of a grid', async () => {
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}?lang=en#core-attention`);
  await pageReady(page);
  await page.click('[data-stepper="core-attention"] [role="tab"][data-step="softmax"]');
  const [svgDl] = await Promise.all([page.waitForEvent('download'), menu(page, 'P', 'svg')]);
  assert.equal(svgDl.suggestedFilename(), 'core-attention-P.svg');
  const svg = await readFile(await svgDl.path(), 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="\d+"/);
  for (const v of ['0.114', '0.042', '0.844', 'q3', 'k1']) assert.ok(svg.includes(`>${v}<`), `SVG shows ${v}`);
  assert.equal((svg.match(/<rect /g) ?? []).length, 1 + 9, 'background and one cell per entry');
  const [pngDl] = await Promise.all([page.waitForEvent('download'), menu(page, 'P', 'png')]);
  assert.equal(pngDl.suggestedFilename(), 'core-attention-P.png');
  const png = await readFile(await pngDl.path());
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const width = png.readUInt32BE(16), height = png.readUInt32BE(20);
  assert.ok(width > 200 && height > 150, `PNG is ${width}×${height}`);
  assert.ok(png.length > 2000, 'the PNG has content');
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

test('paste: a whole matrix, a block from a cell, the paste panel; malformed text is refused inline and the state is kept', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}?lang=en#core-attention`);
  await pageReady(page);
  const S0 = await cells(page, 'S', 3);
  const Q0 = await qValues(page);
  // a whole 3×8 matrix, as a spreadsheet copies it (tabs, CRLF)
  const rows = [[1, 0, 1, 0, 0, 1, 1, 0], [2, 0, 2, -1, 1, 0, 0, 1], [-1, 1, 1, 3, 1, 1, 0, -1]];
  await pasteInto(page, Qcell(1, 1), rows.map((r) => r.join('\t')).join('\r\n'));
  assert.deepEqual(await qValues(page), rows.flat().map(String));
  const S1 = await cells(page, 'S', 3);
  assert.notDeepEqual(S1, S0);
  // the link carries the pasted matrix (the whole state, as the page encodes it)
  const matrix = (vals) => ({ rows: 3, cols: 8, data: Float32Array.from(vals.map(Number)) });
  const slice = encodeSlice({ Q: matrix(rows.flat()) }, { Q: matrix(Q0) });
  await page.waitForFunction((w) => new URLSearchParams(location.search).get('core-attention') === w, slice);
  // a 1×2 block from row 2, column 3
  await pasteInto(page, Qcell(2, 3), '9, 8');
  const q = await qValues(page);
  assert.deepEqual([q[8 + 2], q[8 + 3]], ['9', '8']);
  assert.equal(q[8 + 4], '1', 'cells outside the block are unchanged');
  const good = await qValues(page);
  const S2 = await cells(page, 'S', 3);
  // malformed text: inline error that names the problem, nothing changes
  for (const [text, re] of [
    ['1 2\n3 x', /“x” on row 2 is not a number/],
    ['1 2 3\n4 5', /Row 2 has 2 numbers but row 1 has 3/],
    ['1 2 3\n4 5 6', /The pasted matrix is 2×3; this one is 3×8/],
    ['1,5\t2', /The pasted matrix is 1×3; .* A comma between digits separates two numbers here: decimals are written with a point, as in 1\.5\./],
    ['1 1e9', /outside the range −1,000,000 to 1,000,000/],
  ]) {
    await pasteInto(page, Qcell(3, 8), text);
    assert.equal(await page.isVisible('[data-grid="input-Q"] .grid-error'), true, text);
    assert.match(await page.textContent('[data-grid="input-Q"] .grid-error'), re, text);
    assert.deepEqual(await qValues(page), good, `state kept after ${JSON.stringify(text)}`);
    assert.deepEqual(await cells(page, 'S', 3), S2);
  }
  // a refused paste's message ("Nothing was changed") goes once the matrix changes otherwise:
  // Reset to the example
  await pasteInto(page, Qcell(3, 8), '1 2 3\n4 5 6');
  assert.equal(await page.isVisible('[data-grid="input-Q"] .grid-error'), true);
  await page.click('#core-attention button.reset');
  await page.waitForFunction(() => document.querySelector('[data-grid="input-Q"] .grid-error').hidden);
  // and on the example's matrix, where Reset changes nothing
  await pasteInto(page, Qcell(3, 8), '1 2 3\n4 5 6');
  assert.equal(await page.isVisible('[data-grid="input-Q"] .grid-error'), true);
  await page.click('#core-attention button.reset');
  await page.waitForFunction(() => document.querySelector('[data-grid="input-Q"] .grid-error').hidden);
  // the paste panel (no clipboard needed): NumPy's print form
  await menu(page, 'input-Q', 'paste');
  await page.fill('[data-grid="input-Q"] .grid-io textarea', '[[1 0 1 0 0 1 1 0]\n [3 0 2 -1 1 0 0 1]\n [-1 1 1 2 1 1 0 -1]]');
  await page.click('[data-grid="input-Q"] [data-act="apply"]');
  assert.equal(await page.isVisible('[data-grid="input-Q"] .grid-error'), false, await page.textContent('[data-grid="input-Q"] .grid-error'));
  assert.deepEqual((await qValues(page)).slice(16), ['-1', '1', '1', '2', '1', '1', '0', '-1']);
  assert.equal(await page.isHidden('[data-grid="input-Q"] .grid-io'), true);
  // Escape closes the panel, keeps the state, and gives the focus back to the menu
  await menu(page, 'input-Q', 'paste');
  await page.fill('[data-grid="input-Q"] .grid-io textarea', '9 9');
  await page.press('[data-grid="input-Q"] .grid-io textarea', 'Escape');
  assert.equal(await page.isHidden('[data-grid="input-Q"] .grid-io'), true);
  assert.equal(await page.evaluate(() => document.activeElement.matches('[data-grid="input-Q"] .grid-tools summary')), true);
  assert.deepEqual((await qValues(page)).slice(16), ['-1', '1', '1', '2', '1', '1', '0', '-1']);
  // a single number pasted into a cell is left to the browser (ordinary typing)
  const prevented = await page.$eval(Qcell(1, 1), (input) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', ' 4 ');
    const e = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true });
    input.dispatchEvent(e);
    return e.defaultPrevented;
  });
  assert.equal(prevented, false);
  assert.deepEqual(errors, []);
  await close();
});

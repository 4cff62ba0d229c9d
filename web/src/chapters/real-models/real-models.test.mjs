// The served page in headless Chromium: the real-models chapter opening the tiny checkpoints of
// tests/core/data/pretrained/ (served at /pretrained/ for ?model=) through the file picker,
// every head's map, the role table, an ablation, and each load error in the page's language
// with the previous model kept. Nothing is downloaded.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harness, openPage, shots, openIsolated as openHost, LAX_CSP, assertAccessible } from '../../../../tests/e2e/harness.mjs';
import { gpt2Tensors, safetensorsHeader } from '../../../../tools/pretrained/gpt2-layout.mjs';
import { fill } from '../../kit/fill.js';
import ko from './ko.js';
import en from './en.js';

const here = dirname(fileURLToPath(import.meta.url));
const data = resolve(here, '..', '..', '..', '..', 'tests', 'core', 'data', 'pretrained');
const { server, browser } = await harness({ mounts: { '/pretrained/': data } });
const S = '#real-models';

async function folder(name) {
  const out = {};
  for (const f of await readdir(join(data, name))) if (f !== 'expected.safetensors') out[f] = await readFile(join(data, name, f));
  return out;
}
const payload = (files) => Object.entries(files).map(([name, buffer]) => ({ name, mimeType: 'application/octet-stream', buffer }));
const text = (page, sel) => page.textContent(sel).then((t) => t.replace(/\s+/g, ' ').trim());

async function openChapter(query = '', opts = {}) {
  const q = new URLSearchParams(query);
  q.set('embed', 'real-models');
  const r = await openPage(browser, `${server.url}?${q}#real-models`, opts);
  await r.page.waitForSelector(`${S} h2`);
  return r;
}
// waits until the model is loaded (its maps built)
const loaded = (page, layersHeads) => page.waitForFunction(([s, n]) =>
  document.querySelector(`${s} [data-check="model"]`)?.dataset.state === 'loaded' &&
  document.querySelectorAll(`${s} [data-heads="model-view"] [data-head] canvas`).length === n, [S, layersHeads]);
// the maps all show the current sentence (they are painted a few a frame)
const painted = (page) => page.waitForFunction((s) => {
  const v = document.querySelector(`${s} [data-heads="model-view"]`);
  return v.dataset.painted === String(v.querySelectorAll('[data-head]').length);
}, S);
// types a sentence and waits for its heads (the tiny checkpoints read 24 tokens: the default
// sentences are longer)
// (the tokens line names the sentence it shows in data-for: the wait is for exactly this
// sentence, not for a word an earlier one may also have held)
async function analysed(page, sentence, word) {
  await page.fill(`${S} textarea[data-control="text"]`, sentence);
  await page.waitForFunction(({ S: s, sentence: t }) => document.querySelector(`${s} [data-check="tokens"]`)?.dataset.for === t &&
    document.querySelector(`${s} [data-check="sentence-error"]`).hidden, { S, sentence });
  assert.ok((await text(page, `${S} [data-check="tokens"]`)).includes(word), `the tokens line shows "${word}"`);
  await painted(page);
}
// the chosen head's two grids written (a few rows a frame, once they are near the screen)
const gridsDone = async (page) => {
  await page.$eval(`${S} [data-grids="head"]`, (e) => e.scrollIntoView({ block: 'nearest' }));
  await page.waitForFunction((s) => document.querySelector(`${s} [data-grids="head"]`)?.dataset.filled === 'true', S);
};
// the roles measured and the table's rows written (a few a frame)
const rolesDone = (page) => page.waitForFunction((s) => document.querySelector(`${s} [data-check="roles"]`)?.dataset.state === 'done' &&
  document.querySelector(`${s} [data-table="roles"]`).dataset.filled === 'true', S);
const errorShown = (page, before) => page.waitForFunction(([s, b]) => {
  const n = document.querySelector(`${s} [data-check="model-error"]`);
  return n && !n.hidden && n.textContent !== b && document.querySelector(`${s} [data-progress="model"]`).hidden;
}, [S, before]);

test('real-models: no model yet; a GPT-2 checkpoint through the file picker: every head, roles, ablation', async () => {
  const { page, errors } = await openChapter();
  // no file: the chapter says so, says nothing leaves the machine, and offers the picker
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="model"]`)?.dataset.state === 'none', S);
  assert.match(await text(page, `${S} [data-check="model"]`), /아직 연 모델이 없습니다/);
  assert.equal(await text(page, `${S} [data-check="privacy"]`), ko.privacy);
  assert.equal(await text(page, `${S} [data-control="open-files"]`), ko.openFiles);
  assert.equal(await page.isVisible(`${S} textarea[data-control="text"]`), false);

  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await loaded(page, 8);
  assert.match(await text(page, `${S} [data-check="model"]`), /gpt2: 층 2개 × 헤드 4개/);
  assert.ok(page.workers().some((w) => w.url().endsWith('/real-model.js')));
  // the Korean default sentence is 63 byte-level tokens: more than this model's 24 positions
  await page.waitForFunction((s) => !document.querySelector(`${s} [data-check="sentence-error"]`).hidden, S);
  assert.match(await text(page, `${S} [data-check="sentence-error"]`), /이 모델은 24개까지 읽습니다/);
  // tokens mapped back (<|endoftext|> first)
  await analysed(page, 'the cat sat on the mat and the cat sat', 'cat');
  assert.match(await text(page, `${S} [data-check="tokens"]`), /「<\|endoftext\|>」/);
  // every head painted; 2 layer labels
  assert.ok(await page.$eval(`${S} [data-heads="model-view"] canvas`, (c) => c.width > 1 && c.getContext('2d').getImageData(0, 0, 1, 1).data[3] > 0));
  assert.deepEqual(await page.$$eval(`${S} [data-heads="model-view"] [data-layer]`, (ns) => ns.map((n) => n.textContent)), ['1층', '2층']);
  // one head enlarged: rows sum to 1
  await page.click(`${S} [data-heads="model-view"] [data-head="5"]`);
  await page.waitForFunction((s) => document.querySelector(`${s} h3:nth-of-type(4)`)?.textContent.includes('2층 2번') ||
    [...document.querySelectorAll(`${s} h3`)].some((h) => h.textContent.includes('2층 2번')), S);
  await gridsDone(page);
  const T = await page.$$eval('[data-grid="rm-P"] tbody tr', (r) => r.length);
  assert.ok(T > 5);
  const row = await page.$$eval('[data-grid="rm-P"] tbody tr:nth-child(4) td .v', (ns) => ns.map((n) => Number(n.textContent.replace('\u2212', '-'))));
  assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 0.05, String(row));
  // the model view is one Tab stop, a grid moved through with the arrow keys (2 layers × 4 heads)
  const cell = `${S} [data-heads="model-view"] [data-head]`;
  assert.deepEqual(await page.$$eval(cell, (c) => c.filter((x) => x.tabIndex === 0).map((x) => x.dataset.head)), ['5']);
  assert.equal(await page.getAttribute(`${S} [data-heads="model-view"]`, 'role'), 'grid');
  assert.equal(await page.getAttribute(`${cell}[data-head="5"]`, 'aria-selected'), 'true');
  await page.focus(`${S} textarea[data-control="text"]`);
  const focused = () => page.evaluate(() => document.activeElement?.dataset.head ?? document.activeElement?.tagName);
  const tabs = [];
  for (let i = 0; i < 12 && tabs.at(-1) !== '5'; i++) {
    await page.keyboard.press('Tab');
    tabs.push(await focused());
  }
  assert.equal(tabs.at(-1), '5', tabs.join());
  const keys = [['ArrowRight', '6'], ['ArrowRight', '7'], ['ArrowRight', '7'], ['ArrowUp', '3'], ['ArrowUp', '3'], ['Home', '0'],
    ['ArrowLeft', '0'], ['ArrowDown', '4'], ['End', '7'], ['Control+Home', '0'], ['Control+End', '7'], ['ArrowLeft', '6']];
  for (const [key, want] of keys) {
    await page.keyboard.press(key);
    assert.equal(await focused(), want, key);
  }
  // a move is not a choice: Enter chooses (the heading names it), the Tab stop stays on it
  assert.equal(await page.getAttribute(`${cell}[data-head="6"]`, 'aria-selected'), 'false');
  await page.keyboard.press('Enter');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-head="6"]`).getAttribute('aria-selected') === 'true', S);
  assert.ok((await page.$$eval(`${S} h3`, (hs) => hs.map((h) => h.textContent))).some((t) => t.includes('2층 3번')));
  assert.match(await page.getAttribute(`${cell}[data-head="6"]`, 'aria-label'), /^2층 3번 · /);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press(' ');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-head="5"]`).getAttribute('aria-selected') === 'true', S);
  assert.deepEqual(await page.$$eval(cell, (c) => c.filter((x) => x.tabIndex === 0).map((x) => x.dataset.head)), ['5']);
  // Tab leaves the grid at once (one stop, not 8)
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate((s) => document.querySelector(`${s} [data-heads="model-view"]`).contains(document.activeElement), S), false);
  // the rollout view
  await page.check(`${S} input[data-control="view-rollout"]`);
  await page.waitForFunction(() => document.querySelector('[data-grid="rm-view"] caption, [data-grid="rm-view"]')?.textContent.includes('rollout'));
  // roles: sorted, counted, the unnamed ones too
  await rolesDone(page);
  assert.equal(await page.$$eval(`${S} [data-table="roles"] tbody tr`, (r) => r.length), 8);
  const line = await text(page, `${S} [data-check="roles"]`);
  assert.match(line, /헤드 8개 가운데/);
  const nums = line.match(/\d+/g).map(Number);
  assert.equal(nums.slice(1).reduce((a, b) => a + b, 0), 8, line); // the counts by role and the unnamed add up
  const order = ['앞 토큰', '첫 토큰(싱크)', '중복 토큰', '국소', '귀납', '이름 붙일 역할 없음'];
  // each role beside the score that earned it (or, for none, the score nearest a threshold)
  const cells = await page.$$eval(`${S} [data-table="roles"] tbody tr`, (rs) => rs.map((r) => r.cells[1].textContent));
  for (const c of cells) assert.match(c, /^\S.* \((\S+ )*\d\.\d\d [≥<] \d\.\d\d\)$/, c);
  const shownRoles = cells.map((c) => c.slice(0, c.indexOf(' (')));
  assert.ok(shownRoles.every((r) => order.includes(r)), shownRoles.join());
  assert.deepEqual(shownRoles, [...shownRoles].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  // the thresholds, once, from the worker (the core's)
  assert.match(await text(page, `${S} [data-check="thresholds"]`), /^기준: 앞 토큰 0\.40, 첫 토큰 0\.50, 중복 토큰 0\.30, 국소 0\.70, 귀납 0\.30\./);
  // ablation of every head
  await page.click(`${S} [data-control="ablate"]`);
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="ablation"]`)?.dataset.state === 'done' &&
    document.querySelector(`${s} [data-table="roles"]`).dataset.filled === 'true', S);
  assert.match(await text(page, `${S} [data-check="ablation"]`), /원래 손실 \d+\.\d{3} nats\/토큰/);
  const deltas = await page.$$eval(`${S} [data-table="roles"] tbody tr`, (rs) => rs.map((r) => r.cells[7].textContent));
  assert.ok(deltas.every((d) => /^[+−-]\d+\.\d{3}$/.test(d)), deltas.join(' '));
  // a head whose removal lowers the loss is explained (this model has some)
  if (deltas.some((d) => /^[−-]/.test(d))) assert.match(await text(page, `${S} [data-check="ablation"]`), /Δ가 0보다 작다는 것\(\d층 \d번: [−-]\d\.\d{3}\)은/);
  // stopped: the worker sees "Stop" between two pieces (it runs a few heads per task: here
  // one, ablationPieces); the model stays open and answers a new sentence. The page renders
  // between its two messages, long enough on a busy machine for this tiny model's whole
  // ablation: the request is held until the Stop is sent, then both go together (the Stop is
  // queued right behind it). What a Stop does between pieces, exactly, is
  // tests/wasm/real-model.test.mjs's; here a descheduled page thread could still let the
  // ablation finish first, which is no fault: then it reads as done.
  await page.evaluate((s) => {
    const post = Worker.prototype.postMessage;
    let held = null;
    Worker.prototype.postMessage = function (m, ...rest) {
      if (m?.type === 'ablate') return void (held = [this, m, rest]);
      if (m?.type === 'stopAblation' && held) {
        Worker.prototype.postMessage = post;
        post.call(held[0], held[1], ...held[2]);
      }
      return post.call(this, m, ...rest);
    };
    delete document.querySelector(`${s} [data-check="ablation"]`).dataset.state; // (the last run's 'done')
    document.querySelector(`${s} [data-control="ablate"]`).click();
    document.querySelector(`${s} [data-control="ablate-stop"]`).click();
  }, S);
  const state = await page.waitForFunction((s) => {
    const st = document.querySelector(`${s} [data-check="ablation"]`)?.dataset.state;
    return (st === 'stopped' || st === 'done') && st;
  }, S).then((h) => h.jsonValue());
  if (state === 'stopped') {
    const at = (await text(page, `${S} [data-check="ablation"]`)).match(/^헤드 8개 가운데 (\d)개까지 하고 멈췄습니다\. 모델은 그대로 열려 있으니 단추를 눌러 다시 잴 수 있습니다\.$/);
    assert.ok(at && Number(at[1]) >= 1 && Number(at[1]) < 8, at?.[0]);
  } else console.log('# the ablation finished before its Stop arrived (a descheduled page thread)');
  assert.equal(await page.isEnabled(`${S} [data-control="ablate"]`), true);
  await analysed(page, 'a dog sat on the mat', 'dog');
  await assertAccessible(page, 'real-models');
  assert.deepEqual(errors, []);
  await page.close();
});

// No Korean error template puts a particle whose form depends on the last sound (이/가, 은/는,
// 을/를, 과/와) right after a name it is given ({file}, {tensor}, {folder}, ...): a Latin name
// has no sure last sound. Each English template has the same placeholders.
test('real-models: the error templates: no sound-dependent particle after a name; ko and en alike', () => {
  for (const [key, tpl] of Object.entries(ko)) {
    if (!/^(err_|atTensor|inFile|values|technical)/.test(key)) continue;
    assert.doesNotMatch(tpl, /\}(이|가|은|는|을|를|과|와)(?![가-힣])/, `${key}: ${tpl}`);
    assert.doesNotMatch(tpl, /(\.json|\.safetensors|\.bin|\.txt|\))(이|가|은|는|을|를|과|와)(?![가-힣])/, `${key}: ${tpl}`);
    assert.doesNotMatch(tpl, /\{detail\}/.test(tpl) && key !== 'technical' ? /./ : /^$/, `${key}: the English detail only in the technical note`);
    // (a parenthesis after a sentence's ending takes no space in Korean: "…습니다(파일: x).")
    const filled = tpl.replace('{inFile}', ko.inFile).replace('{where}', ko.atLine).replace('{place}', ko.place);
    assert.doesNotMatch(filled, /다 \(/, `${key}: ${tpl}`);
    assert.doesNotMatch(filled, /\)\(/, `${key}: two brackets in a row: ${tpl}`);
    const ph = (t) => [...t.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort().join();
    assert.equal(ph(tpl), ph(en[key]), key);
  }
});

// The view follows the sentence in the box, whatever it is: one that is too long or empty
// leaves no maps, grids, role line or table rows of an earlier one; the ablation's button is
// disabled with the reason beside it and nothing runs; the message says why, and goes away
// when the sentence works again.
async function invalidView(page, kind, message) {
  await page.waitForFunction(([s, k]) => {
    const e = document.querySelector(`${s} [data-check="sentence-error"]`);
    return !e.hidden && e.dataset.kind === k && document.querySelector(`${s} [data-table="roles"] tbody`).rows.length === 0;
  }, [S, kind]);
  const said = await text(page, `${S} [data-check="sentence-error"]`);
  if (message instanceof RegExp) assert.match(said, message);
  else assert.equal(said, message);
  assert.equal(await page.isVisible(`${S} [data-heads="model-view"]`), false);
  assert.equal(await page.isVisible(`${S} [data-grids="head"]`), false);
  assert.equal(await page.isVisible(`${S} [data-check="tokens"]`), false);
  assert.equal(await page.isVisible(`${S} [data-control="view-norm"]`), false);
  assert.equal(await page.isVisible(`${S} [data-table="roles"]`), false);
  assert.equal(await page.getAttribute(`${S} [data-check="roles"]`, 'data-state'), 'none');
  assert.equal(await page.getAttribute(`${S} [data-check="ablation"]`, 'data-state'), 'invalid');
  assert.equal(await page.isDisabled(`${S} [data-control="ablate"]`), true);
  assert.equal(await page.isVisible(`${S} [data-control="ablate-stop"]`), false);
  assert.equal(await page.$eval(`${S} [data-control="ablate"]`, (b) => b.nextElementSibling.hidden), true); // the ablation's bar
  // the chosen head's heading goes with its grids
  assert.equal(await page.$$eval(`${S} h3`, (hs) => hs.some((h) => h.checkVisibility() && /^(헤드 하나|One head):/.test(h.textContent))), false);
  // the thresholds are the core's constants, not an earlier sentence's numbers: they stay, with
  // no "…" in them
  assert.match(await text(page, `${S} [data-check="thresholds"]`), /0\.40.*0\.50.*0\.30.*0\.70.*0\.30/);
  assert.doesNotMatch(await text(page, `${S} [data-check="thresholds"]`), /…/);
}

for (const lang of ['ko', 'en']) {
  test(`real-models (${lang}): an empty or too long sentence leaves nothing of the one before, and nothing runs`, async () => {
    const L = lang === 'ko' ? ko : en;
    const { page, errors } = await openChapter(lang === 'en' ? 'lang=en' : '');
    await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
    await loaded(page, 8);
    // the default sentence is longer than the 24 positions
    await invalidView(page, 'tooLong', lang === 'ko' ? /^문장이 토큰 \d+개입니다/ : /^The sentence is \d+ tokens long/);
    // the button does nothing either
    await page.$eval(`${S} [data-control="ablate"]`, (b) => { b.disabled = false; b.click(); });
    assert.equal(await page.getAttribute(`${S} [data-check="ablation"]`, 'data-state'), 'invalid');
    // a good one: everything
    await analysed(page, 'the cat sat on the mat and the cat sat', 'cat');
    await rolesDone(page);
    assert.equal(await page.isEnabled(`${S} [data-control="ablate"]`), true);
    // emptied: a message, nothing of the sentence before
    await page.fill(`${S} textarea[data-control="text"]`, '');
    await invalidView(page, 'empty', L.err_empty);
    // too long, then emptied: the message is the empty one's
    await page.fill(`${S} textarea[data-control="text"]`, 'the cat sat on the mat '.repeat(10));
    await invalidView(page, 'tooLong', lang === 'ko' ? /이 모델은 24개까지 읽습니다/ : /this model reads at most 24/);
    await page.fill(`${S} textarea[data-control="text"]`, '   ');
    await invalidView(page, 'empty', L.err_empty);
    await assertAccessible(page, 'real-models');
    // a good one again: no message, every part back, the roles' line and table together
    await analysed(page, 'a dog sat on the mat', 'dog');
    await rolesDone(page);
    assert.equal(await page.$$eval(`${S} [data-table="roles"] tbody tr`, (r) => r.length), 8);
    assert.match(await text(page, `${S} [data-check="thresholds"]`), /0\.40/);
    assert.equal(await page.isEnabled(`${S} [data-control="ablate"]`), true);
    await page.screenshot({ path: join(shots, `real-models-sentence-${lang}.png`), fullPage: false });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// the safetensors file with one tensor's dtype renamed (same element size: the layout stays valid)
function retype(bytes, tensor, dtype) {
  const n = Number(bytes.readBigUInt64LE(0));
  const h = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  h[tensor].dtype = dtype;
  const b = Buffer.from(bytes);
  b.write(JSON.stringify(h).padEnd(n, ' '), 8, 'utf8');
  return b;
}
const editConfig = (files, f) => ({ ...files, 'config.json': Buffer.from(JSON.stringify(f(JSON.parse(files['config.json'])))) });
const without = (files, ...names) => Object.fromEntries(Object.entries(files).filter(([n]) => !names.includes(n)));

test('real-models: each error is said in the page\'s language and the previous model stays', async () => {
  const { page, errors } = await openChapter();
  const good = await folder('gpt2-f32');
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(good));
  await loaded(page, 8);
  await analysed(page, 'the cat sat', 'cat');
  assert.equal(await page.isVisible(`${S} [data-control="dismiss-model-error"]`), false); // (no error)
  const cases = [
    ['missing', without(good, 'config.json'), /^필요한 파일이 없습니다: config\.json\./],
    ['missing', without(good, 'model.safetensors'), /^필요한 파일이 없습니다: model\.safetensors\./],
    ['pickle', { ...without(good, 'model.safetensors'), 'pytorch_model.bin': Buffer.from([0x80, 2, 0x8a, 0x0a]) }, /^PyTorch pickle 파일은 읽지 않습니다: pytorch_model\.bin\..*safe_serialization=True/],
    ['architecture', editConfig(good, (c) => ({ ...c, model_type: 'llama' })), /^이 페이지가 계산하지 못하는 구조입니다: llama \(config\.json의 model_type\)\. 읽을 수 있는 구조는 gpt2와 bert입니다/],
    ['dtype', { ...good, 'model.safetensors': retype(good['model.safetensors'], 'transformer.h.0.attn.c_attn.weight', 'I32') }, /^읽을 수 없는 자료형의 텐서가 있습니다: transformer\.h\.0\.attn\.c_attn\.weight \(파일: model\.safetensors, 자료형: I32\)/],
    [null, { ...good, 'model.safetensors': good['model.safetensors'].subarray(0, good['model.safetensors'].length - 100) }, /^(파일이 잘렸습니다|텐서 배치가 잘못되었습니다): model\.safetensors/],
    [null, editConfig(good, (c) => ({ ...c, n_embd: 16 })), /^config\.json 파일과 가중치가 맞지 않.*(있어야 할 값 16, 실제 값 32|config\.json대로라면 \[)/],
    // not JSON: said so, where the parser says, the file named once
    ['config', { ...good, 'config.json': Buffer.from('{"model_type": "gpt2", bad') }, /^config\.json 파일이 올바른 JSON이 아닙니다\(1번째 줄, 24번째 글자\)\. 앞서/],
    ['vocab', editConfig(good, (c) => ({ ...c, vocab_size: 300 })), /^어휘 크기가 맞지 않습니다\(파일: config\.json\)\. 어휘 크기: 있어야 할 값 300, 실제 값 \d+\./],
    // no model_type at all: said so, not "(none) (…)"
    ['architecture', editConfig(good, (c) => ({ ...c, model_type: undefined })), /^config\.json에 model_type이 없어서 구조를 알 수 없습니다\./],
    // a shard index that is not JSON: said so, where (not "does not match its shards")
    ['index', { ...good, 'model.safetensors.index.json': Buffer.from('{"weight_map": {"a": 1,,}}') }, /^model\.safetensors\.index\.json 파일이 올바른 JSON이 아닙니다\(1번째 줄, \d+번째 글자\)\./],
  ];
  for (const [kind, files, message] of cases) {
    const before = await text(page, `${S} [data-check="model-error"]`).catch(() => '');
    await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(files));
    await errorShown(page, before);
    const said = await text(page, `${S} [data-check="model-error"]`);
    assert.match(said, message);
    assert.match(said, /앞서 연 모델은 그대로 씁니다/);
    // the sentence is Korean: no English words of the core's detail in it (the detail, if any,
    // is the technical note below), and no particle that depends on a name's last sound
    assert.doesNotMatch(said, /\b(is|are|but|the|not|of|has|have)\b/, said);
    assert.doesNotMatch(said, /(\.json|\.safetensors|\.bin|\.txt|weight)(이|가|은|는|을|를|과|와)(?!\S)/, said);
    if (kind) assert.equal(await page.getAttribute(`${S} [data-check="model-error"]`, 'data-kind'), kind);
    // the previous model is still there and answers
    assert.equal(await page.getAttribute(`${S} [data-check="model"]`, 'data-state'), 'loaded');
    assert.equal(await page.$$eval(`${S} [data-heads="model-view"] canvas`, (c) => c.length), 8);
  }
  // a picked folder that holds two model folders: said so (their files are not mixed); one
  // model in a subfolder among other files: its files only, and it loads
  const parent = await mkdtemp(join(tmpdir(), 'rm-models-'));
  for (const [sub, files] of [['gpt2', good], ['bert', await folder('bert-f32')]]) {
    await mkdir(join(parent, 'models', sub), { recursive: true });
    for (const [n, b] of Object.entries(files)) await writeFile(join(parent, 'models', sub, n), b);
  }
  const beforeTwo = await text(page, `${S} [data-check="model-error"]`).catch(() => '');
  await page.setInputFiles(`${S} input[data-control="model-folder"]`, join(parent, 'models'));
  await errorShown(page, beforeTwo);
  assert.match(await text(page, `${S} [data-check="model-error"]`), /^고른 폴더에 모델 폴더가 2개 있습니다: models\/bert, models\/gpt2\./);
  assert.equal(await page.getAttribute(`${S} [data-check="model"]`, 'data-state'), 'loaded');
  await rm(join(parent, 'models', 'bert'), { recursive: true });
  await writeFile(join(parent, 'models', 'vocab.txt'), 'not this model\'s\n');
  await page.setInputFiles(`${S} input[data-control="model-folder"]`, join(parent, 'models'));
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="model-error"]`).hidden, S);
  await loaded(page, 8);
  await rm(parent, { recursive: true });
  // the truncated file names its tensor
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload({ ...good, 'model.safetensors': good['model.safetensors'].subarray(0, good['model.safetensors'].length - 100) }));
  await errorShown(page, '');
  assert.match(await text(page, `${S} [data-check="model-error"]`), /\(텐서: \S*transformer\./);
  // the core's English detail only as the technical note, marked as English
  assert.match(await text(page, `${S} [data-check="model-error-detail"]`), /^기술 정보\(영어\): \S/);
  assert.equal(await page.$eval(`${S} [data-check="model-error-detail"] span`, (n) => n.lang), 'en');
  // the learner puts the error away (by keyboard) and goes on with the model opened before
  const dismiss = `${S} [data-control="dismiss-model-error"]`;
  assert.equal(await page.isVisible(dismiss), true);
  await page.focus(dismiss);
  await page.keyboard.press('Enter');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="model-error"]`).hidden, S);
  assert.equal(await page.isVisible(dismiss), false);
  assert.equal(await page.$eval(`${S} [data-check="model-error-detail"]`, (n) => n.hidden || n.textContent === ''), true);
  assert.equal(await page.evaluate((s) => document.activeElement === document.querySelector(`${s} [data-check="model"]`), S), true);
  assert.equal(await page.getAttribute(`${S} [data-check="model"]`, 'data-state'), 'loaded');
  // a sentence longer than the model's 24 positions
  await page.fill(`${S} textarea[data-control="text"]`, 'the cat sat on the mat '.repeat(10));
  await page.waitForFunction((s) => !document.querySelector(`${s} [data-check="sentence-error"]`).hidden, S);
  assert.match(await text(page, `${S} [data-check="sentence-error"]`), /이 모델은 24개까지 읽습니다/);
  assert.equal(await page.getAttribute(`${S} [data-check="sentence-error"]`, 'data-kind'), 'tooLong');
  // a shorter one works again
  await page.fill(`${S} textarea[data-control="text"]`, 'the cat sat');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="sentence-error"]`).hidden, S);
  assert.deepEqual(errors, []);
  await page.close();
});

test('real-models: ?model= opens a BERT folder on the same site, in English; another origin is refused', async () => {
  const { page, errors } = await openChapter('model=/pretrained/bert-f32/&lang=en');
  await loaded(page, 8);
  await analysed(page, 'the cat sat on the mat', 'mat');
  assert.match(await text(page, `${S} [data-check="model"]`), /Read from the folder the link names: \S*\/pretrained\/bert-f32\/\. bert:/);
  assert.match(await text(page, `${S} [data-check="model"]`), /bert: 2 layers × 4 heads/);
  assert.match(await text(page, `${S} [data-check="tokens"]`), /「\[CLS\]」.*「\[SEP\]」/);
  await rolesDone(page);
  assert.match(await text(page, `${S} [data-check="roles"]`), /Of 8 heads: .* have no nameable role/);
  assert.equal(await text(page, `${S} [data-check="privacy"]`), en.privacy);
  await page.click(`${S} [data-control="ablate"]`);
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="ablation"]`)?.dataset.state === 'done', S);
  assert.match(await text(page, `${S} [data-check="ablation"]`), /Base loss \d+\.\d{3} nats per token/);
  // the link keeps its model: once the page has written the sentence's state into the address
  // (150 ms after the edit), the model's folder is still there, as given
  await page.waitForFunction(() => new URLSearchParams(location.search).has('real-models'));
  assert.equal(new URL(page.url()).searchParams.get('model'), '/pretrained/bert-f32/', page.url());
  // a folder through the folder picker
  await page.setInputFiles(`${S} input[data-control="model-folder"]`, join(data, 'gpt2-f16'));
  await page.waitForFunction((s) => /gpt2:/.test(document.querySelector(`${s} [data-check="model-summary"]`)?.textContent), S);
  // files dropped on the box
  await page.evaluate(async (s) => {
    const dt = new DataTransfer();
    for (const f of ['config.json', 'model.safetensors', 'vocab.txt', 'tokenizer_config.json'])
      dt.items.add(new File([await (await fetch(`/pretrained/bert-bf16-encoder/${f}`)).arrayBuffer()], f));
    document.querySelector(`${s} [data-drop="model"]`).dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, S);
  await page.waitForFunction((s) => /bert:/.test(document.querySelector(`${s} [data-check="model-summary"]`)?.textContent), S);
  assert.deepEqual(errors, []);
  await page.close();

  // a link to a folder that is not there: config.json (the first file read) and the folder named
  for (const lang of ['ko', 'en']) {
    const none = await openChapter(`model=/pretrained/nowhere/&lang=${lang}`);
    await errorShown(none.page, '');
    assert.match(await text(none.page, `${S} [data-check="model-error"]`), lang === 'ko'
      ? /^링크의 폴더를 읽을 수 없습니다: http:\/\/\S+\/pretrained\/nowhere\/\. 처음 읽는 파일부터 없습니다: config\.json\./
      : /^The link's folder could not be read: http:\/\/\S+\/pretrained\/nowhere\/\. The first file read is not there: config\.json\./);
    assert.doesNotMatch(await text(none.page, `${S} [data-check="model-error"]`), /model\.safetensors/);
    // the link's line does not say it again (the error names the folder): no model yet, and
    // not that it is reading
    const line = await text(none.page, `${S} [data-check="model"]`);
    assert.equal(line, (lang === 'ko' ? ko : en).noModel, line);
    assert.doesNotMatch(line, /nowhere|읽습니다:|Reading the folder/);
    assert.deepEqual(none.errors.filter((e) => !/404/.test(e)), []);
    await none.page.close();
  }

  const other = await openChapter('model=https://example.com/gpt2/');
  await other.page.waitForFunction((s) => document.querySelector(`${s} [data-check="model"]`)?.textContent.includes('이 사이트 안의 폴더 주소가 아니라서'), S);
  // no particle after the address: it comes last, after a colon
  assert.match(await text(other.page, `${S} [data-check="model"]`), /^링크의 model 값이 이 사이트 안의 폴더 주소가 아니라서 읽지 않았습니다: https:\/\/example\.com\/gpt2\/\. 아직 연 모델이 없습니다\./);
  assert.equal(await other.page.getAttribute(`${S} [data-check="model"]`, 'data-state'), 'none');
  assert.deepEqual(other.errors, []);
  await other.page.close();
});

// Three pages; on the first, then, the views' radio group; on the third, BERT's [UNK] in English.
test('real-models: a sentence of 4 tokens or fewer still gets its roles from the random sequences, and says what it needs (ko, en); the two views are one radio group: one name, one Tab stop, the arrow keys switch; BERT\'s [UNK] in English', async () => {
  for (const [lang, model, sentence, n, then] of [['ko', 'gpt2-f32', 'cat', 2, viewsOneRadioGroup], ['ko', 'gpt2-f32', 'the cat sat', 4], ['en', 'bert-f16', 'the cat', 4, (page) => bertUnknown(page, 'en')]]) {
    const { page, errors } = await openChapter(`model=/pretrained/${model}/&lang=${lang}`);
    await loaded(page, 8);
    // before any roles are measured (the default sentence is too long), the thresholds and the
    // random sequences' length are shown, not "…"
    await page.waitForFunction((s) => !document.querySelector(`${s} [data-check="sentence-error"]`).hidden, S);
    const th = await text(page, `${S} [data-check="thresholds"]`);
    assert.doesNotMatch(th, /…/, th);
    assert.match(th, /0\.40.*0\.50.*0\.30.*0\.70.*0\.30/);
    assert.doesNotMatch(await page.$eval(`${S} [data-check="thresholds"]`, (p) => p.previousElementSibling.textContent), /…/);
    await analysed(page, sentence, sentence.split(' ').at(-1));
    await rolesDone(page);
    const line = await text(page, `${S} [data-check="roles"]`);
    assert.match(line, lang === 'ko' ? new RegExp(`이 문장은 토큰이 ${n}개뿐입니다\\. .*토큰이 5개 이상이어야`) : new RegExp(`only ${n} tokens long\\. .*at least 5 tokens`), line);
    assert.doesNotMatch(line, /계산할 수 없었습니다|could not be computed/);
    // the count names the two roles measured, and not the three that were not (no "0 heads")
    const count = line.split(lang === 'ko' ? '이 문장은' : 'The sentence is')[0];
    assert.match(count, lang === 'ko' ? /중복 토큰 \d+, 귀납 \d+/ : /duplicate token \d+, induction \d+/, count);
    assert.doesNotMatch(count, lang === 'ko' ? /앞 토큰 \d|첫 토큰\(싱크\) \d|국소 \d/ : /previous token \d|first token \(sink\) \d|local \d/, count);
    const rows = await page.$$eval(`${S} [data-table="roles"] tbody tr`, (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.equal(rows.length, 8);
    for (const r of rows) {
      // head, role, previous, first, duplicate, local, induction, Δ
      assert.deepEqual([r[2], r[3], r[5]], ['—', '—', '—'], r.join(' | '));
      assert.match(r[4], /^\d\.\d\d$/);
      assert.match(r[6], /^\d\.\d\d$/);
    }
    if (then) await then(page);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('real-models: at 390 px the roles table, filled by the worker, scrolls sideways with a tab stop and a name (ko, en)', async () => {
  for (const lang of ['ko', 'en']) {
    const { page, errors } = await openChapter(`model=/pretrained/gpt2-f32/&lang=${lang}`, { width: 390, height: 800 });
    await loaded(page, 8);
    const box = `${S} [data-table="roles"]`;
    for (const sentence of ['the cat sat on the mat and the cat sat', 'a dog sat on the mat']) {
      await analysed(page, sentence, sentence.split(' ')[1]);
      await rolesDone(page);
      await page.$eval(box, (t) => t.parentElement.scrollIntoView({ block: 'center' }));
      await page.waitForFunction((b) => {
        const w = document.querySelector(b).parentElement;
        return w.scrollWidth > w.clientWidth + 1 && w.tabIndex === 0 && w.getAttribute('role') === 'group' && !!w.getAttribute('aria-label');
      }, box);
      assert.match(await page.$eval(box, (t) => t.parentElement.getAttribute('aria-label')), lang === 'ko' ? /역할 순서/ : /order of roles/);
      await assertAccessible(page, 'real-models');
    }
    await page.screenshot({ path: join(shots, `real-models-roles-390-${lang}.png`), fullPage: false });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// BERT with words it does not know: the tokens show [UNK], the ablation says no token can be
// scored and why. In Korean on a page of its own; in English on the page of the short
// sentence's BERT case (no ablation has run there).
test('real-models: BERT with words it does not know: the tokens show [UNK], the ablation says no token can be scored and why (ko; en below)', async () => {
  const { page, errors } = await openChapter('model=/pretrained/bert-f16/&lang=ko');
  await loaded(page, 8);
  await bertUnknown(page, 'ko');
  // another model: the error was the last one's ablation, and goes with it
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await page.waitForFunction((s) => /gpt2/.test(document.querySelector(`${s} [data-check="model"]`).textContent), S);
  await loaded(page, 8);
  await analysed(page, 'the cat sat on the mat', 'mat');
  assert.notEqual(await page.getAttribute(`${S} [data-check="ablation"]`, 'data-state'), 'error', 'a new model: no ablation error of the one before');
  assert.deepEqual(errors, []);
  await page.close();
});
async function bertUnknown(page, lang) {
  assert.notEqual(await page.getAttribute(`${S} [data-check="ablation"]`, 'data-state'), 'error', `[UNK] (${lang}): no ablation error before`);
  // (the default sentence holds the same words: its heads are not this one's)
  await analysed(page, '고양이가 매트 위에 앉았다', '「앉았다 → [UNK]」 「[SEP]」');
  assert.match(await text(page, `${S} [data-check="tokens"]`), /「고양이가 → \[UNK\]」 「매트 → \[UNK\]」/);
  await page.click(`${S} [data-control="ablate"]`);
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="ablation"]`)?.dataset.state === 'error', S).catch(async (e) => {
    throw new Error(`${e.message}: ${await page.$eval(`${S} [data-check="ablation"]`, (n) => `${n.dataset.state} ${n.textContent}`)}`);
  });
  const line = await text(page, `${S} [data-check="ablation"]`);
  assert.equal(line, (lang === 'ko' ? ko.ablationFailed : en.ablationFailed).replace('{message}', (lang === 'ko' ? ko : en).err_noScoredUnk));
  assert.doesNotMatch(line, /0\.000/);
}

// The two views are one radio group: one name, one Tab stop, the arrow keys switch (on the
// page of the short sentence's first case: Korean, gpt2-f32, the norm view as at load).
async function viewsOneRadioGroup(page) {
  assert.equal(await page.$eval(`${S} [data-control="view-norm"]`, (r) => r.checked), true, 'radio group: the norm view is checked at first');
  await analysed(page, 'the cat sat on the mat', 'mat');
  const radios = `${S} input[type="radio"][data-control^="view-"]`;
  const names = await page.$$eval(radios, (rs) => rs.map((r) => r.name));
  assert.equal(names.length, 2, 'radio group: two views');
  assert.equal(names[0], names[1], 'radio group: one name');
  await page.focus(`${S} [data-control="view-norm"]`);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-control="view-rollout"]`).checked, S);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.control), 'view-rollout', 'radio group: the arrow key moves the focus with the choice');
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.dataset.control), 'view-norm', 'radio group: Tab leaves the group');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.dataset.control), 'view-norm', 'radio group: one Tab stop'); // (one stop: the checked one)
}

test('real-models: the widget\'s model attribute opens a checkpoint', async () => {
  // a host page with the widget, on the page's own origin
  const html = `<!doctype html><html lang="en"><body><script type="module" src="/attention-explorer.js"></script>
<attention-explorer chapter="real-models" model="/pretrained/gpt2-f16/"></attention-explorer></body></html>`;
  const r = await openHost(browser, `${server.url}widget-host.html`, {
    route: (context) => context.route('**/widget-host.html', (route) => route.fulfill({ contentType: 'text/html', body: html, headers: { 'Content-Security-Policy': LAX_CSP } })),
  });
  await r.page.waitForFunction(() => {
    const root = document.querySelector('attention-explorer')?.shadowRoot;
    return root?.querySelector('[data-check="model"]')?.dataset.state === 'loaded' &&
      root.querySelectorAll('[data-heads="model-view"] canvas').length === 8;
  }, null);
  // its line names the attribute, not a link
  const line = await r.page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('[data-check="model"]').textContent.replace(/\s+/g, ' ').trim());
  assert.match(line, /^Read from the folder the widget's model attribute names: \S*\/pretrained\/gpt2-f16\/\. gpt2:/, line);
  assert.doesNotMatch(line, /link/);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.foreign, []);
  await r.close();
  // a widget with no model: the line names no chapter (the widget holds this one alone)
  const bare = `<!doctype html><html lang="en"><body><script type="module" src="/attention-explorer.js"></script>
<attention-explorer chapter="real-models" lang="en"></attention-explorer></body></html>`;
  const w = await openHost(browser, `${server.url}widget-host.html`, {
    route: (context) => context.route('**/widget-host.html', (route) => route.fulfill({ contentType: 'text/html', body: bare, headers: { 'Content-Security-Policy': LAX_CSP } })),
  });
  await w.page.waitForFunction(() => document.querySelector('attention-explorer')?.shadowRoot?.querySelector('[data-check="model"]')?.dataset.state === 'none', null);
  const none = await w.page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('[data-check="model"]').textContent.replace(/\s+/g, ' ').trim());
  assert.equal(none, en.noModel);
  assert.deepEqual(w.errors, []);
  await w.close();
});

// The chapter's worker, wrapped in the page before its scripts: window.__sent[type] is the id
// of the last message of each type the chapter sent (true for one without an id), messages of
// the types in `hold` are not passed on, and window.__deliver(message) gives one to the
// chapter's own handler, as the worker would.
const wrapWorker = (page, hold = []) => page.addInitScript((held) => {
  const W = window.Worker;
  window.__sent = {};
  window.Worker = class extends W {
    set onmessage(f) {
      window.__deliver = (data) => f({ data });
      super.onmessage = f;
    }
    get onmessage() {
      return super.onmessage;
    }
    postMessage(m, ...rest) {
      if (m?.type) window.__sent[m.type] = m.id ?? true;
      if (held.includes(m?.type)) return;
      return super.postMessage(m, ...rest);
    }
  };
}, hold);

// A worker's message redraws only its part: a progress message the load's bar and its line, an
// ablation's step its bar and line; neither renders the chapter again. The messages are
// given to the chapter's own handler (the worker's, captured), as the worker sends them.
test('real-models: a progress or ablation message writes only its bar and line, without a render', async () => {
  const { page, errors } = await heldAblation(1280, ['ablate']); // (held: the test sends its steps)
  await gridsDone(page);
  // the nodes written while the messages arrive, and the renders
  const written = (send) => page.evaluate(async ([s, send]) => {
    const section = document.querySelector(s);
    const renders = section.__renders;
    const nodes = new Set();
    const mo = new MutationObserver((rs) => rs.forEach((r) => nodes.add(r.target.nodeType === 1 ? r.target : r.target.parentElement)));
    mo.observe(section, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const m of send) window.__deliver({ ...m, id: window.__sent[m.id] });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    mo.disconnect();
    const name = (n) => n.dataset.check ?? n.dataset.progress ?? n.dataset.control ?? n.tagName.toLowerCase();
    return { renders: section.__renders - renders, nodes: [...nodes].map(name).sort() };
  }, [S, send]);
  const progress = [1, 2, 3, 4, 5].map((i) => ({ type: 'progress', id: 'open', bytesDone: i * 1e6, bytesTotal: 5e6, tensorsDone: i, tensorsTotal: 5 }));
  const p = await written(progress);
  assert.equal(p.renders, 0);
  // (the bar, its line and the cancel button: nothing else)
  assert.ok(p.nodes.every((n) => ['model', 'span', 'cancel'].includes(n)), JSON.stringify(p.nodes));
  assert.match(await text(page, `${S} [data-progress="model"] + span`), /읽는 중: 5\.00 \/ 5\.00 MB, 텐서 5 \/ 5개/);
  // the ablation's steps
  await page.click(`${S} [data-control="ablate"]`);
  await page.waitForFunction(() => window.__sent.ablate);
  const steps = [1, 2, 3].map((done) => ({ type: 'ablating', id: 'ablate', done, total: 8 }));
  const a = await written(steps);
  assert.equal(a.renders, 0);
  assert.ok(a.nodes.every((n) => ['progress', 'ablation', 'ablate'].includes(n)), JSON.stringify(a.nodes));
  assert.equal(await text(page, `${S} [data-check="ablation"]`), ko.ablating.replace('{done}', '3').replace('{total}', '8'));
  assert.deepEqual(errors, []);
  await page.close();
});

// A link's load that the learner stops: its line says the link's folder was being read and was
// stopped (once: not also the file picker's "stopped"), and nothing is loaded. The worker's
// "open" is held (a tiny checkpoint would be read before the click), and its answer to the
// Stop, "cancelled", is given to the chapter's handler as the worker sends it.
test('real-models: a link\'s load stopped says so in the link\'s line', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await wrapWorker(page, ['open', 'cancel']);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}?embed=real-models&model=/pretrained/gpt2-f32/#real-models`);
  await page.waitForFunction(() => window.__sent.open);
  const line = `${S} [data-check="model"]`;
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'loading', line);
  assert.match(await text(page, line), /^링크가 가리키는 폴더에서 읽습니다: http:\/\/\S+\/pretrained\/gpt2-f32\//);
  // Stop, by keyboard: the focus goes to the model's line when Stop goes, not to the page
  await page.focus(`${S} [data-control="cancel"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__sent.cancel);
  await page.evaluate(() => window.__deliver({ type: 'cancelled', id: window.__sent.open }));
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.state === 'none', line);
  assert.equal(await page.evaluate((sel) => document.activeElement === document.querySelector(sel), line), true, 'the focus on the model\'s line');
  const said = await text(page, line);
  assert.match(said, /^링크가 가리키는 폴더에서 읽다가 멈췄습니다: http:\/\/\S+\/pretrained\/gpt2-f32\/\. 아직 연 모델이 없습니다\./);
  assert.equal(said.split(ko.cancelled).length, 1, `"${ko.cancelled}" not said as well: ${said}`);
  assert.equal(await page.isVisible(`${S} [data-control="cancel"]`), false);
  assert.deepEqual(errors, []);
  await page.close();
});

// A GPT-2-shaped checkpoint of 12 layers × 12 heads (d_model 24: heads of 2 dimensions), random
// weights, the tiny GPT-2's tokenizer and positions: as many maps and table rows as GPT-2 small.
function gpt2Like(base, L = 12, H = 12, d = 24) {
  const config = { ...JSON.parse(base['config.json']), n_layer: L, n_head: H, n_embd: d };
  const V = config.vocab_size, P = config.n_positions;
  const specs = gpt2Tensors({ layers: L, d, vocab: V, positions: P });
  const { prefix, offsets, dataBytes } = safetensorsHeader(specs, null);
  const data = new Float32Array(dataBytes / 4);
  let s = 12345;
  const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.4;
  for (const [name, , init] of specs) {
    const [b, e] = offsets.get(name);
    for (let i = b / 4; i < e / 4; i++) data[i] = init === 'ones' ? 1 : init === 'zeros' ? 0 : rnd();
  }
  return { ...base, 'config.json': Buffer.from(JSON.stringify(config)), 'model.safetensors': Buffer.concat([prefix, Buffer.from(data.buffer)]) };
}

test('real-models: what the page thread is asked to do for 144 heads (message sizes, DOM writes per frame)', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    // every message from a worker, its size in bytes (typed arrays, strings, numbers)
    const size = (v, seen = new Set()) => {
      if (v == null || typeof v !== 'object') return typeof v === 'string' ? 2 * v.length : 8;
      if (ArrayBuffer.isView(v)) return v.byteLength;
      if (seen.has(v)) return 0;
      seen.add(v);
      let n = 0;
      for (const x of Object.values(v)) n += size(x, seen);
      return n;
    };
    window.__messages = [];
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(...a) {
        super(...a);
        this.addEventListener('message', (e) => window.__messages.push([e.data?.type, size(e.data)]));
      }
    };
    // the nodes written in each frame (added, or an attribute or a text changed): in the two
    // T × T grids of the chosen head, and elsewhere
    window.__frames = [];
    let touched = new Set(), inGrid = new Set();
    const add = (n) => ((n.nodeType === 1 ? n : n.parentElement)?.closest('[data-grid]') ? inGrid : touched).add(n);
    new MutationObserver((records) => {
      for (const r of records) {
        add(r.target);
        for (const n of r.addedNodes) add(n);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const tick = () => {
      if (touched.size || inGrid.size) window.__frames.push([touched.size, inGrid.size]);
      touched = new Set();
      inGrid = new Set();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}?embed=real-models&lang=en#real-models`);
  await page.waitForSelector(`${S} [data-control="model-files"]`, { state: 'attached' });
  await page.evaluate(() => (window.__frames.length = 0));
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(gpt2Like(await folder('gpt2-f32'))));
  await loaded(page, 144);
  await analysed(page, 'the cat sat on the mat and the cat sat', 'cat');
  await rolesDone(page);
  await gridsDone(page);
  const T = await page.$$eval('[data-grid="rm-P"] tbody tr', (r) => r.length);
  assert.equal(await page.$$eval(`${S} [data-table="roles"] tbody tr`, (r) => r.length), 144);
  const { messages, frames } = await page.evaluate(() => ({ messages: window.__messages, frames: window.__frames }));
  // no message bigger than the sentence's heads: 144 T × T maps, value norms, rollout
  const heads = (144 * T * T + 144 * T + T * T) * 4;
  const biggest = messages.reduce((a, m) => (m[1] > a[1] ? m : a), ['', 0]);
  assert.ok(biggest[1] <= heads + 16384, JSON.stringify(biggest));
  assert.ok(messages.filter(([t]) => t === 'heads').length >= 1);
  // the 144 maps, their labels and the 144 rows of 9 cells are spread over frames: no frame
  // writes more than a few hundred of their nodes (all at once, they would be thousands), and
  // no frame more than 64 cells of a grid (about 3 nodes a cell) and its headers
  t.diagnostic(`nodes written per frame (elsewhere, in the grids): ${frames.map((f) => f.join('+')).join(' ')}; biggest message: ${biggest.join(' ')} bytes; T = ${T}`);
  const most = Math.max(...frames.map((f) => f[0])), mostGrid = Math.max(...frames.map((f) => f[1]));
  assert.ok(most <= 300, `most nodes written in one frame outside the grids: ${most}`);
  assert.ok(mostGrid <= 4 * 64 + 8 * T + 64, `most grid nodes written in one frame: ${mostGrid} (T = ${T})`);
  assert.ok(frames.length >= 10);
  assert.deepEqual(errors, []);
  await page.close();
});

// Newcomer faults (issue 27, report sections 2–6 and 10).

// A page whose worker's "ablate" and "stopAblation" are held: the test gives the chapter's
// handler the worker's answers, as the worker sends them (gpt2-f32, a sentence's roles done).
async function heldAblation(width = 390, held = ['ablate', 'stopAblation']) {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  await wrapWorker(page, held);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}?embed=real-models#real-models`);
  await page.waitForSelector(`${S} [data-control="model-files"]`, { state: 'attached' });
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await loaded(page, 8);
  await analysed(page, 'the cat sat on the mat', 'mat');
  await rolesDone(page);
  const focused = () => page.evaluate(() => document.activeElement?.dataset.control ?? document.activeElement?.dataset.check ?? document.activeElement?.tagName);
  const ablState = (st) => page.waitForFunction(([s, st]) => document.querySelector(`${s} [data-check="ablation"]`).dataset.state === st, [S, st]);
  const deliver = (m) => page.evaluate((m) => window.__deliver({ ...m, id: window.__sent.ablate }), m);
  return { page, errors, focused, ablState, deliver };
}

// The ablation's controls keep the keyboard's focus: Enter on the button moves it to Stop
// while the run goes on (the button is disabled then), Stop keeps it while its request is on
// its way, and the end of the run gives it back to the button. Focus elsewhere is not taken.
test('real-models: the ablation keeps the keyboard focus in its controls, and takes none from elsewhere', async () => {
  const { page, errors, focused, ablState, deliver } = await heldAblation();
  // Enter on the button: Stop has the focus while the run goes on
  await page.focus(`${S} [data-control="ablate"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__sent.ablate);
  assert.equal(await focused(), 'ablate-stop', 'focus on Stop while the ablation runs');
  await deliver({ type: 'ablating', done: 2, total: 8 });
  await ablState('busy');
  assert.equal(await focused(), 'ablate-stop');
  // Stop pressed by keyboard: the focus stays on it until the worker answers
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__sent.stopAblation);
  assert.equal(await focused(), 'ablate-stop', 'focus stays on Stop after it is pressed');
  await deliver({ type: 'ablationStopped', done: 3, total: 8, why: 'asked' });
  await ablState('stopped');
  assert.equal(await focused(), 'ablate', 'focus back on the button when the run ends');
  // a run to its end: back on the button too
  await page.keyboard.press('Enter');
  await ablState('busy');
  assert.equal(await focused(), 'ablate-stop');
  await deliver({ type: 'ablation', ablation: { base: { loss: 3 }, delta: new Float32Array(8).fill(0.5), loss: [], masked: null } });
  await ablState('done');
  assert.equal(await focused(), 'ablate', 'focus back on the button when the run is done');
  // focus elsewhere (the sentence) is left there: a run started by a script's click, then ended
  await page.focus(`${S} textarea[data-control="text"]`);
  await page.$eval(`${S} [data-control="ablate"]`, (b) => b.click());
  await ablState('busy');
  assert.equal(await focused(), 'text');
  await deliver({ type: 'ablationStopped', done: 2, total: 8, why: 'asked' });
  await ablState('stopped');
  assert.equal(await focused(), 'text');
  assert.deepEqual(errors, []);
  await page.close();
});

// A run that a new sentence or a new model stopped says so and how far it got (as
// docs/real-models.md says), not an empty line.
test('real-models: an ablation stopped by a new sentence or a new model says so and how far it got', async () => {
  const { page, errors, ablState, deliver } = await heldAblation(1280);
  // (the line leaves 'busy' at once: then it must say 'stopped')
  const settledAblation = async (want) => {
    await page.waitForFunction((s) => document.querySelector(`${s} [data-check="ablation"]`).dataset.state !== 'busy', S);
    assert.equal(await page.getAttribute(`${S} [data-check="ablation"]`, 'data-state'), want, await text(page, `${S} [data-check="ablation"]`));
  };
  await page.click(`${S} [data-control="ablate"]`);
  await ablState('busy');
  await deliver({ type: 'ablationStopped', done: 2, total: 8, why: 'sentence' });
  await settledAblation('stopped');
  assert.equal(await text(page, `${S} [data-check="ablation"]`), `${ko.ablationStoppedSentence.replace('{total}', '8').replace('{done}', '2')} ${ko.ablationAgainSentence}`);
  assert.match(await text(page, `${S} [data-check="ablation"]`), /문장이 바뀌어서.*8개 가운데 2개까지/);
  await page.click(`${S} [data-control="ablate"]`);
  await ablState('busy');
  await deliver({ type: 'ablationStopped', done: 5, total: 8, why: 'model' });
  await settledAblation('stopped');
  assert.match(await text(page, `${S} [data-check="ablation"]`), /다른 모델을 여느라.*8개 가운데 5개까지/);
  // a sentence the model cannot take: how far the stopped run got stays said, with why the
  // button waits
  await page.fill(`${S} textarea[data-control="text"]`, 'the cat sat on the mat '.repeat(10));
  await page.waitForFunction((s) => !document.querySelector(`${s} [data-check="sentence-error"]`).hidden, S);
  const both = await text(page, `${S} [data-check="ablation"]`);
  assert.match(both, /다른 모델을 여느라.*8개 가운데 5개까지/, both);
  assert.ok(both.includes(ko.ablateNeedsSentence), both);
  assert.ok(!both.includes(ko.ablationAgainModel), `no "press the button" while it cannot: ${both}`);
  await page.fill(`${S} textarea[data-control="text"]`, 'the cat sat on the mat');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="sentence-error"]`).hidden, S);
  await page.$eval(`${S} [data-check="ablation"]`, (n) => n.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(shots, 'real-models-ablation-stopped-by-model.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

// A narrow screen scrolls the model view sideways: each row's layer name stays in view at its
// left edge (and the maps keep their columns).
test('real-models: the layer names stay in view while the model view scrolls sideways', async () => {
  const { page, errors } = await openChapter('', { width: 390, height: 800 });
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await loaded(page, 8);
  await analysed(page, 'the cat sat', 'sat');
  // the role table, wider than a phone, is a tab stop before it has been on screen: Tab
  // forward does not pass it by (it is not skipped while far from the screen)
  await rolesDone(page);
  const tableBox = `${S} .table-scroll:has(> table[data-table="roles"])`;
  assert.ok((await page.$eval(tableBox, (n) => n.getBoundingClientRect().top)) > 800, 'the table is below the screen');
  await page.waitForFunction((sel) => document.querySelector(sel).tabIndex === 0, tableBox, { timeout: 10000 });
  // (the tiny model's rows fit 390 px: the box is narrowed so that they do not)
  await page.$eval(`${S} [data-heads="model-view"]`, (v) => {
    v.scrollIntoView({ block: 'center' }); // (far from the screen, its layout is skipped)
    v.parentElement.style.maxWidth = '150px';
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const box = await page.$eval(`${S} [data-heads="model-view"]`, (v) => {
    v.parentElement.scrollLeft = 1000;
    return [v.parentElement.scrollLeft, v.parentElement.getBoundingClientRect().left];
  });
  assert.ok(box[0] > 50, `scrolled ${box[0]}`);
  const rows = await page.$$eval(`${S} [data-heads="model-view"] [role="row"]`, (rs) => rs.map((r) => {
    const lab = r.querySelector('[role="rowheader"]').getBoundingClientRect();
    const cells = [...r.querySelectorAll('[role="gridcell"]')].map((c) => c.getBoundingClientRect());
    return { left: lab.left, top: lab.top, bottom: lab.bottom, cellTop: cells[0].top, cellBottom: cells[0].bottom, lefts: cells.map((c) => c.left) };
  }));
  assert.ok(rows.length >= 2);
  for (const r of rows) {
    assert.ok(Math.abs(r.left - box[1]) < 1, `the name at the box's left edge: ${r.left} against ${box[1]}`);
    assert.ok(r.top >= r.cellTop - 1 && r.bottom <= r.cellBottom + 1, 'beside its row\'s maps');
  }
  assert.deepEqual(rows.map((r) => r.lefts), rows.map(() => rows[0].lefts), 'the maps in columns');
  assert.deepEqual(errors, []);
  await page.close();
});

// Text pasted past the sentence box's limit is left out by the browser without a word: a line
// says the box is full, and goes when the text is shorter again (ko, en).
test('real-models: a sentence box that is full says so', async () => {
  for (const lang of ['ko', 'en']) {
    const { page, errors } = await openChapter(`lang=${lang}`);
    await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
    await loaded(page, 8);
    const box = `${S} textarea[data-control="text"]`;
    const full = `${S} [data-check="text-full"]`;
    const max = await page.$eval(box, (t) => t.maxLength);
    assert.ok(max > 0);
    assert.equal(await page.isVisible(full), false);
    await page.focus(box);
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('the cat sat on the mat. '.repeat(Math.ceil(max / 24)).slice(0, max - 10));
    await page.keyboard.insertText(' and the dog sat on the log.');
    assert.equal(await page.$eval(box, (t) => t.value.length), max, 'cut at the limit');
    await page.waitForSelector(full, { state: 'visible' });
    assert.match(await text(page, full), lang === 'ko' ? new RegExp(`${max}자까지`) : new RegExp(`holds ${max} characters`));
    await page.keyboard.press('Backspace');
    await page.waitForSelector(full, { state: 'hidden' });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// The keyboard on a map of the model view when another model finishes loading: the focus goes
// to the same head's map of the new model once its heads are shown (the view is hidden until
// then: a GPT-2-sized model's heads come later than its maps are built; here the heads are
// held back 400 ms), never to the page. The roles line counts "1 head has", "2 heads have".
test('real-models: the focus on a map stays in the model view across a new model\'s load', async () => {
  const { page, errors } = await openChapter('', {
    init: () => {
      const W = window.Worker;
      window.Worker = class extends W {
        set onmessage(f) {
          super.onmessage = (e) => (e.data?.type === 'heads' && window.__slowHeads ? setTimeout(() => f(e), 400) : f(e));
        }
      };
    },
  });
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await loaded(page, 8);
  await analysed(page, 'the cat sat', 'sat');
  await page.focus(`${S} [data-heads="model-view"] [data-head="0"]`);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.head), '1');
  await page.evaluate(() => (window.__slowHeads = true));
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('bert-f32')));
  await page.waitForFunction((s) => /bert:/.test(document.querySelector(`${s} [data-check="model-summary"]`)?.textContent ?? ''), S);
  await painted(page);
  await page.waitForFunction(() => document.activeElement?.dataset?.head !== undefined, null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.head ?? document.activeElement?.tagName), '0', 'the focus on the new model\'s map (its first head: the link\'s head is kept)');
  assert.deepEqual(errors, []);
  await page.close();
  // the count of heads with no role, in English, with its verb
  assert.equal(fill(en.rolesCount, { total: 8, byRole: 'local 7', none: 1 }), 'Of 8 heads: local 7. 1 has no nameable role.');
  assert.equal(fill(en.rolesCount, { total: 8, byRole: 'local 6', none: 2 }), 'Of 8 heads: local 6. 2 have no nameable role.');
});

// At 390 px the head's grids are far below when the keyboard comes to them: the focus on a
// grid's tools writes the grids at once, so Tab goes on into the grid's cells (not past them).
test('real-models: Tab from a head grid\'s tools goes into its cells, however far it was', async () => {
  const { page, errors } = await openChapter('', { width: 390, height: 800, init: () => { window.__eagerFigures = false; } }); // (the grids wait while far, as for a reader)
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await loaded(page, 8);
  await analysed(page, 'the cat sat on the mat', 'mat');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.focus('[data-grid="rm-P"] details.grid-tools > summary');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => !!document.activeElement.closest('[data-grid="rm-P"] table')), true,
    `Tab from the tools into the grid: ${await page.evaluate(() => document.activeElement.outerHTML.slice(0, 80))}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// While the chosen head's grids fill row by row, their captions give the matrix's shape,
// T × T (marked as filling), never the rows written so far (27 × 55).
test('real-models: the enlarged head\'s shape is T × T while its grids fill', async () => {
  const { page, errors } = await openChapter();
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await loaded(page, 8);
  await analysed(page, 'the cat sat', 'sat');
  await gridsDone(page);
  await page.evaluate((s) => {
    window.__shapes = [];
    const pair = document.querySelector(`${s} [data-grids="head"]`);
    const read = () => pair.querySelectorAll('figcaption .shape').forEach((n) => window.__shapes.push(n.textContent));
    new MutationObserver(read).observe(pair, { subtree: true, childList: true, characterData: true });
  }, S);
  await analysed(page, 'the cat sat on the mat and the cat sat', 'mat');
  await gridsDone(page);
  const shapes = await page.evaluate(() => window.__shapes);
  assert.ok(shapes.length >= 2, shapes.join(' | '));
  const T = await page.$$eval('[data-grid="rm-P"] tbody tr', (r) => r.length);
  for (const sh of shapes) {
    const m = sh.match(/^(\d+)\s*×\s*(\d+)/);
    // (the grid not yet begun shows the head before whole: its own square shape)
    assert.ok(m && m[1] === m[2] && (!sh.includes(ko.gridFilling) || Number(m[1]) === T), `square shapes, ${T} × ${T} while filling: ${shapes.join(' | ')}`);
  }
  assert.ok(shapes.some((sh) => sh.includes(ko.gridFilling)), `marked as filling at some point: ${shapes.join(' | ')}`);
  assert.equal(await text(page, '[data-grid="rm-P"] figcaption .shape'), `${T} × ${T}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// The chapter's words hold where it stands alone (a widget on a course page): no "previous
// chapter" and no "other chapters of this page".
test('real-models: the prose names no neighbouring chapter (true in a widget too)', () => {
  for (const key of ['lead', 'noModel', 'stateWaitsAttr']) {
    assert.doesNotMatch(ko[key], /앞 장|이 페이지의 다른 장/, `ko.${key}`);
    assert.doesNotMatch(en[key], /previous chapter|rest of the page|other chapters of this page/, `en.${key}`);
  }
  // a link's or the widget's folder line ends its sentence after the address
  for (const key of ['fromUrlFailed', 'fromUrlStopped', 'badUrl', 'fromAttrFailed', 'fromAttrStopped', 'badAttr'])
    for (const L of [ko, en]) assert.match(L[key], /\{url\}\.$/, key);
});

// A link with the chapter's sentence and head (made while a model opened from files was in
// use) and no model: the line says the link holds them and not the model, and that they come
// back once that model is opened. A link without them says nothing of the kind.
test('real-models: a link with a sentence and a head but no model says they wait for the model (ko, en)', async () => {
  for (const lang of ['ko', 'en']) {
    const L = lang === 'ko' ? ko : en;
    const { page, errors } = await openChapter(`lang=${lang}&real-models=text:$the*20cat*20sat;head:3`);
    await page.waitForFunction((s) => document.querySelector(`${s} [data-check="model"]`)?.dataset.state === 'none', S);
    const line = await text(page, `${S} [data-check="model"]`);
    assert.match(line, lang === 'ko' ? /링크에는 문장과 고른 헤드가 들어 있지만 모델은 들어 있지 않습니다/ : /This link holds a sentence and a chosen head, but not the model/, line);
    assert.ok(line.startsWith(L.noModel), line);
    await page.screenshot({ path: join(shots, `real-models-link-state-${lang}.png`), fullPage: false });
    // once the model is opened, the sentence and the head are the link's
    await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
    await loaded(page, 8);
    await page.waitForFunction((s) => document.querySelector(`${s} [data-check="tokens"]`)?.dataset.for === 'the cat sat', S);
    assert.equal(await page.getAttribute(`${S} [data-head="3"]`, 'aria-selected'), 'true');
    assert.deepEqual(errors, []);
    await page.close();
  }
  const plain = await openChapter();
  await plain.page.waitForFunction((s) => document.querySelector(`${s} [data-check="model"]`)?.dataset.state === 'none', S);
  assert.equal(await text(plain.page, `${S} [data-check="model"]`), ko.noModel, 'alone (?embed=): no other chapter named');
  await plain.page.close();
  // the whole page holds the project's own model's chapter: the line points to it there
  const whole = await openPage(browser, `${server.url}?lang=en#real-models`);
  await whole.page.waitForFunction((s) => document.querySelector(`${s} [data-check="model"]`)?.dataset.state === 'none', S);
  assert.equal(await text(whole.page, `${S} [data-check="model"]`), `${en.noModel} ${en.ownModelThere}`);
  assert.ok(await whole.page.$('#trained-heads'), 'the chapter it names is on the page');
  await whole.page.close();
});

// A long sentence: the enlarged grids show its first tokens only (the page sets the limit at
// 64; this test at 6, as its models read 24 positions), and a line says so and what it means
// for the rows (whole for GPT-2, which reads only earlier tokens; cut for BERT).
test('real-models: a sentence longer than the grids show: its first tokens, and a line that says so', async () => {
  const { page, errors } = await openChapter('', { init: () => { window.__realModelsGridTokens = 6; } });
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('gpt2-f32')));
  await loaded(page, 8);
  const cut = `${S} [data-check="grids-cut"]`;
  await analysed(page, 'the cat sat', 'cat');
  await gridsDone(page);
  assert.equal(await page.isVisible(cut), false);
  const T = await page.$$eval('[data-grid="rm-P"] tbody tr', (r) => r.length);
  assert.ok(T <= 6, `${T}`);
  await analysed(page, 'the cat sat on the mat and the cat sat', 'cat');
  await gridsDone(page);
  assert.equal(await page.$$eval('[data-grid="rm-P"] tbody tr', (r) => r.length), 6);
  assert.equal(await page.$$eval('[data-grid="rm-P"] tbody tr:first-child td', (r) => r.length), 6);
  assert.equal(await page.$$eval('[data-grid="rm-view"] tbody tr', (r) => r.length), 6);
  const n = Number((await text(page, `${S} [data-check="tokens"]`)).match(/\d+/)?.[0]);
  assert.match(await text(page, cut), new RegExp(`토큰은 ${n}개.*앞의 6개.*앞 토큰만 읽으므로`));
  // GPT-2's first rows are whole: a row sums to 1
  const row = await page.$$eval('[data-grid="rm-P"] tbody tr:nth-child(6) td .v', (ns) => ns.map((x) => Number(x.textContent.replace('\u2212', '-'))));
  assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 0.05, String(row));
  // BERT reads both ways: its rows here leave out the later keys, and the line says so
  await page.setInputFiles(`${S} input[data-control="model-files"]`, payload(await folder('bert-f32')));
  await page.waitForFunction((s) => /^bert/.test(document.querySelector(`${s} [data-check="model-summary"]`)?.textContent ?? ''), S);
  await page.waitForFunction((s) => /양쪽/.test(document.querySelector(`${s} [data-check="grids-cut"]`)?.textContent ?? ''), S);
  // a sentence refused (empty, or too long for the model): the grids go, and their line too
  for (const bad of ['', 'the cat sat on the mat '.repeat(10)]) {
    await page.fill(`${S} textarea[data-control="text"]`, bad);
    await page.waitForFunction((s) => !document.querySelector(`${s} [data-check="sentence-error"]`).hidden, S);
    assert.equal(await page.isVisible(cut), false, `no line about grids that are gone ("${bad.slice(0, 10)}")`);
    await page.fill(`${S} textarea[data-control="text"]`, 'the cat sat on the mat and the dog');
    await page.waitForFunction((s) => /양쪽/.test(document.querySelector(`${s} [data-check="grids-cut"]`)?.textContent ?? ''), S);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

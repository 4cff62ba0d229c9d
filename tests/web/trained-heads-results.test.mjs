// The trained-heads chapter's check of text-model-results.json where it reads it
// (web/src/chapters/trained-heads/results.js): the project's file passes as it is; a file of
// the wrong content (valid JSON, but not what the chapter reads: a field missing or of the
// wrong kind, a number that is not finite, no heads, heads that do not fit the model) is
// refused with its file's name and what is wrong, worded in both languages, never read in part.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { checkResults, RESULTS_FILE, MODEL_FILE } from '../../web/src/chapters/trained-heads/results.js';
import { fill } from '../../web/src/kit/fill.js';
import en from '../../web/src/chapters/trained-heads/en.js';
import ko from '../../web/src/chapters/trained-heads/ko.js';

const root = new URL('../../', import.meta.url);
const good = JSON.parse(await readFile(new URL('models/text-model/results.json', root), 'utf8'));
const config = { layers: good.model.layers, heads: good.model.heads }; // the model's (2 × 4)
const copy = () => structuredClone(good);

// The problem checkResults throws for json ({key, vars}), after checking the error names the
// file and that both languages word it without a template left.
function problem(json, cfg = config) {
  let err = null;
  try {
    checkResults(json, cfg);
  } catch (e) {
    err = e;
  }
  assert.ok(err, `refused: ${JSON.stringify(json)?.slice(0, 80)}`);
  assert.equal(err.file, RESULTS_FILE);
  assert.match(err.message, /^text-model-results\.json: /);
  assert.ok(err.problem?.key, err.message);
  for (const [lang, text] of [['en', en], ['ko', ko]]) {
    const words = text[`wrong_${err.problem.key}`];
    assert.equal(typeof words, 'string', `${lang}: wrong_${err.problem.key}`);
    const line = fill(text.fileWrong, { file: err.file, problem: fill(words, err.problem.vars) });
    assert.doesNotMatch(line, /\{\w+(\|[^|{}]*\|[^|{}]*)?\}/, `${lang}: a template is left: ${line}`);
    assert.match(line, /text-model-results\.json/, `${lang}: the line names the file`);
  }
  return err.problem;
}

test('the project\'s results.json passes, unchanged', () => {
  assert.equal(checkResults(good, config), good);
  assert.deepEqual([MODEL_FILE, RESULTS_FILE], ['text-model.bin', 'text-model-results.json']);
});

test('not an object, or an object without what the chapter reads: the first field missing is named', () => {
  assert.deepEqual(problem({}), { key: 'missing', vars: { field: 'heldOut' } });
  assert.deepEqual(problem([]), { key: 'notRoot', vars: { value: '[]' } });
  assert.deepEqual(problem(null), { key: 'notRoot', vars: { value: 'null' } });
  assert.deepEqual(problem('results'), { key: 'notRoot', vars: { value: '"results"' } });
  const noHeads = copy();
  delete noHeads.heads;
  assert.deepEqual(problem(noHeads), { key: 'missing', vars: { field: 'heads' } });
  const noBpc = copy();
  delete noBpc.heldOut.bitsPerChar;
  assert.deepEqual(problem(noBpc), { key: 'missing', vars: { field: 'heldOut.bitsPerChar' } });
  const noRole = copy();
  delete noRole.heads[5].role;
  assert.deepEqual(problem(noRole), { key: 'missing', vars: { field: 'heads[5].role' } });
  for (const f of ['previousToken', 'firstToken', 'local', 'induction', 'ablatedBitsPerChar']) {
    const j = copy();
    delete j.heads[2][f];
    assert.deepEqual(problem(j), { key: 'missing', vars: { field: `heads[2].${f}` } });
  }
});

test('a field of the wrong kind, a number that is not finite or not a count', () => {
  const set = (path, v) => {
    const j = copy();
    const keys = path.split('.');
    keys.slice(0, -1).reduce((o, k) => o[k], j)[keys.at(-1)] = v;
    return j;
  };
  assert.deepEqual(problem(set('heldOut', 2.76)), { key: 'notObject', vars: { field: 'heldOut', value: '2.76' } });
  assert.deepEqual(problem(set('heldOut.bitsPerChar', '2.76')), { key: 'notNumber', vars: { field: 'heldOut.bitsPerChar', value: '"2.76"' } });
  assert.deepEqual(problem(set('heldOut.bitsPerChar', null)), { key: 'notNumber', vars: { field: 'heldOut.bitsPerChar', value: 'null' } });
  // JSON has no Infinity, but a number too large for a double reads as one
  assert.deepEqual(problem(JSON.parse(JSON.stringify(good).replace(/"local":0\.793728/, '"local":1e999'))),
    { key: 'notNumber', vars: { field: 'heads[0].local', value: 'Infinity' } });
  assert.deepEqual(problem(set('heldOut.chars', 0)), { key: 'notCount', vars: { field: 'heldOut.chars', value: '0' } });
  assert.deepEqual(problem(set('heldOut.chars', 2.5)), { key: 'notCount', vars: { field: 'heldOut.chars', value: '2.5' } });
  assert.deepEqual(problem(set('heads', { 0: {} })), { key: 'notList', vars: { field: 'heads', value: '{"0":{}}' } });
  const nullHead = copy();
  nullHead.heads[3] = null;
  assert.deepEqual(problem(nullHead), { key: 'notObject', vars: { field: 'heads[3]', value: 'null' } });
  const badRole = copy();
  badRole.heads[0].role = 'none';
  assert.deepEqual(problem(badRole).key, 'notRole');
  // a role its scores do not give (by the thresholds the chapter shows)
  const otherRole = copy();
  const was = otherRole.heads[2].role;
  otherRole.heads[2].role = was === 'induction' ? 'local' : 'induction';
  assert.deepEqual(problem(otherRole), { key: 'roleScores', vars: { field: 'heads[2].role', value: JSON.stringify(otherRole.heads[2].role), want: JSON.stringify(was), n: 3 } });
  // a long value is cut short
  assert.equal(problem(set('heldOut.bitsPerChar', 'x'.repeat(100))).vars.value.length, 24);
});

test('the heads: not empty, one per head of the model, in the model\'s order', () => {
  assert.deepEqual(problem({ ...copy(), heads: [] }), { key: 'noHeads', vars: {} });
  assert.deepEqual(problem({ ...copy(), heads: good.heads.slice(0, 7) }), { key: 'headCount', vars: { n: 7, want: 8, layers: 2, heads: 4 } });
  // a model of another shape than the file's
  assert.deepEqual(problem(copy(), { layers: 3, heads: 4 }), { key: 'headCount', vars: { n: 8, want: 12, layers: 3, heads: 4 } });
  const swapped = copy();
  [swapped.heads[1], swapped.heads[4]] = [swapped.heads[4], swapped.heads[1]];
  assert.deepEqual(problem(swapped), { key: 'headPlace', vars: { field: 'heads[1].layer', value: '2', want: 1, n: 2 } });
  // without layer and head, the entries' places are the model's order
  const bare = copy();
  for (const h of bare.heads) {
    delete h.layer;
    delete h.head;
  }
  assert.equal(checkResults(bare, config), bare);
});

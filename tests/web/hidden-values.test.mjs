// An exercise's hidden values written "?" wherever a formula or a sentence would show them
// (web/src/components/grid/hidden-values.js; the browser side: core-attention's test).
import test from 'node:test';
import assert from 'node:assert/strict';
import { maskHidden, hideValuesUnder, hiddenTextsAt, worthHiding, watchHidden } from '../../web/src/components/grid/hidden-values.js';

test('maskHidden: the value as a formula or a sentence writes it, never part of another number', () => {
  const tex = 'P_{2,\\cdot} = \\frac{[e^{3},\\ e^{1.5}]}{e^{3} + e^{1.5}} = [0.818,\\ 0.182]';
  assert.equal(maskHidden(tex, ['0.818']), 'P_{2,\\cdot} = \\frac{[e^{3},\\ e^{1.5}]}{e^{3} + e^{1.5}} = [?,\\ 0.182]');
  assert.equal(maskHidden('10.818 0.8181 0.818', ['0.818']), '10.818 0.8181 ?');
  // a negative value with its sign, in TeX ("-") and in a sentence ("−"), in parentheses
  assert.equal(maskHidden('2 \\times (-1.5) = -3.25', ['−1.5', '−3.25']), '2 \\times (?) = ?');
  assert.equal(maskHidden('the score is −1.5.', ['−1.5']), 'the score is ?.');
  // a positive value also where a minus precedes it (it gives the digits away)
  assert.equal(maskHidden('e^{-0.25}', ['0.25']), 'e^{-?}');
  // "0", "1" and one digit alone are everywhere (indices, exponents): not masked
  assert.equal(maskHidden('q_{1} \\cdot k_{3} = 3', ['3', '1']), 'q_{1} \\cdot k_{3} = 3');
  assert.equal(worthHiding('12'), true);
  assert.equal(maskHidden('a = 1.000', []), 'a = 1.000');
});

test('hiddenTextsAt: the texts of the nearest registered ancestor', () => {
  const section = { parentNode: null };
  const box = { parentNode: { parentNode: section } };
  assert.deepEqual(hiddenTextsAt(box), []);
  hideValuesUnder(section, () => ['0.114']);
  assert.deepEqual(hiddenTextsAt(box), ['0.114']);
  assert.deepEqual(hiddenTextsAt({ parentNode: null }), []);
});

test('watchHidden: a writer told other texts than the grids hold at the end is stale', () => {
  let texts = [];
  const w = watchHidden(() => texts);
  w.reset();
  assert.deepEqual(w.texts(), []); // a formula written before its grid took its values
  texts = ['0.330'];
  assert.equal(w.stale(), true);
  w.reset();
  assert.deepEqual(w.texts(), ['0.330']);
  assert.equal(w.stale(), false);
  w.reset();
  assert.equal(w.stale(), false, 'nothing written: nothing stale');
});

// By identity (issue 26): a value tagged with its cell is "?" when that cell is hidden or
// covered, and written as it is otherwise, even when it equals a hidden value; untagged
// values are masked by their digits as before; with nothing hidden the tags go.
test('maskHidden: a tagged value by its cell, not by its digits', async () => {
  const { cellValue } = await import('../../web/src/components/grid/hidden-values.js');
  const hidden = ['0.500'];
  hidden.cells = new Set(['w:0,0', 'o:0,1']);
  const tex = `\\alpha_1 = ${cellValue('w', 0, 0, '0.500')}, \\alpha_2 = ${cellValue('w', 0, 1, '0.500')}, o = [${cellValue('o', 0, 0, '1.5')}, ${cellValue('o', 0, 1, '2.25')}], 0.500`;
  assert.equal(maskHidden(tex, hidden), '\\alpha_1 = ?, \\alpha_2 = 0.500, o = [1.5, ?], ?');
  assert.equal(maskHidden(`x = ${cellValue('w', 0, 0, '0.330')}`, []), 'x = 0.330');
});

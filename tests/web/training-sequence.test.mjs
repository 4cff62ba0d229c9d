// The training chapter's "your sequence" reader (web/src/chapters/training/sequence.js):
// one user-perceived character per token after NFKC, separators ignored, and each problem
// as a prose key with its values (so the message follows the language toggle).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readSequence, characters, invisible, codePoint } from '../../web/src/chapters/training/sequence.js';

const task = { tokenLabels: ['a', 'b', 'c', 'd', '🇰🇷'], probe: [0, 1, 2, 3, 0, 1], minLen: 2, maxLen: 6 };
const common = { example: 'abcda', tokens: 'a b c d 🇰🇷' };

test('tokens: one per character, spaces and commas between them ignored, NFKC first', () => {
  assert.deepEqual(readSequence('abc', task), { tokens: [0, 1, 2] });
  assert.deepEqual(readSequence(' a, b  c,d ', task), { tokens: [0, 1, 2, 3] });
  assert.deepEqual(readSequence('ａｂｃ', task), { tokens: [0, 1, 2] }, 'full-width letters are the letters');
  assert.deepEqual(readSequence('a🇰🇷b', task), { tokens: [0, 4, 1] }, 'a flag (two code points) is one character');
});

test('problems: empty, a character not in the task, one that draws nothing, the length', () => {
  assert.deepEqual(readSequence('', task), { problem: { key: 'yourEmpty', vars: {} } });
  assert.deepEqual(readSequence(' ,, ', task), { problem: { key: 'yourEmpty', vars: {} } });
  assert.deepEqual(readSequence('abx', task), { problem: { key: 'yourBadChar', vars: { ...common, ch: 'x' } } });
  assert.deepEqual(readSequence('a\u202Eb', task), { problem: { key: 'yourBadInvisible', vars: { ...common, code: 'U+202E' } } });
  assert.deepEqual(readSequence('a\u0000b', task), { problem: { key: 'yourBadInvisible', vars: { ...common, code: 'U+0000' } } });
  assert.deepEqual(readSequence('a', task), { problem: { key: 'yourLength', vars: { n: 1, minLen: 2, maxLen: 6 } } });
  assert.deepEqual(readSequence('abcdabc', task), { problem: { key: 'yourLength', vars: { n: 7, minLen: 2, maxLen: 6 } } });
  // the first bad character is named, before the length is judged
  assert.equal(readSequence('x', task).problem.key, 'yourBadChar');
  // a long cluster is quoted by its first 8 code points (after NFKC: e + U+0301 is é)
  const long = `e${'\u0301'.repeat(12)}`;
  assert.equal(readSequence(`a${long}`, task).problem.vars.ch, Array.from(long.normalize('NFKC')).slice(0, 8).join(''));
});

test('characters, invisible, codePoint', () => {
  assert.deepEqual(characters('a🇰🇷é'), ['a', '🇰🇷', 'é']);
  for (const ch of ['\u200D', '\uFE0F', '\u0301', '\u00A0', '\uE000', '\u0000']) assert.ok(invisible(ch), codePoint(ch));
  for (const ch of ['x', '가', '👨‍👩‍👧', '🇰🇷']) assert.ok(!invisible(ch), ch);
  assert.equal(codePoint('\u202E'), 'U+202E');
  assert.equal(codePoint('😀'), 'U+1F600');
});

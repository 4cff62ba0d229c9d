// The learner's sentence in trained-heads as a reader sees it
// (web/src/chapters/trained-heads/characters.js): its chips' labels and the sentence quoted
// in the field's message name an invisible or control character the same way, never raw.
import test from 'node:test';
import assert from 'node:assert/strict';
import { shown, graphemes, quoted } from '../../web/src/chapters/trained-heads/characters.js';

const RAW = /[\p{Cc}\p{Cf}]/u; // a control or invisible format character written as itself

test('quoted: a sentence in a message names each invisible or control character as its chip does', () => {
  const t = 'ab\u0000c\u0007 d\ne\u200Bf\u00AD';
  const q = quoted(t);
  assert.doesNotMatch(q, RAW, JSON.stringify(q));
  for (const g of graphemes([...t]).labels) if (g !== ' ') assert.ok(q.includes(shown(g)), `${JSON.stringify(g)} as "${shown(g)}" in ${q}`);
  assert.equal(q, 'ab U+0000 c U+0007 d↵e U+200B f U+00AD');
  assert.equal(quoted('\u0000x'), 'U+0000 x');
  assert.equal(quoted('the cat sat'), 'the cat sat');
  // the first 40 characters (graphemes), then "…"
  assert.equal(quoted('가'.repeat(50)), `${'가'.repeat(40)}…`);
  assert.equal(quoted('👍🏽'.repeat(41)), `${'👍🏽'.repeat(40)}…`);
});

test('quoted: no character gives a quote with a raw control character', () => {
  for (let c = 0; c < 0x10000; c += 1) {
    const ch = String.fromCharCode(c);
    if (/\p{Cs}/u.test(ch)) continue; // (a lone surrogate is not text)
    const q = quoted(`a${ch}b`);
    assert.doesNotMatch(q, /\p{Cc}/u, `U+${c.toString(16)}: ${JSON.stringify(q)}`);
  }
});

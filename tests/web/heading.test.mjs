// A chapter's title as its heading shows it before the chapter is mounted (lazy-chapters.js:
// KaTeX is not loaded yet): plain text and subscripts, never raw TeX (web/src/kit/plain.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readChapters } from '../../web/scripts/chapters.mjs';
import { headingParts } from '../../web/src/kit/plain.js';

const read = (parts) => parts.map((p) => (typeof p === 'string' ? p : p.sub)).join('');

test('headingParts: TeX in a title as plain text with subscripts', () => {
  assert.deepEqual(headingParts('Adding trainable weights: $W_Q$, $W_K$, $W_V$'),
    ['Adding trainable weights: W', { sub: 'Q' }, ', W', { sub: 'K' }, ', W', { sub: 'V' }]);
  assert.deepEqual(headingParts('The dot product, and why divide by $\\sqrt{d_k}$'),
    ['The dot product, and why divide by √d', { sub: 'k' }]);
  assert.deepEqual(headingParts('Softmax'), ['Softmax']);
});

test('every chapter title, ko and en, reads without TeX before its chapter is mounted', async () => {
  for (const c of await readChapters())
    for (const lang of ['ko', 'en']) {
      const shown = read(headingParts(c.text[lang].title));
      assert.doesNotMatch(shown, /[$\\{}_^]/, `${c.id} (${lang}): ${shown}`);
      assert.ok(shown.trim().length > 0, `${c.id} (${lang}): ${shown}`);
    }
});

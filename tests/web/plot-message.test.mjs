// An empty plot's message wraps to the width of its box, Korean included (the newcomer saw
// Korean lines run past the box and the plot at 390 px: they were wrapped by a Latin width).
import test from 'node:test';
import assert from 'node:assert/strict';
import { wrapText } from '../../web/src/components/plot.js';
import ko from '../../web/src/chapters/cost/ko.js';
import en from '../../web/src/chapters/cost/en.js';

// A wide (Hangul) character is drawn about 12 px wide at 12 px, a Latin one about 7 px.
const drawn = (line) => [...line].reduce((a, c) => a + (/[\uac00-\ud7a3]/.test(c) ? 12 : 7), 0);

test('every line of every cost-chapter message fits its box, at phone and desktop width', () => {
  const messages = [ko, en].flatMap((t) => Object.values(t).filter((v) => typeof v === 'string' && v.length > 40 && !v.includes('$')));
  assert.ok(messages.length > 4);
  for (const room of [250, 320, 600]) {
    for (const m of messages) {
      const lines = wrapText(m, room);
      assert.equal(lines.join(' '), m.split(/\s+/).filter(Boolean).join(' '), 'no word lost');
      for (const l of lines) if (l.includes(' ')) assert.ok(drawn(l) <= room * 1.05, `"${l}" (${drawn(l)} px) fits ${room} px`);
    }
  }
});

test('a short message stays on one line', () => {
  assert.deepEqual(wrapText('Press Run', 300), ['Press Run']);
  assert.deepEqual(wrapText('', 300), []);
});

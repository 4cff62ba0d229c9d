// The real-models chapter's head roles in words (web/src/chapters/real-models/roles.js): why a
// head has its role (the core's rule: its role's score and threshold, or the score nearest a
// threshold), the roles' sentence and thresholds before and after they are measured, the
// count line and the table's rows in the roles' order.
import test from 'node:test';
import assert from 'node:assert/strict';
import { fill } from '../../web/src/kit/fill.js';
import { fmt } from '../../web/src/format.js';
import { roleReason, roleWords, ROLE_ORDER, FIELD } from '../../web/src/chapters/real-models/roles.js';
import en from '../../web/src/chapters/real-models/en.js';

const tr = (key, vars) => {
  if (en[key] === undefined) throw new Error(`missing text: ${key}`);
  return vars ? fill(en[key], vars) : en[key];
};
const f2 = (x) => fmt(x, { digits: 2, fixed: true });
const f3 = (x) => fmt(x, { digits: 3, fixed: true });
const words = roleWords(tr, { f2, f3 });
const TH = { previousToken: 0.4, firstToken: 0.5, duplicateToken: 0.3, local: 0.7, induction: 0.3 };

test('every role has its score field and its words', () => {
  assert.deepEqual(ROLE_ORDER.slice(0, -1).map((r) => FIELD[r]), ['previousToken', 'firstToken', 'duplicateToken', 'local', 'induction']);
  for (const r of ROLE_ORDER) assert.ok(words.name(r), r);
  assert.equal(words.name(''), en.role_none);
});

test('roleReason: a named head, its role\'s score and threshold', () => {
  assert.deepEqual(roleReason({ role: 'local', local: 0.81, previousToken: 0.9 }, TH), { role: 'local', score: 0.81, threshold: 0.7 });
  assert.deepEqual(roleReason({ role: 'duplicate-token', duplicateToken: 0.5 }, TH), { role: 'duplicate-token', score: 0.5, threshold: 0.3 });
});

test('roleReason: a head of no role, the score nearest its threshold; unmeasured scores and thresholds of 0 skipped', () => {
  const head = { role: '', previousToken: 0.2, firstToken: 0.45, duplicateToken: null, local: 0.1, induction: 0.05 };
  assert.deepEqual(roleReason(head, TH), { role: '', nearest: 'first-token', score: 0.45, threshold: 0.5 });
  // (a tie keeps the role first in the order)
  assert.equal(roleReason({ role: '', previousToken: 0.2, firstToken: 0.25 }, TH).nearest, 'previous-token');
  assert.equal(roleReason({ role: '', previousToken: 0.39, firstToken: 0.49 }, { ...TH, firstToken: 0 }).nearest, 'previous-token');
  assert.deepEqual(roleReason({ role: '' }, TH), { role: '', nearest: null });
  assert.deepEqual(roleReason({ role: '', local: NaN }, TH), { role: '', nearest: null });
});

test('a head\'s role in words: reached, missed, or none', () => {
  assert.equal(words.why({ role: 'induction', induction: 0.612 }, TH), 'induction (0.61 ≥ 0.30)');
  assert.equal(words.why({ role: '', local: 0.6, previousToken: 0.1 }, TH), 'no nameable role (local 0.60 < 0.70)');
  assert.equal(words.why({ role: '' }, TH), 'no nameable role');
});

test('the roles\' sentence and thresholds: the roles on screen, else the model\'s, else "…"', () => {
  const R = { repeatLength: 10, sequences: 8, thresholds: TH };
  const info = { roles: { repeat: 12, sequences: 4, thresholds: { ...TH, local: 0.75 } } };
  assert.deepEqual(words.bodyVars(R, info), { repeat: 10, sequences: 8 });
  assert.deepEqual(words.bodyVars(null, info), { repeat: 12, sequences: 4 });
  assert.deepEqual(words.bodyVars(null, null), { repeat: '…', sequences: '…' });
  assert.deepEqual(words.thresholdVars(R, info), { prev: '0.40', first: '0.50', dup: '0.30', local: '0.70', induction: '0.30' });
  assert.equal(words.thresholdVars(null, info).local, '0.75');
  assert.deepEqual(words.thresholdVars(null, {}), { prev: '…', first: '…', dup: '…', local: '…', induction: '…' });
});

// Two layers of two heads.
const head = (role, s) => ({ role, previousToken: s, firstToken: s, duplicateToken: s, local: s, induction: s });
const R = { thresholds: TH, unnamed: 1, layers: [[head('induction', 0.5), head('', 0.1)], [head('previous-token', 0.9), head('induction', 0.4)]] };
const headName = (x) => `L${Math.floor(x / 2) + 1} H${(x % 2) + 1}`;

test('the count line names each measured role\'s heads, and the sentence too short for its own scores', () => {
  assert.equal(words.table(R, 2, { headName, abl: null }).line,
    'Of 4 heads: previous token 1, first token (sink) 0, duplicate token 0, local 0, induction 2. 1 has no nameable role.');
  // (a short sentence: its own scores not measured, so no head has their roles)
  const short = { ...R, short: { n: 3, min: 5 }, layers: R.layers.map((L) => L.map((x) => ({ ...x, role: x.role === 'previous-token' ? '' : x.role, previousToken: null, firstToken: null, local: null }))) };
  const { line } = words.table(short, 2, { headName, abl: null });
  assert.match(line, /^Of 4 heads: duplicate token 0, induction 2\. 1 has no nameable role\. The sentence is only 3 tokens long\./);
});

test('the table\'s rows: in the roles\' order, then by head; "—" for a score not measured, the ablation\'s Δ signed', () => {
  const { rows } = words.table(R, 2, { headName, abl: null });
  assert.deepEqual(rows.map((r) => r[0]), [2, 0, 3, 1]);
  assert.deepEqual(rows[0], [2, 'L2 H1', 'previous token (0.90 ≥ 0.40)', '0.90', '0.90', '0.90', '0.90', '0.90', '…']);
  const withNull = { ...R, layers: [[{ ...head('', 0.1), local: null }, head('', 0.1)], [head('', 0.1), head('', 0.1)]] };
  assert.equal(words.table(withNull, 2, { headName, abl: null }).rows[0][6], '—');
  const abl = { delta: [0.25, -0.0101, 0, 1] };
  assert.deepEqual(words.table(R, 2, { headName, abl }).rows.map((r) => r.at(-1)), ['+0.000', '+0.250', '+1.000', f3(-0.0101)]);
  assert.match(f3(-0.0101), /^\D0\.010$/); // (a minus sign, no plus)
});

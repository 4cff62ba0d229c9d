// The real-models chapter's line to its worker (web/src/chapters/real-models/worker-link.js):
// started on the first request, requests numbered from one counter, an answer handed on only
// while it answers the latest request of its kind, a failed worker ended and said as the
// open's error, the next request starting another.
import test from 'node:test';
import assert from 'node:assert/strict';
import { FakeWorker } from './fake-worker.mjs';
import { workerLink } from '../../web/src/chapters/real-models/worker-link.js';

const HANDLERS = ['progress', 'loaded', 'cancelled', 'heads', 'roles', 'ablating', 'ablationStopped', 'ablation',
  'openFailed', 'analyseFailed', 'rolesFailed', 'ablateFailed'];

function setup({ spawnThrows = false } = {}) {
  const got = [], workers = [];
  const on = Object.fromEntries(HANDLERS.map((h) => [h, (m) => got.push([h, m])]));
  const link = workerLink({
    spawn: () => {
      if (spawnThrows) throw new ReferenceError('Worker is not defined');
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
    on,
  });
  return { link, got, workers };
}

test('no worker until the first request; one worker for every request after it', () => {
  const { link, workers } = setup();
  assert.equal(workers.length, 0);
  assert.equal(link.openId, 0);
  link.open({ kind: 'url', base: 'https://x.example/m/' });
  link.analyse('The cat sat.');
  link.ablate();
  link.stopAblation();
  link.cancel();
  assert.equal(workers.length, 1);
  assert.deepEqual(workers[0].posted, [
    { type: 'open', id: 1, source: { kind: 'url', base: 'https://x.example/m/' } },
    { type: 'analyse', id: 2, text: 'The cat sat.' },
    { type: 'ablate', id: 3 },
    { type: 'stopAblation', id: 3 },
    { type: 'cancel' },
  ]);
  assert.equal(link.openId, 1);
});

test('each answer is handed on only while it answers the latest request of its kind', () => {
  const { link, got, workers } = setup();
  link.open({ kind: 'files', files: [] }); // 1
  link.open({ kind: 'files', files: [] }); // 2
  link.analyse('a'); // 3
  link.analyse('b'); // 4
  link.ablate(); // 5
  const [w] = workers;
  for (const id of [1, 2]) {
    w.reply({ type: 'progress', id, bytesDone: 1 });
    w.reply({ type: 'loaded', id, info: {} });
    w.reply({ type: 'cancelled', id });
    w.reply({ type: 'error', id, of: 'open', error: { kind: 'format' } });
  }
  for (const id of [3, 4]) {
    w.reply({ type: 'heads', id });
    w.reply({ type: 'roles', id });
    w.reply({ type: 'error', id, of: 'analyse', error: { kind: 'tooLong' } });
    w.reply({ type: 'error', id, of: 'roles', error: { kind: 'value' } });
  }
  for (const id of [4, 5]) {
    w.reply({ type: 'ablating', id, done: 1, total: 4 });
    w.reply({ type: 'ablationStopped', id, why: 'asked' });
    w.reply({ type: 'ablation', id });
    w.reply({ type: 'error', id, of: 'ablate', error: { kind: 'noScored' } });
  }
  // (a kind the chapter does not know, an error of no request: dropped)
  w.reply({ type: 'ready', id: 5 });
  w.reply({ type: 'error', of: 'something' });
  assert.deepEqual(got.map(([h, m]) => [h, m.id ?? m.kind]), [
    ['progress', 2], ['loaded', 2], ['cancelled', 2], ['openFailed', 'format'],
    ['heads', 4], ['roles', 4], ['analyseFailed', 'tooLong'], ['rolesFailed', 'value'],
    ['ablating', 5], ['ablationStopped', 5], ['ablation', 5], ['ablateFailed', 'noScored'],
  ]);
});

test('a core error, whatever its id, is the open\'s error; the worker ends and the next request starts another', () => {
  const { link, got, workers } = setup();
  link.open({ kind: 'files', files: [] });
  workers[0].reply({ type: 'error', id: null, of: 'core', error: { kind: 'core', message: 'no module' } });
  assert.deepEqual(got, [['openFailed', { kind: 'core', message: 'no module' }]]);
  assert.equal(workers[0].terminated, true);
  link.open({ kind: 'files', files: [] });
  assert.equal(workers.length, 2);
  assert.deepEqual(workers[1].posted, [{ type: 'open', id: 2, source: { kind: 'files', files: [] } }]);
});

test('a worker that fails to run: its error event is prevented and said as a core error', () => {
  const { link, got, workers } = setup();
  link.analyse('x');
  assert.equal(workers[0].fail('SyntaxError in real-model.js'), true);
  assert.deepEqual(got, [['openFailed', { kind: 'core', detail: 'SyntaxError in real-model.js' }]]);
  assert.equal(workers[0].terminated, true);
  const second = setup();
  second.link.cancel();
  second.workers[0].onerror({});
  assert.deepEqual(second.got, [['openFailed', { kind: 'core', detail: 'worker error' }]]);
});

test('a spawn that throws throws from the request, with the open\'s number already the new one', () => {
  const { link, got } = setup({ spawnThrows: true });
  assert.throws(() => link.open({ kind: 'files', files: [] }), ReferenceError);
  assert.equal(link.openId, 1);
  assert.throws(() => link.open({ kind: 'files', files: [] }), ReferenceError);
  assert.equal(link.openId, 2);
  assert.deepEqual(got, []);
});

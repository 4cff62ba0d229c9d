// The training chapter's line to its trainer (web/src/chapters/training/trainer-link.js): a
// Web Worker started on demand, the messages sent before it said 'ready' kept and replayed
// to a trainer on the page when the worker cannot start or fails before it came up.
import test from 'node:test';
import assert from 'node:assert/strict';
import { FakeWorker } from './fake-worker.mjs';
import { setTimeout as tick } from 'node:timers/promises';
import { trainerLink } from '../../web/src/chapters/training/trainer-link.js';


function setup({ spawnThrows = false } = {}) {
  const got = { messages: [], errors: [], workers: [], inPage: [] };
  const link = trainerLink({
    spawn: () => {
      if (spawnThrows) throw new ReferenceError('Worker is not defined');
      const w = new FakeWorker();
      got.workers.push(w);
      return w;
    },
    inPage: (post) => {
      const received = [];
      got.inPage.push({ received, post });
      return { receive: (m) => received.push(m) };
    },
    onMessage: (m) => got.messages.push(m),
    onError: (message) => got.errors.push(message),
  });
  return { link, got };
}

test('messages before start wait; the worker gets them in order when it starts, once', () => {
  const { link, got } = setup();
  link.send({ type: 'configure', n: 1 });
  link.send({ type: 'start' });
  assert.equal(got.workers.length, 0, 'no worker before start(): a page only read never spins one up');
  assert.equal(link.inWorker, false);
  link.start();
  link.start();
  assert.equal(got.workers.length, 1, 'start() twice starts one worker');
  assert.ok(link.inWorker);
  const [w] = got.workers;
  assert.deepEqual(w.posted, [{ type: 'configure', n: 1 }, { type: 'start' }]);
  link.send({ type: 'pause' });
  assert.deepEqual(w.posted.at(-1), { type: 'pause' });
});

test("the worker's messages reach the chapter, but 'ready'; an error after ready is reported", () => {
  const { link, got } = setup();
  link.start();
  const [w] = got.workers;
  w.reply({ type: 'ready', simd: true });
  w.reply({ type: 'snapshot', step: 0 });
  assert.deepEqual(got.messages, [{ type: 'snapshot', step: 0 }]);
  assert.equal(w.fail('boom'), true, 'the error event is handled (preventDefault)');
  assert.deepEqual(got.errors, ['boom']);
  assert.equal(got.inPage.length, 0, 'a worker that was up does not fall back to the page');
  assert.ok(link.inWorker);
});

test('no Worker: the trainer runs on the page and gets the backlog, then every message', async () => {
  const { link, got } = setup({ spawnThrows: true });
  link.send({ type: 'configure', n: 1 });
  link.start();
  assert.equal(link.inWorker, false);
  assert.equal(got.inPage.length, 1);
  const page = got.inPage[0];
  assert.deepEqual(page.received, [{ type: 'configure', n: 1 }]);
  link.send({ type: 'step', steps: 1 });
  assert.deepEqual(page.received.at(-1), { type: 'step', steps: 1 });
  // its messages arrive a task later, as a worker's would
  page.post({ type: 'ready' });
  page.post({ type: 'snapshot', step: 1 });
  assert.deepEqual(got.messages, []);
  await tick(5);
  assert.deepEqual(got.messages, [{ type: 'snapshot', step: 1 }]);
});

test('a worker failing before ready: terminated, the page trainer gets everything sent so far', () => {
  const { link, got } = setup();
  link.send({ type: 'configure', n: 1 });
  link.start();
  link.send({ type: 'probe', id: 1 });
  const [w] = got.workers;
  w.fail('script did not load');
  assert.ok(w.terminated);
  assert.deepEqual(got.errors, [], 'not an error for the learner: the chapter still works');
  assert.deepEqual(got.inPage[0].received, [{ type: 'configure', n: 1 }, { type: 'probe', id: 1 }]);
  assert.equal(link.inWorker, false);
});

test("after 'ready' the backlog is dropped: a later failure replays nothing", () => {
  const { link, got } = setup();
  link.send({ type: 'configure', n: 1 });
  link.start();
  const [w] = got.workers;
  w.reply({ type: 'ready' });
  link.send({ type: 'start' });
  assert.deepEqual(w.posted, [{ type: 'configure', n: 1 }, { type: 'start' }]);
  w.fail('crash');
  assert.equal(got.inPage.length, 0);
});

test('startNear without IntersectionObserver starts at once', () => {
  const { link, got } = setup();
  assert.equal(typeof IntersectionObserver, 'undefined');
  link.startNear({});
  assert.equal(got.workers.length, 1);
});

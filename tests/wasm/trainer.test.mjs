// The training chapter's trainer (web/src/workers/trainer.js) in Node, on the built module:
// going back to a configuration that has not trained reuses its models and first snapshot
// (counted: no model is built again) and the snapshot is the one a fresh build gives;
// models that trained are not reused; configurations built ahead (prefetch) are what configure
// gives and are not built again.
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/dist/attn.mjs';
import { createTrainer } from '../../web/src/workers/trainer.js';

const attn = await createAttention();

function trainerWithCounts(core = attn) {
  let built = 0;
  const counted = { ...core, createModel: (c) => (built++, core.createModel(c)) }; // (attn is frozen)
  const out = [];
  let wake = null;
  const trainer = createTrainer({ ready: Promise.resolve(counted), post: (m) => (out.push(m), wake?.()) });
  const next = async (type) => {
    for (;;) {
      const i = out.findIndex((m) => [type].flat().includes(m.type)); // a type or a list of them
      if (i >= 0) return out.splice(i, 1)[0];
      await new Promise((r) => (wake = r));
    }
  };
  return { trainer, next, built: () => built };
}

const config = (over = {}) => ({
  task: 'previous-token', seed: 1, lr: 0.01, heads: 1, layers: 1, dropout: 0, positional: true,
  dModel: 32, dK: 64, dV: 0, batch: 32, evalSize: 128, ...over,
});

test('trainer: a configuration seen before and not trained is not built again', async () => {
  const { trainer, next, built } = trainerWithCounts();
  await next('ready');
  trainer.receive({ type: 'configure', config: config() });
  const a = await next('snapshot');
  assert.equal(built(), 2, 'two models: with and without the scale');
  trainer.receive({ type: 'configure', config: config({ heads: 2 }) });
  const b = await next('snapshot');
  assert.equal(built(), 4);
  assert.notDeepEqual(b.config, a.config);
  trainer.receive({ type: 'configure', config: config() });
  const again = await next('snapshot');
  assert.equal(built(), 4, 'the first configuration came back from the cache');
  assert.deepEqual(again, a, 'and its snapshot is the same');
  // A fresh trainer builds that configuration anew and gets the same snapshot.
  const other = trainerWithCounts();
  await other.next('ready');
  other.trainer.receive({ type: 'configure', config: config() });
  assert.deepEqual(await other.next('snapshot'), a);

  // Models that trained are not reused: a step, then away and back, builds again.
  trainer.receive({ type: 'step', steps: 1 });
  assert.equal((await next('snapshot')).step, 1);
  trainer.receive({ type: 'configure', config: config({ heads: 2 }) });
  await next('snapshot');
  assert.equal(built(), 4, 'heads 2 had not trained');
  trainer.receive({ type: 'configure', config: config() });
  const rebuilt = await next('snapshot');
  assert.equal(built(), 6, 'the trained pair was not taken back');
  assert.equal(rebuilt.step, 0);
  assert.deepEqual(rebuilt.eval, a.eval);
  // Probes answer on cached models as on new ones.
  trainer.receive({ type: 'probe', id: 1, tokens: a.task.probe });
  const p = await next('probe');
  assert.deepEqual(p.on, a.probe.on);
});

test('trainer: configurations built ahead while idle are what configure gives, and not built again', async () => {
  const { trainer, next, built } = trainerWithCounts();
  await next('ready');
  trainer.receive({ type: 'configure', config: config() });
  await next('snapshot');
  assert.equal(built(), 2);
  const ahead = [config({ heads: 2 }), config({ lr: 0.003 })];
  trainer.receive({ type: 'prefetch', configs: ahead });
  const got = [await next('snapshot'), await next('snapshot')];
  assert.deepEqual(got.map((m) => [m.reason, m.key]), ahead.map((c) => ['prefetch', JSON.stringify(c)]));
  assert.equal(built(), 6, 'two pairs built ahead');
  // the current models stayed current: a step trains them, not the last one built ahead
  trainer.receive({ type: 'step', steps: 1 });
  const stepped = await next('snapshot');
  assert.equal(stepped.step, 1);
  assert.equal(stepped.config.heads, 1);
  // picking one builds nothing, and its snapshot is the one built ahead and a fresh build's
  trainer.receive({ type: 'configure', config: ahead[0] });
  const picked = await next('snapshot');
  assert.equal(built(), 6, 'taken from what was built ahead');
  const { key, ...first } = got[0];
  assert.equal(key, JSON.stringify(ahead[0]));
  assert.deepEqual(picked, { ...first, reason: 'configure' });
  const other = trainerWithCounts();
  await other.next('ready');
  other.trainer.receive({ type: 'configure', config: ahead[0] });
  assert.deepEqual(await other.next('snapshot'), picked);
  // a configure drops the rest of the list; a running trainer builds nothing ahead
  trainer.receive({ type: 'prefetch', configs: [config({ seed: 2 }), config({ seed: 3 })] });
  trainer.receive({ type: 'configure', config: config({ layers: 2 }) });
  assert.equal((await next('snapshot')).reason, 'configure');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(built(), 8, 'the layers-2 pair only');
});

test('trainer: building ahead keeps within the core\'s limit of live models', async () => {
  // (a core of its own: the models of the tests above are alive in the shared one)
  const { trainer, next } = trainerWithCounts(await createAttention());
  await next('ready');
  trainer.receive({ type: 'configure', config: config() });
  await next('snapshot');
  const many = Array.from({ length: 40 }, (_, i) => config({ seed: i + 2 }));
  trainer.receive({ type: 'prefetch', configs: many });
  for (let i = 0; i < many.length; i++) assert.equal((await next('snapshot')).reason, 'prefetch');
  // a new configuration still builds (the oldest pairs built ahead were let go)
  trainer.receive({ type: 'configure', config: config({ heads: 4 }) });
  const m = await next(['snapshot', 'error']);
  assert.equal(m.type, 'snapshot', m.message);
  // the last ones built ahead are still there: taking one builds nothing
  trainer.receive({ type: 'configure', config: many.at(-1) });
  assert.deepEqual((await next('snapshot')).config.seed, many.at(-1).seed);
});

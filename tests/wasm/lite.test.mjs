// The core without the trainer (attn-core-lite.wasm, createAttention({training: false})),
// which the page loads: the same API and the same bits as the whole core, but createModel()
// says why it cannot train; and it really is the lighter file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import createAttention from '../../web/dist/attn.mjs';

const full = await createAttention({ simd: true });
const lite = await createAttention({ simd: true, training: false });

test('the lite core has every function of the whole core', () => {
  assert.deepEqual(Object.keys(lite).sort(), Object.keys(full).sort());
  assert.equal(lite.simd, 'wasm-simd128');
});

test('it computes the same bits as the whole core', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const T = 1 + (seed % 7), d = 1 + ((seed * 3) % 9);
    const args = (a) => [a.random({ rows: T, cols: d, seed }), a.random({ rows: T, cols: d, seed: seed + 50 }), a.random({ rows: T, cols: 2, seed: seed + 99 })];
    const opts = { causal: seed % 2 === 0, dropout: { rate: 0.25, seed, training: seed % 3 === 0 } };
    const a = full.attention(...args(full), opts), b = lite.attention(...args(lite), opts);
    for (const stage of ['scores', 'weights', 'dropped', 'output']) assert.deepEqual(b[stage].data, a[stage].data, `${stage}, seed ${seed}`);
  }
  const ex = lite.example('multi-head');
  const o = { Wq: ex.Wq, Wk: ex.Wk, Wv: ex.Wv, Wo: ex.Wo, heads: ex.heads, causal: true };
  assert.deepEqual(lite.multiHeadAttention(ex.X, o).output.data, full.multiHeadAttention(ex.X, o).output.data);
});

test('task() and the limits are there; createModel() throws and says why; liveModels() is 0', () => {
  assert.deepEqual(lite.task('sort'), full.task('sort'));
  assert.throws(() => lite.createModel(), (e) => e instanceof Error && /createModel: .*training: false/.test(e.message));
  assert.equal(lite.liveModels(), 0);
  assert.throws(() => lite.loadModel(new Uint8Array(8)), (e) => e instanceof Error && /loadModel: .*training: false/.test(e.message));
  // and the module keeps working
  assert.equal(lite.matmul(lite.matrix(1, 1, [2]), lite.matrix(1, 1, [3])).data[0], 6);
});

test('a bad training option is a TypeError', async () => {
  await assert.rejects(createAttention({ training: 'no' }), TypeError);
});

test('the lite wasm is at least a fifth smaller than the whole core, gzipped', () => {
  const gz = (f) => statSync(new URL(`../../web/dist/${f}.wasm.gz`, import.meta.url)).size;
  assert.ok(gz('attn-core-lite') < 0.8 * gz('attn-core'), `${gz('attn-core-lite')} vs ${gz('attn-core')} bytes`);
});

// A copy of the files without a core (a folder copied by hand, a server answering 404 with a
// page): the promise rejects with an Error naming the file, not the loader's
// "Aborted(CompileError ... expected magic word ...)".
test('a core that does not load: the error names its file (error.file) and says why', async () => {
  const { mkdtemp, mkdir, copyFile, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const dist = fileURLToPath(new URL('../../web/dist/', import.meta.url));
  const dir = await mkdtemp(join(tmpdir(), 'attn-nocore-'));
  try {
    for (const f of ['attn.mjs', 'attn-core.mjs', 'attn-core-scalar.mjs']) await copyFile(join(dist, f), join(dir, f));
    const { default: create } = await import(join(dir, 'attn.mjs'));
    const named = (file) => (e) => e instanceof Error && e.file === file &&
      e.message === `createAttention: could not load the core ${file}: the file is missing or is not WebAssembly` && e.cause !== undefined;
    await assert.rejects(create({ simd: true }), named('attn-core.wasm'));
    await assert.rejects(create({ simd: true, training: false }), named('attn-core-lite.wasm'));
    await assert.rejects(create({ simd: false }), named('attn-core-scalar.wasm'));
    // a page where the file should be
    await writeFile(join(dir, 'attn-core-lite.wasm'), '<!doctype html><title>404 Not Found</title>');
    await assert.rejects(create({ simd: true, training: false }), named('attn-core-lite.wasm'));
    // a caller's bytes: no file to name
    await assert.rejects(create({ simd: true, wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0]) }),
      (e) => e.file === null && /^createAttention: could not load the given wasmBinary: /.test(e.message));
    // a caller's locateFile: the file it named
    await assert.rejects(create({ simd: true, locateFile: () => join(dir, 'elsewhere', 'my-core.wasm') }),
      (e) => e.file === 'my-core.wasm' && /^createAttention: could not load the core my-core\.wasm: /.test(e.message));
    // and a core that is there still loads
    await copyFile(join(dist, 'attn-core-lite.wasm'), join(dir, 'attn-core-lite.wasm'));
    assert.equal((await create({ simd: true, training: false })).simd, 'wasm-simd128');
    // its loader missing (a folder with attn.mjs alone; a module once imported stays, so another folder)
    const alone = join(dir, 'alone');
    await mkdir(alone);
    await copyFile(join(dist, 'attn.mjs'), join(alone, 'attn.mjs'));
    const { default: createAlone } = await import(join(alone, 'attn.mjs'));
    await assert.rejects(createAlone({ simd: true, training: false }), (e) => e.file === 'attn-core.mjs' &&
      e.message === 'createAttention: could not load the core attn-core.mjs: the file is missing or could not be run');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

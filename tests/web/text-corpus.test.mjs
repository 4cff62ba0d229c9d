// The text model's corpus can be rebuilt from a clone (docs/text-model.md): the page's
// prose is read from the git revision the committed manifest names, so the page's part of
// the corpus, and with it the committed weights, come out again however the page's prose
// has changed since. The Debian packages' part needs `make train-text-model`'s apt
// packages and is not run here; their files are checked by their checksums in the manifest.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = join(root, 'tools', 'text-model', 'corpus.mjs');
const committed = JSON.parse(await readFile(join(root, 'models', 'text-model', 'manifest.json'), 'utf8'));
const PAGE = ['page-ko', 'page-en'];

const hasHistory = (rev) =>
  spawnSync('git', ['-C', root, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).status === 0;

const run = async (args) => {
  const out = await mkdtemp(join(tmpdir(), 'attn-corpus-'));
  try {
    const r = spawnSync(process.execPath, [corpus, '--out', out, '--eval', join(out, 'eval.txt'), ...args],
      { encoding: 'utf8' });
    const manifest = r.status === 0 ? JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) : null;
    return { ...r, manifest };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
};

test('the committed manifest names the page revision of its corpus', () => {
  assert.match(committed.pageRevision ?? '', /^[0-9a-f]{40}$/);
});

test('the page prose of the committed corpus comes out again from its revision', async (t) => {
  if (!hasHistory(committed.pageRevision)) {
    t.skip(`this checkout does not hold ${committed.pageRevision} (no git history)`);
    return;
  }
  const r = await run(['--sources', PAGE.join(',')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.manifest.pageRevision, committed.pageRevision);
  for (const id of PAGE) {
    const got = r.manifest.sources.find((s) => s.id === id);
    const want = committed.sources.find((s) => s.id === id);
    assert.deepEqual(got, want, `${id}: files, checksums and paragraph counts as committed`);
  }
});

test('the page on disk is another corpus, named as such', async () => {
  const r = await run(['--sources', 'page-en', '--page-rev', 'worktree']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.manifest.pageRevision, null);
  const files = r.manifest.sources[0].fileList;
  assert.ok(files.every((f) => f.startsWith('web/')), files.join(' '));
  // The chapters written since the committed corpus are read from disk.
  assert.ok(files.length >= committed.sources.find((s) => s.id === 'page-en').files, files.join(' '));
});

test('an unknown revision or source is refused with a message', async () => {
  const bad = await run(['--sources', 'page-en', '--page-rev', 'no-such-revision']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /page revision no-such-revision is not in this repository's history/);
  assert.doesNotMatch(bad.stderr, /at .*corpus\.mjs/, 'a message, not a stack trace');
  const src = await run(['--sources', 'nonsense', '--page-rev', 'worktree']);
  assert.equal(src.status, 2);
  assert.match(src.stderr, /no source nonsense/);
});


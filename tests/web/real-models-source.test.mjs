// Where the real-models chapter's model comes from (web/src/chapters/real-models/model-source.js):
// a link's or the widget's folder URL, a drop's files (a folder one level down), the model in
// a picker's files (one model folder, or the severalModels error).
import test from 'node:test';
import assert from 'node:assert/strict';
import { modelUrl, droppedFiles, pickedModel } from '../../web/src/chapters/real-models/model-source.js';

const base = 'https://course.example/attention/index.html?lang=en';

test('modelUrl: a folder on this site, resolved against the page, ending in a slash', () => {
  assert.equal(modelUrl('/pretrained/gpt2-f16', { base }), 'https://course.example/pretrained/gpt2-f16/');
  assert.equal(modelUrl('models/bert/', { base }), 'https://course.example/attention/models/bert/');
  assert.equal(modelUrl('./m?x=1', { base }), 'https://course.example/attention/m/?x=1');
});

test('modelUrl: another origin only when the caller allows it; never a non-http scheme or nothing', () => {
  assert.equal(modelUrl('https://elsewhere.example/m/', { base }), null);
  assert.equal(modelUrl('//elsewhere.example/m/', { base }), null);
  assert.equal(modelUrl('https://elsewhere.example/m', { base, sameOrigin: false }), 'https://elsewhere.example/m/');
  for (const bad of ['javascript:alert(1)', 'data:text/plain,x', 'file:///etc/', 'blob:https://course.example/x'])
    assert.equal(modelUrl(bad, { base, sameOrigin: false }), null, bad);
  for (const none of ['', null, undefined, 42, { url: '/m/' }]) assert.equal(modelUrl(none, { base }), null);
  assert.equal(modelUrl('http://[::1', { base }), null); // (not a URL)
});

// A stand-in File: a name and, from a picked folder, its path in it.
const file = (name, dir) => ({ name, webkitRelativePath: dir == null ? '' : `${dir}/${name}` });

test('pickedModel: loose files or one model folder open as they are', () => {
  const loose = [file('config.json'), file('model.safetensors'), file('tokenizer.json')];
  assert.deepEqual(pickedModel(loose), { files: loose });
  const one = [file('config.json', 'gpt2'), file('model.safetensors', 'gpt2')];
  assert.deepEqual(pickedModel(one), { files: one });
});

test('pickedModel: one model in a subfolder of the picked folder: its files only', () => {
  const files = [file('README.md', 'top'), file('config.json', 'top/gpt2'), file('model.safetensors', 'top/gpt2'), file('notes.txt', 'top/other')];
  assert.deepEqual(pickedModel(files).files.map((f) => f.webkitRelativePath), ['top/gpt2/config.json', 'top/gpt2/model.safetensors']);
});

test('pickedModel: several model folders are the severalModels error, the first four named, sorted', () => {
  const two = [file('config.json', 'all/gpt2'), file('config.json', 'all/bert'), file('model.safetensors', 'all/bert')];
  assert.deepEqual(pickedModel(two), { error: { kind: 'severalModels', n: 2, folders: 'all/bert, all/gpt2' } });
  const six = ['f', 'e', 'd', 'c', 'b', 'a'].map((d) => file('config.json', `m/${d}`));
  assert.deepEqual(pickedModel(six), { error: { kind: 'severalModels', n: 6, folders: 'm/a, m/b, m/c, m/d, …' } });
});

// Stand-in drop entries (the File and Directory Entries API): a directory's reader gives its
// entries in batches, then an empty one.
const fileEntry = (name) => ({ isFile: true, isDirectory: false, file: (res) => setTimeout(() => res({ name }), 0) });
const dirEntry = (batches) => ({
  isFile: false, isDirectory: true,
  createReader: () => ({ readEntries: (res) => setTimeout(() => res(batches.shift() ?? []), 0) }),
});

test('droppedFiles: a dropped folder\'s files one level down, loose files as they are', async () => {
  const folder = dirEntry([[fileEntry('config.json'), dirEntry([[fileEntry('deep.bin')]])], [fileEntry('model.safetensors')]]);
  const dt = { items: [{ webkitGetAsEntry: () => folder }, { webkitGetAsEntry: () => fileEntry('vocab.txt') }], files: [] };
  assert.deepEqual((await droppedFiles(dt)).map((f) => f.name), ['config.json', 'model.safetensors', 'vocab.txt']);
});

test('droppedFiles: without entries (an engine without webkitGetAsEntry), the drop\'s files', async () => {
  const files = [{ name: 'config.json' }, { name: 'model.safetensors' }];
  assert.deepEqual(await droppedFiles({ items: [{}, {}], files }), files);
  assert.deepEqual(await droppedFiles({ files }), files);
  assert.deepEqual(await droppedFiles({}), []);
});

// The real-models chapter's errors in words (web/src/chapters/real-models/errors.js): each
// worker error's kind and parameters to its message in the page's language, the names from
// outside escaped for prose, the English technical note only where the message does not say
// it all.
import test from 'node:test';
import assert from 'node:assert/strict';
import { fill } from '../../web/src/kit/fill.js';
import { errorWording, SAID_IN_FULL } from '../../web/src/chapters/real-models/errors.js';
import ko from '../../web/src/chapters/real-models/ko.js';
import en from '../../web/src/chapters/real-models/en.js';

// The chapter's tr as the kit makes it: the language's text, else the Korean, else a throw.
const trOf = (texts) => (key, vars) => {
  const s = texts[key] ?? ko[key];
  if (s === undefined) throw new Error(`missing text: ${key}`);
  return vars ? fill(s, vars) : s;
};
const tr = trOf(en);
const say = ([template, vars]) => fill(template, vars);

test('each kind has its own words; a kind the page does not know is an unexpected error', () => {
  const { words, message } = errorWording(tr);
  assert.equal(words({ kind: 'pickle', file: 'pytorch_model.bin' })[0], 'err_pickle');
  assert.equal(words({ kind: 'missing', file: 'config.json' })[0], 'err_missing');
  assert.equal(words({ kind: 'missing', folder: '/m/', file: 'config.json' })[0], 'err_missingFolder');
  assert.equal(words({ kind: 'missing', tensor: 'h.0.attn.c_attn.weight', file: 'model.safetensors' })[0], 'err_missingTensor');
  assert.equal(words({ kind: 'config', what: 'json', line: 3, column: 7 })[0], 'err_configJson');
  assert.equal(words({ kind: 'index', what: 'json' })[0], 'err_indexJson');
  assert.equal(words({ kind: 'architecture', got: '' })[0], 'err_architectureNone');
  assert.equal(words({ kind: 'architecture' })[0], 'err_architectureNone');
  assert.equal(words({ kind: 'architecture', got: 'llama' })[0], 'err_architecture');
  assert.equal(words({ kind: 'no such kind' })[0], 'err_error');
  assert.equal(message({ kind: 'no such kind' }), en.err_error);
  assert.equal(message({ kind: 'architecture', got: 'llama' }), fill(en.err_architecture, { got: 'llama' }));
});

test('a folder the widget\'s attribute named says so; the link\'s says the link', () => {
  const e = { kind: 'missing', folder: '/m/', file: 'config.json' };
  assert.equal(errorWording(tr, { byAttribute: true }).words(e)[0], 'err_missingFolderAttr');
  assert.match(errorWording(tr, { byAttribute: true }).message(e), /widget's model attribute/);
  assert.match(errorWording(tr).message(e), /^The link's folder could not be read: \/m\/\./);
});

test('the places and values a message names: tensor, file, line, the expected and found value', () => {
  const { message } = errorWording(tr);
  assert.equal(message({ kind: 'truncated', file: 'model.safetensors', tensor: 'wte.weight', what: 'bytes', expected: 100, got: 60 }),
    'A file is truncated: model.safetensors (tensor: wte.weight). Bytes: expected 100, found 60. Download the file again.');
  assert.equal(message({ kind: 'config', file: 'config.json', what: 'layers', expected: 12 }),
    'config.json and the weights disagree, or config.json is wrong (file: config.json).');
  assert.equal(message({ kind: 'config', what: 'n_heads', expected: 12, got: 7 }),
    'config.json and the weights disagree, or config.json is wrong. n_heads: expected 12, found 7.');
  assert.equal(message({ kind: 'config', what: 'json', line: 3, column: 7 }), 'config.json is not valid JSON (line 3, column 7).');
  assert.equal(message({ kind: 'index', tensor: 'h.1.mlp', file: 'model-00002.safetensors' }),
    'model.safetensors.index.json does not match its shards (tensor: h.1.mlp, file: model-00002.safetensors).');
  assert.equal(message({ kind: 'tooLong', n: 30, max: 24 }), 'The sentence is 30 tokens long; this model reads at most 24. Make it shorter.');
  assert.equal(message({ kind: 'severalModels', n: 2, folders: 'a, b' }),
    'The folder you picked holds 2 model folders: a, b. Pick one model\'s folder, so that their files are not mixed.');
  // (Korean: the same words, the Korean names of the values)
  assert.match(errorWording(trOf(ko)).message({ kind: 'shape', tensor: 't', file: 'f', expected: '[2]', got: '[3]', what: 'shape' }), /t/);
});

test('names from outside are escaped in the prose form; the plain form keeps them as they are', () => {
  const { text, message } = errorWording(tr);
  const e = { kind: 'format', file: '<img src=x onerror=alert(1)>$x$.bin' };
  const [template, vars] = text(e);
  assert.equal(template, en.err_format);
  assert.equal(vars.file, '&lt;img src=x onerror=alert(1)&gt;&#36;x&#36;.bin');
  assert.equal(say([template, vars]), 'Not a format this page reads: &lt;img src=x onerror=alert(1)&gt;&#36;x&#36;.bin. It needs model.safetensors.');
  assert.equal(message(e), 'Not a format this page reads: <img src=x onerror=alert(1)>$x$.bin. It needs model.safetensors.');
});

test('the technical note: the core\'s detail, cut to 400 characters and escaped, unless the message says it all', () => {
  const { detail } = errorWording(tr);
  assert.deepEqual(detail(null), [null, { detail: '' }]);
  assert.deepEqual(detail({ kind: 'header', file: 'f', detail: 'bad <json>' }), [en.technical, { detail: 'bad &lt;json&gt;' }]);
  assert.deepEqual(detail({ kind: 'core', message: 'Worker failed' }), [en.technical, { detail: 'Worker failed' }]);
  assert.equal(detail({ kind: 'header', detail: 'x'.repeat(500) })[1].detail.length, 400);
  assert.deepEqual(detail({ kind: 'header' }), [null, { detail: '' }]);
  for (const kind of SAID_IN_FULL) assert.equal(detail({ kind, detail: 'more' })[0], null, kind);
  assert.equal(errorWording(trOf(ko)).detail({ kind: 'dtype', detail: 'd' })[0], ko.technical);
});

// The real-model chapter's tokenizers (web/real-models/tokenizer.js).
//
// GPT-2: against a peer nobody here wrote. js-tiktoken ships r50k_base, GPT-2's own
// vocabulary and merge ranks; the test turns it into vocab.json + merges.txt (the files a GPT-2
// checkpoint has: ids are the ranks, each merge recovered from its token's ranks as tiktoken's
// own converters do), builds our tokenizer from those files, and requires the same ids as
// js-tiktoken's encoder on every sentence of a corpus of >= 1,000: the page's Korean and English
// prose, C++ and JavaScript source lines, emoji (ZWJ sequences, flags, skin tones), runs of
// spaces, tabs and newlines, contractions, digits, non-ASCII spaces. Every token's offsets must
// then cover the text in order.
// BERT: WordPiece on the tiny checkpoint's vocab.txt: lower-casing and accent stripping only when
// the files say so (Hangul stays syllables without them), [CLS]/[SEP], [UNK] spans, offsets.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createTokenizer, BYTE_TO_CHAR, TokenizerError } from '../../web/real-models/tokenizer.js';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { Tiktoken } = require('js-tiktoken/lite');
const r50k = require('js-tiktoken/ranks/r50k_base');
const root = new URL('../../', import.meta.url);

// r50k_base as vocab.json + merges.txt.
function r50kFiles(enc) {
  const bytesOf = [];
  for (const [rank, bytes] of enc.textMap) bytesOf[rank] = Array.from(bytes);
  const key = (b) => b.join(',');
  const rankOf = new Map(bytesOf.map((b, r) => [key(b), r]));
  const vocab = {};
  bytesOf.forEach((b, r) => (vocab[b.map((x) => BYTE_TO_CHAR[x]).join('')] = r));
  vocab['<|endoftext|>'] = 50256;
  const merges = [];
  for (let r = 256; r < bytesOf.length; ++r) {
    // BPE on the token's bytes with the ranks below r: it ends in the two parts r merges.
    let parts = bytesOf[r].map((x) => [x]);
    for (;;) {
      let best = -1, at = -1;
      for (let i = 0; i + 1 < parts.length; ++i) {
        const m = rankOf.get(key([...parts[i], ...parts[i + 1]]));
        if (m !== undefined && m < r && (best < 0 || m < best)) (best = m), (at = i);
      }
      if (at < 0) break;
      parts.splice(at, 2, [...parts[at], ...parts[at + 1]]);
    }
    assert.equal(parts.length, 2, `rank ${r} does not split into two lower-ranked parts`);
    merges.push(parts.map((p) => p.map((x) => BYTE_TO_CHAR[x]).join('')).join(' '));
  }
  return { 'vocab.json': JSON.stringify(vocab), 'merges.txt': '#version: 0.2\n' + merges.join('\n') + '\n' };
}

function corpus() {
  const lines = new Set();
  const add = (s) => {
    if (s && !s.includes('<|endoftext|>')) lines.add(s);
  };
  const chapters = new URL('web/src/chapters/', root);
  if (existsSync(chapters))
    for (const id of readdirSync(chapters))
      for (const lang of ['ko.js', 'en.js']) {
        const f = new URL(`${id}/${lang}`, chapters);
        if (existsSync(f)) readFileSync(f, 'utf8').split('\n').forEach((l) => add(l.trim().slice(0, 400)));
      }
  for (const f of ['core/src/attention.cpp', 'core/src/head_roles.cpp', 'core/src/safetensors.cpp', 'web/real-models/tokenizer.js', 'README.md'])
    readFileSync(new URL(f, root), 'utf8').split('\n').forEach((l) => add(l.slice(0, 300)));
  const emoji = ['😀', '👍🏽', '👩‍💻', '👨‍👩‍👧‍👦', '🇰🇷', '🇺🇸', '❤️', '🏳️‍🌈', '🤖', '🧠', '✨', '🔥'];
  const words = ['attention', '어텐션', 'head', '헤드', 'token', '토큰', 'GPT-2', 'BERT', 'softmax', '가중치', 'I\'m', "they'll", "WE'RE", "it's", "'s", '2019', '3.14', '1e-5', 'x_0', 'Q·Kᵀ', '√d_k', 'naïve', 'café', 'Ünïcödé', '日本語', '中文', 'Привет', 'مرحبا'];
  const spaces = [' ', '  ', '   ', '\t', '\n', '\n\n', ' \n', '\n ', '\r\n', '\u00a0', '\u3000', '    \n\n  '];
  let s = 12345;
  const rand = (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
  for (let i = 0; i < 600; ++i) {
    let t = '';
    const n = 1 + rand(8);
    for (let k = 0; k < n; ++k) {
      const pick = rand(10);
      t += pick < 5 ? words[rand(words.length)] : pick < 7 ? emoji[rand(emoji.length)] : String(rand(100000));
      t += spaces[rand(spaces.length)];
    }
    add(rand(3) === 0 ? t.trimEnd() : t);
  }
  return [...lines];
}

test('GPT-2 BPE from vocab.json + merges.txt gives js-tiktoken r50k_base ids on >= 1,000 sentences', () => {
  const enc = new Tiktoken(r50k);
  const tok = createTokenizer(r50kFiles(enc), { vocab_size: 50257 });
  assert.equal(tok.kind, 'bpe');
  assert.equal(tok.vocabSize, 50257);
  const texts = corpus();
  assert.ok(texts.length >= 1000, `${texts.length} sentences`);
  const kinds = { korean: 0, emoji: 0, newlines: 0, spaces: 0, code: 0 };
  let tokens = 0;
  for (const text of texts) {
    const want = enc.encode(text);
    const got = tok.encode(text);
    assert.deepEqual(got.ids, want, `ids differ on ${JSON.stringify(text)}`);
    tokens += got.ids.length;
    // offsets: in order, covering the text; a partial token's span is its whole character
    let covered = 0;
    got.offsets.forEach((o, k) => {
      assert.ok(o, `token ${k} of ${JSON.stringify(text)} has no offsets`);
      assert.ok(o[0] <= covered && o[1] >= covered, `token ${k} of ${JSON.stringify(text)}: ${o} after ${covered}`);
      if (!got.partial[k]) assert.equal(o[0], covered);
      covered = o[1];
    });
    assert.equal(covered, text.length);
    if (/\p{Script=Hangul}/u.test(text)) kinds.korean++;
    if (/\p{Extended_Pictographic}/u.test(text)) kinds.emoji++;
    if (/\n/.test(text)) kinds.newlines++;
    if (/ {2,}/.test(text)) kinds.spaces++;
    if (/[{};]$|^\s*(\/\/|#include|const |for \()/.test(text)) kinds.code++;
  }
  for (const [k, n] of Object.entries(kinds)) assert.ok(n >= 50, `only ${n} sentences with ${k}`);
  // a Hangul syllable is three bytes: byte-level BPE splits some; each part points at the syllable
  const e = tok.encode('고양이');
  assert.equal(e.ids.length > 1, true);
  for (const o of e.offsets) assert.ok(o[1] - o[0] >= 1);
  console.log(`# ${texts.length} sentences, ${tokens} tokens, ${JSON.stringify(kinds)}`);
});

const bertDir = new URL('tests/core/data/pretrained/bert-f32/', root);
const vocabTxt = readFileSync(new URL('vocab.txt', bertDir), 'utf8');

test('BERT WordPiece: [CLS] ... [SEP], ## pieces, punctuation, offsets into the typed text', () => {
  const tok = createTokenizer({ 'vocab.txt': vocabTxt, 'tokenizer_config.json': '{"do_lower_case": true}' });
  assert.equal(tok.kind, 'wordpiece');
  assert.equal(tok.lowercase, true);
  const text = 'The Cats  sat, on the MAT.';
  const e = tok.encode(text);
  assert.deepEqual(e.tokens, ['[CLS]', 'the', 'cat', '##s', 'sat', ',', 'on', 'the', 'mat', '.', '[SEP]']);
  assert.equal(e.offsets[0], null);
  assert.equal(e.offsets.at(-1), null);
  const spans = e.offsets.slice(1, -1).map(([a, b]) => text.slice(a, b));
  assert.deepEqual(spans, ['The', 'Cat', 's', 'sat', ',', 'on', 'the', 'MAT', '.']);
  // a word no piece spells is one [UNK] over the whole word
  const u = tok.encode('the qqqzzz€ cat');
  const k = u.tokens.indexOf('[UNK]');
  assert.ok(k > 0);
  assert.equal('the qqqzzz€ cat'.slice(...u.offsets[k]).length > 0, true);
});

test('BERT: Hangul stays syllables unless the files ask for accent stripping', () => {
  const text = '고양이가 매트 위에 앉았다';
  // cased (do_lower_case false, as klue/bert-base): syllables, the vocabulary's pieces
  const cased = createTokenizer({ 'vocab.txt': vocabTxt, 'tokenizer_config.json': '{"do_lower_case": false}' });
  const c = cased.encode(text);
  assert.deepEqual(c.tokens, ['[CLS]', '고양이', '##가', '매트', '위', '##에', '앉', '##았다', '[SEP]']);
  assert.deepEqual(c.offsets.slice(1, -1).map(([a, b]) => text.slice(a, b)), ['고양이', '가', '매트', '위', '에', '앉', '았다']);
  // uncased: HF's BertNormalizer lower-cases and strips accents through NFD, which turns the
  // syllables into conjoining jamo (what the uncased checkpoints were trained on): no piece of
  // this vocabulary matches, every word is [UNK], and each [UNK] still spans its word
  const uncased = createTokenizer({ 'vocab.txt': vocabTxt, 'tokenizer_config.json': '{"do_lower_case": true}' });
  const u = uncased.encode(text);
  assert.deepEqual(u.tokens, ['[CLS]', '[UNK]', '[UNK]', '[UNK]', '[UNK]', '[SEP]']);
  assert.deepEqual(u.offsets.slice(1, -1).map(([a, b]) => text.slice(a, b)), ['고양이가', '매트', '위에', '앉았다']);
  // lower-casing without stripping: strip_accents false keeps syllables
  const keep = createTokenizer({ 'vocab.txt': vocabTxt, 'tokenizer_config.json': '{"do_lower_case": true, "strip_accents": false}' });
  assert.equal(keep.encode(text).tokens[1], '고양이');
  // no tokenizer_config.json: this vocabulary has no upper-case pieces, so it is uncased
  const inferred = createTokenizer({ 'vocab.txt': vocabTxt });
  assert.equal(inferred.lowercase, true);
  assert.equal(inferred.lowercaseSource, 'vocab.txt');
  const casedVocab = createTokenizer({ 'vocab.txt': vocabTxt + 'The\n' });
  assert.equal(casedVocab.lowercase, false);
});

test('the tiny GPT-2 checkpoint\'s own files, and the errors', () => {
  const dir = new URL('tests/core/data/pretrained/gpt2-f32/', root);
  const files = { 'vocab.json': readFileSync(new URL('vocab.json', dir), 'utf8'), 'merges.txt': readFileSync(new URL('merges.txt', dir), 'utf8') };
  const config = JSON.parse(readFileSync(new URL('config.json', dir), 'utf8'));
  const tok = createTokenizer(files, config);
  assert.equal(tok.vocabSize, config.vocab_size);
  const text = 'the cat sat on the mat. 고양이';
  const e = tok.encode(text);
  assert.ok(e.ids.every((id) => id >= 0 && id < config.vocab_size));
  assert.equal(tok.decode(e.ids), text);
  assert.equal(e.offsets.at(-1)[1], text.length);
  assert.throws(() => createTokenizer({}), (err) => err instanceof TokenizerError && err.kind === 'missing');
  assert.throws(() => createTokenizer(files, { vocab_size: 10 }), (err) => err.kind === 'vocab' && /config\.json/.test(err.message));
  assert.throws(() => createTokenizer({ 'tokenizer.json': '{' }), (err) => err.kind === 'format' && /tokenizer\.json/.test(err.message));
  assert.throws(() => createTokenizer({ 'vocab.txt': 'a\nb\n' }), (err) => err.kind === 'vocab');
});

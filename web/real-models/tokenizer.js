// The tokenizer of a learner's checkpoint (docs/real-models.md, "Tokenizers"): Hugging Face's
// own JavaScript implementation of tokenizer.json (@huggingface/tokenizers, no dependencies,
// ~37 KB minified, loaded only with the real-model chapter), fed the checkpoint's files:
//   tokenizer.json (+ tokenizer_config.json)       any model tokenizer.json describes
//                                                   (skt/kogpt2-base-v2's Metaspace BPE too)
//   vocab.json + merges.txt                         GPT-2's byte-level BPE, built into the
//                                                   tokenizer.json GPT2TokenizerFast converts to
//   vocab.txt (+ tokenizer_config.json)             BERT's WordPiece, likewise (BertTokenizerFast)
// and every token mapped back to the characters the learner typed (the library gives ids and
// token strings only): offsets [start, end) are UTF-16 indices into the text, as
// String.prototype.slice takes them; a token that holds part of a character (byte-level BPE
// splits a Hangul syllable's three UTF-8 bytes, or an emoji's four) gets the whole character
// and `partial: true`; special tokens the post-processor adds ([CLS], [SEP]) have null.
//
// Lower-casing and accent stripping (BERT) happen only when the files say so:
// tokenizer_config.json's do_lower_case / strip_accents (tokenizer.json's BertNormalizer, where
// given, is used as it is). Without either, the vocabulary decides: a vocab.txt with upper-case
// letters in its word pieces is a cased model (HF's BertTokenizer would lower-case by default;
// that breaks a cased checkpoint whose tokenizer_config.json is missing). When the files do ask
// for accent stripping, it is HF's: NFD, then every nonspacing mark dropped; Hangul syllables
// then become conjoining jamo, as the uncased checkpoints were trained (their vocabularies hold
// the jamo); a cased model (klue/bert-base, bert-base-multilingual-cased) keeps its syllables.
//
//   const tok = createTokenizer(files, config?)   files: {name: text}; config: config.json parsed
//   tok.encode(text) -> {ids, tokens, offsets: [[start, end] | null], partial: [bool]}
//   tok.kind ('bpe' | 'wordpiece' | other model type), tok.vocabSize, tok.specialIds,
//   tok.idToToken(id), tok.tokenToId(token), tok.decode(ids), tok.lowercase (WordPiece)
// Errors: TokenizerError (.kind 'missing' | 'format' | 'vocab') with a message naming the file.
import { Tokenizer } from '@huggingface/tokenizers';

// values: the error's numbers as fields ({what, expected, got}, as the core's CheckpointError
// carries them), set here where it is thrown: a page words them, never reads the message.
export class TokenizerError extends Error {
  constructor(kind, file, message, values = {}) {
    super(file ? `${file}: ${message}` : message);
    this.name = 'TokenizerError';
    this.kind = kind;
    this.file = file;
    this.what = values.what;
    this.expected = values.expected;
    this.got = values.got;
  }
}

function parseJson(files, name) {
  if (files[name] === undefined) return undefined;
  try {
    return JSON.parse(files[name]);
  } catch (e) {
    throw new TokenizerError('format', name, `not valid JSON (${e.message})`, { what: 'json' });
  }
}

// GPT-2's byte -> printable character table (openai/gpt-2 encoder.py, bytes_to_unicode).
export const BYTE_TO_CHAR = (() => {
  const bs = [];
  for (let b = 33; b <= 126; ++b) bs.push(b);
  for (let b = 161; b <= 172; ++b) bs.push(b);
  for (let b = 174; b <= 255; ++b) bs.push(b);
  const cs = bs.slice();
  let n = 0;
  for (let b = 0; b < 256; ++b)
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  const table = new Array(256);
  bs.forEach((b, i) => (table[b] = String.fromCodePoint(cs[i])));
  return table;
})();
const CHAR_TO_BYTE = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

// tokenizer.json of GPT2TokenizerFast for vocab.json + merges.txt (transformers'
// convert_slow_tokenizer.GPT2Converter).
function gpt2TokenizerJson(files) {
  const vocab = parseJson(files, 'vocab.json');
  if (!vocab || typeof vocab !== 'object' || Array.isArray(vocab))
    throw new TokenizerError('format', 'vocab.json', 'not an object of token -> id');
  const lines = files['merges.txt'].split(/\r?\n/);
  const merges = [];
  lines.forEach((line, i) => {
    if ((i === 0 && line.startsWith('#version')) || line.trim() === '') return;
    const parts = line.split(' ');
    if (parts.length !== 2) throw new TokenizerError('format', 'merges.txt', `line ${i + 1} is not two tokens: ${JSON.stringify(line)}`);
    merges.push(parts);
  });
  const added = [];
  for (const special of ['<|endoftext|>'])
    if (special in vocab)
      added.push({ id: vocab[special], content: special, single_word: false, lstrip: false, rstrip: false, normalized: true, special: true });
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  return {
    version: '1.0',
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: { ...byteLevel, trim_offsets: false },
    decoder: byteLevel,
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, vocab, merges },
  };
}

const BERT_SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

// tokenizer.json of BertTokenizerFast for vocab.txt (convert_slow_tokenizer.BertConverter).
function bertTokenizerJson(files, tconfig) {
  const tokens = files['vocab.txt'].split(/\r?\n/);
  if (tokens.length && tokens[tokens.length - 1] === '') tokens.pop();
  const vocab = {};
  tokens.forEach((t, i) => {
    if (!(t in vocab)) vocab[t] = i;
  });
  for (const s of ['[UNK]', '[CLS]', '[SEP]'])
    if (!(s in vocab)) throw new TokenizerError('vocab', 'vocab.txt', `has no ${s} token (a BERT vocabulary starts with [PAD], [UNK], [CLS], [SEP], [MASK])`);
  let lowercase = tconfig?.do_lower_case;
  let source = 'tokenizer_config.json';
  if (typeof lowercase !== 'boolean') {
    // No word a cased vocabulary lacks: upper-case letters outside [SPECIAL] tokens.
    lowercase = !tokens.some((t) => !/^\[.*\]$/.test(t) && /\p{Lu}/u.test(t));
    source = 'vocab.txt';
  }
  const strip = typeof tconfig?.strip_accents === 'boolean' ? tconfig.strip_accents : null;
  const cls = vocab['[CLS]'], sep = vocab['[SEP]'];
  return {
    json: {
      version: '1.0',
      added_tokens: BERT_SPECIALS.filter((s) => s in vocab).map((s) => ({ id: vocab[s], content: s, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: tconfig?.tokenize_chinese_chars ?? true, strip_accents: strip, lowercase },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
        special_tokens: { '[CLS]': { id: '[CLS]', ids: [cls], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [sep], tokens: ['[SEP]'] } },
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    },
    lowercaseSource: source,
  };
}

// BERT's punctuation (BasicTokenizer._is_punctuation): ASCII symbols and Unicode P*.
const isPunct = (c) => {
  const cp = c.codePointAt(0);
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126) || /\p{P}/u.test(c);
};

// What a normalizer makes of each character of the text, with where it came from: the
// normalized string and, for each of its UTF-16 units, the index of the source character.
function normalizeTracked(normalizer, text) {
  let out = '';
  const from = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i);
    const ch = String.fromCodePoint(cp);
    const n = normalizer ? normalizer.normalize(ch) : ch;
    out += n;
    for (let k = 0; k < n.length; ++k) from.push(i);
    i += ch.length;
  }
  from.push(text.length);
  return { text: out, from };
}

export function createTokenizer(files, config = {}) {
  const tconfig = parseJson(files, 'tokenizer_config.json') ?? {};
  let json;
  let kind;
  let lowercase = null;
  let lowercaseSource = null;
  if (files['tokenizer.json'] !== undefined) {
    json = parseJson(files, 'tokenizer.json');
    if (!json?.model?.type) throw new TokenizerError('format', 'tokenizer.json', 'has no model.type');
  } else if (files['vocab.json'] !== undefined && files['merges.txt'] !== undefined) {
    json = gpt2TokenizerJson(files);
  } else if (files['vocab.txt'] !== undefined) {
    const b = bertTokenizerJson(files, tconfig);
    json = b.json;
    lowercaseSource = b.lowercaseSource;
  } else {
    throw new TokenizerError('missing', '', 'no tokenizer files: give tokenizer.json, or vocab.json and merges.txt (GPT-2), or vocab.txt (BERT)');
  }
  kind = json.model.type === 'BPE' ? 'bpe' : json.model.type === 'WordPiece' ? 'wordpiece' : json.model.type.toLowerCase();
  if (json.normalizer?.type === 'BertNormalizer') lowercase = !!json.normalizer.lowercase;
  let tok;
  try {
    tok = new Tokenizer(json, tconfig);
  } catch (e) {
    throw new TokenizerError('format', files['tokenizer.json'] !== undefined ? 'tokenizer.json' : '', `cannot be read (${e.message})`);
  }
  const vocabSize = Math.max(...tok.model.tokens_to_ids.values()) + 1;
  if (config.vocab_size !== undefined && vocabSize > config.vocab_size)
    throw new TokenizerError('vocab', 'config.json', `vocab_size is ${config.vocab_size}, but the tokenizer has ids up to ${vocabSize - 1}`,
      { what: 'vocab_size', expected: String(config.vocab_size), got: String(vocabSize) });
  const specialIds = new Set(tok.all_special_ids);
  const specialSet = new Set(tok.special_tokens);
  const addedSet = new Set(tok.added_tokens.map((t) => t.content));
  const metaspace = JSON.stringify(json.pre_tokenizer ?? {}).includes('Metaspace') ? '▁' : null;
  const byteLevel = JSON.stringify(json.pre_tokenizer ?? {}).includes('ByteLevel');

  // The surface of a token: what it stands for in the normalized text (byte-level: its bytes).
  function surface(t) {
    if (addedSet.has(t)) return { text: t };
    if (byteLevel) {
      const bytes = [];
      for (const c of t) {
        const b = CHAR_TO_BYTE.get(c);
        if (b === undefined) return null;
        bytes.push(b);
      }
      return { bytes };
    }
    let s = t;
    if (kind === 'wordpiece' && s.startsWith('##')) s = s.slice(2);
    const bf = /^<0x([0-9A-Fa-f]{2})>$/.exec(s);
    if (bf) return { bytes: [parseInt(bf[1], 16)] };
    if (metaspace) s = s.replaceAll(metaspace, ' ');
    return { text: s };
  }

  function offsetsOf(text, tokens) {
    const offsets = new Array(tokens.length).fill(null);
    const partial = new Array(tokens.length).fill(false);
    if (byteLevel && !json.normalizer) {
      // Bytes of the text, each with the UTF-16 index of its character.
      const enc = new TextEncoder();
      const starts = [];
      const ends = [];
      for (let i = 0; i < text.length; ) {
        const ch = String.fromCodePoint(text.codePointAt(i));
        const n = enc.encode(ch).length;
        for (let k = 0; k < n; ++k) {
          starts.push(i);
          ends.push(i + ch.length);
        }
        i += ch.length;
      }
      let at = 0;
      tokens.forEach((t, k) => {
        const s = surface(t);
        const n = s?.bytes ? s.bytes.length : enc.encode(s?.text ?? '').length;
        if (!s || at + n > starts.length || n === 0) return;
        offsets[k] = [starts[at], ends[at + n - 1]];
        partial[k] = (at > 0 && starts[at - 1] === starts[at]) || (at + n < starts.length && starts[at + n] === starts[at + n - 1]);
        at += n;
      });
      return { offsets, partial };
    }
    // Otherwise: along the normalized text, each character normalized alone (BertNormalizer,
    // NFKC, Lowercase, Replace act character by character), skipping what the pre-tokenizer
    // drops (white space); [UNK] takes a whole word (BertPreTokenizer's word: a run of
    // non-space, non-punctuation characters, or one punctuation character).
    const norm = normalizeTracked(tok.normalizer, text);
    let nt = norm.text;
    let from = norm.from;
    if (metaspace && !nt.startsWith(' ') && json.pre_tokenizer?.add_prefix_space !== false && (json.pre_tokenizer?.prepend_scheme ?? 'always') !== 'never') {
      nt = ' ' + nt;
      from = [0, ...from];
    }
    let at = 0;
    const dec = new TextDecoder('utf-8', { fatal: false });
    let pendingBytes = [];
    let pendingStart = -1;
    for (let k = 0; k < tokens.length; ++k) {
      const t = tokens[k];
      if (kind === 'wordpiece' && t === tok.model.unk_token && !nt.startsWith(t, at)) {
        while (at < nt.length && /\s/.test(nt[at])) ++at;
        const start = at;
        if (at < nt.length && isPunct(nt[at])) ++at;
        else while (at < nt.length && !/\s/.test(nt[at]) && !isPunct(nt[at])) ++at;
        if (at > start) offsets[k] = [from[start], from[at - 1] + (text.codePointAt(from[at - 1]) > 0xffff ? 2 : 1)];
        continue;
      }
      if (specialSet.has(t) && !nt.startsWith(t, at) && !nt.slice(at).trimStart().startsWith(t)) continue; // added by the post-processor
      const s = surface(t);
      if (!s) return { offsets, partial };
      let piece = s.text;
      if (s.bytes) {
        // byte fallback: gather bytes until they make characters
        if (pendingStart < 0) pendingStart = k;
        pendingBytes.push(...s.bytes);
        const str = dec.decode(new Uint8Array(pendingBytes), { stream: false });
        if (str.includes('\uFFFD') && pendingBytes.length < 4) continue;
        piece = str;
      }
      let p = at;
      if (!nt.startsWith(piece, p)) {
        while (p < nt.length && /\s/.test(nt[p]) && !nt.startsWith(piece, p)) ++p;
        if (!nt.startsWith(piece, p)) return { offsets, partial };
      }
      const end = p + piece.length;
      const first = pendingStart >= 0 ? pendingStart : k;
      // Leading spaces of a piece (Metaspace's ▁) are not the learner's word: start after them.
      let q = p;
      while (q < end - 1 && nt[q] === ' ') ++q;
      const span = end > p ? [from[q], from[end - 1] + (text.codePointAt(from[end - 1]) > 0xffff ? 2 : 1)] : null;
      for (let j = first; j <= k; ++j) {
        offsets[j] = span;
        partial[j] = j !== k || first !== k;
      }
      if (span && span[0] >= span[1]) for (let j = first; j <= k; ++j) offsets[j] = null;
      pendingBytes = [];
      pendingStart = -1;
      at = end;
    }
    return { offsets, partial };
  }

  return {
    kind,
    vocabSize,
    specialIds,
    unkToken: tok.model?.unk_token ?? null, // (WordPiece's [UNK]: a word the vocabulary lacks)
    lowercase,
    lowercaseSource,
    idToToken: (id) => tok.id_to_token(id),
    tokenToId: (t) => tok.token_to_id(t),
    decode: (ids) => tok.decode(ids),
    encode(text, { addSpecialTokens = true } = {}) {
      if (typeof text !== 'string') throw new TypeError('encode: the text must be a string');
      const e = tok.encode(text, { add_special_tokens: addSpecialTokens });
      const { offsets, partial } = offsetsOf(text, e.tokens);
      return { ids: e.ids, tokens: e.tokens, offsets, partial };
    },
  };
}

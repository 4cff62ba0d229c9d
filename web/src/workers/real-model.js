// The real-model worker's logic (docs/real-models.md): the learner's GPT-2 or BERT checkpoint
// read tensor by tensor into the worker's own module (wasm/pretrained/pretrained.mjs), its
// tokenizer (web/real-models/tokenizer.js), and for a sentence every head, the value norms,
// the rollout, the head roles and, on request, the ablation of every head. It runs in
// real-model-worker.js (one worker per page); Node tests drive it directly
// (tests/wasm/real-model.test.mjs) with Blobs for files.
//
// Messages in (receive):
//   {type: 'open', id, source}         source: {kind: 'files', files: [File]} (a picked folder,
//                                       several files or a drop; names are the files' base
//                                       names) or {kind: 'url', base: 'https://…/folder/'}
//   {type: 'cancel'}                   the load under way stops after its current piece (1 MiB)
//   {type: 'analyse', id, text}        every head of the sentence, then its roles
//   {type: 'ablate', id}               every head switched off in turn, on the last sentence:
//                                       a few heads per task, so that a message between two
//                                       pieces is seen (below)
//   {type: 'stopAblation', id}         the ablation under way stops after its current piece
// Messages out (post):
//   {type: 'progress', id, bytesDone, bytesTotal, tensorsDone, tensorsTotal, phase}
//   {type: 'loaded', id, info}         the new model replaces the previous one
//   {type: 'heads', id, …}             {tokens, labels, ids, T, weights, norms, rollout}
//   {type: 'roles', id, roles}  {type: 'ablation', id, ablation}  {type: 'ablating', id, done, total}
//   {type: 'ablationStopped', id, done, total, why: 'asked' | 'sentence' | 'model'}
//   {type: 'error', id, of: 'open' | 'analyse' | 'roles' | 'ablate', error: {kind, file, tensor, detail, message, n, max, folder,
//                                       what, expected, got, line, column} (errorOf)}
//                                       (folder: a link's folder none of whose files could be read)
//   {type: 'cancelled', id}
// A load that fails or is cancelled leaves the previous model as it was (both are held while
// the new one loads: the peak is the two models' weights).
//
// The ablation (145 forwards' worth: tens of seconds for GPT-2 small) runs in pieces of a few
// heads (ablationPieces; the core's ablate_range, the base loss computed by the first piece
// only), each piece a task of its own (`defer`, a timer): a 'stopAblation', a new sentence or a
// new model ('open', as the load begins) is seen between two pieces, and the model stays
// loaded and usable.
//
// Reading: a File's bytes through File.slice(a, b) one chunk at a time (≤ 16 MiB, the core's
// kChunkBytes), a URL's through HTTP Range requests (bytes=a-b); each chunk is streamed
// (Blob.stream(), the response's body) piece by piece into the tensor's own storage in the
// module (F32) or its 16 MiB scratch buffer (F16/BF16, widened there): no second whole copy of
// the file exists at any time, nor a chunk-sized buffer in JavaScript. A server that ignores Range
// (200 instead of 206) sends the whole file once; it is then kept for that file's chunks (a
// second copy for that server only: static hosts answer Range requests).
import { createTokenizer, TokenizerError } from '../../real-models/tokenizer.js';

const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json', 'vocab.json', 'merges.txt', 'vocab.txt', 'special_tokens_map.json'];
const WEIGHTS = 'model.safetensors';
const INDEX = 'model.safetensors.index.json';
const REFUSED = /(\.bin|\.pt|\.pth|\.ckpt|\.h5|\.msgpack|\.gguf|\.onnx)$/i;

// values: the error's numbers ({what, expected, got}), set where it is thrown (errorOf)
export class SourceError extends Error {
  constructor(kind, file, detail, values = {}) {
    super(file ? `${file}: ${detail}` : detail);
    this.kind = kind;
    this.file = file;
    this.detail = detail;
    this.what = values.what;
    this.expected = values.expected;
    this.got = values.got;
  }
}

// {names: [..], has(name), size(name) -> Promise<n>, read(name, offset, n) -> Promise<Uint8Array>,
//  readInto(name, offset, n, write(piece, at)) -> Promise<bytes written>, text(name)}
// A read of a picked file that gets no bytes for `stallMs` is given up: Chromium's Blob streams
// now and then never answer a read (seen after a stopped load, on the next load of a large
// file: the bar stopped for good and Stop did nothing). The rest of that chunk is then read
// piece by piece with Blob.arrayBuffer() (a new 1 MiB buffer each, garbage once copied), with
// the same limit; a piece that does not come either is a 'stalled' error naming the file.
const STALL_MS = 4000;
const within = (promise, ms, onLate) => {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(onLate()), ms)))]).finally(() => clearTimeout(timer));
};
const STALLED = Symbol('stalled');

export function filesSource(files, { stallMs = STALL_MS } = {}) {
  const byName = new Map();
  let piece = new ArrayBuffer(PIECE_BYTES); // readInto's buffer
  let reading = null; // readInto's stream and reader while it reads
  for (const f of files) {
    const name = String(f.name).split(/[\\/]/).pop();
    if (name && !byName.has(name)) byName.set(name, f);
  }
  // n bytes of a file at offset, as a Blob (refused past the file's end)
  const slice = (name, offset, n) => {
    const f = byName.get(name);
    if (offset + n > f.size) {
      throw new SourceError('truncated', name, `${n} bytes at ${offset} pass the end of the file (${f.size} bytes)`,
        { what: 'bytes', expected: String(offset + n), got: String(f.size) });
    }
    return f.slice(offset, offset + n);
  };
  // n bytes at offset by Blob.arrayBuffer(), a piece at a time, each within stallMs
  async function piecesOf(name, offset, n, write) {
    for (let at = 0; at < n;) {
      const len = Math.min(PIECE_BYTES, n - at);
      const bytes = await within(slice(name, offset + at, len).arrayBuffer(), stallMs, () =>
        new SourceError('stalled', name, `no bytes came for ${stallMs} ms when reading ${len} bytes at ${offset + at}`));
      write(new Uint8Array(bytes), at);
      at += len;
    }
    return n;
  }
  return {
    label: 'files',
    names: [...byName.keys()],
    has: async (name) => byName.has(name),
    size: async (name) => byName.get(name).size,
    async read(name, offset, n) {
      return new Uint8Array(await slice(name, offset, n).arrayBuffer());
    },
    // the same bytes piece by piece, each handed to write(piece, at) as it arrives, read into
    // one reused buffer (a BYOB reader): no new buffer per chunk or piece (a chunk's 16 MiB
    // ArrayBuffers, garbage once copied, held about 200 MB more until the worker's GC freed
    // them: docs/real-models.md, "Memory")
    async readInto(name, offset, n, write) {
      const stream = slice(name, offset, n).stream();
      let reader;
      try {
        reader = stream.getReader({ mode: 'byob' });
      } catch {
        return pieces(stream, write); // (a browser whose Blob streams are not byte streams)
      }
      // (held from the source while it is read: nothing else outside this call refers to the
      // stream, and a read that never answered was seen, GC being one suspect)
      reading = { stream, reader };
      try {
        let at = 0;
        if (!piece.byteLength) piece = new ArrayBuffer(PIECE_BYTES); // (left detached by a read that failed)
        while (at < n) {
          let r;
          try {
            r = await within(reader.read(new Uint8Array(piece, 0, Math.min(PIECE_BYTES, n - at))), stallMs, () => STALLED);
          } catch (e) {
            if (e !== STALLED) throw e;
            reader.cancel().catch(() => {}); // (the stream is left; its buffer with it)
            piece = new ArrayBuffer(PIECE_BYTES);
            return at + await piecesOf(name, offset + at, n - at, (p, k) => write(p, at + k));
          }
          if (r.done) break;
          piece = r.value.buffer; // (the same memory, handed back)
          write(r.value, at);
          at += r.value.length;
        }
        reader.releaseLock();
        return at;
      } finally {
        reading = null; // (however the read ended)
      }
    },
    text: async (name) => (byName.has(name) ? byName.get(name).text() : undefined),
  };
}

const PIECE_BYTES = 1 << 20;
// A stream's pieces to write(piece, at), in order; the bytes written.
async function pieces(stream, write) {
  const reader = stream.getReader();
  let at = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return at;
    write(value, at);
    at += value.length;
  }
}

export function urlSource(base, fetchFn = globalThis.fetch) {
  const root = base.endsWith('/') ? base : `${base}/`;
  const url = (name) => new URL(name, root).href;
  const known = new Map(); // name -> {size, whole: Uint8Array | null} | null (absent)
  async function probe(name) {
    if (known.has(name)) return known.get(name);
    let r;
    try {
      r = await fetchFn(url(name), { headers: { Range: 'bytes=0-7' } });
    } catch (e) {
      throw new SourceError('network', name, `cannot be fetched from ${url(name)} (${e.message})`);
    }
    let v = null;
    if (r.status === 206) {
      const m = /\/(\d+)\s*$/.exec(r.headers.get('content-range') ?? '');
      await r.arrayBuffer();
      v = { size: m ? Number(m[1]) : NaN, whole: null };
    } else if (r.ok) {
      const whole = new Uint8Array(await r.arrayBuffer());
      v = { size: whole.length, whole };
    } else if (r.status !== 404 && r.status !== 410) {
      throw new SourceError('network', name, `HTTP ${r.status} from ${url(name)}`);
    }
    known.set(name, v);
    return v;
  }
  // n bytes at offset: {bytes} when the file is already here whole (a server that ignores
  // Range sent it once) or n is 0, else {response}, the 206 response to a Range request.
  async function ranged(name, offset, n) {
    const k = await probe(name);
    if (k.whole) return { bytes: k.whole.subarray(offset, offset + n) };
    if (n === 0) return { bytes: new Uint8Array(0) };
    const r = await fetchFn(url(name), { headers: { Range: `bytes=${offset}-${offset + n - 1}` } });
    if (r.status === 200) {
      k.whole = new Uint8Array(await r.arrayBuffer());
      return { bytes: k.whole.subarray(offset, offset + n) };
    }
    if (r.status !== 206) throw new SourceError('network', name, `HTTP ${r.status} for bytes ${offset}–${offset + n - 1}`);
    return { response: r };
  }
  return {
    label: root,
    names: null, // a URL folder cannot be listed: the reader asks for each name
    has: async (name) => (await probe(name)) !== null,
    size: async (name) => (await probe(name)).size,
    async read(name, offset, n) {
      const { bytes, response } = await ranged(name, offset, n);
      return bytes ?? new Uint8Array(await response.arrayBuffer());
    },
    // a Range response's body piece by piece (as filesSource.readInto)
    async readInto(name, offset, n, write) {
      const { bytes, response } = await ranged(name, offset, n);
      if (bytes) {
        write(bytes, 0);
        return n;
      }
      if (!response.body || typeof ReadableStream === 'undefined') {
        write(new Uint8Array(await response.arrayBuffer()), 0);
        return n;
      }
      return pieces(response.body, write);
    },
    async text(name) {
      const k = await probe(name);
      if (!k) return undefined;
      if (k.whole) return new TextDecoder().decode(k.whole);
      const r = await fetchFn(url(name));
      if (!r.ok) throw new SourceError('network', name, `HTTP ${r.status}`);
      return r.text();
    },
  };
}

// The tokenizer's errors in the core's terms: 'vocab' stays, a missing or unreadable tokenizer
// gets its own kind ('tokenizerMissing', 'tokenizer'), not the weights' 'missing' / 'format'.
const tokenizerError = (e) => ({
  kind: e.kind === 'vocab' ? 'vocab' : e.kind === 'missing' ? 'tokenizerMissing' : 'tokenizer',
  file: e.file, tensor: '', detail: e.file ? e.message.slice(e.file.length + 2) : e.message, message: e.message,
  what: e.what, expected: e.expected, got: e.got,
});
// An error crosses to the page as a code and its parameters ({kind, file, tensor, folder, n,
// max, what, expected, got, line, column}), which the page words in its own language (ko.js /
// en.js); the English `detail` goes along only as a technical note. The numbers are fields set
// where the error is thrown (the core's CheckpointValues, crossing as CheckpointError's fields;
// SourceError and TokenizerError set their own): `what` names the quantity. None is read back
// out of a message's text.
const errorOf = (e) => ({
  kind: e?.kind ?? 'error', file: e?.file ?? '', tensor: e?.tensor ?? '', detail: e?.detail ?? e?.message ?? String(e),
  message: e?.message ?? String(e), n: e?.n, max: e?.max, folder: e?.folder || undefined,
  what: e?.what, expected: e?.expected, got: e?.got, line: e?.line, column: e?.column,
});

// BERT's masked positions: about 15% of the content tokens (at least one), evenly spread.
export function maskedPositions(ids, special) {
  const content = ids.map((x, i) => (special.has(x) ? -1 : i)).filter((i) => i >= 0);
  const m = content.length;
  if (!m) return [];
  const n = Math.max(1, Math.round(0.15 * m));
  return [...new Set(Array.from({ length: n }, (_, j) => content[Math.floor(((j + 0.5) * m) / n)]))];
}

// The ablation's pieces, [first, end) head ranges (layer-major): a layer's heads in groups
// whose cost (heads × the layers they go through, the logits counted as one more) stays under
// about a quarter of the first layer's. GPT-2 small: layers 1–4 in 4 pieces of 3 heads, …, the
// last two whole, 33 pieces; a stop waits for one of them. A piece stacks its heads' rows
// into each weight product (fewer rows than a whole layer: each weight is read once a piece).
export function ablationPieces(layers, heads) {
  const target = Math.max(1, Math.floor((heads * (layers + 1)) / 4));
  const out = [];
  for (let l = 0; l < layers; l++) {
    const g = Math.min(heads, Math.max(1, Math.floor(target / (layers - l + 1))));
    for (let h = 0; h < heads; h += g) out.push([l * heads + h, l * heads + Math.min(heads, h + g)]);
  }
  return out;
}

// The roles' constants, as the core's (core/include/attn/head_roles.hpp RoleOptions,
// pretrained.hpp RealRoleOptions; the worker's test checks they agree with what the core
// reports): the sentence's rows i ≥ FIRST_ROW are scored, and the thresholds. The page shows
// them before the first roles arrive.
export const FIRST_ROW = 4;
export const THRESHOLDS = Object.freeze({ previousToken: 0.4, firstToken: 0.5, local: 0.7, induction: 0.3, duplicateToken: 0.3 });
// The random sequences of the induction and duplicate-token scores: 4 of `repeat` tokens
// (at most 16) repeated once, between BERT's [CLS] … [SEP] or after GPT-2's <|endoftext|>.
function rolePlan(config, arch, cls, sep) {
  const eos = arch === 'bert' ? sep : -1;
  const bos = arch === 'bert' ? cls : -1;
  const room = config.positions - 1 - (eos >= 0 ? 1 : 0);
  return { bos, eos, repeat: Math.max(1, Math.min(16, Math.floor(room / 2))), sequences: 4 };
}
// The roles of a sentence too short for its own scores (T ≤ FIRST_ROW tokens): the
// sentence's scores null, each head's role named from induction and duplicate-token alone
// (the core's rule: reached, the largest score ÷ threshold), `short: {n, min}`.
export function sentenceless(roles, n) {
  const th = roles.thresholds;
  let unnamed = 0;
  const layers = roles.layers.map((L) => L.map((h) => {
    const reached = [['induction', h.induction, th.induction], ['duplicate-token', h.duplicateToken, th.duplicateToken]]
      .filter(([, score, t]) => score >= t);
    const best = reached.reduce((a, b) => (!a || b[1] / b[2] > a[1] / a[2] ? b : a), null);
    if (!best) unnamed++;
    return { ...h, previousToken: null, firstToken: null, local: null, roles: reached.map(([r]) => r), role: best ? best[0] : '' };
  }));
  return { ...roles, layers, unnamed, rows: 0, short: { n, min: (th.firstRow ?? FIRST_ROW) + 1 } };
}

export function createRealModel({ core, post, now = () => (globalThis.performance ?? Date).now(), defer = (f) => setTimeout(f, 0) }) {
  let current = null; // {model, tok, info, special: Set, pool}
  const jobs = new Set(); // the loads asked for and not finished: {id, cancelled}
  let opening = Promise.resolve(); // the loads, one after the other
  let sentence = null; // {id, ids, types, arch}
  let ablation = null; // the ablation under way: {id, model, layer, …}
  const stopAblation = (why) => {
    if (ablation && !ablation.stopped) ablation.stopped = why;
  };

  async function open(job, src) {
    const { id } = job;
    const c = await core;
    const started = now();
    const source = src.kind === 'url' ? urlSource(src.base) : filesSource(src.files);
    let began = false;
    try {
      // config.json first; without it, a refused weights file is the better message
      if (job.cancelled) throw new SourceError('cancelled', '', 'cancelled');
      const configText = await source.text('config.json');
      const names = source.names ?? [];
      // (picked files: one the page refuses, say a pytorch_model.bin, says more than the
      // missing config.json)
      for (const n of names.filter((x) => REFUSED.test(x))) if (!names.includes(WEIGHTS) && !names.includes(INDEX)) c.checkWeightsName(n); // throws "pickle" or "format"
      // config.json is the first file read: without it the error names it (a link's folder
      // that does not exist, or is not a model's, answers 404 for every name: `folder` says
      // which folder could not be read)
      if (configText === undefined)
        throw Object.assign(new SourceError('missing', 'config.json', 'not found: the folder needs config.json'), { folder: source.names ? '' : source.label });
      const hasWeights = (await source.has(INDEX)) || (await source.has(WEIGHTS));
      if (!hasWeights) {
        const refused = names.filter((n) => REFUSED.test(n));
        if (!source.names && (await source.has('pytorch_model.bin'))) refused.push('pytorch_model.bin');
        for (const n of refused) c.checkWeightsName(n); // throws "pickle" or "format"
        throw new SourceError('missing', WEIGHTS, 'not found: the folder needs model.safetensors (or model.safetensors.index.json and its shards)');
      }
      let configJson;
      try {
        configJson = JSON.parse(configText);
      } catch {
        configJson = null; // the core's parse says where
      }
      const config = c.begin(configText);
      began = true;
      // the tokenizer before the weights: a missing or wrong one fails in a moment
      const tfiles = {};
      for (const n of TOKENIZER_FILES) {
        const t = await source.text(n);
        if (t !== undefined) tfiles[n] = t;
      }
      const tok = createTokenizer(tfiles, configJson ?? {});
      // the weights' files: one, or the shards the index names
      let weightFiles = [WEIGHTS];
      if (await source.has(INDEX)) {
        const text = await source.text(INDEX);
        c.setIndex(text);
        weightFiles = [...new Set(Object.values(JSON.parse(text).weight_map ?? {}))].sort();
      }
      for (const name of weightFiles) {
        if (!(await source.has(name))) throw new SourceError('missing', name, 'not found (the index names it)');
        const size = await source.size(name);
        const first = await source.read(name, 0, Math.min(16, size));
        const n = c.headerLength(first, size, name);
        c.addFile(name, size, await source.read(name, 8, n));
        if (job.cancelled) throw new SourceError('cancelled', '', 'cancelled');
      }
      const plan = c.plan();
      let last = 0;
      for (let i = 0; i < plan.chunks; ++i) {
        const ch = c.chunk(i);
        const into = c.into(i);
        // (Stop is seen between two pieces of a chunk: a chunk is up to 16 MiB)
        await source.readInto(ch.fileName, ch.offset, ch.bytes, (piece, at) => {
          if (job.cancelled) throw new SourceError('cancelled', '', 'cancelled');
          into.write(piece, at);
        });
        if (job.cancelled) throw new SourceError('cancelled', '', 'cancelled');
        into.done();
        const t = now();
        if (t - last > 50 || i === plan.chunks - 1) {
          last = t;
          post({ type: 'progress', id, phase: 'weights', ...c.progress() });
        }
      }
      const model = c.finish();
      began = false;
      const special = new Set(tok.specialIds);
      const arch = config.modelType;
      const mask = arch === 'bert' ? tok.tokenToId('[MASK]') ?? -1 : -1;
      const cls = arch === 'bert' ? tok.tokenToId('[CLS]') ?? -1 : -1;
      const sep = arch === 'bert' ? tok.tokenToId('[SEP]') ?? -1 : -1;
      const pool = [];
      for (let k = 0; k < config.vocab; ++k) {
        if (special.has(k) || k === config.bos || k === config.eos || k === config.pad) continue;
        const t = tok.idToToken(k);
        if (t == null || (arch === 'bert' && /^\[.*\]$/.test(t))) continue;
        pool.push(k);
      }
      stopAblation('model'); // (its next piece sees it before touching the model freed here)
      current?.model.free();
      current = { model, tok, config, special, pool, mask, cls, sep, arch, rolePlan: rolePlan(config, arch, cls, sep) };
      sentence = null;
      const info = {
        ...model.info, tokenizer: tok.kind, tokenizerVocab: tok.vocabSize, lowercase: tok.lowercase,
        files: weightFiles, source: source.label, roles: { ...current.rolePlan, thresholds: THRESHOLDS, firstRow: FIRST_ROW }, seconds: (now() - started) / 1000, heapBytes: c.heapBytes(),
      };
      post({ type: 'loaded', id, info });
    } catch (e) {
      if (began) c.abort();
      if (e?.kind === 'cancelled') post({ type: 'cancelled', id });
      else post({ type: 'error', id, of: 'open', error: errorOf(e instanceof TokenizerError ? tokenizerError(e) : e) });
    }
  }

  // The sentence as the model reads it: GPT-2 gets <|endoftext|> first (where the config names
  // one), so a head that attends to "nothing" has a first token to do it on; BERT's
  // tokenizer adds [CLS] … [SEP] itself.
  function encode(text) {
    const { tok, config, arch } = current;
    const e = tok.encode(text);
    let ids = e.ids.slice(), tokens = e.tokens.slice(), offsets = e.offsets.slice();
    const bos = config.bos >= 0 ? config.bos : config.eos;
    if (arch === 'gpt2' && bos >= 0 && ids[0] !== bos) {
      ids = [bos, ...ids];
      tokens = [tok.idToToken(bos) ?? `<${bos}>`, ...tokens]; // (a vocabulary without that token: its id)
      offsets = [null, ...offsets];
    }
    const labels = tokens.map((t, i) => (offsets[i] ? text.slice(offsets[i][0], offsets[i][1]) : t));
    // the tokens that are the unknown token ([UNK]: a word the vocabulary lacks), shown as such
    const unknown = tokens.map((t) => tok.unkToken != null && t === tok.unkToken);
    return { ids, tokens, offsets, labels, unknown };
  }

  function analyse(id, text) {
    stopAblation('sentence');
    if (!current) return post({ type: 'error', id, of: 'analyse', error: { kind: 'nomodel', message: 'no model loaded' } });
    if (!String(text ?? '').trim()) return post({ type: 'error', id, of: 'analyse', error: { kind: 'empty', message: 'the sentence is empty' } });
    let enc;
    try {
      enc = encode(text);
      const P = current.config.positions;
      if (enc.ids.length > P)
        return post({ type: 'error', id, of: 'analyse', error: { kind: 'tooLong', n: enc.ids.length, max: P, message: `the sentence is ${enc.ids.length} tokens; the model reads at most ${P}` } });
      if (enc.ids.length < 1) return post({ type: 'error', id, of: 'analyse', error: { kind: 'empty', message: 'no tokens' } });
      const t0 = now();
      const r = current.model.forward(enc.ids, { valueNorms: true, rollout: true });
      sentence = { id, ids: enc.ids };
      post({ type: 'heads', id, ...enc, T: r.T, weights: r.weights, norms: r.norms, rollout: r.rollout, ms: now() - t0 },
        [r.weights.buffer, r.norms.buffer, r.rollout.buffer]);
    } catch (e) {
      return post({ type: 'error', id, of: 'analyse', error: errorOf(e) });
    }
    try {
      const { pool, rolePlan } = current;
      const t0 = now();
      // The sentence's scores (previous token, first token, local) average its rows i ≥
      // FIRST_ROW: a sentence of FIRST_ROW tokens or fewer has none (the core refuses it). The
      // induction and duplicate-token scores are measured on the random sequences, whatever
      // the sentence: they are measured still (the core given a stand-in text whose pattern
      // scores are dropped), the role named from them alone, and `short` says how many tokens
      // the sentence's scores need.
      const short = enc.ids.length <= FIRST_ROW;
      const text = short ? pool.slice(0, FIRST_ROW + 1) : enc.ids;
      let roles = current.model.roles(text, { pool, ...rolePlan, seed: 1 });
      if (short) roles = sentenceless(roles, enc.ids.length);
      post({ type: 'roles', id, roles, ms: now() - t0 });
    } catch (e) {
      post({ type: 'error', id, of: 'roles', error: errorOf(e) });
    }
  }

  // The loss the ablation changes: GPT-2's next-token loss on the sentence; BERT's
  // masked-token loss with about 15% of its tokens replaced by [MASK].
  function ablate(id) {
    if (!current || !sentence) return post({ type: 'error', id, of: 'ablate', error: { kind: 'nomodel', message: 'no sentence analysed' } });
    stopAblation('asked'); // (the page asks again only after a stop or a result)
    const { model, arch, special, mask } = current;
    let tokens = sentence.ids, targets;
    let masked = [];
    if (arch === 'bert') {
      masked = maskedPositions(tokens, special);
      tokens = tokens.slice();
      targets = tokens.map(() => -1);
      for (const p of masked) {
        targets[p] = tokens[p];
        tokens[p] = mask;
      }
    } else {
      targets = tokens.map((_, i) => (i + 1 < tokens.length ? tokens[i + 1] : -1));
    }
    // No position to score (BERT: every word became [UNK], which is not masked, as no special
    // token is): a loss over no token would be a fake 0, so it is refused, saying why.
    if (!targets.some((t) => t >= 0)) {
      const unk = current.tok.unkToken != null ? current.tok.tokenToId(current.tok.unkToken) : undefined;
      const kind = unk != null && sentence.ids.includes(unk) ? 'noScoredUnk' : 'noScored';
      return post({ type: 'error', id, of: 'ablate', error: { kind, message: 'no token of the sentence can be scored' } });
    }
    const { layers, heads } = model.info;
    const job = {
      id, model, tokens, targets, masked, forSentence: sentence.id, pieces: ablationPieces(layers, heads), piece: 0, done: 0,
      total: layers * heads, base: null, delta: new Float64Array(layers * heads), loss: new Float64Array(layers * heads), t0: now(), stopped: null,
    };
    ablation = job;
    piece(job);
  }
  function piece(job) {
    const { id, total } = job;
    if (job.stopped) {
      if (ablation === job) ablation = null;
      return post({ type: 'ablationStopped', id, done: job.done, total, why: job.stopped });
    }
    try {
      const [first, end] = job.pieces[job.piece];
      const a = job.model.ablate(job.tokens, job.targets, {
        heads: [first, end], base: job.base,
        progress: (done) => post({ type: 'ablating', id, done: first + done, total }),
      });
      job.base ??= a.base;
      job.delta.set(a.delta, first);
      job.loss.set(a.loss, first);
      job.done = end;
    } catch (e) {
      if (ablation === job) ablation = null;
      return post({ type: 'error', id, of: 'ablate', error: errorOf(e) });
    }
    if (++job.piece < job.pieces.length) return defer(() => piece(job));
    if (ablation === job) ablation = null;
    post({ type: 'ablation', id, ablation: { base: job.base, delta: job.delta, loss: job.loss, masked: job.masked, sentence: job.forSentence, ms: now() - job.t0 } },
      [job.delta.buffer, job.loss.buffer]);
    return undefined;
  }

  return {
    receive(msg) {
      // one load at a time (the module has one loader): a new one stops the one under way
      // after its current piece, then starts
      if (msg.type === 'open') {
        // an ablation under way stops now: its result would be dropped with the model it
        // measures, and its pieces would slow the load (the page says a new model stopped it)
        stopAblation('model');
        for (const j of jobs) j.cancelled = true;
        const job = { id: msg.id, cancelled: false };
        jobs.add(job);
        opening = opening.then(() => open(job, msg.source)).finally(() => jobs.delete(job));
        return opening;
      }
      if (msg.type === 'cancel') {
        for (const j of jobs) j.cancelled = true;
        return undefined;
      }
      if (msg.type === 'analyse') return analyse(msg.id, msg.text);
      if (msg.type === 'ablate') return ablate(msg.id);
      if (msg.type === 'stopAblation') {
        if (ablation && ablation.id === msg.id) stopAblation('asked');
        return undefined;
      }
      return undefined;
    },
    get model() {
      return current?.model ?? null;
    },
    encode: (text) => encode(text),
    get ablating() {
      return ablation ? { id: ablation.id, done: ablation.done, total: ablation.total, pieces: ablation.pieces.length } : null;
    },
  };
}

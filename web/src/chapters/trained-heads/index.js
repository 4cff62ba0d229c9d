// Chapter "Heads of a trained model" (source: seeds/001, 헤드별 패턴; issue 17): every head
// of the project's own text model (models/text-model/, docs/text-model.md) on the learner's
// sentence, computed live by the core (attn.loadModel → probe, evaluate, heads). The
// weights are fetched when the chapter mounts, from text-model.bin next to the script
// (the page's dist/, or the widget's folder); the head roles and ablation on the held-out
// text come from text-model-results.json, measured by the core when the model was trained.
//
// Tokens are jamo; the page shows characters: a syllable's jamo columns are summed and its
// row is read at its last jamo (attn.groupByCharacter, core/include/attn/attribution.hpp). A
// character is a grapheme (Intl.Segmenter): an emoji made of several code points (ZWJ, a
// skin tone) is one, its code points' tokens grouped the same way.
import { chapterKit } from '../../kit/kit.js';
import { problem } from '../../kit/url-state.js';
import { setText, rebuild, escapeHtml } from '../../kit/prose.js';
import { fmt, fmtCount } from '../../format.js';
import { textColorFor } from '../../components/colors.js';
import { weightMapPainter } from '../../components/weight-map.js';
import { createSentenceHeads } from '../../workers/sentence-heads.js';
import { ROLES, THRESHOLDS, scoreOf, roleReason } from './roles.js';
import { shown, graphemes, quoted } from './characters.js';
import { MODEL_FILE, RESULTS_FILE, checkResults, fileError } from './results.js';
import narrative from './narrative.js';

const ID = 'trained-heads';
const MAX_CHARS = 300; // longer text is refused at the field (the model reads 63 tokens anyway)
const ROLE_ORDER = ['previous-token', 'first-token', 'local', 'induction', ''];
const TYPING_PAUSE = 200; // ms without a key before the heads are redrawn for the new sentence
// Nothing to read: only white space and invisible characters (zero-width space and joiners, BOM).
const blank = (t) => /^[\s\p{Default_Ignorable_Code_Point}]*$/u.test(t);

// The files, fetched once per page, and the model loaded once per core: probe, evaluate
// and heads leave it unchanged, so every mount (several widgets share one core) reads the
// same one, and the core's limit of 16 loaded text models is never reached by mounting.
// Every error of loading names its file (err.file); one whose content is wrong says what in
// err.problem (results.js), for the chapter's error line.
let files = null;
const loaded = new WeakMap(); // attn -> Promise<[model, results]>
function loadShared(attn) {
  if (!loaded.has(attn)) {
    const p = fetchFiles().then(([bytes, res]) => {
      let model;
      try {
        model = attn.loadModel(bytes);
      } catch (e) {
        files = null; // (a damaged file: a later mount fetches it again)
        throw fileError(MODEL_FILE, e.message, { key: 'notModel', vars: { message: e.message } });
      }
      try {
        return [model, checkResults(res, model.config)];
      } catch (e) {
        model.dispose(); // (the core holds at most 16 text models)
        files = null;
        throw e;
      }
    });
    p.catch(() => loaded.delete(attn)); // a later mount tries again
    loaded.set(attn, p);
  }
  return loaded.get(attn);
}
function fetchFiles() {
  if (!files) {
    const get = async (name, as) => {
      let r;
      try {
        r = await fetch(new URL(`./${name}`, import.meta.url));
      } catch (e) {
        throw fileError(name, e.message);
      }
      if (!r.ok) throw fileError(name, `HTTP ${r.status}`);
      if (as !== 'json') return new Uint8Array(await r.arrayBuffer());
      const body = await r.text();
      try {
        return JSON.parse(body);
      } catch (e) {
        throw fileError(name, e.message, { key: 'notJson', vars: { message: e.message } });
      }
    };
    files = Promise.all([get(MODEL_FILE), get(RESULTS_FILE, 'json')]);
    files.catch(() => (files = null)); // a later mount tries again
  }
  return files;
}

// The sentence's own roles and ablation are measured off the page's thread: one measurer
// per page (web/src/workers/sentence-heads.js in dist/sentence-heads.js, started on the first
// request; it loads its own copy of the model). Where no worker can start (no module
// workers, a widget loaded from a blob: URL, the file missing next to the script), the same
// measurer runs on the page, on the page's core. measure(text) -> Promise<{heads, base}>.
let measurerShared = null;
function sentenceMeasurer(ctx) {
  if (!measurerShared) {
    measurerShared = fetchFiles().then(([bytes]) => startMeasurer(ctx, bytes));
    measurerShared.catch(() => (measurerShared = null));
  }
  return measurerShared;
}
function startMeasurer(ctx, bytes) {
  const waiting = new Map(); // id -> {msg, resolve, reject}
  let nextId = 1, worker = null, inPage = null, up = false, failed = null;
  const load = { type: 'load', bytes };
  const onMessage = (m) => {
    if (m.type === 'ready') up = true;
    else if (m.type === 'error' && m.id == null) {
      failed = m.message;
      for (const w of waiting.values()) w.reject(new Error(failed));
      waiting.clear();
    } else if (m.type === 'measured' || m.type === 'error') {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.type === 'measured') w?.resolve({ heads: m.heads, base: m.base });
      else w?.reject(new Error(m.message));
    }
  };
  const send = (msg) => (worker ? worker.postMessage(msg) : inPage.receive(msg));
  function runInPage() {
    worker?.terminate();
    worker = null;
    inPage = createSentenceHeads({
      ready: Promise.resolve(ctx.coreWithTrainer?.() ?? ctx.attn),
      post: (m) => setTimeout(() => onMessage(m), 0),
    });
    inPage.receive(load);
    for (const w of waiting.values()) inPage.receive(w.msg);
  }
  try {
    if (typeof Worker !== 'function') throw new Error('no Worker');
    worker = new Worker(new URL('./sentence-heads.js', import.meta.url), { type: 'module' });
    worker.onerror = (e) => {
      e.preventDefault();
      if (!up) runInPage(); // the worker never came up: measure on the page instead
      else onMessage({ type: 'error', id: null, message: e.message ?? 'worker error' });
    };
    worker.onmessage = (e) => onMessage(e.data);
    worker.postMessage(load);
  } catch {
    runInPage();
  }
  return {
    measure(text) {
      if (failed) return Promise.reject(new Error(failed));
      return new Promise((resolve, reject) => {
        const msg = { type: 'measure', id: nextId++, text };
        waiting.set(msg.id, { msg, resolve, reject });
        send(msg);
      });
    },
  };
}

const rowOf = (M, i) => ({ rows: 1, cols: M.cols, data: M.data.slice(i * M.cols, (i + 1) * M.cols) });
const rowArray = (M, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols));
// Text the learner typed, for prose set as HTML with $TeX$: escaped, $ included.
const safe = (s) => escapeHtml(s).replace(/\$/g, '&#36;');
const argmax = (a) => a.reduce((b, x, j) => (x > a[b] ? j : b), 0);

export default {
  id: ID,
  mount(section, ctx) {
    const { attn, i18n } = ctx;
    const k = chapterKit(section, ctx, ID, () => ({ text: null, head: 0, focus: -1, view: 'norm', off: -1 }));
    const { el, text, tr, state, patch } = k;
    const f2 = (x) => fmt(x, { digits: 2, fixed: true });
    const f3 = (x) => fmt(x, { digits: 3, fixed: true });
    const signed = (x) => (x >= 0 ? `+${f2(x)}` : f2(x));
    // a change shown beside its two numbers is their difference as shown (2.76 → 2.95: +0.19)
    const r2 = (x) => Math.round(x * 100) / 100;
    const change = (from, to) => signed(r2(to) - r2(from));

    let model = null, results = null, loadError = null;
    let units = ['<s>']; // labels of the current sentence's units
    const label = (u) => units[u] ?? '';
    const sentenceOf = (s) => s.text ?? tr('defaultText');
    let fieldProblem = null; // [key, vars] while the field holds text that is not used

    // Why the field's text is not used ([key, vars] of the message), or null.
    const refused = (t) => {
      const n = [...t].length;
      return blank(t) ? ['emptyText', {}] : n > MAX_CHARS ? ['tooLong', { n, max: MAX_CHARS }] : null;
    };
    let input, fieldMsg, fieldNote, small, chars, viewButtons, gridP, gridV, gridEvery, table, thead, tbody, offSelect;
    const thumbs = [];
    // a Δ below zero (in the ablation line or the table): what it means, when one is shown
    let negative = null;
    // The figures, each built in its place in narrative.js.
    const figures = {
      // ---- the sentence ---------------------------------------------------------------------
      sentence(parent) {
        const box = k.sentenceField('inputLabel', { parent });
        input = box.input;
        fieldMsg = el('p', 'number-error', box.field);
        fieldMsg.id = `${ID}-text-error`;
        fieldMsg.setAttribute('role', 'alert');
        input.setAttribute('aria-describedby', fieldMsg.id);
        fieldNote = el('p', 'hint', box.field);
        fieldNote.dataset.check = 'reading';
        // A burst of keystrokes redraws the heads once, when typing pauses (TYPING_PAUSE ms):
        // every key is painted at once, and the maps, grids and table follow the sentence.
        let typing = 0;
        input.addEventListener('input', () => {
          const t = input.value;
          const had = fieldProblem;
          fieldProblem = refused(t);
          clearTimeout(typing);
          if (fieldProblem || had) k.render(); // the message at the field comes and goes at once
          if (!fieldProblem) typing = setTimeout(() => patch({ text: t, focus: -1 }), TYPING_PAUSE);
        });
        // A link (or a widget's state attribute) whose sentence the field would refuse: the
        // field shows it with the same message as when it is typed, and the heads are drawn for
        // the sentence of the figures (the state forgets the link's text, so the link does too).
        const linked = state().text;
        fieldProblem = linked == null ? null : refused(linked);
        if (fieldProblem) {
          input.value = linked;
          patch({ text: null });
        }
        // Leaving an empty field puts the sentence of the figures back; a text too long stays in
        // the field with its message, so that a long paste is not lost and can be cut down.
        input.addEventListener('blur', () => {
          if (!fieldProblem || fieldProblem[0] === 'tooLong') return;
          fieldProblem = null;
          input.value = sentenceOf(state());
          k.render();
        });
      },
      // ---- every head -----------------------------------------------------------------------
      thumbs(parent) {
        small = el('div', 'head-thumbs', parent);
        small.dataset.heads = 'small';
        // a grid of equal cards: a long role ("no nameable role") wraps under its head's name
        // instead of widening its card
        Object.assign(small.style, { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(7.5rem, 1fr))', gap: '.6rem', margin: '.4rem 0 1rem' });
      },
      // ---- one head, enlarged, beside attention × value norm or rollout ----------------------
      one(parent) {
        const charBox = el('div', 'controls', parent);
        charBox.setAttribute('role', 'group');
        text('span', 'queryLabel', charBox, undefined, 'label');
        chars = el('div', 'query-chars', charBox);
        chars.dataset.query = 'chars';
        // One tab stop (roving tabindex): ←/→, Home and End move among the characters, and the
        // row read follows the focus.
        chars.addEventListener('keydown', (e) => {
          const at = Number(e.target.dataset?.unit);
          if (!Number.isInteger(at) || e.altKey || e.ctrlKey || e.metaKey) return;
          const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: units.length - 1 }[e.key];
          if (to === undefined) return;
          e.preventDefault(); // and the page's ←/→ for steppers does not see it
          const i = Math.max(0, Math.min(units.length - 1, to));
          patch({ focus: i });
          chars.querySelector(`[data-unit="${i}"]`)?.focus();
        });
        Object.assign(chars.style, { display: 'flex', flexWrap: 'wrap', gap: '.25rem' });
        const viewBox = el('div', 'controls', parent);
        viewBox.setAttribute('role', 'radiogroup');
        text('span', 'viewLabel', viewBox, undefined, 'label');
        viewButtons = ['norm', 'rollout'].map((v) => {
          const lab = el('label', 'toggle', viewBox);
          const r = el('input', '', lab);
          Object.assign(r, { type: 'radio', name: `${ID}-view`, value: v });
          r.dataset.control = `view-${v}`;
          r.addEventListener('change', () => patch({ view: v }));
          text('span', `view_${v}`, lab);
          return r;
        });
        const pair = el('div', 'grid-row', parent);
        gridP = k.grid({
          caption: () => `P^{(l=${Math.floor(state().head / (model ? H() : 4)) + 1},\\ h=${(state().head % (model ? H() : 4)) + 1})}`, ariaLabel: () => tr('gridP'), rowLabel: label, colLabel: label,
          note: () => k.common('rowsQueries'), color: 'weights', digits: 2, fixed: true, testId: 'th-P',
          onSelect: (i) => patch({ focus: i }),
        });
        gridV = k.grid({
          caption: () => (state().view === 'norm' ? '\\tilde P_{ij} \\propto P_{ij}\\,\\lVert v_j W_O^h \\rVert' : '\\text{rollout}'),
          ariaLabel: () => tr(state().view === 'norm' ? 'gridNorm' : 'gridRollout'), rowLabel: label, colLabel: label,
          color: 'weights', digits: 2, fixed: true, testId: 'th-view', onSelect: (i) => patch({ focus: i }),
        });
        pair.append(gridP.el, gridV.el);
      },
      every(parent) {
        gridEvery = k.grid({
          caption: () => '', ariaLabel: () => tr('gridEvery'), rowLabel: (h) => headName(h), colLabel: label,
          color: 'weights', digits: 2, fixed: true, testId: 'th-every', onSelect: (h) => patch({ head: h }),
        });
        parent.append(gridEvery.el);
      },
      // ---- roles ----------------------------------------------------------------------------
      roles(parent) {
        const tableBox = el('div', 'table-scroll', parent);
        tableBox.style.overflowX = 'auto';
        table = el('table', 'compare-table', tableBox);
        text('caption', 'rolesOrder', table, undefined, 'table-order');
        table.dataset.table = 'roles';
        table.style.minWidth = '42rem'; // scrolls sideways on a phone instead of squeezing the words
        thead = el('thead', '', table);
        tbody = el('tbody', '', table);
      },
      // ---- ablation -------------------------------------------------------------------------
      ablation(parent) {
        const offBox = el('div', 'controls', parent);
        const offLabel = el('label', '', offBox);
        Object.assign(offLabel.style, { display: 'inline-flex', gap: '.5rem', alignItems: 'center' });
        text('span', 'offLabel', offLabel);
        offSelect = el('select', '', offLabel);
        offSelect.dataset.control = 'off';
        offSelect.addEventListener('change', () => patch({ off: Number(offSelect.value) }));
      },
    };
    const { status, sentenceRoles } = k.narrative(narrative, {
      figures,
      vars: {
        model: () => (model ? {
          layers: model.config.layers, heads: model.config.heads, dModel: model.config.dModel, vocab: model.config.vocab,
          parameters: fmt(model.parameters, { digits: 0 }), bpc: results ? f2(results.heldOut.bitsPerChar) : '…',
        } : {}),
        // (a file that is missing or unreadable, or one whose content is wrong: what, in words)
        status: () => ({
          message: loadError?.reason ?? loadError?.message ?? '', file: loadError?.file ?? '',
          problem: loadError?.problem ? tr(`wrong_${loadError.problem.key}`, loadError.problem.vars) : '',
        }),
        window: () => ({ window: model ? model.config.maxLen - 1 : '…' }),
        oneTitle: (s) => ({ head: headName(s.head) }),
        diff: (s, r) => (r?.diff ? r.diff : {}),
        everyTitle: (s, r) => ({ char: r?.focusLabel ?? '' }),
        thresholds: (s, r) => r?.thresholds ?? {},
        roles: (s, r) => r?.roles ?? {},
        sentenceRoles: (s, r) => r?.sentenceRoles ?? { status: '…' },
        ablation: (s, r) => r?.ablation ?? {},
        negative: () => negative ?? {},
      },
      choose: {
        // (the chapters with hand-set, random and toy-trained weights, named where they are)
        lead: () => (['one-head', 'projections', 'training'].some((id) => ctx.onPage?.(id)) ? 'lead' : 'leadAlone'),
        // (a file missing, a file of the wrong content, or the whole core missing, whose
        // message names its file)
        status: () => (loadError ? (loadError.problem ? 'fileWrong' : loadError.file ? 'loadFailed' : 'loadFailedCore') : model ? null : 'loading'),
        sentenceRoles: () => (results && model ? 'sentenceRoles' : null),
        ablation: (s) => (s.off < 0 ? 'ablationNone' : 'ablationLine'),
        negative: () => (negative ? 'negativeDelta' : null),
        summary: () => (results ? 'summary' : null),
      },
    });

    // ---- loading ----------------------------------------------------------------------------
    const H = () => model.config.heads;
    function headName(h) {
      const hs = model ? H() : 4;
      return tr('headName', { layer: Math.floor(h / hs) + 1, head: (h % hs) + 1 });
    }
    // The page's own core has no trainer and so no loadModel (the text model rides with the
    // trainer, wasm/CMakeLists.txt); ctx.coreWithTrainer loads the whole core on first use.
    Promise.resolve(ctx.coreWithTrainer?.() ?? attn).then(loadShared).then(([m, res]) => {
      model = m;
      results = res;
      buildHeadControls();
      checkLink();
      k.render();
    }, (e) => {
      // (an error without a file is the whole core's, whose message names its file)
      loadError = e?.file ? e : { message: e?.message ?? String(e) };
      k.failed(status);
      k.render();
    });

    // A link or a widget's state may name a head the model does not have, or a view the
    // chapter does not offer: back to the default, said in the notice (as the kit does for
    // settings of the wrong kind), once the model says how many heads there are.
    function checkLink() {
      const s = state(), n = model.config.layers * H();
      const index = (v, lo) => Number.isInteger(v) && v >= lo && v < n;
      // [key, fits, default, what it takes: whole numbers in a range, or names]
      const bad = [['head', index(s.head, 0), 0, `0–${n - 1}`], ['off', index(s.off, -1), -1, `-1–${n - 1}`],
        ['view', s.view === 'norm' || s.view === 'rollout', 'norm', 'norm, rollout'],
        ['focus', Number.isInteger(s.focus) && s.focus >= -1, -1, '-1, 0, 1, …']]
        .filter(([, ok]) => !ok);
      if (!bad.length) return;
      ctx.host?.notice(ID, bad.map(([key, , , allowed]) => problem('notOneOf', { value: String(s[key]), name: key, allowed })));
      patch(Object.fromEntries(bad.map(([key, , dflt]) => [key, dflt])));
    }

    function buildHeadControls() {
      const n = model.config.layers * H();
      for (let h = 0; h < n; h++) {
        const b = el('button', 'head-thumb', small);
        b.type = 'button';
        b.dataset.head = String(h);
        Object.assign(b.style, { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '.2rem', padding: '.3rem', background: 'none', border: '2px solid var(--line)', borderRadius: '.4rem', color: 'inherit', cursor: 'pointer' });
        const c = el('canvas', '', b);
        c.setAttribute('aria-hidden', 'true');
        Object.assign(c.style, { width: '96px', height: '96px', imageRendering: 'pixelated' });
        const cap = el('span', '', b);
        Object.assign(cap.style, { fontSize: '.8rem', textAlign: 'center', lineHeight: '1.25' });
        b.addEventListener('click', () => patch({ head: h }));
        thumbs.push({ b, c, cap });
      }
      const none = el('option', '', offSelect);
      none.value = '-1';
      for (let h = 0; h < n; h++) el('option', '', offSelect).value = String(h);
    }

    // ---- drawing ----------------------------------------------------------------------------
    const paintMap = weightMapPainter();
    const paint = (canvas, M) => paintMap(canvas, M.data, 0, M.rows);

    // The sentence's own role scores and ablation: heads(text) takes a few hundred ms (the
    // induction score runs its own sequences), so it runs in the measurer's worker, after
    // typing pauses, one sentence at a time (the latest one typed while another is measured
    // goes next; the ones in between are skipped).
    const measured = new Map(); // text -> {heads, base} or {error}
    let pending = null; // {text, timer}: typing has not paused yet
    let inFlight = null, next = null; // the text being measured, the one to measure after it
    function measureLater(t) {
      if (measured.has(t) || pending?.text === t || inFlight === t) return;
      clearTimeout(pending?.timer);
      pending = { text: t, timer: setTimeout(() => {
        pending = null;
        request(t);
      }, 350) };
    }
    function request(t) {
      if (inFlight) {
        next = t;
        return;
      }
      inFlight = t;
      sentenceMeasurer(ctx).then((m) => m.measure(t)).then(
        (r) => measured.set(t, r),
        (e) => measured.set(t, { error: e?.message ?? String(e) }),
      ).then(() => {
        for (const key of measured.keys()) if (key !== t) measured.delete(key);
        inFlight = null;
        const n = next;
        next = null;
        if (n != null && !measured.has(n)) request(n);
        k.render();
      });
    }

    const roleName = (role) => tr(`role_${role || 'none'}`);
    // a score as the table shows it: two decimals, the induction score (small) three
    const score = (role, x) => (role === 'induction' ? f3(x) : f2(x));
    // A role with the score that earned it ("local 0.79"), or no role with the score that came
    // nearest to its threshold ("no nameable role (local 0.67 < 0.70)"): x holds the scores.
    const roleLabel = (x) => {
      const why = roleReason(x);
      return why.role ? tr('roleScored', { role: roleName(why.role), score: score(why.role, why.score) })
        : why.nearest ? tr('roleMissed', { none: roleName(''), role: roleName(why.nearest), score: score(why.nearest, why.score), threshold: f2(why.threshold) })
          : roleName('');
    };
    const shownKeys = { chars: null, table: null }; // what the rebuilt parts show now
    k.start((s) => {
      viewButtons.forEach((b) => (b.checked = b.value === s.view));
      const t = sentenceOf(s);
      if (document.activeElement !== input && input.value !== t && !fieldProblem) input.value = t;
      fieldMsg.hidden = !fieldProblem;
      input.setAttribute('aria-invalid', fieldProblem ? 'true' : 'false');
      // (the sentence the heads are drawn for: the last one typed, or a link's fallback)
      const drawnFor = quoted(t);
      if (fieldProblem) setText(fieldMsg, tr(fieldProblem[0], { ...fieldProblem[1], sentence: drawnFor }));
      if (!model) return null;

      // with a head switched off, every map shows the model without it (later layers change)
      const p = model.probe(t, { off: s.off });
      const g = graphemes(p.chars);
      const U = g.labels.length + 1;
      units = ['<s>', ...g.labels.map(shown)];
      const nh = model.config.layers * H();
      const head = Math.min(s.head, nh - 1);
      const focus = s.focus < 0 || s.focus >= U ? U - 1 : s.focus;
      const heads = [];
      p.layers.forEach((L) => L.heads.forEach((P, h) => heads.push({ P, norm: L.valueNorm[h] })));
      // by character: unit 0 is <s>, unit g + 1 is grapheme g (the core's grouping rule)
      const units_ = p.charIndex.map((c) => (c < 0 ? 0 : g.of[c] + 1));
      const grouped = heads.map(({ P }) => attn.groupByCharacter(P, units_));
      // attention × value norm (Kobayashi et al. 2020): P(i, j)·‖v_j W_O^h‖, by character
      const norms = heads.map(({ P, norm }) => attn.groupByCharacter(attn.normWeights(P, norm), units_));
      const normed = norms.map((N) => attn.normalizeWeights(N));
      const rollout = attn.groupByCharacter(p.rollout, units_);
      const other = s.view === 'norm' ? normed[head] : rollout;

      // unknown characters and truncation, said at the field
      const unknown = [...new Set(p.tokens.map((id, q) => (id === 0 ? g.labels[g.of[p.charIndex[q]]] : null)).filter((c) => c != null))];
      const notes = [];
      if (unknown.length) notes.push(tr('unknownChars', { chars: unknown.map((c) => `「${c}」`).join(' ') }));
      if (p.truncated > 0) notes.push(tr('truncated', { kept: p.tokens.length - 1, left: p.truncated, chars: g.labels.length }));
      setText(fieldNote, notes.join(' '));
      fieldNote.hidden = !notes.length;

      // the small heatmaps
      thumbs.forEach(({ b, c, cap }, h) => {
        paint(c, grouped[h]);
        const on = h === head, off = h === s.off;
        b.setAttribute('aria-pressed', String(on));
        b.style.borderColor = on ? 'var(--accent, #c60)' : 'var(--line)';
        b.style.borderStyle = off ? 'dashed' : 'solid';
        c.style.opacity = off ? '0.35' : '';
        b.dataset.off = String(off);
        const role = results?.heads[h] ? roleLabel(results.heads[h]) : roleName('');
        const name = off ? tr('headOff', { head: headName(h) }) : headName(h);
        setText(cap, `${name} · ${role}`);
        b.setAttribute('aria-label', tr('thumbLabel', { head: name, role }));
      });
      // the query characters (rebuilt when they, the focus or the language change)
      const charsKey = JSON.stringify([units, focus, tr('queryChar', { char: '', n: 0 })]);
      if (charsKey !== shownKeys.chars) {
        shownKeys.chars = charsKey;
        rebuild(chars, (into) => units.forEach((u, i) => {
          const b = el('button', 'chip', into);
          b.type = 'button';
          b.textContent = u;
          b.dataset.unit = String(i);
          b.setAttribute('aria-pressed', String(i === focus));
          b.setAttribute('aria-label', tr('queryChar', { char: u, n: i }));
          b.tabIndex = i === focus ? 0 : -1;
          if (i === focus) b.style.outline = '2px solid var(--accent, #c60)';
          b.addEventListener('click', () => patch({ focus: i }));
        }));
      }

      gridP.update(grouped[head]);
      gridP.highlight({ rows: [focus] });
      gridV.update(other);
      gridV.highlight({ rows: [focus] });
      const every = { rows: nh, cols: U, data: new Float32Array(nh * U) };
      grouped.forEach((G, h) => every.data.set(G.data.subarray(focus * U, (focus + 1) * U), h * U));
      gridEvery.update(every);
      gridEvery.highlight({ rows: [head] });

      // the measured difference: the focus row, and every row of every head
      const a = rowArray(grouped[head], focus), b = rowArray(other, focus);
      const ja = argmax(a), jb = argmax(b);
      const tv = attn.weightNormDistance(rowOf(grouped[head], focus), rowOf(other, focus));
      const headTv = attn.weightNormDistance(grouped[head], norms[head]);
      let changed = 0, rows = 0;
      grouped.forEach((G, h) => {
        for (let i = 1; i < U; i++) {
          rows++;
          if (argmax(rowArray(G, i)) !== argmax(rowArray(normed[h], i))) changed++;
        }
      });
      const diff = {
        char: safe(label(focus)), raw: safe(label(ja)), rawP: f2(a[ja]), view: tr(`view_${s.view}`), other: safe(label(jb)), otherP: f2(b[jb]),
        tv: f2(tv), headTv: f2(headTv), head: headName(head), changed, rows, heads: nh,
      };

      // roles on the held-out text (results.json) and on the sentence (heads(text))
      const m = measured.get(t);
      if (!m) measureLater(t);
      const held = results.heads.map((x, h) => ({ ...x, h }));
      held.sort((x, y) => ROLE_ORDER.indexOf(x.role) - ROLE_ORDER.indexOf(y.role) || x.h - y.h);
      const cols = ['colHead', 'colRole', 'colPrev', 'colFirst', 'colLocal', 'colInduction', 'colHeldDelta', 'colSentenceRole', 'colSentenceDelta'];
      // The table depends on the language and the sentence's measurement, not on the head,
      // the focus or the head switched off: rebuilt only when its text changes.
      const head_ = cols.map((c) => tr(c));
      const body = held.map((x) => {
        const sh = m?.heads?.[x.h];
        return [x.h, headName(x.h), roleLabel(x), f2(x.previousToken), f2(x.firstToken), f2(x.local), f3(x.induction),
          change(results.heldOut.bitsPerChar, x.ablatedBitsPerChar),
          sh ? roleLabel(sh) : '…', sh ? change(m.base.bitsPerChar, sh.ablated.bitsPerChar) : '…'];
      });
      // The thresholds, and on the held-out text the roles no head reaches (with the highest
      // score) and the heads that reach none (with their nearest miss).
      const misses = [];
      for (const r of ROLES) {
        if (results.heads.some((x) => roleReason(x).role === r)) continue;
        const top = results.heads.reduce((a, x, h) => (scoreOf(x, r) > a.score ? { score: scoreOf(x, r), h } : a), { score: -Infinity, h: 0 });
        misses.push(tr('missRole', { role: roleName(r), score: score(r, top.score), head: headName(top.h), threshold: f2(THRESHOLDS[r]) }));
      }
      results.heads.forEach((x, h) => {
        const why = roleReason(x);
        if (!why.role && why.nearest) misses.push(tr('missHead', { head: headName(h), role: roleName(why.nearest), score: score(why.nearest, why.score), threshold: f2(why.threshold) }));
      });
      const thresholds = {
        prev: f2(THRESHOLDS['previous-token']), first: f2(THRESHOLDS['first-token']), local: f2(THRESHOLDS.local), induction: f2(THRESHOLDS.induction),
        misses: misses.join('; '),
      };
      // the first Δ below zero shown (the line's, then the table's), for its explanation
      negative = null;
      const below = (from, to) => r2(to) - r2(from) < 0;
      const negatives = [];
      if (s.off >= 0 && m?.heads?.[s.off] && below(m.base.bitsPerChar, m.heads[s.off].ablated.bitsPerChar))
        negatives.push([s.off, tr('onSentence'), change(m.base.bitsPerChar, m.heads[s.off].ablated.bitsPerChar)]);
      results.heads.forEach((x, h) => below(results.heldOut.bitsPerChar, x.ablatedBitsPerChar)
        && negatives.push([h, tr('onHeldOut'), change(results.heldOut.bitsPerChar, x.ablatedBitsPerChar)]));
      m?.heads?.forEach((x, h) => below(m.base.bitsPerChar, x.ablated.bitsPerChar)
        && negatives.push([h, tr('onSentence'), change(m.base.bitsPerChar, x.ablated.bitsPerChar)]));
      if (negatives.length) {
        const [h, where, delta] = negatives[0];
        negative = { head: headName(h), where, delta, chars: fmtCount(results.heldOut.chars) };
      }
      const tableKey = JSON.stringify([head_, body]);
      if (tableKey !== shownKeys.table) {
        shownKeys.table = tableKey;
        rebuild(thead, (into) => {
          const tr_ = el('tr', '', into);
          head_.forEach((t) => { const th = el('th', '', tr_); th.scope = 'col'; th.textContent = t; });
        });
        rebuild(tbody, (into) => body.forEach(([h, name, ...cells]) => {
          const row = el('tr', '', into);
          row.dataset.head = String(h);
          const th = el('th', '', row);
          th.scope = 'row';
          th.style.whiteSpace = 'nowrap';
          th.textContent = name;
          cells.forEach((v) => (el('td', '', row).textContent = v));
        }));
      }
      // every role counted, so that the counts add up to the heads (held out, and on the sentence)
      const rolesOf = (heads) => {
        const count = (r) => heads.filter((x) => (x.role || '') === r).length;
        const byRole = ROLE_ORDER.slice(0, 4).map((r) => `${roleName(r)} ${count(r)}`).join(', ');
        return { none: count(''), total: heads.length, byRole, local: count('local'), induction: count('induction') };
      };
      const roles = rolesOf(results.heads);
      const sentenceRolesVars = m?.heads
        ? { status: tr('sentenceRolesDone', rolesOf(m.heads)) }
        : { status: m?.error ? tr('measureFailed', { message: m.error }) : tr('measuring') };
      const busy = !m;
      sentenceRoles.dataset.state = m?.error ? 'error' : busy ? 'busy' : 'done';
      sentenceRoles.setAttribute('aria-busy', String(busy));
      table.setAttribute('aria-busy', String(busy));

      // ablation of the chosen head
      [...offSelect.options].forEach((o) => setText(o, o.value === '-1' ? tr('offNone') : headName(Number(o.value))));
      if (offSelect.value !== String(s.off)) offSelect.value = String(s.off);
      let ablation = {};
      if (s.off >= 0) {
        const heldRow = results.heads[s.off];
        const sh = m?.heads?.[s.off];
        ablation = {
          head: headName(s.off),
          sentence: m?.base ? f2(m.base.bitsPerChar) : '…', sentenceOff: sh ? f2(sh.ablated.bitsPerChar) : '…',
          sentenceDelta: sh ? change(m.base.bitsPerChar, sh.ablated.bitsPerChar) : '…',
          held: f2(results.heldOut.bitsPerChar), heldOff: f2(heldRow.ablatedBitsPerChar),
          heldDelta: change(results.heldOut.bitsPerChar, heldRow.ablatedBitsPerChar),
        };
      }
      return { diff, roles, focusLabel: safe(label(focus)), sentenceRoles: sentenceRolesVars, ablation, thresholds };
    });
  },
};

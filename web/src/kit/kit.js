// The chapter kit: what every chapter module needs, so chapters only describe their
// own layout and computation.
//
//   export default {
//     id: 'my-chapter',
//     mount(section, ctx) {
//       const k = chapterKit(section, ctx, 'my-chapter', () => ({ Q: ..., causal: true }));
//       k.text('h2', 'title');                       // prose from chapters/my-chapter/<lang>.js
//       const q = k.editable('Q', { caption: () => 'Q' });   // a grid bound to state().Q
//       k.start((s) => {                             // called on every change of this chapter's
//         const t = ctx.attn.attention(s.Q, ...);    // state or of the language; errors thrown
//         q.update(s.Q);                             // here show inline and the last good
//       });                                          // picture stays
//     },
//   };
import { createMatrixGrid, checkLeaks as findLeaks } from '../components/matrix-grid.js';
import { createStepper } from '../components/stepper.js';
import { createPlot } from '../components/plot.js';
import { fmt, fmtCount } from '../format.js';
import { typedNumber, readWhole } from '../components/typed-number.js';
import { setProse, setText, unfilled } from './prose.js';
import { hideValuesUnder, watchHidden, worthHiding, cellKey } from '../components/grid/hidden-values.js';
import { fill } from './fill.js';
import { plainText, readableText, shortName } from './plain.js';
import { watchScrollers } from './scrollers.js';
import { withEntry } from '../matrix.js';
import { printing, onPrint } from './print.js';
import { sameValue, problem, isMatrix } from './url-state.js';
import { renderNarrative } from './narrative.js';

//
// Embedding (optional, additive): ctx.host is the page or an <attention-explorer> widget
// (web/src/kit/host.js); ctx.pin(), where the page passes it, is called before every render
// (the reading position, web/src/reading-position.js). initialState(options) receives the host's options {tokens, dModel,
// heads, mask, seed} (each undefined unless the embedder set it; use what applies to your
// chapter) and must return the same state for the same options. The fifth argument
// {transient: ['hover']} names state keys that a permalink should not carry;
// {implied: (state) => ({...})} the settings that follow from others (a permalink leaves
// them out when they are what the others imply, and gets them when it leaves them out).
// The typed-number rule's codes (components/typed-number.js) as the kit's words.
const FIELD_WORDS = { typing: 'numberTyping', left: 'numberLeft', empty: 'whyFieldEmpty', whole: 'whyWhole' };

export function chapterKit(section, ctx, id, initialState, { transient = [], implied = null, quotes = null } = {}) {
  const { attn, i18n, store } = ctx;
  const host = ctx.host ?? null;
  const readOnly = !!host?.readOnly;
  const tr = (key, vars) => i18n.t(`${id}.${key}`, vars);
  const common = (key, vars) => i18n.t(`common.${key}`, vars);
  const init = () => initialState(host?.options ?? {});
  host?.registerChapter(id, { defaults: init, transient, implied });
  if (!store.get()[id]) store.set({ [id]: host ? host.initialSlice(id, init) : init() });
  const state = () => store.get()[id];
  const patch = (p) => store.set({ [id]: { ...state(), ...(typeof p === 'function' ? p(state()) : p) } });
  // (a refused paste's message under a grid goes too, though the matrix was the example's)
  const reset = () => {
    for (const g of grids) g.dropRefusal?.();
    store.set({ [id]: init() });
  };

  const prose = []; // [element, key or () => key, () => vars]
  const names = new Map(); // a control's label text -> the control: its accessible name in plain text (kit/plain.js)
  const commons = []; // [element, key]
  // Render only what changed: `syncs` bring a control to the state (each writes only when
  // its value differs), `relabelers` put the language's words on buttons, tabs and fixed
  // text and run only when the language changed since the last render.
  const syncs = [];
  const relabelers = [];
  // Boxes that scroll sideways say so and can be reached by keyboard (kit/scrollers.js).
  const scrollers = watchScrollers(section, (n) => {
    if (n.matches('pre')) return common('scrollCode');
    if (n.matches('.table-scroll')) {
      const t = n.querySelector('table');
      const cap = t?.caption ?? (t?.getAttribute('aria-labelledby') && section.querySelector(`#${CSS.escape(t.getAttribute('aria-labelledby'))}`));
      return common('scrollTable', { what: cap ? shortName(readableText(cap)) : '' });
    }
    return common('scrollFormula');
  }, (n) => common(n.matches('.table-scroll, .grid-scroll') ? 'scrollMoreColumns' : 'scrollMore'));

  function el(tag, cls, parent = section) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (parent) parent.append(n);
    return n;
  }
  // A table in a box that scrolls sideways (.table-scroll: named, and a Tab stop, when it
  // scrolls; kit/scrollers.js), with a caption, one header row and a body for the chapter to
  // fill; `check` names it for the tests (data-check).
  function table(parent, cls, check) {
    const box = el('div', 'table-scroll', parent);
    const t = el('table', cls, box);
    if (check) t.dataset.check = check;
    return { box, table: t, caption: el('caption', '', t), head: el('tr', '', el('thead', '', t)), body: el('tbody', '', t) };
  }
  // An element whose content is the chapter's text `key` ($TeX$ and {vars} filled in).
  // key may be a function of the state, e.g. s => s.causal ? 'maskOn' : 'maskOff' (or null
  // to hide the element in that state);
  // vars(state, result) also sees what the draw function last returned (computed values).
  function text(tag, key, parent = section, vars = () => ({}), cls) {
    const n = el(tag, cls, parent);
    prose.push([n, key, vars]);
    return n;
  }
  // Prose that describes the example's numbers (which tokens win, which column asks what):
  // once the learner's `fields` of the state differ from the defaults (or `fields(state)`
  // says the state is not the example's), the text says that it describes the example
  // (common.aboutExample) instead of standing as a claim about the numbers on screen.
  // Returns n.
  // (edited: a text key shown in place of the block's own once the numbers differ, for a
  // text written for that case, instead of the note added after it)
  const aboutExample = new Map(); // element -> {fields, edited}
  function describesExample(n, fields, edited = null) {
    aboutExample.set(n, { fields, edited });
    return n;
  }
  let exampleDefaults = null;
  const differsFromExample = (s, fields) => (typeof fields === 'function' ? fields(s)
    : fields.some((f) => !sameValue(s[f], (exampleDefaults ??= init())[f])));
  // An element from text() (or a control whose label it is) named by that text in plain
  // form (kit/plain.js): for a header cell or a control whose text is only maths.
  function name(n, control = n) {
    names.set(n, control);
  }
  function commonText(tag, key, parent = section, cls) {
    const n = el(tag, cls, parent);
    commons.push([n, key]);
    return n;
  }
  // Every grid gets the matrix tools (copy, paste, LaTeX/Markdown/CSV, SVG/PNG, exercise
  // cells) labelled in the page's language; the host knows it by its testId (or g<n>).
  // What sits in a hidden step panel may be drawn when its panel is shown (and before
  // printing, which shows every panel): shown(node, fn, kind) runs fn now if node is
  // visible, else keeps the latest fn of that kind for node until then. For costly parts
  // (a worked formula typeset anew on every edit); grids are cheap to update while hidden
  // (no layout, no paint) and always hold the current numbers.
  const later = new Map(); // node -> Map(kind -> fn)
  const inHiddenPanel = (node) => !printing.on && !!node.closest?.('.step-panel[hidden]');
  function shown(node, fn, kind = 'draw') {
    if (inHiddenPanel(node)) {
      if (!later.has(node)) later.set(node, new Map());
      later.get(node).set(kind, fn);
    } else {
      later.get(node)?.delete(kind);
      fn();
    }
  }
  function flushShown() {
    for (const [node, fns] of later) if (!inHiddenPanel(node)) {
      later.delete(node);
      for (const fn of fns.values()) fn();
    }
  }
  onPrint(flushShown);

  let gridCount = 0;
  const toolText = (key) => common(`tools.${key}`);
  function grid(opts) {
    const key = opts.testId ?? `g${gridCount}`;
    gridCount++;
    const g = createMatrixGrid({
      toolText,
      fileName: `${id}-${key}`,
      onHiddenChange: () => {
        host?.hiddenChanged(id);
        scheduleLeaks();
      },
      onHiddenSet: hiddenMoved,
      ...opts,
      // a read-only widget: no grid takes edits, whichever way the chapter built it
      editable: !!opts.editable && !readOnly,
    });
    grids.push(g); // (first: the host may hide cells the link names as it registers the grid)
    gridKeys.set(g, key);
    host?.registerGrid(id, key, g);
    return g;
  }
  // An exercise must not give its own answer away: a value hidden in one grid may still
  // show in another grid (a later step repeats P), a worked formula or a sentence. Each
  // grid with hidden cells tells the teacher where, after every render (one frame later;
  // components/grid/exercise.js checkLeaks).
  const grids = [];
  const gridKeys = new Map(); // grid -> its key (testId), as a formula's cellValue names it
  // ... and no formula or sentence of the chapter writes a hidden value: prose.js asks
  // (components/grid/hidden-values.js), and the chapter is drawn again when they change.
  // (asked by every formula and sentence a render writes: nothing to collect while no grid
  // hides a cell; a new shape that clears a grid's cells only leaves it asking)
  let hiding = false;
  // (what the writers of one render were told: a formula written before its grid took the
  // new values was told the old ones, and the render is done again: hiddenSeen below)
  // (and which cells they are, hidden or covered, for the values a writer tagged with their
  // cell: hidden-values.js cellValue)
  // (quotes: the chapter whose numbers this one quotes, tagged with that chapter's cells
  // (cellValue): the cells its exercise hides are written "?" here too; host.hiddenCells)
  // (and the values they show, which this chapter's own figures may repeat: host.hiddenTexts)
  const quotedHidden = () => (quotes && host ? host.hiddenCells(quotes) : null);
  const quotedTexts = () => (quotes && host ? host.hiddenTexts(quotes).filter(worthHiding) : []);
  const hiddenNow = () => {
    const quoted = quotedHidden();
    if (!hiding && !quoted?.size) return [];
    const texts = [...(hiding ? grids.flatMap((g) => g.hiddenTexts()) : []), ...quotedTexts()];
    texts.cells = new Set(grids.flatMap((g) => [...g.hidden, ...g.covered.map((k) => k.split(',').map(Number))]
      .map(([i, j]) => cellKey(gridKeys.get(g), i, j))));
    for (const c of quoted ?? []) texts.cells.add(c);
    return texts;
  };
  if (quotes && host) {
    let quotedKey = '';
    host.onChange(() => {
      const key = `${[...quotedHidden()].sort().join(' ')}|${quotedTexts().join(' ')}`;
      if (key === quotedKey) return;
      quotedKey = key;
      queueMicrotask(() => started && render()); // (not inside the other chapter's work)
    });
  }
  // A learner does not read a hidden value off another grid either: each grid's cells that
  // show a value another grid of the chapter hides (as that grid writes it) are covered,
  // and the grid says why (grid/exercise.js setCovered). Done at the end of every render,
  // before the check below, so a formula that names such a cell is written again with "?".
  let covering = false;
  function coverReveals() {
    const quoted = quotedTexts();
    if (!hiding && !covering && !quoted.length) return;
    const asking = hiding ? grids.filter((g) => g.hidden.length) : [];
    covering = false;
    for (const g of grids) {
      const texts = new Set([...asking.filter((h) => h !== g).flatMap((h) => h.hiddenTexts()).filter(worthHiding), ...quoted]);
      g.setCovered(texts.size ? g.cellsShowing(texts) : []);
      covering ||= g.covered.length > 0;
    }
  }
  const hiddenSeen = watchHidden(hiddenNow);
  hideValuesUnder(section, hiddenSeen.texts);
  let redraw = false;
  function hiddenMoved() {
    hiding = grids.some((g) => g.hidden.length > 0);
    if (redraw || !started) return;
    redraw = true;
    queueMicrotask(() => {
      redraw = false;
      render();
    });
  }
  let leakFrame = 0;
  function scheduleLeaks() {
    if (!leakFrame) leakFrame = requestAnimationFrame(checkLeaks);
  }
  function checkLeaks() {
    leakFrame = 0;
    findLeaks(section, grids, common);
  }
  // A plot (components/plot.js) whose save-as-image menu speaks the page's language.
  function plot(opts = {}) {
    const plotText = (key) => toolText(key === 'menu' ? 'figureMenu' : key);
    return createPlot({ toolText: plotText, fileName: `${id}-${opts.testId ?? 'figure'}`, ...opts });
  }
  // A grid whose cells edit state()[name] (a matrix) in place; pasted text replaces the
  // whole matrix (same shape) or a block of it in one update.
  function editable(name, opts = {}) {
    return grid({
      editable: !readOnly,
      color: 'none',
      testId: `${id}-${name}`,
      ...opts,
      onEdit: (i, j, v) => patch({ [name]: withEntry(state()[name], i, j, v) }),
      onPaste: (m) => patch({ [name]: m }),
    });
  }
  // What a control can set, for a link's values (host.restore took only their kinds and
  // magnitudes): accepts(name, (value, state) => null, or a problem (url-state problem())
  // saying why no control could set it). slider, select and number register their own; a
  // chapter's custom control registers with k.accepts. At the first render of a restored
  // link, a value the control refuses is said in the notice and that setting alone goes
  // back to its default, before the core would meet it (n = 0, h = 3 of d_model = 8).
  // (Two controls of one setting, a select and a number field: a value either takes is kept;
  // the first one's problem is said.)
  const accepted = new Map(); // state key -> [check]
  function accepts(name, check) {
    if (!accepted.has(name)) accepted.set(name, []);
    accepted.get(name).push(check);
  }
  // A link's settings sent back to their defaults, each said in the notice: why(name, value,
  // default) gives the problem (url-state problem()) of a setting that goes back, else null.
  // Returns whether any went back (the store then renders again).
  function backFromLink(s, names, why) {
    const d = init(), problems = [], back = {};
    for (const name of names) {
      const p = name in s ? why(name, s[name], d[name]) : null;
      if (!p) continue;
      problems.push(problem('inSetting', { name, problem: p }));
      back[name] = d[name];
    }
    if (!problems.length) return false;
    host.notice(id, problems);
    store.set({ [id]: { ...s, ...back } });
    return true;
  }
  const refusedFromLink = (s) => backFromLink(s, accepted.keys(), (name, v, w) => {
    if (sameValue(v, w)) return null;
    const said = accepted.get(name).map((check) => check(v, s));
    return said.every(Boolean) ? said[0] : null;
  });
  const quoted = (v) => (typeof v === 'number' ? String(v) : JSON.stringify(v));
  // A link the chapter could not compute: its matrices of another shape than the example's
  // are the likeliest cause (a hand-edited Q:2x8,…); said, and those alone go back, once.
  // (A chapter whose matrices change shape with a setting computes such a link, so never
  // gets here for it.)
  const reshapedFromLink = (s) => backFromLink(s, Object.keys(s), (name, v, w) =>
    (isMatrix(v) && isMatrix(w) && (v.rows !== w.rows || v.cols !== w.cols)
      ? problem('shapeHere', { got: `${v.rows}×${v.cols}`, want: `${w.rows}×${w.cols}` }) : null));
  // A labelled checkbox bound to the boolean state()[name].
  function toggle(name, key, parent = section) {
    const label = el('label', 'toggle', parent);
    const box = el('input', '', label);
    box.type = 'checkbox';
    box.dataset.control = name;
    box.disabled = readOnly;
    box.addEventListener('change', () => patch({ [name]: box.checked }));
    const span = text('span', key, label);
    names.set(span, box);
    syncs.push(() => box.checked !== !!state()[name] && (box.checked = !!state()[name]));
    return { label, box, span };
  }
  // A labelled range slider bound to the number state()[name].
  function slider(name, key, { min, max, step = 1, parent = section, vars = () => ({}) } = {}) {
    const label = el('label', 'slider', parent);
    const span = text('span', key, label, () => ({ value: state()[name], ...vars() }));
    const input = el('input', '', label);
    Object.assign(input, { type: 'range', min, max, step });
    input.dataset.control = name;
    input.disabled = readOnly;
    names.set(span, input);
    input.addEventListener('input', () => patch({ [name]: Number(input.value) }));
    syncs.push(() => input.value !== String(state()[name]) && (input.value = String(state()[name])));
    const onStep = (v) => Math.abs((v - min) / step - Math.round((v - min) / step)) < 1e-6;
    accepts(name, (v) => (typeof v === 'number' && v >= min && v <= max && onStep(v) ? null
      : problem('notOnSlider', { value: quoted(v), min, max, step })));
    return { label, input, span };
  }
  // A labelled <select> of numbers bound to state()[name]: `values` its options, shown
  // through `format`; `current(state)` the option it shows (default state()[name]).
  function select(name, key, values, { parent = section, cls = 'field', format = String, current: given } = {}) {
    const current = given ?? ((s) => s[name]);
    const label = el('label', cls, parent);
    const span = text('span', key, label);
    const input = el('select', '', label);
    input.dataset.control = name;
    input.disabled = readOnly;
    for (const v of values) {
      const o = el('option', '', input);
      o.value = String(v);
      setText(o, format(v));
    }
    input.addEventListener('change', () => patch({ [name]: Number(input.value) }));
    syncs.push(() => {
      const v = String(current(state()));
      if (input.value !== v) input.value = v;
    });
    if (!given) // (a select showing something else than its key: the chapter checks it)
      accepts(name, (v) => (values.includes(v) ? null : problem('notChoice', { value: quoted(v), allowed: values.map(format).join(', ') })));
    return { label, input, span };
  }
  // A labelled sentence box (a <textarea> at full width, #<chapter>-text, data-control
  // "text"), read-only when the page is; the chapter listens to its input itself.
  function sentenceField(key, { parent = section, rows = 2, maxLength } = {}) {
    const field = el('div', 'controls text-field', parent);
    const label = el('label', '', field);
    label.htmlFor = `${id}-text`;
    text('span', key, label);
    const input = el('textarea', '', field);
    Object.assign(input, { id: `${id}-text`, rows, spellcheck: false, autocomplete: 'off' });
    input.dataset.control = 'text';
    input.style.width = '100%';
    input.readOnly = readOnly;
    if (maxLength !== undefined) {
      // (the browser cuts what is typed or pasted past maxLength without a word: a line says so)
      input.maxLength = maxLength;
      const full = el('p', 'hint text-full', field);
      full.setAttribute('aria-live', 'polite');
      full.dataset.check = 'text-full';
      full.hidden = true;
      const check = () => {
        const on = input.value.length >= maxLength;
        if (full.hidden === on) full.hidden = !on;
        if (on) setText(full, common('textFull', { n: maxLength }));
      };
      input.addEventListener('input', check);
      syncs.push(check);
    }
    return { field, input };
  }
  // A labelled whole-number input bound to state()[name] (every chapter's number field),
  // by the typed-number rule of the grid cells (components/typed-number.js): a whole number
  // in [min, max] that passes `check` is used at once; anything else is not used and the
  // message beside the field says why and which value is. `check(v)` may reject a whole
  // number (return the reason, or null); `patchFor(v)` patches more than the one key
  // (default {[name]: v}); `testId` names the input for tests (data-control, default name).
  // A text input (numeric keyboard on phones), so the message can quote what was typed.
  function number(name, key, { min = 1, max = Number.MAX_SAFE_INTEGER, parent = section, vars = () => ({}), check, patchFor, testId = name } = {}) {
    const label = el('label', 'number', parent);
    const span = text('span', key, label, () => ({ value: state()[name], ...vars() }));
    const input = el('input', '', label);
    Object.assign(input, { type: 'text', inputMode: 'numeric', autocomplete: 'off', spellcheck: false });
    input.dataset.control = testId;
    input.disabled = readOnly;
    names.set(span, input);
    const msg = el('span', 'number-error', label);
    msg.setAttribute('role', 'alert');
    msg.id = `${id}-${testId}-error`;
    input.setAttribute('aria-describedby', msg.id);
    msg.hidden = true;
    let message = null; // () => text, so that a language switch re-words it
    const show = () => {
      const t = message ? message() : '';
      if (msg.hidden !== !t) msg.hidden = !t;
      setText(msg, t);
    };
    const field = typedNumber(input, {
      read: (t) => readWhole(t, { min, max, check }),
      value: () => state()[name],
      use: (v) => patch(patchFor ? patchFor(v) : { [name]: v }),
      quote: fmtCount,
      words: (code, v) => common(FIELD_WORDS[code], code === 'whole' ? { min: fmtCount(v.min), max: fmtCount(v.max) } : v),
      show: (m) => {
        message = m;
        show();
      },
    });
    relabelers.push(show);
    syncs.push(() => field.sync());
    accepts(name, (v) => (!Number.isInteger(v) || v < min || v > max
      ? problem('notWholeIn', { value: quoted(v), min: fmtCount(min), max: fmtCount(max) })
      : check?.(v) ?? null));
    return { label, input, span, msg };
  }
  // edits: the button changes the numbers (a reset, new random values), so a read-only
  // widget disables it; a reset always does.
  function button(key, onClick, parent = section, cls = '', { edits = key === 'common.reset' } = {}) {
    const b = el('button', cls, parent);
    b.type = 'button';
    if (edits && readOnly) b.disabled = true;
    b.addEventListener('click', onClick);
    relabelers.push(() => setText(b, key.startsWith('common.') ? common(key.slice(7)) : tr(key)));
    return b;
  }
  let stepperCount = 0;
  function stepper(steps, { labelKey = 'stepsLabel', parent = section, onChange } = {}) {
    const n = stepperCount++;
    let ready = false;
    const s = createStepper({
      testId: n === 0 ? id : `${id}-${n + 1}`,
      label: () => tr(labelKey),
      prevText: () => common('prev'),
      nextText: () => common('next'),
      steps: steps.map(({ key, panel, labelKey: lk }) => ({ key, panel, label: () => tr(lk) })),
      onChange: (index, key) => {
        flushShown();
        scrollers.schedule();
        onChange?.(index, key);
        if (ready) host?.stepChanged(id);
      },
    });
    parent.append(s.el);
    relabelers.push(() => s.relabel());
    ready = true;
    host?.registerStepper(id, s);
    return s;
  }

  const errorBox = el('p', 'chapter-error');
  errorBox.setAttribute('role', 'alert');
  errorBox.hidden = true;

  let draw = () => {};
  let lastSlice;
  let result = null; // what draw() last returned without throwing
  let drawn = false;
  let labelledIn = null; // the language the labels were last put in
  function render() {
    // Before the chapter changes height: the reading position reads what is on screen now (a
    // render that comes late, a model or a worker's result arriving in the task after the
    // reader or a link jumped, would otherwise be laid out before the jump's scroll event
    // chooses its anchor, and the jump's target would be pushed down; reading-position.js).
    ctx.pin?.();
    hiddenSeen.reset();
    renderOnce();
    coverReveals();
    // A formula or a sentence written before its grid took this render's values hid the
    // values the grid held before (the first render: none), or before the cells it names
    // were covered: once more, with these.
    if (hiddenSeen.stale()) {
      hiddenSeen.reset();
      renderOnce();
      coverReveals();
    }
    // (a chapter that quotes this one's numbers learns when the values its exercise hides
    // change: they are known once its grids hold numbers, and they follow its edits)
    if (hiding || hiddenKey) {
      const key = grids.map((g) => `${g.hiddenTexts().join(' ')}/${g.covered.join(' ')}`).join('|');
      if (key !== hiddenKey) {
        hiddenKey = key;
        host?.hiddenChanged(id);
      }
    }
  }
  let hiddenKey = '';
  let linkChecked = false, reshapeTried = false;
  function renderOnce() {
    const s = state();
    lastSlice = s;
    const relabel = labelledIn !== i18n.lang;
    labelledIn = i18n.lang;
    if (relabel) for (const f of relabelers) f();
    for (const f of syncs) f();
    if (!drawn && !linkChecked && host?.chapters.get(id)?.restored) {
      // (a link's value no control could set: said, and that setting back to its default)
      linkChecked = true;
      if (refusedFromLink(s)) return;
    }
    try {
      result = draw(s) ?? null;
      if (!errorBox.hidden) errorBox.hidden = true;
      drawn = true;
    } catch (e) {
      if (!drawn && host?.chapters.get(id)?.restored) {
        if (!reshapeTried) {
          reshapeTried = true;
          if (reshapedFromLink(s)) return;
        }
        // A restored link the chapter cannot compute: defaults, and the host says why (in
        // the page's words; the core's own message, when it is the core's, as a detail).
        if (!e?.kind) console.warn(e);
        host.restoreFailed(id, problem(e?.kind ? 'cannotComputeCore' : 'cannotCompute', { message: e?.message ?? String(e) }));
        store.set({ [id]: init() });
        return;
      }
      // Keep the last good picture on screen; say what went wrong where the learner is.
      errorBox.hidden = false;
      errorBox.textContent = common('computeError', { message: e.message });
      if (!(e instanceof RangeError || e instanceof TypeError)) console.warn(e);
    }
    for (const [n, key, vars] of prose) {
      const k = typeof key === 'function' ? key(s) : key;
      const v = k == null ? null : vars(s, result);
      // A key function may return null: no text in this state. Nor is a text shown whose
      // values are not there (data that has not arrived, or failed to): never a {template}.
      const none = k == null || unfilled(tr(k), v);
      // (written when the render's own verdict changes, not on every render: a text the
      // chapter hides itself, real-models' head heading while no sentence's heads are shown,
      // stays hidden until the chapter shows it again)
      if (n.__none !== none) {
        n.__none = none;
        if (n.hidden !== none) n.hidden = none;
      }
      if (none) continue;
      const about = aboutExample.get(n);
      const edited = about && differsFromExample(s, about.fields);
      setProse(n, !edited ? tr(k) : about.edited ? tr(about.edited) : `${tr(k)} ${common('aboutExample')}`, v, { keep: !relabel });
      const control = names.get(n);
      if (control) {
        const name = plainText(fill(tr(k), v));
        if (control.getAttribute('aria-label') !== name) control.setAttribute('aria-label', name);
      }
    }
    if (relabel) for (const [n, key] of commons) setText(n, common(key));
    scrollers.schedule(relabel); // (the first render is a relabel too)
    if (grids.some((g) => g.hidden.length)) scheduleLeaks();
  }
  // Registers the chapter's draw function (state -> result, may throw) and renders now
  // and on every change of this chapter's state or of the language.
  let started = false;
  function start(fn) {
    draw = fn;
    started = true;
    store.subscribe((all) => all[id] !== lastSlice && render());
    // A language switch redraws the chapter at once when it is on screen, else when it
    // comes near the screen (the page passes ctx.onScreen; a widget has none: at once).
    i18n.onChange(() => (ctx.onScreen ? ctx.onScreen(render) : render()));
    render();
  }

  // Data the chapter cannot do without (a model's file, say) did not arrive: the chapter
  // keeps its title and lead and `line` (which says why, in place), and hides the rest
  // (styles.css, section[data-failed]): no prose or figure waiting for numbers that will
  // not come. ok: true takes it back (a later try worked).
  function failed(line, ok = false) {
    if (ok) {
      delete section.dataset.failed;
      delete line.dataset.failure;
    } else {
      section.dataset.failed = 'true';
      line.dataset.failure = 'true';
    }
  }

  // The chapter's prose blocks and figures in reading order, from its narrative.js (a list
  // of entries, kit/narrative.js): prose through text()/commonText(), figures built by
  // parts.figures[name](parent) in their place. Returns the named elements and what each
  // figure returned: const f = k.narrative(narrative, { figures, vars, choose }).
  function narrative(list, parts) {
    return renderNarrative(list, section, { el, text, commonText, describesExample }, parts);
  }

  // Keep the error box near the top of the chapter, after its heading.
  queueMicrotask(() => section.querySelector('h2')?.after(errorBox));

  // (scrollers.schedule(): a chapter whose boxes fill or show without a render, a worker's
  // message, asks for the same check as after a render)
  return { attn, i18n, tr, common, state, patch, reset, el, table, text, commonText, grid, editable, toggle, slider, select, number, sentenceField, button, stepper, start, render, name, host, readOnly, plot, shown, failed, describesExample, narrative, scrollers, accepts };
}

// The preamble of the chapters built on one of the core's worked examples (no-weights,
// projections, causal-dropout, one-head, multi-head): the example (attn.example(id)), the
// dense layout, the kit over a state made from the example, and the grids' usual labels:
//   const k = exampleKit(section, ctx, ID, (ex) => ({ X: ex.X, focus: 1 }));
//   const { ex, tok, comp } = k;   // tok(i) 't1', 't2', … (a token); comp(j) '1', '2', … (a component)
// initialState(ex, options) gets the example and the embedder's options (as chapterKit's).
export const tokenLabel = (i) => `t${i + 1}`;
export const componentLabel = (j) => String(j + 1);
export function exampleKit(section, ctx, id, initialState, opts) {
  const ex = ctx.attn.example(id);
  section.classList.add('dense');
  return { ...chapterKit(section, ctx, id, (o) => initialState(ex, o), opts), ex, tok: tokenLabel, comp: componentLabel };
}

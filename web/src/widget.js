// <attention-explorer>: any chapter of the page as a custom element for course notes,
// in one script file (web/dist/attention-explorer.js) that carries the WebAssembly core
// (without the trainer), KaTeX's styles and fonts, so it works wherever the file is copied
// and makes no request. (An engine without WebAssembly SIMD fetches the scalar core from a
// second file, attention-explorer-scalar.js, next to this one: see widget-scalar.js; the
// two chapters that need the trainer or the trained text model, training's in-page trainer
// and trained-heads, fetch the whole core, attn-core.wasm, from next to this one.)
//
//   <script type="module" src="attention-explorer.js"></script>
//   <attention-explorer chapter="core-attention" step="softmax" lang="en"></attention-explorer>
//
// Attributes: chapter (id, default the first chapter), step (a step key), figure (one grid
// or plot by its data-grid / data-plot name, shown alone), tokens, d_model, heads, mask
// (causal | none), seed (what the chapter supports: its module's `options`), lang (ko | en,
// default from the page's lang), editable ("false" makes inputs read-only), state (a
// chapter's permalink text, as in ?<chapter>=<state>), hide (exercise cells: "P.3.1 P.3.2",
// grid.row.column counted from 1), tolerance (for checking answers: relative, default 0.01, never tighter than the digits shown), theme
// (auto | light | dark; auto follows the host page), model (the real-models chapter: the URL of a
// checkpoint folder it opens, docs/real-models.md).
// Every widget on a page shares one instance of the core and keeps its own state; the
// markup lives in a shadow root, so the page's CSS and the widget's do not meet.
//
// The same file is an anywidget module: export default { render({ model, el }) }, with
// the attributes above as the model's traits (Jupyter, marimo, MyST).
import createAttention, { simdSupported } from './attn.mjs';
import chapters from 'chapters:list';
import { createI18n } from './kit/i18n.js';
import { createStore } from './kit/store.js';
import { createHost } from './kit/host.js';
import { problemText } from './kit/url-state.js';
import { NUMBER_TEXT, quoteTyped } from './components/typed-number.js';
import en from './kit/en.js';
import { decompress as unzstd } from 'fzstd';
import { css, fonts, wasmZstd } from 'widget-assets';

export const CHAPTERS = chapters.map((c) => c.id);
export const ATTRIBUTES = ['chapter', 'step', 'figure', 'tokens', 'd_model', 'heads', 'mask', 'seed', 'lang', 'editable', 'state', 'hide', 'tolerance', 'theme', 'model'];

// ---- one core, one stylesheet, fonts on the document ----------------------------------------
// Two builds of this file (web/scripts/build.mjs; docs/embedding.md): the one-file widget,
// dist/attention-explorer.js, carries the SIMD core without the trainer and KaTeX's fonts
// inside it; the light widget, dist/widget/attention-explorer.js, is a folder: chapters in
// chunks loaded when used, the core without the trainer and the fonts as files next to it
// (wasmZstd null, fonts by file name). A file's folder, for the files next to this one.
const here = (file) => new URL(file, import.meta.url).href;

// The SIMD core is inlined packed with Zstandard (base64); fzstd unpacks it.
const unpack = (base64) => unzstd(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));

let corePromise = null;
export function loadCore() {
  // locateFile: the loader then never resolves a URL against import.meta.url, which fails
  // when this module itself comes from a blob: or data: URL (anywidget, notebooks).
  // Both builds load the core without the trainer (attn-core-lite.wasm): the one file has it
  // inlined, the light widget fetches it. An engine without WebAssembly SIMD gets the scalar
  // build, which has the trainer.
  corePromise ??= (async () => {
    if (wasmZstd === null) { // light: attn-core-lite.wasm (or the scalar build) next to this file
      const simd = simdSupported();
      return createAttention({ simd, training: false, locateFile: (path) => here(simd && path === 'attn-core.wasm' ? 'attn-core-lite.wasm' : path) });
    }
    const simd = simdSupported();
    return createAttention({ simd, training: false, ...(simd && { wasmBinary: unpack(wasmZstd) }), locateFile: (path) => path });
  })();
  return corePromise;
}
// The training chapter's in-page trainer (when Workers are missing) and the trained-heads
// chapter's text model: the widget's own core has neither, so the whole core (attn-core.wasm;
// the light widget also its loader, attn-core.mjs) is loaded from next to this file on first
// use. The scalar core has both, so an engine without SIMD keeps the core it has.
export const TRAINER_FILE = 'attn-core.wasm';
let withTrainer = null;
const coreWithTrainer = () => (withTrainer ??= loadCore().then(async (core) => {
  if (core.simd === 'scalar') return core;
  let url = null;
  try {
    url = here(TRAINER_FILE);
  } catch {
    // import.meta.url is a blob: or data: URL (a notebook): there is no folder to look in
  }
  try {
    if (!url) throw new Error(`the widget was not loaded from a file (${import.meta.url.slice(0, 30)}…)`);
    return await createAttention({ locateFile: here });
  } catch (e) {
    withTrainer = null; // a later mount may try again (the file copied meanwhile)
    throw new Error(`this chapter needs the whole core, ${TRAINER_FILE}, next to attention-explorer.js${url ? ` (${url})` : ''}: ${e.message}`);
  }
}));

let sheet = null;
function stylesheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  return sheet;
}

// @font-face inside a shadow root is ignored by browsers, so KaTeX's fonts are added to
// the document's font set, from bytes carried in this file (no URL, no request); the light
// widget's from files next to it, each fetched only when a formula uses its face.
let fontsAdded = false;
function addFonts() {
  if (fontsAdded || typeof FontFace !== 'function') return;
  fontsAdded = true;
  for (const f of fonts) {
    if (f.file) {
      document.fonts.add(new FontFace(f.family, `url(${JSON.stringify(here(f.file))}) format("woff2")`, { style: f.style, weight: f.weight, display: 'block' }));
      continue;
    }
    const bin = atob(f.data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const face = new FontFace(f.family, bytes.buffer, { style: f.style, weight: f.weight, display: 'block' });
    document.fonts.add(face);
    face.load().catch(() => {});
  }
}

// ---- light or dark, as the host page is ---------------------------------------------------------
const luminance = (rgb) => {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(rgb);
  if (!m || (m[4] !== undefined && Number(m[4]) < 0.5)) return null;
  const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(+m[1]) + 0.7152 * lin(+m[2]) + 0.0722 * lin(+m[3]);
};
function hostScheme(el) {
  const want = el.getAttribute('theme');
  if (want === 'light' || want === 'dark') return want;
  for (let n = el.parentElement; n; n = n.parentElement) {
    const L = luminance(getComputedStyle(n).backgroundColor);
    if (L !== null) return L < 0.3 ? 'dark' : 'light';
  }
  const cs = getComputedStyle(document.documentElement).colorScheme || 'normal';
  if (/dark/.test(cs) && (!/light/.test(cs) || matchMedia('(prefers-color-scheme: dark)').matches)) return 'dark';
  return 'light';
}

// A number attribute's text, read as the page's links write numbers (2, .5, 1e-3): never '',
// 'Infinity', '0x10', nor a text that overflows to ±Infinity ('1e400'); NaN when it is none.
function numberAttr(v) {
  const t = String(v ?? '').trim();
  return NUMBER_TEXT.test(t) ? Number(t) : NaN;
}
// A size or seed: a whole number from 0 to WHOLE_MAX ({value}), else why not: 'attrWhole' (not
// a whole number: 'lots', '2.5') or 'attrWholeRange' (a whole number out of range: '-1',
// '1e9', and '1e400', which overflows).
const WHOLE_MAX = 999999;
function wholeAttr(v) {
  const x = numberAttr(v);
  if (Number.isNaN(x) || (Number.isFinite(x) && !Number.isInteger(x))) return { why: 'attrWhole' };
  if (!(x >= 0 && x <= WHOLE_MAX)) return { why: 'attrWholeRange' };
  return { value: x === 0 ? 0 : x };
}
// tolerance: a finite number from 0 to below 1, else undefined. (It is relative to the
// value's size: at 1 or more an answer of 0 is within it of any value, so every answer
// would be judged right.)
function toleranceAttr(v) {
  const x = numberAttr(v);
  return Number.isFinite(x) && x >= 0 && x < 1 ? x : undefined;
}

class AttentionExplorer extends HTMLElement {
  static get observedAttributes() {
    return ATTRIBUTES;
  }

  #gen = 0;
  #scheduled = false;
  #watch = null;
  #root = null;
  #emitted = null;
  #ready = null;
  #settleReady = null;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.#ready = new Promise((resolve, reject) => (this.#settleReady = { resolve, reject }));
    this.#ready.catch(() => {}); // (a page that never reads `ready` gets no unhandled rejection)
  }

  /** Resolves with the element when the chapter has been drawn; rejects with an Error whose
   *  message is the text the widget shows in its place when the chapter could not be (the
   *  core, the chapter's code or its side file not loaded, or its mount throwing). Pending
   *  until the first render ends; after a later one (an attribute changed), that render's
   *  outcome. (`rendered` fires after every render that reached the chapter's mount.) */
  get ready() {
    return this.#ready;
  }

  // The end of a render: `ready` settles, or (settled already) becomes this render's outcome.
  #readyWith(error) {
    if (!this.#settleReady) {
      this.#ready = error ? Promise.reject(error) : Promise.resolve(this);
      this.#ready.catch(() => {});
      return;
    }
    const { resolve, reject } = this.#settleReady;
    this.#settleReady = null;
    if (error) reject(error);
    else resolve(this);
  }

  connectedCallback() {
    addFonts();
    this.shadowRoot.adoptedStyleSheets = [stylesheet()];
    this.#schedule();
    const update = () => this.#root && (this.#root.dataset.scheme = hostScheme(this));
    const mo = new MutationObserver(update);
    mo.observe(document.documentElement, { attributes: true, subtree: false });
    if (document.body) mo.observe(document.body, { attributes: true });
    const mq = matchMedia('(prefers-color-scheme: dark)');
    mq.addEventListener('change', update);
    this.#watch = { update, stop: () => (mo.disconnect(), mq.removeEventListener('change', update)) };
  }

  disconnectedCallback() {
    this.#watch?.stop();
    this.#watch = null;
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (name === 'theme') return this.#watch?.update();
    if (name === 'state' && value === this.#emitted) return; // our own state, echoed back
    if (this.isConnected) this.#schedule();
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.isConnected) this.#render();
    });
  }

  async #render() {
    const gen = ++this.#gen;
    const shadow = this.shadowRoot;
    const root = document.createElement('div');
    root.className = 'ae-root';
    root.dataset.scheme = hostScheme(this);
    this.#root = root;
    const a = (n) => this.getAttribute(n);

    // language: the attribute, else the page's (ko or en), else English on a page in
    // another language, Korean on a page that says nothing
    // (the page's language: the nearest lang above the element, not its own lang="fr")
    const pageLang = (this.parentElement?.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.getAttribute('lang') ?? '').toLowerCase();
    const lang = ['ko', 'en'].includes(a('lang')) ? a('lang') : pageLang.startsWith('ko') ? 'ko' : pageLang ? 'en' : 'ko';
    const i18n = createI18n(lang, chapters);
    // What an attribute could not do, named by the attribute with the values it accepts
    // (kit/en.js attr*): each a function, so that a language switch re-words it.
    const problems = [];
    const cut = quoteTyped; // (an attribute's value quoted as a typed text or a link's part is: 24 characters)
    const say = (key, vars) => problems.push(() => i18n.t(`common.${key}`, vars));
    if (a('lang') !== null && !['ko', 'en'].includes(a('lang'))) say('attrChoice', { attr: 'lang', value: cut(a('lang')), list: 'ko, en' });

    const bar = document.createElement('div');
    bar.className = 'ae-bar';
    const langBtn = document.createElement('button');
    langBtn.type = 'button';
    langBtn.className = 'ae-lang';
    bar.append(langBtn);
    const notice = document.createElement('div');
    notice.className = 'notice';
    notice.setAttribute('role', 'alert');
    notice.hidden = true;
    const status = document.createElement('p');
    status.className = 'boot-status';
    status.setAttribute('role', 'status');
    status.textContent = i18n.t('common.loading');
    root.append(bar, notice, status);
    // Keys typed into the widget's fields belong to it: the host page (reveal.js, a
    // notebook) sees document.activeElement = this element, not the field, so it would
    // take ←/→ for itself.
    root.addEventListener('keydown', (e) => {
      const t = e.composedPath()[0];
      if (t?.closest?.('input, textarea, select, [role="tablist"], [role="grid"]')) e.stopPropagation();
    });
    shadow.replaceChildren(root);
    this.removeAttribute('data-ready');

    let attn, module;
    let ch = chapters.find((c) => c.id === a('chapter'));
    if (!ch) {
      if (a('chapter') !== null) say('attrChapter', { value: cut(a('chapter')), list: CHAPTERS.join(', '), first: CHAPTERS[0] });
      ch = chapters[0];
    }
    try {
      // (a failure says which part failed: the core, or the chapter's own code or words)
      const chapterPart = (p) => p.catch((e) => {
        throw Object.assign(e instanceof Error ? e : new Error(String(e)), { chapterPart: true });
      });
      [attn, module] = await Promise.all([loadCore(), chapterPart(ch.load().then((m) => m.default)), chapterPart(i18n.load(lang, [ch.id]))]);
    } catch (e) {
      if (gen !== this.#gen) return; // attributes changed meanwhile: the newer render settles `ready`
      // a chapter kept in the side file (attention-explorer-more.js) is not the core
      status.textContent = e.sideFile
        ? i18n.t('common.chapterFileFailed', { file: e.sideFile, message: e.cause?.message ?? e.message })
        : e.chapterPart ? i18n.t('common.chapterCodeFailed', { message: e.message })
        : i18n.t('common.loadFailed', { message: e.message });
      status.classList.add('error');
      console.error(e);
      // (data-ready="failed": a page or test waiting for the widget stops waiting; the
      // shown message is `ready`'s rejection)
      this.setAttribute('data-ready', 'failed');
      this.#readyWith(new Error(status.textContent, { cause: e }));
      return;
    }
    if (gen !== this.#gen) return; // attributes changed while the core loaded

    const options = {};
    // A size, seed or mask the chapter does not take is said as such, whatever its value (a
    // range message would suggest a value that is then refused all the same).
    const supported = module.options ?? [];
    const SIZES = [['tokens', 'tokens'], ['d_model', 'dModel'], ['heads', 'heads'], ['seed', 'seed'], ['mask', 'mask']];
    const takes = SIZES.filter(([, k]) => supported.includes(k)).map(([n]) => n);
    for (const [attr, key] of SIZES) {
      if (a(attr) === null) continue;
      if (!supported.includes(key)) {
        say(takes.length ? 'attrUnsupported' : 'attrUnsupportedNone', { attr, chapter: ch.id, list: takes.join(', ') });
        continue;
      }
      if (key === 'mask') {
        if (['causal', 'none'].includes(a('mask'))) options.mask = a('mask');
        else say('attrChoice', { attr: 'mask', value: cut(a('mask')), list: 'causal, none' });
        continue;
      }
      const r = wholeAttr(a(attr));
      // (a whole number out of range, -1, 1e9 or one too large to read, is said as such)
      if ('why' in r) say(r.why, { attr, value: cut(a(attr)), max: WHOLE_MAX });
      else options[key] = r.value;
    }
    // model: only the real-models chapter opens a checkpoint; elsewhere it is said, as a size
    // the chapter does not take is
    if (a('model') !== null && ch.id !== 'real-models')
      say('attrOnlyChapter', { attr: 'model', value: cut(a('model')), chapter: ch.id, only: 'real-models' });
    // a choice among words: another word is said, and the default used (theme="purple": auto)
    for (const [attr, list] of [['theme', ['auto', 'light', 'dark']], ['editable', ['true', 'false']]])
      if (a(attr) !== null && a(attr) !== '' && !list.includes(a(attr))) say('attrChoice', { attr, value: cut(a(attr)), list: list.join(', ') });
    // (a finite number ≥ 0: '1e400' overflows to Infinity, which would judge every answer right)
    const tolerance = a('tolerance') === null ? undefined : toleranceAttr(a('tolerance'));
    if (a('tolerance') !== null && tolerance === undefined) say('attrTolerance', { value: cut(a('tolerance')) });

    const store = createStore({});
    const host = createHost({
      store, options, readOnly: a('editable') === 'false',
      restore: a('state') ? { [ch.id]: a('state') } : {},
      step: a('step'), hide: a('hide'), tolerance,
    });
    const section = document.createElement('section');
    section.className = 'chapter';
    section.id = ch.id;
    status.remove();
    root.append(section);

    // (a problem's words as the notice says them: those that speak of "the link" in
    // common.link have their attribute's wording in common.attrLink)
    const attrWords = (k, v) => i18n.t(`common.${k in en.attrLink ? 'attrLink' : 'link'}.${k}`, v);
    const renderNotice = () => {
      // (what the state, step and hide attributes asked for and the chapter does not have:
      // each under the attribute that asked (the host's notice says which), as the other
      // attributes' items name theirs)
      const byAttr = new Map();
      for (const n of host.notices) {
        const texts = byAttr.get(n.from) ?? [];
        byAttr.set(n.from, texts);
        for (const q of n.problems) texts.push(problemText(q, attrWords));
      }
      const items = [...problems.map((f) => (typeof f === 'function' ? f() : f)),
        ...[...byAttr].map(([attr, texts]) => (a(attr) !== null ? `${attr}="${cut(a(attr))}": ${texts.join('; ')}` : texts.join('; ')))];
      notice.hidden = items.length === 0;
      notice.textContent = '';
      if (!items.length) return;
      const p = document.createElement('p');
      p.className = 'notice-title';
      p.textContent = i18n.t('common.widgetNoticeTitle');
      const ul = document.createElement('ul');
      for (const it of items) ul.append(Object.assign(document.createElement('li'), { textContent: it }));
      notice.append(p, ul);
    };
    const relabel = () => {
      langBtn.textContent = i18n.t('common.langToggle');
      langBtn.lang = i18n.lang === 'ko' ? 'en' : 'ko';
      langBtn.title = i18n.t('common.langToggleLabel'); // the name is the visible word itself
      root.lang = i18n.lang;
      renderNotice();
    };
    langBtn.addEventListener('click', () => i18n.switchTo(i18n.lang === 'ko' ? 'en' : 'ko', [ch.id]));
    i18n.onChange(relabel);
    host.onNotice(renderNotice);
    relabel();

    let mountError = null;
    try {
      // model: a checkpoint folder's URL for the real-models chapter (docs/real-models.md)
      // (widget: the chapter stands alone here; a chapter whose words depend on it reads ctx.widget,
      // or ctx.onPage(id) for whether another chapter is here)
      module.mount(section, { attn, i18n, store, host, coreWithTrainer, widget: true, onPage: (id) => id === ch.id, model: a('model') === null ? null : { url: a('model'), sameOrigin: false, from: 'attribute' } });
      host.finishRestore(ch.id);
      if (a('figure')) this.#single(section, host, ch.id, a('figure'), (list) => say('attrFigure', { value: cut(a('figure')), list }));
    } catch (e) {
      problems.push(e.message);
      console.error(e);
      mountError = new Error(e.message, { cause: e });
    }
    renderNotice();

    // Tell the page (and anywidget) when the state changes: detail.state is the text the
    // `state` attribute takes.
    const emit = () => {
      this.#emitted = host.encodeState(ch.id);
      this.dispatchEvent(new CustomEvent('statechange', { detail: { chapter: ch.id, state: this.#emitted } }));
    };
    store.subscribe(emit);
    this.#emitted = host.encodeState(ch.id);

    Object.assign(this, { attn, store, host, i18n });
    this.setAttribute('data-ready', 'true');
    this.#readyWith(mountError);
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  // figure="name": only that grid or plot (and the chapter's error box) stays visible.
  #single(section, host, id, name, missing) {
    const target = host.chapters.get(id)?.grids.get(name)?.el ?? section.querySelector(`[data-grid="${CSS.escape(name)}"], [data-plot="${CSS.escape(name)}"]`);
    if (!target) {
      missing([...new Set([...section.querySelectorAll('[data-grid], [data-plot]')].map((n) => n.dataset.grid ?? n.dataset.plot))].join(', '));
      return;
    }
    const panel = target.closest('.step-panel');
    if (panel) for (const s of host.chapters.get(id)?.steppers ?? []) if (s.has(panel.dataset.step)) s.goTo(panel.dataset.step);
    for (let n = target; n && n !== section; n = n.parentElement)
      for (const sib of n.parentElement.children)
        if (sib !== n && !sib.classList.contains('chapter-error') && !sib.classList.contains('step-panel')) sib.classList.add('ae-off');
    for (const nav of section.querySelectorAll('.stepper-nav')) nav.classList.add('ae-off');
    section.classList.add('single-figure');
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('attention-explorer'))
  customElements.define('attention-explorer', AttentionExplorer);

// anywidget: the model's traits are the attributes; the widget's state flows back into
// the `state` trait when the model has one.
export default {
  render({ model, el }) {
    const w = document.createElement('attention-explorer');
    const apply = () => {
      for (const name of ATTRIBUTES) {
        const v = model.get(name);
        if (v === null || v === undefined || v === '') w.removeAttribute(name);
        else if (w.getAttribute(name) !== String(v)) w.setAttribute(name, String(v));
      }
    };
    apply();
    for (const name of ATTRIBUTES) model.on(`change:${name}`, apply);
    const back = (e) => {
      if (model.get('state') === undefined) return;
      model.set('state', e.detail.state);
      model.save_changes();
    };
    w.addEventListener('statechange', back);
    el.append(w);
    return () => {
      for (const name of ATTRIBUTES) model.off(`change:${name}`, apply);
      w.removeEventListener('statechange', back);
      w.remove();
    };
  },
};

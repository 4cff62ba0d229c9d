// Korean by default, English as a toggle. The page's own text (kit/ko.js, kit/en.js) is
// always here; a chapter's prose (chapters/<id>/<lang>.js) is loaded with its code, and
// before that only its TOC entry and title are known (from the chapter list).
//
//   const i18n = createI18n('ko', chapters);   // chapters: the generated list (may be [])
//   await i18n.load('en', ['core-attention']);  // that chapter's English prose
//   i18n.t('core-attention.title');             // the text
//   i18n.t('common.outOfRange', { text, last }) // with {placeholders} filled (kit/fill.js)
//   await i18n.switchTo('en', () => mountedIds); // loads what is missing, then changes language
import ko from './ko.js';
import en from './en.js';
import { fill } from './fill.js';

export const LANGS = ['ko', 'en'];

export function createI18n(initial = 'ko', chapters = []) {
  let lang = LANGS.includes(initial) ? initial : 'ko';
  const bundles = { ko: { common: ko }, en: { common: en } };
  const byId = new Map(chapters.map((c) => [c.id, c]));
  for (const c of chapters) for (const l of LANGS) bundles[l][c.id] = { toc: c.toc[l], title: c.title[l] };
  const loaded = new Set(); // `${lang}/${id}` whose whole prose is here
  const pending = new Map(); // `${lang}/${id}` -> Promise
  const listeners = new Set();
  const lookup = (bundle, key) => key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), bundle);

  function load(l, ids) {
    return Promise.all(ids.map((id) => {
      const key = `${l}/${id}`;
      const c = byId.get(id);
      if (loaded.has(key) || !c) return undefined;
      if (!pending.has(key))
        pending.set(key, c.text[l]().then((m) => {
          bundles[l][id] = m.default;
          loaded.add(key);
        }).finally(() => pending.delete(key)));
      return pending.get(key);
    }));
  }

  const i18n = {
    get lang() {
      return lang;
    },
    // The text under `key` in the current language (Korean where it has none), with
    // {placeholders} filled from `vars` when given.
    t(key, vars) {
      const s = lookup(bundles[lang], key) ?? lookup(bundles.ko, key);
      if (s === undefined) throw new Error(`missing text: ${key}${byId.has(key.split('.')[0]) && !loaded.has(`${lang}/${key.split('.')[0]}`) ? ' (its prose is not loaded yet)' : ''}`);
      return vars ? fill(s, vars) : s;
    },
    load,
    loaded: (l, id) => !byId.has(id) || loaded.has(`${l}/${id}`),
    // Changes the language at once: whatever renders next must have its prose loaded.
    setLang(next) {
      if (!LANGS.includes(next) || next === lang) return;
      lang = next;
      for (const fn of listeners) fn(lang);
    },
    // Loads the prose of `ids` (or of what ids() returns: e.g. the chapters mounted by then,
    // asked again after each load, as a chapter may mount meanwhile) in `next`, then switches.
    async switchTo(next, ids = []) {
      const want = () => (typeof ids === 'function' ? ids() : ids).filter((id) => !i18n.loaded(next, id));
      for (let missing = want(); missing.length; missing = want()) await load(next, missing);
      i18n.setLang(next);
    },
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  return i18n;
}

// Korean by default, English as a toggle. Strings live in web/content/<lang>/, one
// module per chapter; t('chapter.key') looks one up, falling back to Korean.
import ko from '../content/ko/index.js';
import en from '../content/en/index.js';

const bundles = { ko, en };
export const LANGS = ['ko', 'en'];

export function createI18n(initial = 'ko') {
  let lang = LANGS.includes(initial) ? initial : 'ko';
  const listeners = new Set();
  const lookup = (bundle, key) => key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), bundle);
  return {
    get lang() {
      return lang;
    },
    t(key) {
      const s = lookup(bundles[lang], key) ?? lookup(bundles.ko, key);
      if (s === undefined) throw new Error(`missing text: ${key}`);
      return s;
    },
    setLang(next) {
      if (!LANGS.includes(next) || next === lang) return;
      lang = next;
      for (const fn of listeners) fn(lang);
    },
    onChange(fn) {
      listeners.add(fn);
    },
  };
}

// The real-models chapter's errors in words: an error's message in the page's language,
// worded here from its code and parameters (the worker's errorOf: kind, file, tensor, folder,
// n, max, what, expected, got, line, column), and the technical note under it. No particle
// follows a file or tensor name in Korean (they are set after a colon or in brackets). The
// core's English detail is only the technical note under the message (detail).
// tests/web/real-models-errors.test.mjs.
//
//   const errors = errorWording(tr, { byAttribute });  // tr: the chapter's texts
//   say(line, ...errors.text(e));      // [template, vars] for setProse (every part escaped)
//   errors.message(e)                  // the same as plain text (in a line of its own)
//   say(note, ...errors.detail(e));    // [template or null, vars]: the technical note
import { safe } from './lines.js';

// The kinds whose message says everything: no technical note under them.
export const SAID_IN_FULL = new Set(['tooLong', 'empty', 'missing', 'pickle', 'format', 'memory', 'tokenizerMissing', 'nomodel', 'severalModels']);

// byAttribute: the model was named by the widget's model attribute, not by the page's link
// (a folder that cannot be read says which).
export function errorWording(tr, { byAttribute = false } = {}) {
  const tryTr = (key, vars) => {
    try {
      return tr(key, vars);
    } catch {
      return null;
    }
  };
  // [text key, raw vars]
  function words(e) {
    const kind = e.kind === 'missing' && e.folder ? 'missingFolder' : e.kind === 'missing' && e.tensor ? 'missingTensor'
      : e.kind === 'config' && e.what === 'json' ? 'configJson' : e.kind === 'index' && e.what === 'json' ? 'indexJson'
      : e.kind === 'architecture' && (e.got == null || e.got === '') ? 'architectureNone' : e.kind;
    const named = kind === 'missingFolder' && byAttribute ? 'missingFolderAttr' : kind;
    const key = tryTr(`err_${named}`) != null ? `err_${named}` : 'err_error';
    const raw = { file: e.file ?? '', tensor: e.tensor ?? '', folder: e.folder ?? '', folders: e.folders ?? '', n: e.n, max: e.max,
      got: e.got ?? tr('unknownValue'), expected: e.expected ?? tr('unknownValue') };
    raw.at = e.tensor ? tr('atTensor', { tensor: e.tensor }) : '';
    raw.inFile = e.file ? tr('inFile', { file: e.file }) : '';
    raw.where = e.line ? tr('atLine', { line: e.line, column: e.column }) : '';
    // (the tensor and the file in one bracket, where a sentence names both)
    const parts = [e.tensor && tr('placeTensor', { tensor: e.tensor }), e.file && tr('placeFile', { file: e.file })].filter(Boolean);
    raw.place = parts.length ? tr('place', { parts: parts.join(', ') }) : '';
    raw.values = e.got != null && e.expected != null && e.what !== 'json'
      ? tr('values', { what: tryTr(`what_${e.what}`) ?? e.what ?? '', expected: e.expected, got: e.got }) : '';
    return [key, raw];
  }
  // [template, vars] for setProse (every part escaped)
  const text = (e) => {
    const [key, raw] = words(e);
    return [tr(key), Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? safe(v) : v]))];
  };
  const message = (e) => tr(...words(e));
  // The technical note under a message: the core's English detail, where it says more than
  // the sentence above it (the detail in a span lang="en"); no error or none: [null, vars].
  const detail = (e) => {
    const d = e && !SAID_IN_FULL.has(e.kind) ? String(e.detail ?? e.message ?? '') : '';
    return [d ? tr('technical') : null, { detail: safe(d.slice(0, 400)) }];
  };
  return { words, text, message, detail };
}

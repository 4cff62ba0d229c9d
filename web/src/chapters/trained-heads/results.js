// The trained-heads chapter's two data files, fetched next to its script (docs/text-model.md),
// and the check of text-model-results.json where it is read: every field the chapter uses
// has its type and shape, its numbers are finite, its list of heads is not empty and has
// one entry per head of the model, in the model's order, and each head's role is the one
// its scores give (roles.js). A file that fails is refused whole
// (the chapter then shows its error line, naming the file and what is wrong, and nothing
// half-filled), never read in part.
//
// What is wrong is said as {key, vars}: the words are the chapter's (ko.js/en.js, the keys
// results_<key>), so that the error line is in the page's language; the Error's own message
// (for the console) names the key and the field.
import { ROLES, roleReason } from './roles.js';

export const MODEL_FILE = 'text-model.bin';
export const RESULTS_FILE = 'text-model-results.json';
// a head's role as the core names it: one of ROLES, or '' (no nameable role)
const ROLE_NAMES = [...ROLES, ''];
// the fields of a head the chapter reads (its four role scores and its ablation)
const HEAD_NUMBERS = ['previousToken', 'firstToken', 'local', 'induction', 'ablatedBitsPerChar'];

// An error of one of the chapter's files: `file` names it, `reason` is the message without
// the file's name (HTTP 404); `problem` ({key, vars}) says what is wrong with its content,
// absent when the file could not be fetched.
export function fileError(file, reason, problem) {
  const e = new Error(`${file}: ${reason}`);
  e.file = file;
  e.reason = reason;
  if (problem) e.problem = problem;
  return e;
}

// A value as the message shows it: JSON, cut short (the same in both languages).
export function describe(v) {
  if (v === undefined) return 'undefined';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v); // 1e999 reads as Infinity
  const s = JSON.stringify(v);
  return s.length > 24 ? `${s.slice(0, 23)}…` : s;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// The parsed text-model-results.json, checked against the loaded model's config ({layers,
// heads}): returns it unchanged, or throws fileError(RESULTS_FILE, …, {key, vars}).
export function checkResults(json, config) {
  const bad = (key, vars = {}) => {
    throw fileError(RESULTS_FILE, `${key} ${JSON.stringify(vars)}`, { key, vars });
  };
  const object = (v, field) => {
    if (v === undefined) bad('missing', { field });
    if (!isObject(v)) bad('notObject', { field, value: describe(v) });
    return v;
  };
  const number = (v, field) => {
    if (v === undefined) bad('missing', { field });
    if (typeof v !== 'number' || !Number.isFinite(v)) bad('notNumber', { field, value: describe(v) });
  };
  const count = (v, field) => {
    if (v === undefined) bad('missing', { field });
    if (!Number.isInteger(v) || v < 1) bad('notCount', { field, value: describe(v) });
  };

  if (!isObject(json)) bad('notRoot', { value: describe(json) });
  const heldOut = object(json.heldOut, 'heldOut');
  number(heldOut.bitsPerChar, 'heldOut.bitsPerChar');
  count(heldOut.chars, 'heldOut.chars');
  if (json.heads === undefined) bad('missing', { field: 'heads' });
  if (!Array.isArray(json.heads)) bad('notList', { field: 'heads', value: describe(json.heads) });
  if (!json.heads.length) bad('noHeads');
  const { layers, heads } = config;
  if (json.heads.length !== layers * heads) bad('headCount', { n: json.heads.length, want: layers * heads, layers, heads });
  json.heads.forEach((x, i) => {
    const at = `heads[${i}]`;
    object(x, at);
    for (const f of HEAD_NUMBERS) number(x[f], `${at}.${f}`);
    if (x.role === undefined) bad('missing', { field: `${at}.role` });
    if (!ROLE_NAMES.includes(x.role)) bad('notRole', { field: `${at}.role`, value: describe(x.role), list: ROLE_NAMES.map((r) => JSON.stringify(r)).join(', ') });
    // (layer and head, counted from 1, are not read: the chapter goes by the entry's place,
    // the model's order, layer by layer; when the file gives them they must agree)
    const want = { layer: Math.floor(i / heads) + 1, head: (i % heads) + 1 };
    for (const f of ['layer', 'head'])
      if (x[f] !== undefined && x[f] !== want[f])
        bad('headPlace', { field: `${at}.${f}`, value: describe(x[f]), want: want[f], n: i + 1 });
    // the role is the one its scores give by the thresholds the page shows (roles.js): a label
    // the chapter shows beside scores that contradict it is refused, not shown
    const given = roleReason(x).role;
    if (x.role !== given) bad('roleScores', { field: `${at}.role`, value: describe(x.role), want: JSON.stringify(given), n: i + 1 });
  });
  return json;
}

// The training chapter's "your sequence" field: what the learner typed, read as the task's
// tokens. One user-perceived character is one token (a flag emoji is one character), after
// NFKC (full-width ４ is 4); spaces and commas between them are ignored.
//
//   readSequence('abc', task) -> { tokens: [0, 1, 2] }
//   readSequence('a?c', task) -> { problem: { key: 'yourBadChar', vars: { ch: '?', example, tokens } } }
//
// task: { tokenLabels, probe, minLen, maxLen } (the core's attn.task(name)). A problem is a key
// of the chapter's prose and its values, so the message follows the language toggle:
// yourEmpty; yourBadChar {ch, example, tokens}; yourBadInvisible {code, example, tokens} (a
// character that draws nothing is named by its code points); yourLength {n, minLen, maxLen}.

const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter() : null;
/** The user-perceived characters (grapheme clusters) of s. */
export const characters = (s) => (segmenter ? Array.from(segmenter.segment(s), (x) => x.segment) : Array.from(s));

// A character the message cannot quote visibly: a control, format or private-use one, an
// unassigned or default-ignorable code point (NUL, U+202E right-to-left override, a
// zero-width joiner or variation selector on its own), a separator, or a combining mark
// with nothing before it; not an emoji sequence (its joiners draw as part of it).
const HIDDEN = /[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/u;
export const invisible = (ch) => /^\p{M}/u.test(ch) || (HIDDEN.test(ch) && !/\p{Extended_Pictographic}/u.test(ch));
export const codePoint = (c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** The tokens of `text` for `task`, or the first problem with it. */
export function readSequence(text, task) {
  const raw = text.normalize('NFKC').replace(/[\s,]+/g, '');
  const labels = task.tokenLabels;
  if (!raw) return { problem: { key: 'yourEmpty', vars: {} } };
  const tokens = [];
  for (const ch of characters(raw)) {
    const id = labels.indexOf(ch);
    if (id < 0) {
      const example = task.probe.slice(0, 5).map((t) => labels[t]).join('');
      const cps = Array.from(ch).slice(0, 8);
      const vars = { example, tokens: labels.join(' ') };
      if (invisible(ch)) return { problem: { key: 'yourBadInvisible', vars: { ...vars, code: cps.map(codePoint).join(' ') } } };
      return { problem: { key: 'yourBadChar', vars: { ...vars, ch: cps.join('') } } };
    }
    tokens.push(id);
  }
  if (tokens.length < task.minLen || tokens.length > task.maxLen)
    return { problem: { key: 'yourLength', vars: { n: tokens.length, minLen: task.minLen, maxLen: task.maxLen } } };
  return { tokens };
}

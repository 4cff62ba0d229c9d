// Matrix grid: a real <table> (row and column headers, so a screen reader reads the
// numbers) with heatmap colours, a legend, optional editable cells and hover links.
//
//   const g = createMatrixGrid({caption, rowLabel, colLabel, editable, onEdit, color, ...});
//   container.append(g.el); g.update({rows, cols, data});
//
// This file is the grid's core: its options, its figure (caption, table, message, legend)
// and when it writes (a grid far from the screen keeps the new matrix and writes its cells
// when it comes near). Each behaviour is a small module over that core (grid/):
//   table.js     the <table> following the matrix's shape, written only where it changed
//   keyboard.js  the WAI-ARIA grid pattern: one tab stop, arrow keys, hover and selection
//   cells.js     editable cells: the typed-number rule (typed-number.js) and paste into a cell
//   legend.js    the colour scale and its legend
//   tools.js     the "⋯" menu: copy, LaTeX/Markdown/CSV, SVG/PNG, paste
//   exercise.js  exercise cells (hidden, answered, checked) and the leak check
//   marks.js     highlighted rows/columns/cells and the selected cell
import { texToHtml, fill, setText, setHtml } from '../kit/prose.js';
import { whenNear } from './nearby.js';
import { tableOf } from './grid/table.js';
import { keyboardOf } from './grid/keyboard.js';
import { legendOf } from './grid/legend.js';
import { toolsOf } from './grid/tools.js';
import { exerciseOf } from './grid/exercise.js';
import { marksOf } from './grid/marks.js';

export { checkLeaks } from './grid/exercise.js';

// English defaults; the chapter kit passes the page's language (kit/<lang>.js, tools.*).
export const TOOL_TEXT = {
  menu: 'Matrix tools: copy, paste, export', copy: 'Copy as text', paste: 'Paste text…', latex: 'LaTeX', markdown: 'Markdown',
  csv: 'CSV', svg: 'SVG image', png: 'PNG image', apply: 'Apply', close: 'Close',
  copied: 'Copied to the clipboard.', selectToCopy: 'Select the text and copy it (Ctrl+C).',
  pasteLabel: 'Paste numbers: one row per line, separated by spaces or commas.',
  pasteShape: 'The pasted matrix is {got}; this one is {want}. Paste a whole {want} matrix, or a block that fits from the selected cell.',
  pasteComma: 'A comma between digits separates two numbers here: decimals are written with a point, as in 1.5.',
  pasteEmpty: 'There are no numbers in the pasted text.', pasteLong: 'The pasted text is too long.',
  pasteNan: '“{text}” on row {row} is not a number. Nothing was changed.',
  pasteRange: '“{text}” on row {row} is outside the range −1,000,000 to 1,000,000. Nothing was changed.',
  pasteTiny: '“{text}” on row {row} is too close to 0 for float32, which would store it as 0. Nothing was changed.',
  pasteRagged: 'Row {row} has {n} numbers but row 1 has {cols}. Nothing was changed.',
  pasteGap: 'Row {row} has two separators with no number between them (like “1,,2”). Nothing was changed.',
  answer: 'your answer', check: 'Check answers', reveal: 'Show answers', checkResult: '{right} of {total} correct.',
  checkEmpty: '{n|answer|answers} left empty.', checkUnread: '“{text}” is not a number: write a decimal, like 0.33.',
  hiddenHint: 'Fill in the missing numbers, then check.', covered: 'Numbers marked ? are covered: they would give away an exercise\'s answer.', picking: 'Click numbers to hide or show them.',
  right: 'correct', wrong: 'not yet',
  cellTyping: '“{text}”: {why}, so it is not used. The computation uses {value}, the value this cell had before you edited it.',
  cellLeft: '“{text}” was not used ({why}). The cell is back to {value}, its value before you edited it.',
  whyNan: 'not a number', whyRange: 'outside the range −1,000,000 to 1,000,000', whyIncomplete: 'not a complete number yet',
  whyTiny: 'too close to 0 for float32, which would store it as 0',
  whyEmpty: 'the cell is empty', whyComma: 'decimals are written with a point, as in {fix}',
  whyGrouped: 'a comma is not read here: write {whole} for the whole number, or {fix} for a decimal',
  whyGroupedWhole: 'commas are not read here: write {whole}',
};
let gridCount = 0;

export function createMatrixGrid(options) {
  const opts = {
    caption: () => '', // TeX shown above the grid
    ariaLabel: () => '', // plain-text name for screen readers
    rowLabel: (i) => String(i + 1),
    colLabel: (j) => String(j + 1),
    note: null, // () => plain text under the caption, e.g. "rows = query tokens"
    shape: null, // (m) => the caption's shape text instead of "rows × cols" (a grid filled row by row)
    editable: false,
    onEdit: () => {},
    color: 'diverging', // 'weights' | 'diverging' | 'none'
    digits: 3,
    fixed: false,
    significant: 0, // n: n significant digits instead of `digits` decimals (format.js fmt)
    colClass: () => '', // e.g. head tint per column
    rowClass: null, // (i) => classes of row i's <tr>, read when the grid writes its cells
    onHover: null, // (i, j) or (null) when leaving
    onSelect: null, // (i, j) on click / Enter
    explains: null, // () => the box a selection rewrites (a worked explanation): while focus is
    //   in this grid the box is aria-live="polite", so a screen reader reads what the arrow
    //   keys select; elsewhere it is quiet (an edit upstream does not announce it)
    testId: null,
    tools: true, // the copy / paste / export menu
    toolText: (key) => TOOL_TEXT[key], // labels, in the page's language
    fileName: null, // for SVG / PNG downloads (default: testId, else "matrix")
    onPaste: null, // (matrix) for a pasted matrix or block, in one update; else onEdit per cell
    onHiddenChange: () => {}, // (cells) after a teacher hides or shows a cell
    onHiddenSet: null, // () after the hidden cells change, by a teacher or a link (setHidden)
    // exercise answers: right when |answer − value| ≤ max(tol·|value|, half a unit of the
    // last digit shown), i.e. relative to the value's size, and the value as shown is right
    tolerance: 0.01,
  };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) opts[k] = v;
  opts.fileName ??= opts.testId ?? 'matrix';
  const { caption, ariaLabel, note, editable, testId, toolText } = opts;

  const mk = (tag, cls, parent, attrs = {}) => {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    Object.assign(n, attrs);
    parent?.append(n);
    return n;
  };
  const el = mk('figure', 'grid');
  if (testId) el.dataset.grid = testId;
  const table = mk('table', '', null, { id: `grid-${++gridCount}` });
  table.setAttribute('role', 'grid'); // one tab stop, arrow keys inside (grid/keyboard.js)
  if (!editable) table.setAttribute('aria-readonly', 'true');

  // The core every module works on.
  const g = {
    opts, el, table, mk,
    num: { digits: opts.digits, fixed: opts.fixed, significant: opts.significant }, // how cells write numbers (format.js)
    say: (key, vars = {}) => fill(toolText(key) ?? TOOL_TEXT[key], vars),
    shape: { rows: -1, cols: -1 },
    current: null, // the matrix (written or not)
    unwritten: null, // the matrix still to write, while the grid is far from the screen
    cells: [], // cells[i][j] (grid/table.js)
    hidden: new Set(), // "i,j" of exercise cells
    covered: new Set(), // "i,j" of cells that show another grid's hidden value (grid/exercise.js setCovered)
    picking: false, // a teacher is picking exercise cells
    scale: null, // the colour scale of the last write
    update, flush: () => later.flush(), setMessage,
  };
  g.keyboard = keyboardOf(g);
  g.exercise = exerciseOf(g);
  g.tools = toolsOf(g);
  const legend = legendOf(g);
  const marks = marksOf(g);
  const tab = tableOf(g);

  const cap = mk('figcaption', '', el);
  const capTex = mk('span', '', cap);
  cap.append(' ');
  const capShape = mk('span', 'shape', cap);
  const capNote = note ? mk('span', 'note', cap, { hidden: true }) : null;
  if (g.tools.menu) el.append(g.tools.menu);
  mk('div', 'grid-scroll', el).append(table);
  // One message at a time under the grid: about the cell being typed in, the cell just
  // left, or a refused paste. Kept as a function, so a language switch re-words it.
  const err = mk('p', 'grid-error', el, { hidden: true });
  err.setAttribute('role', 'alert');
  if (g.tools.io) el.append(g.tools.io);
  el.append(g.exercise.el, g.exercise.coverNote, legend.el);

  let message = null; // () => text
  function showErrors() {
    const t = message ? message() : '';
    if (err.hidden !== !t) err.hidden = !t;
    setText(err, t);
  }
  function setMessage(m) {
    message = m;
    showErrors();
  }

  // A grid far from the screen keeps the new matrix (value, exports and edits use it) and
  // writes its cells when it comes near (nearby.js); one on screen writes them now.
  const later = whenNear(el, () => {
    const m = g.unwritten;
    g.unwritten = null;
    if (m) write(m);
  });
  function update(m) {
    g.exercise.updating(m);
    g.tools.matrixChanged(m);
    g.current = m;
    g.unwritten = m;
    later();
  }
  // Render only what changed: the caption's KaTeX, the screen reader's caption, and (the
  // modules) each cell, the legend, the exercise bar and the marks.
  let capHtml = null, srCaption = null;
  function write(m) {
    if (m.rows !== g.shape.rows || m.cols !== g.shape.cols) tab.build(m.rows, m.cols);
    g.current = m;
    g.tools.relabel();
    const noteText = note ? note() : '';
    // The caption's TeX is parsed into the DOM only when it changes (not with the shape).
    const html = texToHtml(caption());
    if (html !== capHtml) {
      setHtml(capTex, html);
      capHtml = html;
    }
    const shape = opts.shape?.(m) ?? `${m.rows}\u2009×\u2009${m.cols}`;
    setText(capShape, shape);
    if (capNote) {
      setText(capNote, noteText);
      if (capNote.hidden !== !noteText) capNote.hidden = !noteText;
    }
    const aria = ariaLabel();
    const sr = `${aria} (${shape.replace(/\u2009/g, ' ')})${noteText ? `. ${noteText}` : ''}`;
    if (sr !== srCaption) {
      table.caption.textContent = sr;
      srCaption = sr;
    }
    const s = legend.scaleFor(m);
    tab.write(m, s, aria);
    legend.render(s);
    g.scale = s;
    g.exercise.draw();
    marks.draw();
  }

  const api = {
    el, update, flush: g.flush, highlight: marks.highlight, select: marks.select, refreshErrors: showErrors,
    get value() { return g.current; },
    // additive: tools and exercise (setHidden, hidden, setPicking, check, reveal,
    // setTolerance, hiddenTexts, setLeakNote: grid/exercise.js)
    exportText: g.tools.exportText, svg: g.tools.svg, paste: (text, at = null) => g.tools.paste(text, at),
    // a refused paste's message dropped (the chapter's Reset: the learner starts over)
    dropRefusal: g.tools.dropRefusal,
  };
  return Object.defineProperties(api, Object.getOwnPropertyDescriptors(g.exercise.api));
}

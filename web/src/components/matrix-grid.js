// Matrix grid: a real <table> (row and column headers, so a screen reader reads the
// numbers) with heatmap colours, a legend, optional editable cells and hover links.
//
//   const g = createMatrixGrid({caption, rowLabel, colLabel, editable, onEdit, color, ...});
//   container.append(g.el); g.update({rows, cols, data});
//
// Editable cells: type a number (invalid text shows an inline error and the last good
// value stays in use), ↑/↓ nudge by 1 (Shift: 0.1), ←/→ at the edge of the text and
// Enter move between cells.
//
// Matrix tools (every grid, unless tools: false): the "⋯" menu copies the matrix as plain
// text, exports LaTeX (bmatrix), Markdown or CSV, saves the figure as SVG or PNG, and on
// editable grids pastes text in (rows on lines, numbers separated by spaces or commas);
// pasting such text into a cell does the same (a whole matrix, or a block from that
// cell). Ctrl+C on a grid with nothing selected copies the whole matrix.
//
// Exercise cells: setHidden([[i, j], ...]) replaces those numbers by answer fields; the
// learner's answers are checked against the grid's current values (the core's) within a
// tolerance. setPicking(true) lets a teacher click cells to hide or show them.
import { fmt, cellText, decimals, editText, inputText } from '../format.js';
import { typedNumber, readDecimal, parseCell, numberText } from './typed-number.js';
import { weightScale, divergingScale, maxAbsFinite, textColorFor, isDark, onSchemeChange } from './colors.js';
import { texToHtml, escapeHtml, fill, setText, setHtml } from '../kit/prose.js';
import { matrixToText, matrixToLatex, matrixToMarkdown, matrixToCsv, parseMatrixText, MatrixTextError } from '../matrix-text.js';
import { gridSvg, themeOf, svgToPng, download, copyText, closeOnEscape } from './figure-export.js';
import { whenNear } from './nearby.js';

// English defaults; the chapter kit passes the page's language (kit/<lang>.js, tools.*).
export const TOOL_TEXT = {
  menu: 'Matrix tools: copy, paste, export', copy: 'Copy as text', paste: 'Paste text…', latex: 'LaTeX', markdown: 'Markdown',
  csv: 'CSV', svg: 'SVG image', png: 'PNG image', apply: 'Apply', close: 'Close',
  copied: 'Copied to the clipboard.', selectToCopy: 'Select the text and copy it (Ctrl+C).',
  pasteLabel: 'Paste numbers: one row per line, separated by spaces or commas.',
  pasteShape: 'The pasted matrix is {got}; this one is {want}. Paste a whole {want} matrix, or a block that fits from the selected cell.',
  pasteEmpty: 'There are no numbers in the pasted text.', pasteLong: 'The pasted text is too long.',
  pasteNan: '“{text}” on row {row} is not a number. Nothing was changed.',
  pasteRange: '“{text}” on row {row} is outside the range −1,000,000 to 1,000,000. Nothing was changed.',
  pasteTiny: '“{text}” on row {row} is too close to 0 for float32, which would store it as 0. Nothing was changed.',
  pasteRagged: 'Row {row} has {n} numbers but row 1 has {cols}. Nothing was changed.',
  pasteGap: 'Row {row} has two separators with no number between them (like “1,,2”). Nothing was changed.',
  answer: 'your answer', check: 'Check answers', reveal: 'Show answers', checkResult: '{right} of {total} correct.',
  hiddenHint: 'Fill in the missing numbers, then check.', picking: 'Click numbers to hide or show them.',
  right: 'correct', wrong: 'not yet',
  cellTyping: '“{text}”: {why}, so it is not used. The computation uses {value}, the value this cell had before you edited it.',
  cellLeft: '“{text}” was not used ({why}). The cell is back to {value}, its value before you edited it.',
  whyNan: 'not a number', whyRange: 'outside the range −1,000,000 to 1,000,000', whyIncomplete: 'not a complete number yet',
  whyTiny: 'too close to 0 for float32, which would store it as 0',
  whyEmpty: 'the cell is empty', whyComma: 'decimals are written with a point, as in {fix}',
};
// The typed-number rule's codes (typed-number.js) as this menu's words.
const CELL_WORDS = { typing: 'cellTyping', left: 'cellLeft', empty: 'whyEmpty', incomplete: 'whyIncomplete', comma: 'whyComma', nan: 'whyNan', range: 'whyRange', tiny: 'whyTiny' };
const NEG_INF = /^[-\u2212]\s*(∞|inf(inity)?)$/i;

let gridCount = 0;

export function createMatrixGrid(opts) {
  const {
    caption = () => '', // TeX shown above the grid
    ariaLabel = () => '', // plain-text name for screen readers
    rowLabel = (i) => String(i + 1),
    colLabel = (j) => String(j + 1),
    note = null, // () => plain text under the caption, e.g. "rows = query tokens"
    editable = false,
    onEdit = () => {},
    color = 'diverging', // 'weights' | 'diverging' | 'none'
    digits = 3,
    fixed = false,
    significant = 0, // n: n significant digits instead of `digits` decimals (format.js fmt)
    colClass = () => '', // e.g. head tint per column
    rowClass = null, // (i) => classes of row i's <tr>, read when the grid writes its cells
    onHover = null, // (i, j) or (null) when leaving
    onSelect = null, // (i, j) on click / Enter
    explains = null, // () => the box a selection rewrites (a worked explanation): while focus is
    //   in this grid the box is aria-live="polite", so a screen reader reads what the arrow
    //   keys select; elsewhere it is quiet (an edit upstream does not announce it)
    testId = null,
    tools = true, // the copy / paste / export menu
    toolText = (key) => TOOL_TEXT[key], // labels, in the page's language
    fileName = testId ?? 'matrix', // for SVG / PNG downloads
    onPaste = null, // (matrix) for a pasted matrix or block, in one update; else onEdit per cell
    onHiddenChange = () => {}, // (cells) after a teacher hides or shows a cell
    // exercise answers: right when |answer − value| ≤ max(tol·|value|, half a unit of the
    // last digit shown), i.e. relative to the value's size, and the value as shown is right
    tolerance = 0.01,
  } = opts;
  const num = { digits, fixed, significant }; // how the cells write their numbers (format.js)
  const say = (key, vars = {}) => fill(toolText(key) ?? TOOL_TEXT[key], vars);

  const id = `grid-${++gridCount}`;
  const el = document.createElement('figure');
  el.className = 'grid';
  if (testId) el.dataset.grid = testId;
  const cap = document.createElement('figcaption');
  const capTex = document.createElement('span');
  const capShape = document.createElement('span');
  capShape.className = 'shape';
  cap.append(capTex, ' ', capShape);
  let capNote = null; // only for grids with a note
  if (note) {
    capNote = document.createElement('span');
    capNote.className = 'note';
    capNote.hidden = true;
    cap.append(capNote);
  }
  const scroller = document.createElement('div');
  scroller.className = 'grid-scroll';
  const table = document.createElement('table');
  table.id = id;
  table.setAttribute('role', 'grid'); // one tab stop, arrow keys inside (see 'keyboard' below)
  if (!editable) table.setAttribute('aria-readonly', 'true');
  scroller.append(table);
  const legend = document.createElement('div');
  legend.className = 'legend';
  legend.setAttribute('aria-hidden', 'true');
  const err = document.createElement('p');
  err.className = 'grid-error';
  err.setAttribute('role', 'alert');
  err.hidden = true;
  el.append(cap);
  const mk = (tag, cls, parent, attrs = {}) => {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    Object.assign(n, attrs);
    parent?.append(n);
    return n;
  };

  // ---- the tools menu and its text panel ----------------------------------------------------
  const toolButtons = {};
  let menu = null, io = null;
  if (tools) {
    menu = closeOnEscape(mk('details', 'grid-tools', el));
    menu.dataset.tools = '';
    mk('summary', '', menu).textContent = '⋯';
    const list = mk('div', 'grid-tools-menu', menu);
    for (const act of ['copy', ...(editable ? ['paste'] : []), 'latex', 'markdown', 'csv', 'svg', 'png']) {
      const b = mk('button', '', list, { type: 'button' });
      b.dataset.act = act;
      b.addEventListener('click', () => act === 'svg' || act === 'png' ? saveFigure(act) : act === 'paste' ? openPaste() : exportText(act));
      toolButtons[act] = b;
    }
  }
  el.append(scroller, err);
  if (tools) {
    io = mk('div', 'grid-io', el, { hidden: true });
    io.label = mk('label', '', io);
    io.area = mk('textarea', '', io.label, { rows: 4, spellcheck: false, autocomplete: 'off' });
    io.area.setAttribute('autocapitalize', 'off');
    const bar = mk('div', 'grid-io-bar', io);
    io.apply = mk('button', '', bar, { type: 'button' });
    io.apply.dataset.act = 'apply';
    io.close = mk('button', '', bar, { type: 'button' });
    io.close.dataset.act = 'close';
    io.status = mk('span', 'grid-io-status', bar);
    io.status.setAttribute('role', 'status');
    io.apply.addEventListener('click', () => {
      try {
        applyPasted(parseMatrixText(io.area.value), null);
      } catch (e) {
        pasteFailed(e);
      }
    });
    io.close.addEventListener('click', closeIo);
    // Escape closes the panel (as it closes the menu), and the focus goes back to the menu
    io.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || io.hidden) return;
      e.preventDefault();
      e.stopPropagation();
      closeIo();
      menu.querySelector('summary')?.focus();
    });
  }
  const exercise = mk('div', 'exercise', el, { hidden: true });
  const exHint = mk('span', 'exercise-hint', exercise);
  const checkBtn = mk('button', '', exercise, { type: 'button' });
  checkBtn.dataset.act = 'check';
  const revealBtn = mk('button', '', exercise, { type: 'button' });
  revealBtn.dataset.act = 'reveal';
  const exResult = mk('span', 'exercise-result', exercise);
  exResult.setAttribute('role', 'status');
  // For the teacher: where the hidden values still show (other figures, formulas), from
  // the chapter (kit.js checkLeaks) through setLeakNote.
  const exLeak = mk('p', 'exercise-leak', exercise, { hidden: true });
  exLeak.setAttribute('role', 'status');
  checkBtn.addEventListener('click', () => check());
  revealBtn.addEventListener('click', () => reveal());
  el.append(legend);


  let shape = { rows: -1, cols: -1 };
  let current = null;
  let cells = []; // cells[i][j] = {td, node, answer?, and what it shows: text, bg, aria, cls}
  let headCells = []; // the row and column header cells
  let pasteRefused = false; // the last paste was refused (its message is under the grid)
  const hidden = new Set(); // "i,j" of exercise cells (non-editable grids only)
  const answers = new Map(); // "i,j" -> what the learner typed
  let picking = false;
  let judged = null; // "i,j" -> the value the last check compared the answer with (see check)
  let tol = tolerance;
  let lastScale = null;

  // The table follows the matrix's shape by adding and removing rows and columns at their
  // ends: cells that stay keep their DOM, listeners, what they show and their layout, so a
  // slider that changes T or d_model costs only the cells that come or go.
  let thead = null, tbody = null;
  const colHeads = [], rowHeads = [];
  const classOf = (n, cls) => {
    if (n.colCls === cls) return;
    if (n.colCls) n.classList.remove(...n.colCls.split(/\s+/).filter(Boolean));
    if (cls) n.classList.add(...cls.split(/\s+/).filter(Boolean));
    n.colCls = cls;
  };
  function makeCell(tr, i, j) {
    const td = tr.insertCell();
    td.dataset.i = i;
    td.dataset.j = j;
    let node, field = null;
    if (editable) {
      node = document.createElement('input');
      node.type = 'text';
      node.inputMode = 'decimal';
      node.autocomplete = 'off';
      node.spellcheck = false;
      node.size = 4;
      field = wireInput(node, i, j);
    } else {
      node = document.createElement('span');
      node.className = 'v';
      node.append(''); // its text node, whose data each update rewrites
    }
    td.append(node);
    if (onHover) {
      // (not while a teacher picks exercise cells: what they point at must not change what
      // the chapter shows, nor so the warning about where hidden values still show)
      td.addEventListener('pointerenter', () => picking || onHover(i, j));
      td.addEventListener('pointerleave', () => onHover(null));
    }
    if (onSelect && !editable) {
      td.classList.add('selectable');
      // A click selects; so does focus (keyboard), once (see focusin below).
      td.addEventListener('click', () => td !== focusSelected && onSelect(i, j));
    }
    return { td, node, field, cls: {} };
  }
  function build(rows, cols) {
    if (shape.rows === -1) {
      const tcap = document.createElement('caption');
      tcap.className = 'sr-only';
      table.append(tcap);
      thead = table.createTHead();
      const corner = document.createElement('td');
      corner.className = 'corner';
      thead.insertRow().append(corner);
      tbody = table.createTBody();
    } else {
      hidden.clear();
      answers.clear();
      for (const row of cells) for (const c of row) c.field?.reset();
    }
    const hr = thead.rows[0];
    while (colHeads.length > cols) colHeads.pop().remove();
    while (colHeads.length < cols) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.dataset.j = colHeads.length;
      hr.append(th);
      colHeads.push(th);
    }
    while (cells.length > rows) {
      cells.pop();
      rowHeads.pop().parentElement.remove();
    }
    cells.forEach((row, i) => {
      const tr = rowHeads[i].parentElement;
      while (row.length > cols) row.pop().td.remove();
      while (row.length < cols) row.push(makeCell(tr, i, row.length));
    });
    while (cells.length < rows) {
      const i = cells.length;
      const tr = tbody.insertRow();
      const th = document.createElement('th');
      th.scope = 'row';
      th.dataset.i = i;
      tr.append(th);
      rowHeads.push(th);
      const row = [];
      for (let j = 0; j < cols; j++) row.push(makeCell(tr, i, j));
      cells.push(row);
    }
    const colCls = Array.from({ length: cols }, (_, j) => colClass(j));
    colHeads.forEach((th, j) => classOf(th, colCls[j]));
    for (const row of cells) row.forEach((c, j) => classOf(c.td, colCls[j]));
    headCells = [...colHeads, ...rowHeads];
    if (!cells[active[0]]?.[active[1]]) active = [0, 0];
    exerciseKey = null; // new cells: their tab order is set again
    shape = { rows, cols };
  }

  // A cell widens with its text, so no typed or stored number is ever cut (styles.css:
  // the input is at least its usual width, else about one digit per character).
  function fitWidth(input) {
    const n = input.value.length;
    const v = n > 4 ? String(n) : '';
    if (input.style.getPropertyValue('--chars') !== v) {
      if (v) input.style.setProperty('--chars', v);
      else input.style.removeProperty('--chars');
    }
  }

  // ---- keyboard: the WAI-ARIA grid pattern ---------------------------------------------------
  // The table is role="grid" with one tab stop (roving tabindex): the active cell's focus
  // target (its input on an editable grid, its answer field when hidden for an exercise,
  // else the cell itself) has tabindex 0, every other -1. Arrow keys move inside; Home/End
  // go to the row's ends, Ctrl+Home/End to the first and last cell. Focus on a cell does
  // what pointing at it does (onHover) and selects it the way a click does (onSelect).
  // In an input, ←/→ move only from the edge of its text, and ↑/↓ nudge an editable
  // value (Alt+↑/↓ and Enter move down or up instead).
  let active = [0, 0];
  let focusSelected = null; // the cell that focus selected, while it has focus
  const targetOf = (c) => (c.answer && !c.answer.hidden ? c.answer : c.node.tagName === 'INPUT' ? c.node : c.td);
  function syncTabStops() {
    cells.forEach((row, i) => row.forEach((c, j) => {
      const t = targetOf(c);
      const on = i === active[0] && j === active[1];
      if (t !== c.td && c.td.hasAttribute('tabindex')) c.td.removeAttribute('tabindex');
      // (the attribute, not the property: a <td> without one reads -1 and cannot take focus)
      if (t !== c.node && c.node.tagName === 'INPUT' && c.node.getAttribute('tabindex') !== '-1') c.node.tabIndex = -1;
      if (c.answer && t !== c.answer && c.answer.getAttribute('tabindex') !== '-1') c.answer.tabIndex = -1;
      if (t.getAttribute('tabindex') !== (on ? '0' : '-1')) t.tabIndex = on ? 0 : -1;
    }));
  }
  function moveTo(i, j) {
    const c = cells[Math.max(0, Math.min(i, shape.rows - 1))]?.[Math.max(0, Math.min(j, shape.cols - 1))];
    if (!c) return;
    const t = targetOf(c);
    t.focus();
    if (t.tagName === 'INPUT') t.select();
  }
  const cellOf = (node) => node?.closest?.('td[data-i]');
  table.addEventListener('focusin', (e) => {
    const td = cellOf(e.target);
    if (!td) return;
    const i = Number(td.dataset.i), j = Number(td.dataset.j);
    if (active[0] !== i || active[1] !== j) {
      active = [i, j];
      syncTabStops();
    }
    if (!picking) onHover?.(i, j);
    if (explains && !table.contains(e.relatedTarget)) explains()?.setAttribute('aria-live', 'polite');
    if (onSelect && !editable && !picking && e.target === td) {
      focusSelected = td;
      onSelect(i, j);
    }
  });
  table.addEventListener('focusout', (e) => {
    focusSelected = null;
    if (onHover && !table.contains(e.relatedTarget)) onHover(null);
    if (explains && !table.contains(e.relatedTarget)) explains()?.removeAttribute('aria-live');
  });
  table.addEventListener('keydown', (e) => {
    const td = cellOf(e.target);
    if (!td || e.defaultPrevented) return;
    const i = Number(td.dataset.i), j = Number(td.dataset.j);
    const input = e.target.tagName === 'INPUT' ? e.target : null;
    const atStart = input ? input.selectionStart === 0 && input.selectionEnd === 0 : true;
    const atEnd = input ? input.selectionStart === input.value.length : true;
    const ctrl = e.ctrlKey || e.metaKey;
    let to = null;
    if (e.key === 'ArrowLeft' && atStart) to = [i, j - 1];
    else if (e.key === 'ArrowRight' && atEnd) to = [i, j + 1];
    else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && (!input || e.altKey || !editable || input !== cells[i][j].node))
      to = [i + (e.key === 'ArrowDown' ? 1 : -1), j];
    else if (e.key === 'Enter' && input) to = [i + (e.shiftKey ? -1 : 1), j];
    else if (e.key === 'Home' && (!input || ctrl)) to = ctrl ? [0, 0] : [i, 0];
    else if (e.key === 'End' && (!input || ctrl)) to = ctrl ? [shape.rows - 1, shape.cols - 1] : [i, shape.cols - 1];
    else if ((e.key === 'Enter' || e.key === ' ') && !input) {
      e.preventDefault();
      if (picking) toggleHidden(i, j);
      else if (onSelect && !editable) onSelect(i, j);
      return;
    }
    if (!to) return;
    e.preventDefault();
    if (to[0] >= 0 && to[0] < shape.rows && to[1] >= 0 && to[1] < shape.cols) moveTo(to[0], to[1]);
  });

  // One message at a time under the grid: about the cell being typed in, the cell just
  // left, or a refused paste. Kept as a function, so a language switch re-words it.
  let message = null; // () => text
  function showErrors() {
    const t = message ? message() : '';
    if (err.hidden !== !t) err.hidden = !t;
    setText(err, t);
  }
  // Every cell follows the typed-number rule (typed-number.js): what it uses, what it
  // refuses and what the message under the grid says. A cell also takes a pasted matrix.
  function wireInput(input, i, j) {
    // Several numbers pasted into a cell: a whole matrix, or a block from this cell.
    input.addEventListener('paste', (e) => {
      const text = e.clipboardData?.getData('text/plain') ?? '';
      const t = numberText(text);
      if (!/[\s,;]/.test(t) || /^[+-]?\d+,\d+$/.test(t)) return; // one number (or "1,5"): the browser pastes it
      e.preventDefault();
      try {
        applyPasted(parseMatrixText(text), { i, j });
      } catch (x) {
        pasteFailed(x);
      }
    });
    return typedNumber(input, {
      read: readDecimal,
      value: () => current?.data[i * current.cols + j],
      use: (v) => onEdit(i, j, v),
      text: editText,
      quote: inputText,
      words: (code, vars) => say(CELL_WORDS[code], vars),
      show: (m) => {
        message = m;
        showErrors();
      },
      onText: () => fitWidth(input),
      nudge: { unit: 1, fine: 0.1 },
    });
  }

  function scaleFor(m) {
    if (color === 'weights') return weightScale(isDark(el));
    if (color === 'diverging') return divergingScale(maxAbsFinite(m.data), isDark(el));
    return null;
  }
  if (color !== 'none') onSchemeChange(() => current && update(current));

  // The legend's two ends and its bar are made once and then rewritten in place (a new
  // range changes two text nodes and one style, nothing comes or goes).
  let legendKey = null, legendParts = null;
  function renderLegend(s) {
    const key = s ? `${s.domain()[0]}|${s.domain().at(-1)}|${color}` : '';
    if (key === legendKey) return;
    legendKey = key;
    if (!s) {
      legend.hidden = true;
      return;
    }
    legend.hidden = false;
    const [lo, hi] = [s.domain()[0], s.domain().at(-1)];
    const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => s(lo + t * (hi - lo)));
    if (!legendParts) {
      const a = document.createTextNode(''), b = document.createTextNode('');
      const bar = document.createElement('span');
      bar.className = 'legend-bar';
      const span = (t) => {
        const n = document.createElement('span');
        n.append(t);
        return n;
      };
      legend.append(span(a), bar, span(b));
      legendParts = { a, bar, b };
    }
    const { a, bar, b } = legendParts;
    a.data = fmt(lo, { digits: 2 });
    b.data = fmt(hi, { digits: 2 });
    bar.style.background = `linear-gradient(to right, ${stops.join(', ')})`;
  }

  // Render only what changed: every write below is skipped when the DOM already shows it
  // (the caption's KaTeX, header labels, each cell's text, classes and colours, the legend,
  // the exercise bar), so an update with one new number touches one cell, and an update
  // with the same numbers touches nothing. Each cell remembers what it shows.
  let capHtml = null, srCaption = null;
  const setClass = (c, name, on) => {
    if ((c.cls[name] ?? false) !== on) {
      c.cls[name] = on;
      c.td.classList.toggle(name, on);
    }
  };
  // A grid far from the screen keeps the new matrix (value, exports and edits use it) and
  // writes its cells when it comes near (nearby.js); one on screen writes them now.
  let unwritten = null;
  const later = whenNear(el, () => {
    const m = unwritten;
    unwritten = null;
    if (m) write(m);
  });
  function update(m) {
    if (judged && !judgedStill(m)) clearVerdict();
    current = m;
    unwritten = m;
    later();
  }
  function write(m) {
    if (m.rows !== shape.rows || m.cols !== shape.cols) {
      const first = shape.rows === -1;
      build(m.rows, m.cols);
      if (first) pruneHidden();
    }
    current = m;
    relabelTools();
    const root = el.getRootNode?.() ?? document;
    const active = root.activeElement ?? document.activeElement;
    const noteText = note ? note() : '';
    // The caption's TeX is parsed into the DOM only when it changes (not with the shape).
    const html = texToHtml(caption());
    if (html !== capHtml) {
      setHtml(capTex, html);
      capHtml = html;
    }
    setText(capShape, `${m.rows}\u2009×\u2009${m.cols}`);
    if (capNote) {
      setText(capNote, noteText);
      if (capNote.hidden !== !noteText) capNote.hidden = !noteText;
    }
    const aria = ariaLabel();
    const sr = `${aria} (${m.rows} × ${m.cols})${noteText ? `. ${noteText}` : ''}`;
    if (sr !== srCaption) {
      table.caption.textContent = sr;
      srCaption = sr;
    }
    for (const th of headCells) setText(th, th.dataset.j !== undefined ? colLabel(Number(th.dataset.j)) : rowLabel(Number(th.dataset.i)));
    if (rowClass) rowHeads.forEach((th, i) => classOf(th.parentElement, rowClass(i)));
    const s = scaleFor(m);
    const hide = !picking;
    for (let i = 0; i < m.rows; i++)
      for (let j = 0; j < m.cols; j++) {
        const x = m.data[i * m.cols + j];
        const c = cells[i][j];
        const { td, node } = c;
        if (editable) {
          const label = `${aria}: ${rowLabel(i)}, ${colLabel(j)}`;
          if (c.aria !== label) node.setAttribute('aria-label', (c.aria = label));
          if (active !== node && c.field.typed === null) {
            const t = editText(x);
            if (node.value !== t) {
              node.value = t;
              fitWidth(node);
            }
          }
        } else {
          const t = cellText(x, num);
          if (c.text !== t) node.firstChild.data = c.text = t; // the same text node: nothing comes or goes
        }
        const asked = !editable && hidden.has(`${i},${j}`);
        if (asked || c.answer) drawAnswer(i, j, asked && hide);
        setClass(c, 'hidden-cell', asked);
        setClass(c, 'masked', x === -Infinity && !(asked && hide));
        setClass(c, 'nonfinite', Number.isNaN(x) || x === Infinity);
        const bg = s && Number.isFinite(x) && !(asked && hide) ? s(x) : '';
        if (c.bg !== bg) {
          c.bg = bg;
          td.style.backgroundColor = bg;
          td.style.color = bg ? textColorFor(bg) : '';
        }
      }
    renderLegend(s);
    lastScale = s;
    drawExercise();
    drawHighlight();
    drawSelect();
  }

  // ---- tools ---------------------------------------------------------------------------------
  let labelledIn = null; // the menu's text, to relabel only when the language changed
  function relabelTools() {
    const menuText = say('menu');
    if (labelledIn === menuText) return;
    labelledIn = menuText;
    checkBtn.textContent = say('check');
    revealBtn.textContent = say('reveal');
    if (!tools) return;
    const summary = menu.querySelector('summary');
    summary.setAttribute('aria-label', menuText);
    summary.title = menuText;
    for (const [act, b] of Object.entries(toolButtons)) b.textContent = say(act);
    io.apply.textContent = say('apply');
    io.close.textContent = say('close');
  }
  const textOf = (format) => {
    const o = { hidden, ...num, rowLabel, colLabel };
    if (format === 'latex') return matrixToLatex(current, o);
    if (format === 'markdown') return matrixToMarkdown(current, o);
    if (format === 'csv') return matrixToCsv(current, o);
    return matrixToText(current, o);
  };
  function showIo(mode, text, label) {
    io.hidden = false;
    io.dataset.mode = mode;
    io.label.firstChild?.nodeType === 3 ? (io.label.firstChild.textContent = label) : io.label.prepend(label);
    io.area.readOnly = mode !== 'paste';
    io.area.value = text;
    io.apply.hidden = mode !== 'paste';
    io.status.textContent = '';
    if (menu) menu.open = false;
  }
  function closeIo() {
    io.hidden = true;
    if (pasteRefused) message = null;
    pasteRefused = false;
    showErrors();
  }
  async function exportText(format) {
    if (!current) return;
    const text = textOf(format);
    showIo(format, text, format === 'copy' ? say('copy') : say(format));
    io.area.focus();
    io.area.select();
    const ok = await copyText(text);
    io.status.textContent = ok ? say('copied') : say('selectToCopy');
  }
  function openPaste() {
    showIo('paste', '', say('pasteLabel'));
    io.area.placeholder = '1 0 1 0\n0 2 0 2';
    io.area.focus();
  }
  function pasteFailed(e) {
    if (!(e instanceof MatrixTextError)) throw e;
    const key = { empty: 'pasteEmpty', long: 'pasteLong', nan: 'pasteNan', range: 'pasteRange', tiny: 'pasteTiny', gap: 'pasteGap', ragged: 'pasteRagged' }[e.code];
    message = () => (key ? say(key, e.vars) : e.message);
    pasteRefused = true;
    showErrors();
  }
  // A parsed matrix goes in whole (same shape) or as a block from cell `at`; anything
  // else is refused with a message and the state stays as it was.
  function applyPasted(p, at) {
    if (!current || !editable) return;
    const { rows, cols } = current;
    let i0 = 0, j0 = 0;
    if (!(p.rows === rows && p.cols === cols)) {
      if (!at || at.i + p.rows > rows || at.j + p.cols > cols) {
        message = () => say('pasteShape', { got: `${p.rows}×${p.cols}`, want: `${rows}×${cols}` });
        pasteRefused = true;
        showErrors();
        return;
      }
      [i0, j0] = [at.i, at.j];
    }
    const data = Float32Array.from(current.data);
    for (let i = 0; i < p.rows; i++) for (let j = 0; j < p.cols; j++) data[(i0 + i) * cols + j0 + j] = p.data[i * p.cols + j];
    message = null;
    pasteRefused = false;
    cells.flat().forEach((c) => c.field?.reset());
    showErrors();
    if (io && !io.hidden && io.dataset.mode === 'paste') io.hidden = true;
    const root = el.getRootNode?.() ?? document;
    root.activeElement?.blur?.(); // let the update write every pasted cell
    if (onPaste) onPaste({ rows, cols, data });
    else for (let k = 0; k < data.length; k++) if (data[k] !== current.data[k]) onEdit(Math.floor(k / cols), k % cols, data[k]);
  }
  function svgOf() {
    const s = lastScale;
    return gridSvg(current, {
      title: `${ariaLabel()} (${current.rows} × ${current.cols})`, rowLabel, colLabel, ...num, hidden, theme: themeOf(el),
      cellStyle: s ? (x) => ({ bg: s(x), fg: textColorFor(s(x)) }) : () => null,
    });
  }
  async function saveFigure(kind) {
    if (!current) return;
    if (menu) menu.open = false;
    const { svg, width, height } = svgOf();
    const blob = kind === 'svg' ? new Blob([svg], { type: 'image/svg+xml' }) : await svgToPng(svg, width, height);
    download(blob, `${fileName}.${kind}`, el);
  }
  table.addEventListener('copy', (e) => {
    const sel = (el.getRootNode?.() ?? document).getSelection?.() ?? document.getSelection();
    const t = e.target.closest?.('input') ? e.target : null;
    const selected = t ? t.selectionStart !== t.selectionEnd : sel && !sel.isCollapsed;
    if (!current || selected) return;
    e.preventDefault();
    e.clipboardData.setData('text/plain', textOf('copy'));
  });

  // ---- exercise cells ---------------------------------------------------------------------------
  function drawAnswer(i, j, asked) {
    const c = cells[i][j];
    if (asked && !c.answer) {
      c.answer = mk('input', 'answer', null, { type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false, size: 4, placeholder: '?' });
      c.answer.value = answers.get(`${i},${j}`) ?? '';
      c.answer.addEventListener('input', () => {
        answers.set(`${i},${j}`, c.answer.value);
        fitWidth(c.answer);
        c.td.classList.remove('right', 'wrong');
        c.answer.removeAttribute('aria-invalid');
        exResult.textContent = '';
      });
      c.td.append(c.answer);
    }
    if (c.answer) {
      c.answer.hidden = !asked;
      c.answer.setAttribute('aria-label', `${ariaLabel()}: ${rowLabel(i)}, ${colLabel(j)} (${say('answer')})`);
      if (!asked) c.td.classList.remove('right', 'wrong');
    }
    if (!editable) c.node.hidden = asked;
  }
  let exerciseKey = null;
  function drawExercise() {
    // Only when picking, the hidden cells, the language or the table (build) changed.
    const key = `${picking}|${[...hidden].join(';')}|${say('hiddenHint')}`;
    if (key === exerciseKey) return;
    exerciseKey = key;
    el.classList.toggle('picking', picking);
    exercise.hidden = !(hidden.size > 0 || picking);
    checkBtn.hidden = revealBtn.hidden = picking || hidden.size === 0;
    exHint.textContent = say(picking ? 'picking' : 'hiddenHint');
    syncTabStops();
  }
  const hiddenList = () => [...hidden].map((k) => k.split(',').map(Number));
  // Cells outside the grid are dropped; onOutside(cells, {rows, cols}) hears which, at once
  // when the grid has its shape, else at its first render (a grid in a step not yet shown).
  let outsideListener = null;
  function pruneHidden() {
    const out = [];
    for (const k of hidden) {
      const [i, j] = k.split(',').map(Number);
      if (!(i < shape.rows && j < shape.cols)) {
        hidden.delete(k);
        out.push([i, j]);
      }
    }
    const fn = outsideListener;
    outsideListener = null;
    if (out.length && fn) fn(out, { rows: shape.rows, cols: shape.cols });
  }
  function setHidden(list = [], { onOutside = null } = {}) {
    clearVerdict();
    hidden.clear();
    if (!editable) for (const [i, j] of list) if (i >= 0 && j >= 0) hidden.add(`${i},${j}`);
    outsideListener = onOutside;
    if (shape.rows >= 0) pruneHidden();
    if (current) update(current);
  }
  function toggleHidden(i, j) {
    const k = `${i},${j}`;
    clearVerdict();
    if (hidden.has(k)) hidden.delete(k);
    else hidden.add(k);
    if (current) update(current);
    onHiddenChange(hiddenList());
  }
  function setPicking(on) {
    picking = !!on && !editable;
    if (picking) onHover?.(null);
    if (current) update(current);
  }
  table.addEventListener('click', (e) => {
    if (!picking) return;
    const td = e.target.closest('td[data-i]');
    if (!td) return;
    e.stopPropagation();
    toggleHidden(Number(td.dataset.i), Number(td.dataset.j));
  }, true);
  // Compares every answer with the grid's current value (computed by the core).
  function check() {
    later.flush();
    let right = 0;
    const results = [];
    for (const k of hidden) {
      const [i, j] = k.split(',').map(Number);
      const c = cells[i]?.[j];
      if (!c || !current) continue;
      const v = current.data[i * current.cols + j];
      const text = (c.answer?.value ?? '').trim();
      const p = parseCell(text);
      const given = NEG_INF.test(text) ? -Infinity : p.value;
      const floor = 0.5 * 10 ** -decimals(v, num) * (1 + 1e-9); // half a unit of the last digit shown
      const ok = given !== undefined && (v === given || (Number.isFinite(v) && Math.abs(given - v) <= Math.max(tol * Math.abs(v), floor)));
      if (ok) right++;
      c.td.classList.toggle('right', ok);
      c.td.classList.toggle('wrong', !ok);
      c.td.title = say(ok ? 'right' : 'wrong');
      if (ok) c.answer?.removeAttribute('aria-invalid');
      else c.answer?.setAttribute('aria-invalid', 'true');
      results.push({ i, j, ok, expected: v, given });
    }
    judged = new Map(results.map(({ i, j, expected }) => [`${i},${j}`, expected]));
    exResult.textContent = say('checkResult', { right, total: results.length });
    return { right, total: results.length, results };
  }
  // A verdict holds for the values it judged: when one of them changes (an input upstream
  // was edited) or the hidden cells change, the verdict and its marks go, until the next
  // check. (An answer typed anew clears its own cell's mark, see drawAnswer.)
  const judgedStill = (m) => m.rows === current?.rows && m.cols === current?.cols &&
    [...judged].every(([k, v]) => {
      const [i, j] = k.split(',').map(Number);
      return Object.is(m.data[i * m.cols + j], v);
    });
  function clearVerdict() {
    if (!judged) return;
    for (const k of judged.keys()) {
      const [i, j] = k.split(',').map(Number);
      const c = cells[i]?.[j];
      if (!c) continue;
      c.td.classList.remove('right', 'wrong');
      c.td.removeAttribute('title');
      c.answer?.removeAttribute('aria-invalid');
    }
    judged = null;
    exResult.textContent = '';
  }
  function reveal() {
    later.flush();
    for (const k of hidden) {
      const [i, j] = k.split(',').map(Number);
      const c = cells[i]?.[j];
      if (!c?.answer || !current) continue;
      c.answer.value = cellText(current.data[i * current.cols + j], num);
      fitWidth(c.answer);
      answers.set(k, c.answer.value);
    }
    return check();
  }

  // Marks rows, columns or single cells, e.g. the operands of a hovered result. Like the
  // numbers, a mark on a grid far from the screen is kept and drawn with them when the grid
  // comes near (a chapter marks rows on every edit: this must not write far grids).
  let highlighted = '[]', wantHighlight = null;
  function highlight({ rows = [], cols = [], cells: list = [] } = {}) {
    wantHighlight = { rows, cols, list };
    if (!unwritten) drawHighlight();
  }
  function drawHighlight() {
    if (!wantHighlight) return;
    const { rows, cols, list } = wantHighlight;
    const key = JSON.stringify([rows, cols, list, shape]);
    if (key === highlighted) return; // the same cells: nothing to do
    highlighted = key;
    table.querySelectorAll('.hl').forEach((n) => n.classList.remove('hl'));
    for (const i of rows) table.querySelectorAll(`tbody tr:nth-child(${i + 1}) > *`).forEach((n) => n.classList.add('hl'));
    for (const j of cols) table.querySelectorAll(`[data-j="${j}"]`).forEach((n) => n.classList.add('hl'));
    for (const [i, j] of list) cells[i]?.[j]?.td.classList.add('hl');
  }

  let selected = '', wantSelect = null;
  function select(i, j) {
    wantSelect = [i, j];
    if (!unwritten) drawSelect();
  }
  function drawSelect() {
    if (!wantSelect) return;
    const [i, j] = wantSelect;
    const key = JSON.stringify([i, j, shape]);
    if (key === selected) return;
    selected = key;
    table.querySelectorAll('.sel').forEach((n) => n.classList.remove('sel'));
    if (i != null) cells[i]?.[j]?.td.classList.add('sel');
    // The selected cell is where Tab enters the grid (unless focus is in it already).
    const root = el.getRootNode?.() ?? document;
    if (i != null && cells[i]?.[j] && !table.contains(root.activeElement)) {
      active = [i, j];
      syncTabStops();
    }
  }

  return {
    el, update, flush: () => later.flush(), highlight, select, refreshErrors: showErrors, get value() { return current; },
    // additive: tools and exercise
    exportText: (format) => (current ? textOf(format) : ''), svg: () => (current ? svgOf().svg : ''),
    paste: (text, at = null) => {
      try {
        applyPasted(parseMatrixText(text), at);
      } catch (e) {
        pasteFailed(e);
      }
      return !pasteRefused;
    },
    setHidden, get hidden() { return hiddenList(); }, setPicking, check, reveal, setTolerance: (t) => (tol = Number(t) >= 0 ? Number(t) : tol),
    // The hidden cells' values as this grid shows them ("0.114"), for finding them elsewhere.
    hiddenTexts: () => (current ? hiddenList().map(([i, j]) => cellText(current.data[i * current.cols + j], num)) : []),
    setLeakNote(text) {
      if (exLeak.hidden !== !text) exLeak.hidden = !text;
      if (exLeak.textContent !== (text || '')) exLeak.textContent = text || '';
    },
  };
}

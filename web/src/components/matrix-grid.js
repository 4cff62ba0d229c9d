// Matrix grid: a real <table> (row and column headers, so a screen reader reads the
// numbers) with heatmap colours, a legend, optional editable cells and hover links.
//
//   const g = createMatrixGrid({caption, rowLabel, colLabel, editable, onEdit, color, ...});
//   container.append(g.el); g.update({rows, cols, data});
//
// Editable cells: type a number (invalid text shows an inline error and the last good
// value stays in use), ↑/↓ nudge by 1 (Shift: 0.1), ←/→ at the edge of the text and
// Enter move between cells.
import { fmt, editText, parseCell, isIncomplete, LIMIT } from '../format.js';
import { weightScale, divergingScale, maxAbsFinite, textColorFor } from './colors.js';
import { texToHtml, escapeHtml } from '../prose.js';

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
    onError = () => {},
    color = 'diverging', // 'weights' | 'diverging' | 'none'
    digits = 3,
    fixed = false,
    colClass = () => '', // e.g. head tint per column
    onHover = null, // (i, j) or (null) when leaving
    onSelect = null, // (i, j) on click / Enter
    testId = null,
  } = opts;

  const id = `grid-${++gridCount}`;
  const el = document.createElement('figure');
  el.className = 'grid';
  if (testId) el.dataset.grid = testId;
  const cap = document.createElement('figcaption');
  const scroller = document.createElement('div');
  scroller.className = 'grid-scroll';
  const table = document.createElement('table');
  table.id = id;
  scroller.append(table);
  const legend = document.createElement('div');
  legend.className = 'legend';
  legend.setAttribute('aria-hidden', 'true');
  const err = document.createElement('p');
  err.className = 'grid-error';
  err.setAttribute('role', 'alert');
  err.hidden = true;
  el.append(cap, scroller, err, legend);

  if (onHover)
    table.addEventListener('focusin', (e) => {
      const td = e.target.closest('td');
      if (td) onHover(Number(td.dataset.i), Number(td.dataset.j));
    });

  let shape = { rows: -1, cols: -1 };
  let current = null;
  let cells = []; // cells[i][j] = {td, node}
  const bad = new Map(); // "i,j" -> text the learner typed that is not a number

  function build(rows, cols) {
    table.textContent = '';
    const tcap = document.createElement('caption');
    tcap.className = 'sr-only';
    table.append(tcap);
    const thead = table.createTHead();
    const hr = thead.insertRow();
    const corner = document.createElement('td');
    corner.className = 'corner';
    hr.append(corner);
    for (let j = 0; j < cols; j++) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.dataset.j = j;
      th.className = colClass(j);
      hr.append(th);
    }
    const tbody = table.createTBody();
    cells = [];
    for (let i = 0; i < rows; i++) {
      const tr = tbody.insertRow();
      const th = document.createElement('th');
      th.scope = 'row';
      th.dataset.i = i;
      tr.append(th);
      const row = [];
      for (let j = 0; j < cols; j++) {
        const td = tr.insertCell();
        td.dataset.i = i;
        td.dataset.j = j;
        td.className = colClass(j);
        let node;
        if (editable) {
          node = document.createElement('input');
          node.type = 'text';
          node.inputMode = 'decimal';
          node.autocomplete = 'off';
          node.spellcheck = false;
          node.size = 4;
          wireInput(node, i, j);
        } else {
          node = document.createElement('span');
          node.className = 'v';
        }
        td.append(node);
        if (onHover) {
          td.addEventListener('pointerenter', () => onHover(i, j));
          td.addEventListener('pointerleave', () => onHover(null));
        }
        if (onSelect && !editable) {
          // Roving tabindex: one cell in the Tab order, arrows move, Enter/Space select.
          td.tabIndex = i === 0 && j === 0 ? 0 : -1;
          td.addEventListener('click', () => onSelect(i, j));
          td.addEventListener('keydown', (e) => {
            const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              onSelect(i, j);
            } else if (moves[e.key]) {
              e.preventDefault();
              const [di, dj] = moves[e.key];
              const next = cells[i + di]?.[j + dj];
              if (next) {
                td.tabIndex = -1;
                next.td.tabIndex = 0;
                next.td.focus();
              }
            }
          });
        }
        row.push({ td, node });
      }
      cells.push(row);
    }
    shape = { rows, cols };
  }

  function focusCell(i, j) {
    const c = cells[i]?.[j];
    if (c && c.node.tagName === 'INPUT') {
      c.node.focus();
      c.node.select();
    }
  }

  function showErrors() {
    if (bad.size === 0) {
      err.hidden = true;
      err.textContent = '';
      return;
    }
    const [key, text] = [...bad.entries()].at(-1);
    const [i, j] = key.split(',').map(Number);
    err.hidden = false;
    err.textContent = onError(i, j, text, parseCell(text).error, current ? current.data[i * current.cols + j] : 0) || '';
  }

  function commit(i, j, value) {
    bad.delete(`${i},${j}`);
    cells[i][j].node.removeAttribute('aria-invalid');
    showErrors();
    onEdit(i, j, value);
  }

  function wireInput(input, i, j) {
    let before = null; // the value when the learner entered the cell, or after their last ↑/↓
    let timer = 0;
    input.addEventListener('focus', () => {
      before = current ? current.data[i * current.cols + j] : null;
    });
    input.addEventListener('input', () => {
      clearTimeout(timer);
      const r = parseCell(input.value);
      if ('value' in r) commit(i, j, r.value);
      else {
        bad.set(`${i},${j}`, input.value);
        input.setAttribute('aria-invalid', 'true');
        // "-" or "1e" on the way to a number: say so only if the learner stops there.
        if (isIncomplete(input.value)) timer = setTimeout(showErrors, 800);
        else showErrors();
      }
    });
    input.addEventListener('blur', () => {
      clearTimeout(timer);
      // Leaving a cell with text that is not a number: restore the value the cell had
      // before this edit (valid prefixes typed on the way may have been used meanwhile).
      if (bad.has(`${i},${j}`) && current) {
        bad.delete(`${i},${j}`);
        input.removeAttribute('aria-invalid');
        const restore = before ?? current.data[i * current.cols + j];
        input.value = editText(restore);
        showErrors();
        if (restore !== current.data[i * current.cols + j]) onEdit(i, j, restore);
      }
    });
    input.addEventListener('keydown', (e) => {
      const { key } = e;
      if ((key === 'ArrowUp' || key === 'ArrowDown') && !e.altKey && current) {
        e.preventDefault();
        const step = (e.shiftKey ? 0.1 : 1) * (key === 'ArrowUp' ? 1 : -1);
        const base = parseCell(input.value).value ?? current.data[i * current.cols + j];
        const next = Math.max(-LIMIT, Math.min(LIMIT, Math.round((base + step) * 1e6) / 1e6));
        input.value = editText(next);
        commit(i, j, next);
        before = next; // a deliberate step, not a prefix on the way to another number
      } else if ((key === 'ArrowUp' || key === 'ArrowDown') && e.altKey) {
        e.preventDefault();
        focusCell(i + (key === 'ArrowDown' ? 1 : -1), j);
      } else if (key === 'ArrowLeft' && input.selectionStart === 0 && input.selectionEnd === 0) {
        e.preventDefault();
        if (j > 0) focusCell(i, j - 1);
        else if (i > 0) focusCell(i - 1, shape.cols - 1);
      } else if (key === 'ArrowRight' && input.selectionStart === input.value.length) {
        e.preventDefault();
        if (j + 1 < shape.cols) focusCell(i, j + 1);
        else if (i + 1 < shape.rows) focusCell(i + 1, 0);
      } else if (key === 'Enter') {
        e.preventDefault();
        focusCell(Math.min(i + 1, shape.rows - 1), j);
      }
    });
  }

  function scaleFor(m) {
    if (color === 'weights') return weightScale();
    if (color === 'diverging') return divergingScale(maxAbsFinite(m.data));
    return null;
  }

  function renderLegend(s) {
    if (!s) {
      legend.hidden = true;
      return;
    }
    legend.hidden = false;
    const [lo, hi] = [s.domain()[0], s.domain().at(-1)];
    const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => s(lo + t * (hi - lo)));
    legend.textContent = '';
    const a = document.createElement('span');
    a.textContent = fmt(lo, { digits: 2 });
    const bar = document.createElement('span');
    bar.className = 'legend-bar';
    bar.style.background = `linear-gradient(to right, ${stops.join(', ')})`;
    const b = document.createElement('span');
    b.textContent = fmt(hi, { digits: 2 });
    legend.append(a, bar, b);
  }

  function update(m) {
    if (m.rows !== shape.rows || m.cols !== shape.cols) {
      bad.clear();
      build(m.rows, m.cols);
    }
    current = m;
    const noteText = note ? note() : '';
    cap.innerHTML = `${texToHtml(caption())} <span class="shape">${m.rows}&thinsp;×&thinsp;${m.cols}</span>` +
      (noteText ? `<span class="note">${escapeHtml(noteText)}</span>` : '');
    table.querySelector('caption').textContent = `${ariaLabel()} (${m.rows} × ${m.cols})${noteText ? `. ${noteText}` : ''}`;
    table.querySelectorAll('thead th[data-j]').forEach((th) => (th.textContent = colLabel(Number(th.dataset.j))));
    table.querySelectorAll('tbody th[data-i]').forEach((th) => (th.textContent = rowLabel(Number(th.dataset.i))));
    const s = scaleFor(m);
    for (let i = 0; i < m.rows; i++)
      for (let j = 0; j < m.cols; j++) {
        const x = m.data[i * m.cols + j];
        const { td, node } = cells[i][j];
        if (editable) {
          node.setAttribute('aria-label', `${ariaLabel()}: ${rowLabel(i)}, ${colLabel(j)}`);
          if (document.activeElement !== node && !bad.has(`${i},${j}`)) node.value = editText(x);
        } else {
          node.textContent = fmt(x, { digits, fixed });
        }
        td.classList.toggle('masked', x === -Infinity);
        td.classList.toggle('nonfinite', Number.isNaN(x) || x === Infinity);
        if (s && Number.isFinite(x)) {
          const bg = s(x);
          td.style.backgroundColor = bg;
          td.style.color = textColorFor(bg);
        } else {
          td.style.backgroundColor = '';
          td.style.color = '';
        }
      }
    renderLegend(s);
  }

  // Marks rows, columns or single cells, e.g. the operands of a hovered result.
  function highlight({ rows = [], cols = [], cells: list = [] } = {}) {
    table.querySelectorAll('.hl').forEach((n) => n.classList.remove('hl'));
    for (const i of rows) table.querySelectorAll(`tbody tr:nth-child(${i + 1}) > *`).forEach((n) => n.classList.add('hl'));
    for (const j of cols) table.querySelectorAll(`[data-j="${j}"]`).forEach((n) => n.classList.add('hl'));
    for (const [i, j] of list) cells[i]?.[j]?.td.classList.add('hl');
  }

  function select(i, j) {
    table.querySelectorAll('.sel').forEach((n) => n.classList.remove('sel'));
    if (i != null) cells[i]?.[j]?.td.classList.add('sel');
  }

  return { el, update, highlight, select, refreshErrors: showErrors, get value() { return current; } };
}

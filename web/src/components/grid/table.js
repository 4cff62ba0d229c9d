// A grid's <table> (row and column headers, so a screen reader reads the numbers) and how
// it is written. The table follows the matrix's shape by adding and removing rows and
// columns at their ends: cells that stay keep their DOM, listeners, what they show and
// their layout, so a slider that changes T or d_model costs only the cells that come or
// go. Writing skips what the DOM already shows (header labels, each cell's text, classes
// and colours): an update with one new number touches one cell, and an update with the
// same numbers touches nothing. Each cell remembers what it shows:
//   cells[i][j] = {td, node (its <span> or <input>), field?, answer?, text, bg, aria, cls}
import { cellText, editText } from '../../format.js';
import { textColorFor } from '../colors.js';
import { setText } from '../../kit/prose.js';
import { cellInput, fitWidth } from './cells.js';

export function tableOf(g) {
  const { table, opts } = g;
  const { editable, colClass, rowClass, rowLabel, colLabel } = opts;
  let thead = null, tbody = null;
  const colHeads = [], rowHeads = [];
  let headCells = [];
  const classOf = (n, cls) => {
    if (n.colCls === cls) return;
    if (n.colCls) n.classList.remove(...n.colCls.split(/\s+/).filter(Boolean));
    if (cls) n.classList.add(...cls.split(/\s+/).filter(Boolean));
    n.colCls = cls;
  };
  const setClass = (c, name, on) => {
    if ((c.cls[name] ?? false) !== on) {
      c.cls[name] = on;
      c.td.classList.toggle(name, on);
    }
  };
  function makeCell(tr, i, j) {
    const td = tr.insertCell();
    td.dataset.i = i;
    td.dataset.j = j;
    let node, field = null;
    if (editable) ({ input: node, field } = cellInput(g, i, j));
    else {
      node = document.createElement('span');
      node.className = 'v';
      node.append(''); // its text node, whose data each update rewrites
    }
    td.append(node);
    g.keyboard.wireCell(td, i, j);
    return { td, node, field, cls: {} };
  }
  // The table for a rows × cols matrix.
  function build(rows, cols) {
    const first = g.shape.rows === -1;
    if (first) {
      const tcap = document.createElement('caption');
      tcap.className = 'sr-only';
      table.append(tcap);
      thead = table.createTHead();
      const corner = document.createElement('td');
      corner.className = 'corner';
      thead.insertRow().append(corner);
      tbody = table.createTBody();
    } else for (const row of g.cells) for (const c of row) c.field?.reset();
    const cells = g.cells;
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
    g.shape = { rows, cols };
    g.keyboard.reshaped();
    g.exercise.reshaped(first);
  }
  // Writes matrix m (of the table's shape) with scale s: labels, then every cell.
  function write(m, s, aria) {
    for (const th of headCells) setText(th, th.dataset.j !== undefined ? colLabel(Number(th.dataset.j)) : rowLabel(Number(th.dataset.i)));
    if (rowClass) rowHeads.forEach((th, i) => classOf(th.parentElement, rowClass(i)));
    const root = g.el.getRootNode?.() ?? document;
    const active = root.activeElement ?? document.activeElement;
    const hide = !g.picking;
    const ex = g.exercise;
    for (let i = 0; i < m.rows; i++)
      for (let j = 0; j < m.cols; j++) {
        const x = m.data[i * m.cols + j];
        const c = g.cells[i][j];
        const { td, node } = c;
        if (editable) {
          const label = `${aria}: ${rowLabel(i)}, ${colLabel(j)}`;
          if (c.aria !== label) node.setAttribute('aria-label', (c.aria = label));
          // (not the cell the learner is in, nor one whose text is not used: typed-number.js)
          if (active !== node && c.field.typed === null) {
            const t = editText(x);
            if (node.value !== t) {
              node.value = t;
              fitWidth(node);
            }
          }
        } else {
          const t = cellText(x, g.num);
          if (c.text !== t) node.firstChild.data = c.text = t; // the same text node: nothing comes or goes
        }
        const asked = ex.asked(i, j);
        if (asked || c.answer) ex.drawAnswer(i, j, asked && hide);
        setClass(c, 'hidden-cell', asked);
        // (a value another grid hides: covered while no teacher is picking, its colour too)
        const covered = hide && !asked && g.covered.has(`${i},${j}`);
        setClass(c, 'covered', covered);
        setClass(c, 'masked', x === -Infinity && !(asked && hide));
        setClass(c, 'nonfinite', Number.isNaN(x) || x === Infinity);
        const bg = s && Number.isFinite(x) && !(asked && hide) && !covered ? s(x) : '';
        if (c.bg !== bg) {
          c.bg = bg;
          td.style.backgroundColor = bg;
          td.style.color = bg ? textColorFor(bg) : '';
        }
      }
  }
  return { build, write };
}

// The real-models chapter's roles line and table: the count of each role's heads (or why
// there is none yet: no sentence, the roles failed, still measuring) and every head's role,
// scores and Δ loss in a table written a few rows a frame (a job of frames.js) in place (a
// cell's text only when it changed). Its data-filled says whether its rows are the current
// ones. The words come from roles.js.
//
//   const table = roleTable({ k, frames, errors });
//   table.figure(parent);
//   table.draw({ counted: {line, rows, ms} | null, shown, failed });
import { setText, rebuild } from '../../kit/prose.js';
import { show } from './lines.js';

const ROW_COST = 4; // a row of 9 cells, in the frame's units (a map: 1)
const COLS = ['colHead', 'colRole', 'colPrev', 'colFirst', 'colDup', 'colLocal', 'colInduction', 'colDelta'];

export function roleTable({ k, frames, errors }) {
  const { el, text, tr } = k;
  let rolesLine, tableBox, table, thead, tbody;
  let tableKey = null, headKey = null;
  let rows = [], rowsDone = 0; // the table's rows ([x, cells…]) and how many are written

  frames.add({
    step(budget) {
      while (tbody.rows.length > rows.length) tbody.lastElementChild.remove();
      while (rowsDone < rows.length && budget > 0) {
        const [x, name, ...cells] = rows[rowsDone];
        let row = tbody.rows[rowsDone];
        if (!row) {
          row = el('tr', '', tbody);
          const th = el('th', '', row);
          th.scope = 'row';
          th.style.whiteSpace = 'nowrap';
          cells.forEach(() => el('td', '', row));
        }
        if (row.dataset.head !== String(x)) row.dataset.head = String(x);
        [name, ...cells].forEach((v, i) => {
          if (row.cells[i].textContent !== v) row.cells[i].textContent = v;
        });
        rowsDone++;
        budget -= ROW_COST;
      }
      const filled = String(rowsDone === rows.length && rows.length > 0);
      if (table.dataset.filled !== filled) {
        table.dataset.filled = filled;
        if (filled === 'true') k.scrollers.schedule(); // (its width known: a tab stop if it scrolls)
      }
      return budget;
    },
    pending: () => rowsDone < rows.length,
  });

  return {
    figure(parent) {
      rolesLine = el('p', 'check-line', parent);
      rolesLine.dataset.check = 'roles';
      tableBox = el('div', 'table-scroll', parent);
      tableBox.style.overflowX = 'auto';
      table = el('table', 'compare-table', tableBox);
      text('caption', 'rolesOrder', table, undefined, 'table-order');
      table.dataset.table = 'roles';
      table.style.minWidth = '40rem';
      // The table is filled and shown by worker messages, a few rows a frame, without a render
      // of the chapter: the kit's check of sideways-scrolling boxes (kit/scrollers.js: a tab
      // stop and a name when nothing inside can take focus) runs again when it is filled or
      // shown (the frames' step, draw). It is laid out even far from the screen (no
      // content-visibility, unlike the maps): a box skipped there has no width to measure,
      // so it would not be a tab stop until it had been on screen, and Tab would pass it.
      thead = el('thead', '', table);
      tbody = el('tbody', '', table);
    },
    // The line and table from one value: the roles of the heads on screen counted (counted:
    // roleWords' table, with the worker's time), or none: then the line says why (no heads
    // shown; failed: the roles' error on the sentence shown; else they are being measured)
    // and the table has no rows.
    draw({ counted, shown, failed }) {
      let lineState, body = [];
      if (counted) {
        setText(rolesLine, counted.line);
        lineState = 'done';
        const ms = String(Math.round(counted.ms ?? 0));
        if (rolesLine.dataset.ms !== ms) rolesLine.dataset.ms = ms;
        body = counted.rows;
      } else if (!shown) {
        setText(rolesLine, tr('rolesNeedSentence'));
        lineState = 'none';
      } else if (failed) {
        setText(rolesLine, tr('rolesFailed', { message: errors.message(failed) }));
        lineState = 'error';
      } else {
        setText(rolesLine, tr('rolesWaiting'));
        lineState = 'busy';
      }
      if (rolesLine.dataset.state !== lineState) rolesLine.dataset.state = lineState;
      const cols = COLS.map((c) => tr(c));
      const key = JSON.stringify([cols, body]);
      if (key !== tableKey) {
        tableKey = key;
        const hk = JSON.stringify(cols);
        if (hk !== headKey) {
          headKey = hk;
          rebuild(thead, (into) => {
            const row = el('tr', '', into);
            cols.forEach((c) => { const th = el('th', '', row); th.scope = 'col'; th.textContent = c; });
          });
        }
        rows = body;
        rowsDone = 0;
        table.dataset.filled = 'false';
        frames.later();
      }
      const busy = String(!counted);
      if (table.getAttribute('aria-busy') !== busy) table.setAttribute('aria-busy', busy);
      if (tableBox.hidden !== !shown) {
        show(tableBox, !!shown); // (no sentence: no table, not even its header)
        k.scrollers.schedule();
      }
    },
  };
}

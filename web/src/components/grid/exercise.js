// Exercise cells: setHidden([[i, j], ...]) replaces those numbers of a (non-editable) grid
// by answer fields; the learner's answers are checked against the grid's current values
// (the core's) within a tolerance. setPicking(true) lets a teacher click cells to hide or
// show them. A verdict ("1 of 1 correct") holds for the values it judged: when one of them
// changes, or the hidden cells do, it goes until the next check. And an exercise must not
// give its own answer away: checkLeaks (below, run by the chapter kit) tells the teacher
// where a hidden value still shows (another grid, a worked formula, a sentence), and the
// learner gets those other grids' cells covered (setCovered, from the kit's coverReveals),
// with a line under the grid that says why.
import { cellText, decimals } from '../../format.js';
import { parseCell } from '../typed-number.js';
import { fitWidth } from './cells.js';

const NEG_INF = /^[-\u2212]\s*(∞|inf(inity)?)$/i;
const keyOf = (k) => k.split(',').map(Number);

export function exerciseOf(g) {
  const { say, mk, opts } = g;
  const { editable, ariaLabel, rowLabel, colLabel, onHiddenChange } = opts;
  const hidden = g.hidden; // "i,j" of exercise cells (non-editable grids only)
  const answers = new Map(); // "i,j" -> what the learner typed
  let tol = opts.tolerance;

  const el = mk('div', 'exercise', null, { hidden: true });
  const hint = mk('span', 'exercise-hint', el);
  const checkBtn = mk('button', '', el, { type: 'button' });
  checkBtn.dataset.act = 'check';
  const revealBtn = mk('button', '', el, { type: 'button' });
  revealBtn.dataset.act = 'reveal';
  const result = mk('span', 'exercise-result', el);
  result.setAttribute('role', 'status');
  // For the teacher: where the hidden values still show (checkLeaks, through setLeakNote).
  const leak = mk('p', 'exercise-leak', el, { hidden: true });
  leak.setAttribute('role', 'status');
  // For the learner: this grid's cells that show another grid's hidden value (g.covered,
  // drawn by grid/table.js while no teacher is picking), and why they are covered.
  const coverNote = mk('p', 'covered-note', null, { hidden: true }); // (placed by matrix-grid.js)
  checkBtn.addEventListener('click', () => check());
  revealBtn.addEventListener('click', () => reveal());

  // Cell (i, j) as the grid writes it: its answer field while it is asked.
  const asked = (i, j) => !editable && hidden.has(`${i},${j}`);
  function drawAnswer(i, j, ask) {
    const c = g.cells[i][j];
    if (ask && !c.answer) {
      c.answer = mk('input', 'answer', null, { type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false, size: 4, placeholder: '?' });
      c.answer.value = answers.get(`${i},${j}`) ?? '';
      c.answer.addEventListener('input', () => {
        answers.set(`${i},${j}`, c.answer.value);
        fitWidth(c.answer);
        c.td.classList.remove('right', 'wrong');
        c.answer.removeAttribute('aria-invalid');
        result.textContent = '';
      });
      c.td.append(c.answer);
    }
    if (c.answer) {
      c.answer.hidden = !ask;
      c.answer.setAttribute('aria-label', `${ariaLabel()}: ${rowLabel(i)}, ${colLabel(j)} (${say('answer')})`);
      if (!ask) c.td.classList.remove('right', 'wrong');
    }
    if (!editable) c.node.hidden = ask;
  }
  let drawnKey = null;
  function draw() {
    // Only when picking, the hidden cells, the language or the table (reshaped) changed.
    const key = `${g.picking}|${[...hidden].join(';')}|${[...g.covered].join(';')}|${say('hiddenHint')}`;
    if (key === drawnKey) return;
    coverNote.hidden = g.picking || g.covered.size === 0;
    coverNote.textContent = say('covered', { n: g.covered.size });
    drawnKey = key;
    g.el.classList.toggle('picking', g.picking);
    el.hidden = !(hidden.size > 0 || g.picking);
    checkBtn.hidden = revealBtn.hidden = g.picking || hidden.size === 0;
    checkBtn.textContent = say('check');
    revealBtn.textContent = say('reveal');
    hint.textContent = say(g.picking ? 'picking' : 'hiddenHint');
    // (a verdict shown, and the cells' titles, in the language now shown)
    if (judged && verdict) {
      result.textContent = verdictText();
      for (const k of judged.keys()) {
        const [i, j] = keyOf(k);
        const td = g.cells[i]?.[j]?.td;
        if (td?.title) td.title = say(td.classList.contains('right') ? 'right' : 'wrong');
      }
    }
    g.keyboard.syncTabStops();
  }
  // A new table (another shape): no cell is hidden any more, and the tab order is set again.
  function reshaped(first) {
    if (first) prune();
    else {
      hidden.clear();
      answers.clear();
    }
    drawnKey = null;
  }
  const list = () => [...hidden].map(keyOf);
  // Cells outside the grid are dropped; onOutside(cells, {rows, cols}) hears which, at once
  // when the grid has its shape, else at its first render (a grid in a step not yet shown).
  let outsideListener = null;
  function prune() {
    const out = [];
    const { rows, cols } = g.shape;
    for (const k of hidden) {
      const [i, j] = keyOf(k);
      if (!(i < rows && j < cols)) {
        hidden.delete(k);
        out.push([i, j]);
      }
    }
    const fn = outsideListener;
    outsideListener = null;
    if (out.length && fn) fn(out, { rows, cols });
  }
  function setHidden(cells = [], { onOutside = null } = {}) {
    clearVerdict();
    hidden.clear();
    if (!editable) for (const [i, j] of cells) if (i >= 0 && j >= 0) hidden.add(`${i},${j}`);
    outsideListener = onOutside;
    if (g.shape.rows >= 0) prune();
    if (g.current) g.update(g.current);
    opts.onHiddenSet?.();
  }
  function toggle(i, j) {
    clearVerdict();
    const k = `${i},${j}`;
    if (hidden.has(k)) hidden.delete(k);
    else hidden.add(k);
    if (g.current) g.update(g.current);
    onHiddenChange(list());
    opts.onHiddenSet?.();
  }
  function setPicking(on) {
    g.picking = !!on && !editable;
    if (g.picking) opts.onHover?.(null);
    if (g.current) g.update(g.current);
  }
  g.table.addEventListener('click', (e) => {
    if (!g.picking) return;
    const td = e.target.closest('td[data-i]');
    if (!td) return;
    e.stopPropagation();
    toggle(Number(td.dataset.i), Number(td.dataset.j));
  }, true);

  // Compares every answer with the grid's current value (computed by the core): right when
  // |answer − value| ≤ max(tol·|value|, half a unit of the last digit shown).
  let judged = null; // "i,j" -> the value the last check compared the answer with
  function check() {
    g.flush();
    let right = 0, empty = 0, unread = null; // (the answers left empty; the first not read as a number)
    const results = [];
    const current = g.current;
    for (const k of hidden) {
      const [i, j] = keyOf(k);
      const c = g.cells[i]?.[j];
      if (!c || !current) continue;
      const v = current.data[i * current.cols + j];
      const text = (c.answer?.value ?? '').trim();
      const p = parseCell(text);
      const given = NEG_INF.test(text) ? -Infinity : p.value;
      const floor = 0.5 * 10 ** -decimals(v, g.num) * (1 + 1e-9); // half a unit of the last digit shown
      const ok = given !== undefined && (v === given || (Number.isFinite(v) && Math.abs(given - v) <= Math.max(tol * Math.abs(v), floor)));
      if (ok) right++;
      else if (text === '') empty++;
      else if (given === undefined) unread ??= text;
      c.td.classList.toggle('right', ok);
      c.td.classList.toggle('wrong', !ok);
      c.td.title = say(ok ? 'right' : 'wrong');
      if (ok) c.answer?.removeAttribute('aria-invalid');
      else c.answer?.setAttribute('aria-invalid', 'true');
      results.push({ i, j, ok, expected: v, given });
    }
    judged = new Map(results.map(({ i, j, expected }) => [`${i},${j}`, expected]));
    verdict = { right, total: results.length, empty, unread };
    result.textContent = verdictText();
    return { right, total: results.length, results };
  }
  // The verdict in the page's language (written again when the language changes).
  // (why an answer could not be right: left empty, or not read as a number, as "1/3" or "33%")
  let verdict = null;
  const verdictText = () => [say('checkResult', { right: verdict.right, total: verdict.total }), verdict.empty ? say('checkEmpty', { n: verdict.empty }) : '',
    verdict.unread != null ? say('checkUnread', { text: verdict.unread.slice(0, 40) }) : ''].filter(Boolean).join(' ');
  function reveal() {
    g.flush();
    const current = g.current;
    for (const k of hidden) {
      const [i, j] = keyOf(k);
      const c = g.cells[i]?.[j];
      if (!c?.answer || !current) continue;
      c.answer.value = cellText(current.data[i * current.cols + j], g.num);
      fitWidth(c.answer);
      answers.set(k, c.answer.value);
    }
    return check();
  }
  // Before the grid takes matrix m: a verdict about other values goes.
  function updating(m) {
    if (!judged) return;
    const same = m.rows === g.current?.rows && m.cols === g.current?.cols &&
      [...judged].every(([k, v]) => {
        const [i, j] = keyOf(k);
        return Object.is(m.data[i * m.cols + j], v);
      });
    if (!same) clearVerdict();
  }
  function clearVerdict() {
    if (!judged) return;
    for (const k of judged.keys()) {
      const [i, j] = keyOf(k);
      const c = g.cells[i]?.[j];
      if (!c) continue;
      c.td.classList.remove('right', 'wrong');
      c.td.removeAttribute('title');
      c.answer?.removeAttribute('aria-invalid');
    }
    judged = null;
    verdict = null;
    result.textContent = '';
  }

  return {
    el, coverNote, asked, drawAnswer, draw, reshaped, updating, toggle,
    api: {
      setHidden, get hidden() { return list(); }, setPicking, check, reveal,
      setTolerance: (t) => (tol = Number(t) >= 0 ? Number(t) : tol),
      // The hidden cells' values as this grid shows them ("0.114"), for finding them elsewhere.
      hiddenTexts: () => (g.current ? list().map(([i, j]) => cellText(g.current.data[i * g.current.cols + j], g.num)) : []),
      // Cells ("i,j") that show a value another grid hides: covered for the learner.
      setCovered(cells) {
        const next = new Set(editable ? [] : cells.filter((k) => !hidden.has(k)));
        if (next.size === g.covered.size && [...next].every((k) => g.covered.has(k))) return;
        g.covered = next;
        drawnKey = null;
        if (g.current) g.update(g.current);
      },
      get covered() { return [...g.covered]; },
      // The cells whose text (as this grid writes it) is one of `texts`, or whose value is
      // one of them at its precision (a grid of 2 decimals shows 0.11 for a hidden 0.114: near
      // enough to be judged right).
      cellsShowing(texts) {
        const m = g.current;
        if (!m || !texts.size) return [];
        const near = [...texts].map((t) => {
          const v = Number(t.replace('\u2212', '-')), d = (t.split('.')[1] ?? '').length;
          return v !== 0 && /^[-\u2212]?\d+\.\d+$/.test(t) ? [v, 0.5 * 10 ** -d * (1 + 1e-9), d] : null;
        }).filter(Boolean);
        const out = [];
        for (let i = 0; i < m.rows; i++)
          for (let j = 0; j < m.cols; j++) {
            const x = m.data[i * m.cols + j], shown = cellText(x, g.num);
            const places = (shown.split('.')[1] ?? '').length; // (only a coarser cell: same places, same text)
            if (texts.has(shown) || near.some(([v, tol, d]) => places < d && Math.abs(x - v) <= tol)) out.push(`${i},${j}`);
          }
        return out;
      },
      setLeakNote(text) {
        if (leak.hidden !== !text) leak.hidden = !text;
        if (leak.textContent !== (text || '')) leak.textContent = text || '';
      },
    },
  };
}

// Where each grid's hidden values still show in `section`: another grid's cells, a worked
// formula, a sentence. A figure may be shown twice (P in step ③ and again in ⑤): each place
// says its step, else the heading it is under. Each grid with hidden cells gets the list
// as its leak note (in words from common('tools.leak…')), the others none.
export function checkLeaks(section, grids, common) {
  const places = [];
  const what = (n) => {
    const fig = n.closest('[data-grid]');
    if (fig) return fig.querySelector('table')?.caption?.textContent ?? fig.dataset.grid;
    const worked = n.closest('.worked');
    if (worked) return worked.querySelector('.worked-title')?.textContent ?? '';
    const t = n.textContent.replace(/\s+/g, ' ').trim();
    return t.length > 40 ? `${t.slice(0, 40)}…` : t;
  };
  const headings = [...section.querySelectorAll('h3, h4')];
  const whereOf = (n) => {
    const panel = n.closest('.step-panel');
    const tab = panel && section.querySelector(`#${CSS.escape(panel.getAttribute('aria-labelledby') ?? '')}`);
    if (tab) return ['leakInStep', tab.textContent.trim()];
    // the last heading before it whose block holds it (a head's h4 names only that head's box)
    const h = headings.filter((x) => x.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING && x.parentElement.contains(n)).pop();
    return h ? ['leakUnder', h.textContent.trim()] : null;
  };
  const nameOf = (n) => {
    const name = what(n);
    const where = whereOf(n);
    return where ? common(`tools.${where[0]}`, { name, where: where[1] }) : `“${name}”`;
  };
  for (const g of grids) {
    const texts = g.hiddenTexts().filter((t) => /\d\.\d|\d{2,}/.test(t)); // not "0" or "1": found everywhere
    if (!texts.length) {
      g.setLeakNote('');
      continue;
    }
    if (!places.length)
      for (const n of section.querySelectorAll('[data-grid] td[data-i]:not(.hidden-cell) .v, .worked-math .katex-html, .worked-math:not(:has(.katex)), p, li, .katex-html:not(.worked-math *, p *, li *, [data-grid] *)')) {
        if (n.closest('[data-grid] .exercise') || n.closest('.grid-io') || n.hidden) continue;
        places.push([n, n.textContent.replace(/\u2212/g, '-')]);
      }
    const found = [];
    for (const t of new Set(texts)) {
      const re = new RegExp(`(?<![\\d.])${t.replace(/\u2212/g, '-').replace(/[.]/g, '\\.')}(?!\\d)`);
      const where = new Set();
      for (const [n, text] of places) if (!g.el.contains(n) && re.test(text)) where.add(nameOf(n));
      if (where.size) found.push(common('tools.leakValue', { value: t, places: [...where].join(', ') }));
    }
    g.setLeakNote(found.length ? common('tools.leak', { list: found.join('; ') }) : '');
  }
}

// A grid's keyboard and pointer: the WAI-ARIA grid pattern. The table is role="grid" with
// one tab stop (roving tabindex): the active cell's focus target (its input on an editable
// grid, its answer field when hidden for an exercise, else the cell itself) has tabindex
// 0, every other -1. Arrow keys move inside; Home/End go to the row's ends, Ctrl+Home/End
// to the first and last cell. Focus on a cell does what pointing at it does (onHover) and
// selects it the way a click does (onSelect). In an input, ←/→ move only from the edge of
// its text, and ↑/↓ nudge an editable value (the typed-number field's; Alt+↑/↓ and Enter
// move down or up instead). While a teacher picks exercise cells, Enter or Space on a cell
// hides or shows it, and neither pointing nor focus changes what the chapter shows.
export function keyboardOf(g) {
  const { table } = g;
  const { onHover, onSelect, editable, explains } = g.opts;
  let active = [0, 0];
  let focusSelected = null; // the cell that focus selected, while it has focus
  const targetOf = (c) => (c.answer && !c.answer.hidden ? c.answer : c.node.tagName === 'INPUT' ? c.node : c.td);
  function syncTabStops() {
    g.cells.forEach((row, i) => row.forEach((c, j) => {
      const t = targetOf(c);
      const on = i === active[0] && j === active[1];
      if (t !== c.td && c.td.hasAttribute('tabindex')) c.td.removeAttribute('tabindex');
      // (the attribute, not the property: a <td> without one reads -1 and cannot take focus)
      if (t !== c.node && c.node.tagName === 'INPUT' && c.node.getAttribute('tabindex') !== '-1') c.node.tabIndex = -1;
      if (c.answer && t !== c.answer && c.answer.getAttribute('tabindex') !== '-1') c.answer.tabIndex = -1;
      if (t.getAttribute('tabindex') !== (on ? '0' : '-1')) t.tabIndex = on ? 0 : -1;
    }));
  }
  function setActive(i, j) {
    active = [i, j];
    syncTabStops();
  }
  // After the table's shape changed: the active cell stays if it still exists.
  function reshaped() {
    if (!g.cells[active[0]]?.[active[1]]) active = [0, 0];
  }
  function moveTo(i, j) {
    const c = g.cells[Math.max(0, Math.min(i, g.shape.rows - 1))]?.[Math.max(0, Math.min(j, g.shape.cols - 1))];
    if (!c) return;
    const t = targetOf(c);
    t.focus();
    if (t.tagName === 'INPUT') t.select();
  }
  // A new cell: pointing at it is hovering; a click selects (so does focus, once).
  function wireCell(td, i, j) {
    if (onHover) {
      // (not while a teacher picks exercise cells: what they point at must not change what
      // the chapter shows, nor so the warning about where hidden values still show)
      td.addEventListener('pointerenter', () => g.picking || onHover(i, j));
      td.addEventListener('pointerleave', () => onHover(null));
    }
    if (onSelect && !editable) {
      td.classList.add('selectable');
      td.addEventListener('click', () => td !== focusSelected && onSelect(i, j));
    }
  }
  const cellOf = (node) => node?.closest?.('td[data-i]');
  table.addEventListener('focusin', (e) => {
    const td = cellOf(e.target);
    if (!td) return;
    const i = Number(td.dataset.i), j = Number(td.dataset.j);
    if (active[0] !== i || active[1] !== j) setActive(i, j);
    if (!g.picking) onHover?.(i, j);
    if (explains && !table.contains(e.relatedTarget)) explains()?.setAttribute('aria-live', 'polite');
    if (onSelect && !editable && !g.picking && e.target === td) {
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
    const { rows, cols } = g.shape;
    let to = null;
    if (e.key === 'ArrowLeft' && atStart) to = [i, j - 1];
    else if (e.key === 'ArrowRight' && atEnd) to = [i, j + 1];
    else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && (!input || e.altKey || !editable || input !== g.cells[i][j].node))
      to = [i + (e.key === 'ArrowDown' ? 1 : -1), j];
    else if (e.key === 'Enter' && input) to = [i + (e.shiftKey ? -1 : 1), j];
    else if (e.key === 'Home' && (!input || ctrl)) to = ctrl ? [0, 0] : [i, 0];
    else if (e.key === 'End' && (!input || ctrl)) to = ctrl ? [rows - 1, cols - 1] : [i, cols - 1];
    else if ((e.key === 'Enter' || e.key === ' ') && !input) {
      e.preventDefault();
      if (g.picking) g.exercise.toggle(i, j);
      else if (onSelect && !editable) onSelect(i, j);
      return;
    }
    if (!to) return;
    e.preventDefault();
    if (to[0] >= 0 && to[0] < rows && to[1] >= 0 && to[1] < cols) moveTo(to[0], to[1]);
  });
  return { syncTabStops, setActive, reshaped, wireCell };
}

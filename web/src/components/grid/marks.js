// Marks on a grid: highlight() marks rows, columns or single cells (e.g. the operands of a
// hovered result), select() the one cell a worked explanation is about. Like the numbers,
// a mark on a grid far from the screen is kept and drawn with them when the grid comes
// near (a chapter marks rows on every edit: this must not write far grids). Each is drawn
// only when it changed.
export function marksOf(g) {
  const { table } = g;
  let highlighted = '[]', wantHighlight = null;
  function highlight({ rows = [], cols = [], cells: list = [] } = {}) {
    wantHighlight = { rows, cols, list };
    if (!g.unwritten) drawHighlight();
  }
  function drawHighlight() {
    if (!wantHighlight) return;
    const { rows, cols, list } = wantHighlight;
    const key = JSON.stringify([rows, cols, list, g.shape]);
    if (key === highlighted) return; // the same cells: nothing to do
    highlighted = key;
    table.querySelectorAll('.hl').forEach((n) => n.classList.remove('hl'));
    for (const i of rows) table.querySelectorAll(`tbody tr:nth-child(${i + 1}) > *`).forEach((n) => n.classList.add('hl'));
    for (const j of cols) table.querySelectorAll(`[data-j="${j}"]`).forEach((n) => n.classList.add('hl'));
    for (const [i, j] of list) g.cells[i]?.[j]?.td.classList.add('hl');
  }

  let selected = '', wantSelect = null;
  function select(i, j) {
    wantSelect = [i, j];
    if (!g.unwritten) drawSelect();
  }
  function drawSelect() {
    if (!wantSelect) return;
    const [i, j] = wantSelect;
    const key = JSON.stringify([i, j, g.shape]);
    if (key === selected) return;
    selected = key;
    table.querySelectorAll('.sel').forEach((n) => n.classList.remove('sel'));
    if (i != null) g.cells[i]?.[j]?.td.classList.add('sel');
    // The selected cell is where Tab enters the grid (unless focus is in it already).
    const root = g.el.getRootNode?.() ?? document;
    if (i != null && g.cells[i]?.[j] && !table.contains(root.activeElement)) g.keyboard.setActive(i, j);
  }
  return { highlight, select, draw: () => (drawHighlight(), drawSelect()) };
}

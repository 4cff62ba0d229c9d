// A grid's tools: the "⋯" menu copies the matrix as plain text, exports LaTeX (bmatrix),
// Markdown or CSV, saves the figure as SVG or PNG, and on editable grids pastes text in
// (rows on lines, numbers separated by spaces or commas) through a text panel; a paste
// into a cell comes here too (a whole matrix, or a block from that cell). Ctrl+C on a grid
// with nothing selected copies the whole matrix. Hidden exercise cells export as "?".
// Without the menu (tools: false) a paste into a cell and the API's exports still work.
import { textColorFor } from '../colors.js';
import { matrixToText, matrixToLatex, matrixToMarkdown, matrixToCsv, parseMatrixText, MatrixTextError } from '../../matrix-text.js';
import { gridSvg, themeOf, svgToPng, download, copyText, closeOnEscape } from '../figure-export.js';

const PASTE_WORDS = { empty: 'pasteEmpty', long: 'pasteLong', nan: 'pasteNan', range: 'pasteRange', tiny: 'pasteTiny', gap: 'pasteGap', ragged: 'pasteRagged' };

export function toolsOf(g) {
  const { say, opts } = g;
  const { editable, rowLabel, colLabel, ariaLabel, fileName, onPaste, onEdit } = opts;
  const mk = g.mk;
  let pasteRefused = false; // the last paste was refused (its message is under the grid)
  const buttons = {};
  let menu = null, io = null;
  if (opts.tools) {
    menu = closeOnEscape(mk('details', 'grid-tools'));
    menu.dataset.tools = '';
    mk('summary', '', menu).textContent = '⋯';
    const list = mk('div', 'grid-tools-menu', menu);
    for (const act of ['copy', ...(editable ? ['paste'] : []), 'latex', 'markdown', 'csv', 'svg', 'png']) {
      const b = mk('button', '', list, { type: 'button' });
      b.dataset.act = act;
      b.addEventListener('click', () => act === 'svg' || act === 'png' ? saveFigure(act) : act === 'paste' ? openPaste() : exportText(act));
      buttons[act] = b;
    }
    io = mk('div', 'grid-io', null, { hidden: true });
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
    io.apply.addEventListener('click', () => paste(io.area.value, null));
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

  let labelledIn = null; // the menu's text, to relabel only when the language changed
  function relabel() {
    const menuText = say('menu');
    if (!menu || labelledIn === menuText) return;
    labelledIn = menuText;
    const summary = menu.querySelector('summary');
    summary.setAttribute('aria-label', menuText);
    summary.title = menuText;
    for (const [act, b] of Object.entries(buttons)) b.textContent = say(act);
    io.apply.textContent = say('apply');
    io.close.textContent = say('close');
  }
  // The cells an export leaves blank: the exercise's, and those covered for the learner.
  const notShown = () => (g.picking || !g.covered.size ? g.hidden : new Set([...g.hidden, ...g.covered]));
  const textOf = (format) => {
    const o = { hidden: notShown(), ...g.num, rowLabel, colLabel };
    if (format === 'latex') return matrixToLatex(g.current, o);
    if (format === 'markdown') return matrixToMarkdown(g.current, o);
    if (format === 'csv') return matrixToCsv(g.current, o);
    return matrixToText(g.current, o);
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
    if (pasteRefused) g.setMessage(null);
    pasteRefused = false;
  }
  async function exportText(format) {
    if (!g.current) return;
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
  let refusedOn = null; // the matrix a refused paste was measured against
  function refuse(message) {
    g.setMessage(message);
    pasteRefused = true;
    refusedOn = g.current;
  }
  // A refused paste's message speaks of the matrix as it was ("Nothing was changed"): once
  // the matrix changes otherwise (an edit, Reset to the example), it goes.
  function matrixChanged(m) {
    if (!pasteRefused || !refusedOn || m === refusedOn) return;
    const same = m.rows === refusedOn.rows && m.cols === refusedOn.cols && m.data.every((x, k) => Object.is(x, refusedOn.data[k]));
    if (!same) dropRefusal();
  }
  // (and when the learner starts over, Reset to the example, though the matrix is the same)
  function dropRefusal() {
    if (!pasteRefused) return;
    pasteRefused = false;
    refusedOn = null;
    g.setMessage(null);
  }
  // Pasted text goes in whole (same shape) or as a block from cell `at`; anything else is
  // refused with a message and the state stays as it was. Returns whether it went in.
  function paste(text, at) {
    let p;
    try {
      p = parseMatrixText(text);
    } catch (e) {
      if (!(e instanceof MatrixTextError)) throw e;
      const key = PASTE_WORDS[e.code];
      refuse(() => (key ? say(key, e.vars) : e.message));
      return false;
    }
    const current = g.current;
    if (!current || !editable) return true;
    const { rows, cols } = current;
    let i0 = 0, j0 = 0;
    if (!(p.rows === rows && p.cols === cols)) {
      if (!at || at.i + p.rows > rows || at.j + p.cols > cols) {
        // (a decimal comma, "1,5", read as two numbers is the likeliest cause: said, as a typed
        // cell says it)
        const comma = /\d,\d/.test(text);
        refuse(() => say('pasteShape', { got: `${p.rows}×${p.cols}`, want: `${rows}×${cols}` }) + (comma ? ` ${say('pasteComma')}` : ''));
        return false;
      }
      [i0, j0] = [at.i, at.j];
    }
    const data = Float32Array.from(current.data);
    for (let i = 0; i < p.rows; i++) for (let j = 0; j < p.cols; j++) data[(i0 + i) * cols + j0 + j] = p.data[i * p.cols + j];
    pasteRefused = false;
    g.cells.flat().forEach((c) => c.field?.reset());
    g.setMessage(null);
    if (io && !io.hidden && io.dataset.mode === 'paste') io.hidden = true;
    const root = g.el.getRootNode?.() ?? document;
    root.activeElement?.blur?.(); // let the update write every pasted cell
    if (onPaste) onPaste({ rows, cols, data });
    else for (let k = 0; k < data.length; k++) if (data[k] !== current.data[k]) onEdit(Math.floor(k / cols), k % cols, data[k]);
    return true;
  }
  function svgOf() {
    const s = g.scale;
    const current = g.current;
    return gridSvg(current, {
      title: `${ariaLabel()} (${current.rows} × ${current.cols})`, rowLabel, colLabel, ...g.num, hidden: notShown(), theme: themeOf(g.el),
      cellStyle: s ? (x) => ({ bg: s(x), fg: textColorFor(s(x)) }) : () => null,
    });
  }
  async function saveFigure(kind) {
    if (!g.current) return;
    if (menu) menu.open = false;
    const { svg, width, height } = svgOf();
    const blob = kind === 'svg' ? new Blob([svg], { type: 'image/svg+xml' }) : await svgToPng(svg, width, height);
    download(blob, `${fileName}.${kind}`, g.el);
  }
  g.table.addEventListener('copy', (e) => {
    const sel = (g.el.getRootNode?.() ?? document).getSelection?.() ?? document.getSelection();
    const t = e.target.closest?.('input') ? e.target : null;
    const selected = t ? t.selectionStart !== t.selectionEnd : sel && !sel.isCollapsed;
    if (!g.current || selected) return;
    e.preventDefault();
    e.clipboardData.setData('text/plain', textOf('copy'));
  });
  return {
    menu, io, relabel, paste, matrixChanged, dropRefusal,
    exportText: (format) => (g.current ? textOf(format) : ''),
    svg: () => (g.current ? svgOf().svg : ''),
  };
}

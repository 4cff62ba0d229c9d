// Matrices as text: plain rows of numbers (copy out, paste in), LaTeX bmatrix, Markdown
// table and CSV. No DOM: the matrix grid uses these, and tests/web checks them in Node.
import { cellText, tex } from './format.js';
import { parseCell, asciiForms } from './components/typed-number.js';

// code: 'empty' | 'long' | 'nan' | 'range' | 'gap' | 'ragged' | 'shape'; vars fill a translated message.
export class MatrixTextError extends Error {
  constructor(code, vars, message) {
    super(message);
    this.code = code;
    this.vars = vars;
  }
}

// Shortest decimal text that reads back to the same float32, in ordinary notation
// (0.5, -0.25, 1e-7); -inf, inf and nan for the non-finite values.
export function plainNumber(x) {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const want = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const t = Number(x.toPrecision(p));
    if (Math.fround(t) === want) return String(t === 0 ? 0 : t);
  }
  return String(x);
}

const cell = (m, i, j) => m.data[i * m.cols + j];
const isHidden = (hidden, i, j) => !!hidden && hidden.has(`${i},${j}`);
const rowsOf = (m, f) => Array.from({ length: m.rows }, (_, i) => Array.from({ length: m.cols }, (_, j) => f(i, j)));

// Rows on lines, numbers separated by spaces; hidden exercise cells as "?".
export function matrixToText(m, { hidden } = {}) {
  return rowsOf(m, (i, j) => (isHidden(hidden, i, j) ? '?' : plainNumber(cell(m, i, j)))).map((r) => r.join(' ')).join('\n');
}

// \begin{bmatrix} ... \end{bmatrix} with the digits shown on screen.
export function matrixToLatex(m, { digits = 3, fixed = false, significant = 0, hidden } = {}) {
  const rows = rowsOf(m, (i, j) => (isHidden(hidden, i, j) ? '\\square' : tex(cell(m, i, j), { digits, fixed, significant })));
  return `\\begin{bmatrix}\n${rows.map((r) => `  ${r.join(' & ')}`).join(' \\\\\n')}\n\\end{bmatrix}`;
}

// A Markdown table with the row and column labels of the grid.
export function matrixToMarkdown(m, { digits = 3, fixed = false, significant = 0, hidden, rowLabel = (i) => String(i + 1), colLabel = (j) => String(j + 1) } = {}) {
  const esc = (s) => String(s).replace(/\|/g, '\\|');
  const head = `|  | ${Array.from({ length: m.cols }, (_, j) => esc(colLabel(j))).join(' | ')} |`;
  const rule = `|---|${Array.from({ length: m.cols }, () => '---:').join('|')}|`;
  const body = rowsOf(m, (i, j) => (isHidden(hidden, i, j) ? '?' : cellText(cell(m, i, j), { digits, fixed, significant })))
    .map((r, i) => `| ${esc(rowLabel(i))} | ${r.join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

// Comma-separated values at full float32 precision, one row per line, no header.
export function matrixToCsv(m, { hidden } = {}) {
  return rowsOf(m, (i, j) => (isHidden(hidden, i, j) ? '' : plainNumber(cell(m, i, j)))).map((r) => r.join(',')).join('\r\n');
}

// A Markdown table (every line starts with "|"), as matrixToMarkdown writes it or another
// tool does, as rows of numbers: the rule line under the header goes, and so does the header
// (the line above it); so does the first column when the header's first cell is empty (the
// row labels). Other text is returned as it is.
function fromMarkdown(t) {
  const lines = t.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (!lines.length || !lines.every((l) => l.startsWith('|'))) return t;
  const cellsOf = (l) => l.replace(/^\|/, '').replace(/(?<!\\)\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());
  const isRule = (l) => cellsOf(l).every((c) => /^:?-{3,}:?$/.test(c));
  const ruleAt = lines.findIndex(isRule);
  const labels = ruleAt === 1 && cellsOf(lines[0])[0] === '';
  const body = (ruleAt === 1 ? lines.slice(2) : lines).filter((l) => !isRule(l));
  return body.map((l) => (labels ? cellsOf(l).slice(1) : cellsOf(l)).join(' ')).join('\n');
}

// Reads pasted text: rows on lines, numbers separated by spaces, tabs, commas or
// semicolons (full-width ones too). Also takes what other tools copy: [[1, 2], [3, 4]] (Python, NumPy, JSON)
// and 1 & 2 \\ 3 & 4 (LaTeX), and a Markdown table (fromMarkdown). Every number must be finite and at most 1e6 in size, as in
// a typed cell. Throws MatrixTextError naming the row and the text that is wrong.
export function parseMatrixText(text) {
  let t = String(text ?? '');
  if (t.length > 200000) throw new MatrixTextError('long', {}, 'the pasted text is too long');
  t = asciiForms(t);
  t = fromMarkdown(t);
  t = t.replace(/\\begin\{[a-z]*matrix\}|\\end\{[a-z]*matrix\}/g, '').replace(/\\\\/g, '\n').replace(/&/g, ' ');
  t = t.replace(/\]\s*,?\s*\[/g, '\n').replace(/[[\]]/g, '');
  const lines = t.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) throw new MatrixTextError('empty', {}, 'there are no numbers in the pasted text');
  // Entries are separated by spaces, or by one comma or semicolon (with spaces around it
  // if you like). Two separators with nothing between them ("1,,2") are an error, not one
  // entry less; a line of separators alone (",,,") holds no numbers and is skipped.
  const rows = lines.map((line, r) => {
    const words = line.replace(/[,;]\s*$/, '').split(/\s*[,;]\s*|\s+/);
    if (words.every((w) => w === '')) return null;
    if (words.includes(''))
      throw new MatrixTextError('gap', { row: r + 1 }, `row ${r + 1} has two separators with no number between them`);
    return words.map((word) => {
      const p = parseCell(word);
      if ('value' in p) return p.value;
      const vars = { text: word.slice(0, 24), row: r + 1 };
      throw new MatrixTextError(p.error, vars, {
        range: `“${vars.text}” on row ${vars.row} is too large (use a value between −1000000 and 1000000)`,
        tiny: `“${vars.text}” on row ${vars.row} is closer to 0 than float32 can hold (it would be stored as 0)`,
      }[p.error] ?? `“${vars.text}” on row ${vars.row} is not a number`);
    });
  }).filter((row) => row !== null);
  if (rows.length === 0) throw new MatrixTextError('empty', {}, 'there are no numbers in the pasted text');
  const cols = rows[0].length;
  const bad = rows.findIndex((r) => r.length !== cols);
  if (bad >= 0)
    throw new MatrixTextError('ragged', { row: bad + 1, n: rows[bad].length, cols },
      `row ${bad + 1} has ${rows[bad].length} numbers but row 1 has ${cols}`);
  return { rows: rows.length, cols, data: Float32Array.from(rows.flat()) };
}

// An editable grid's cells: each is a text input that follows the typed-number rule
// (../typed-number.js: what it uses, what it refuses, what the message under the grid
// says, Escape, leaving it, ↑/↓ steps) and takes a matrix pasted into it (the tools' paste:
// a whole matrix, or a block from this cell).
import { editText, inputText } from '../../format.js';
import { typedNumber, readDecimal, numberText } from '../typed-number.js';
import { parseMatrixText } from '../../matrix-text.js';

// The typed-number rule's codes as the grid's words (TOOL_TEXT, kit/<lang>.js tools.*).
const CELL_WORDS = { typing: 'cellTyping', left: 'cellLeft', empty: 'whyEmpty', incomplete: 'whyIncomplete', comma: 'whyComma', grouped: 'whyGrouped', groupedWhole: 'whyGroupedWhole', nan: 'whyNan', range: 'whyRange', tiny: 'whyTiny' };

// A cell widens with its text, so no typed or stored number is ever cut (styles.css: the
// input is at least its usual width, else about one digit per character).
export function fitWidth(input) {
  const n = input.value.length;
  const v = n > 4 ? String(n) : '';
  if (input.style.getPropertyValue('--chars') !== v) {
    if (v) input.style.setProperty('--chars', v);
    else input.style.removeProperty('--chars');
  }
}

// The input of cell (i, j) and its field ({typed, reset()}).
export function cellInput(g, i, j) {
  const input = document.createElement('input');
  input.type = 'text';
  input.inputMode = 'decimal';
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.size = 4;
  // Several numbers pasted into a cell: a whole matrix, or a block from this cell.
  input.addEventListener('paste', (e) => {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    const t = numberText(text);
    if (!/[\s,;]/.test(t) || /^[+-]?\d+,\d+$/.test(t)) return; // one number (or "1,5"): the browser pastes it
    e.preventDefault();
    g.tools.paste(text, { i, j });
  });
  const field = typedNumber(input, {
    read: readDecimal,
    value: () => g.current?.data[i * g.current.cols + j],
    use: (v) => g.opts.onEdit(i, j, v),
    text: editText,
    quote: inputText,
    words: (code, vars) => g.say(CELL_WORDS[code], vars),
    show: (m) => g.setMessage(m),
    onText: () => fitWidth(input),
    nudge: { unit: 1, fine: 0.1 },
  });
  return { input, field };
}

import { onPrint } from './print.js';
import { setText } from './prose.js';
import { problem } from './url-state.js';

// Controls shared by the chapters on heads, masking and dropout, built on the chapter
// kit (kit.js): a radio group bound to a number in the chapter's state (number fields are
// kit.number). Call sync() at the top of the chapter's draw function so the controls
// follow the state and the language.
//
//   const h = choice(k, 'heads', { labelKey: 'headsLabel', options: () => [{ value: 1, text: 'h = 1' }, ...] });
//   k.start((s) => { h.sync(s); ... });

// A radio group; options() may change (e.g. the divisors of d_model), the group is then
// rebuilt. Arrow keys move between radios (native behaviour of a named radio group).
// patchFor(value), if given, returns the state patch for a pick (default {[name]: value}).
export function choice(k, name, { labelKey, options, parent, testId = name, cls = '', patchFor = null }) {
  const { el, tr, state, patch } = k;
  const group = el('div', `controls choice ${cls}`.trim(), parent);
  group.setAttribute('role', 'radiogroup');
  group.dataset.choice = testId;
  const label = el('span', 'label', group);
  label.id = `${group.dataset.choice}-${Math.random().toString(36).slice(2, 8)}-label`;
  group.setAttribute('aria-labelledby', label.id);
  const box = el('span', 'choice-options', group);
  let signature = '';
  let inputs = [];
  const groupName = `${label.id}-radio`;

  function rebuild(opts) {
    box.textContent = '';
    inputs = opts.map((o) => {
      const lab = el('label', `toggle ${o.cls ?? ''}`.trim(), box);
      const r = el('input', '', lab);
      Object.assign(r, { type: 'radio', name: groupName, value: String(o.value), disabled: k.readOnly });
      r.dataset.value = String(o.value);
      r.addEventListener('change', () => r.checked && patch(patchFor ? patchFor(o.value) : { [name]: o.value }));
      const span = el('span', '', lab);
      span.textContent = o.text;
      return r;
    });
  }

  function sync(s = state()) {
    setText(label, tr(labelKey)); // (written only when it changes: a language switch)
    const opts = options(s);
    const sig = opts.map((o) => `${o.value}:${o.text}`).join('|');
    if (sig !== signature) {
      signature = sig;
      rebuild(opts);
    }
    for (const r of inputs) r.checked = r.value === String(s[name]);
  }
  // (a link's value none of the options has: refused, kit accepts)
  if (!patchFor) k.accepts?.(name, (v, s) => {
    const opts = options(s);
    return opts.some((o) => o.value === v) ? null : problem('notChoice', { value: String(v), allowed: opts.map((o) => o.value).join(', ') });
  });
  return { el: group, sync };
}

// Re-tints a grid's columns by head (head-0..head-3 classes cycle) after the number of
// heads changed; the grid only applies colClass when its shape changes.
export function tintColumns(grid, headOf) {
  grid.el.querySelectorAll('[data-j]').forEach((n) => {
    const h = headOf(Number(n.dataset.j));
    for (let c = 0; c < 4; c++) n.classList.toggle(`head-${c}`, h != null && h % 4 === c);
    n.classList.toggle('head-start', h != null && Number(n.dataset.j) > 0 && headOf(Number(n.dataset.j) - 1) !== h);
  });
}

// A bitwise comparison of two rows of core results (booleans only, no new numbers).
export function sameBits(a, b, i) {
  if (a.cols !== b.cols) return false;
  for (let j = 0; j < a.cols; j++) if (!Object.is(a.data[i * a.cols + j], b.data[i * b.cols + j])) return false;
  return true;
}

// Divisors of n (the valid numbers of heads for a width n).
export function divisors(n) {
  const out = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}

// An operator (+, =, →, ⊙) kept together with the grid that follows it, so a wrapping
// row never leaves an operator dangling at a line end.
export function opGroup(row, op, gridEl) {
  const g = document.createElement('span');
  g.className = 'op-group';
  const a = document.createElement('span');
  a.className = 'arrow';
  a.textContent = op;
  g.append(a, gridEl);
  row.append(g);
  return g;
}

// A <details> fold that opens for printing (course notes get printed; closed folds would
// hide their matrices on paper).
export function foldForPrint(details) {
  onPrint(() => { details.open = true; });
  return details;
}

// The chapter kit: what every chapter module needs, so chapters only describe their
// own layout and computation.
//
//   export default {
//     id: 'my-chapter',
//     mount(section, ctx) {
//       const k = chapterKit(section, ctx, 'my-chapter', () => ({ Q: ..., causal: true }));
//       k.text('h2', 'title');                       // prose from content/<lang>/my-chapter.js
//       const q = k.editable('Q', { caption: () => 'Q' });   // a grid bound to state().Q
//       k.start((s) => {                             // called on every change of this chapter's
//         const t = ctx.attn.attention(s.Q, ...);    // state or of the language; errors thrown
//         q.update(s.Q);                             // here show inline and the last good
//       });                                          // picture stays
//     },
//   };
import { createMatrixGrid } from '../components/matrix-grid.js';
import { createStepper } from '../components/stepper.js';
import { fmt, fmtCount } from '../format.js';
import { setProse } from '../prose.js';
import { withEntry } from '../matrix.js';

export function chapterKit(section, { attn, i18n, store }, id, initialState) {
  const tr = (key) => i18n.t(`${id}.${key}`);
  const common = (key) => i18n.t(`common.${key}`);
  if (!store.get()[id]) store.set({ [id]: initialState() });
  const state = () => store.get()[id];
  const patch = (p) => store.set({ [id]: { ...state(), ...(typeof p === 'function' ? p(state()) : p) } });
  const reset = () => store.set({ [id]: initialState() });

  const prose = []; // [element, key or () => key, () => vars]
  const commons = []; // [element, key]
  const relabelers = [];

  function el(tag, cls, parent = section) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (parent) parent.append(n);
    return n;
  }
  // An element whose content is the chapter's text `key` ($TeX$ and {vars} filled in).
  // key may be a function of the state, e.g. s => s.causal ? 'maskOn' : 'maskOff';
  // vars(state, result) also sees what the draw function last returned (computed values).
  function text(tag, key, parent = section, vars = () => ({}), cls) {
    const n = el(tag, cls, parent);
    prose.push([n, key, vars]);
    return n;
  }
  function commonText(tag, key, parent = section, cls) {
    const n = el(tag, cls, parent);
    commons.push([n, key]);
    return n;
  }
  // Message for a malformed cell: names the text and the value still in use.
  function invalidMessage(i, j, txt, kind, last) {
    return common(kind === 'range' ? 'outOfRange' : 'invalidNumber')
      .replace('{text}', txt.length > 24 ? `${txt.slice(0, 24)}…` : txt)
      .replace('{last}', fmt(last));
  }
  function grid(opts) {
    return createMatrixGrid({ onError: invalidMessage, ...opts });
  }
  // A grid whose cells edit state()[name] (a matrix) in place.
  function editable(name, opts = {}) {
    return grid({
      editable: true,
      color: 'none',
      testId: `${id}-${name}`,
      ...opts,
      onEdit: (i, j, v) => patch({ [name]: withEntry(state()[name], i, j, v) }),
    });
  }
  // A labelled checkbox bound to the boolean state()[name].
  function toggle(name, key, parent = section) {
    const label = el('label', 'toggle', parent);
    const box = el('input', '', label);
    box.type = 'checkbox';
    box.dataset.control = name;
    box.addEventListener('change', () => patch({ [name]: box.checked }));
    const span = text('span', key, label);
    relabelers.push(() => (box.checked = !!state()[name]));
    return { label, box, span };
  }
  // A labelled range slider bound to the number state()[name].
  function slider(name, key, { min, max, step = 1, parent = section, vars = () => ({}) } = {}) {
    const label = el('label', 'slider', parent);
    const span = text('span', key, label, () => ({ value: state()[name], ...vars() }));
    const input = el('input', '', label);
    Object.assign(input, { type: 'range', min, max, step });
    input.dataset.control = name;
    input.addEventListener('input', () => patch({ [name]: Number(input.value) }));
    relabelers.push(() => (input.value = String(state()[name])));
    return { label, input, span };
  }
  // A labelled whole-number input bound to state()[name]. Text that is not a whole number
  // in [min, max] is marked invalid with a message beside the field; the last good value
  // stays in use.
  function number(name, key, { min = 1, max = Number.MAX_SAFE_INTEGER, step = 1, parent = section, vars = () => ({}) } = {}) {
    const label = el('label', 'number', parent);
    const span = text('span', key, label, () => ({ value: state()[name], ...vars() }));
    const input = el('input', '', label);
    Object.assign(input, { type: 'number', min, max, step, inputMode: 'numeric' });
    input.dataset.control = name;
    const msg = el('span', 'number-error', label);
    msg.setAttribute('role', 'alert');
    msg.hidden = true;
    input.addEventListener('input', () => {
      const t = input.value.trim();
      const v = Number(t);
      const ok = t !== '' && Number.isInteger(v) && v >= min && v <= max;
      input.setAttribute('aria-invalid', ok ? 'false' : 'true');
      msg.hidden = ok;
      if (!ok) {
        msg.textContent = common('wholeNumber').replace('{text}', t.length > 24 ? `${t.slice(0, 24)}…` : t)
          .replace('{min}', fmtCount(min)).replace('{max}', fmtCount(max)).replace('{last}', fmtCount(state()[name]));
        return;
      }
      if (v !== state()[name]) patch({ [name]: v });
    });
    relabelers.push(() => {
      if (input.getAttribute('aria-invalid') !== 'true' && Number(input.value) !== state()[name]) input.value = String(state()[name]);
    });
    return { label, input, span, msg };
  }
  function button(key, onClick, parent = section, cls = '') {
    const b = el('button', cls, parent);
    b.type = 'button';
    b.addEventListener('click', onClick);
    relabelers.push(() => (b.textContent = key.startsWith('common.') ? common(key.slice(7)) : tr(key)));
    return b;
  }
  function stepper(steps, { labelKey = 'stepsLabel', parent = section } = {}) {
    const s = createStepper({
      testId: id,
      label: () => tr(labelKey),
      prevText: () => common('prev'),
      nextText: () => common('next'),
      steps: steps.map(({ key, panel, labelKey: lk }) => ({ key, panel, label: () => tr(lk) })),
    });
    parent.append(s.el);
    relabelers.push(() => s.relabel());
    return s;
  }

  const errorBox = el('p', 'chapter-error');
  errorBox.setAttribute('role', 'alert');
  errorBox.hidden = true;

  let draw = () => {};
  let lastSlice;
  let result = null; // what draw() last returned without throwing
  function render() {
    const s = state();
    lastSlice = s;
    for (const f of relabelers) f();
    try {
      result = draw(s) ?? null;
      errorBox.hidden = true;
    } catch (e) {
      // Keep the last good picture on screen; say what went wrong where the learner is.
      errorBox.hidden = false;
      errorBox.textContent = common('computeError').replace('{message}', e.message);
      if (!(e instanceof RangeError || e instanceof TypeError)) console.warn(e);
    }
    for (const [n, key, vars] of prose) setProse(n, tr(typeof key === 'function' ? key(s) : key), vars(s, result));
    for (const [n, key] of commons) n.textContent = common(key);
  }
  // Registers the chapter's draw function (state -> result, may throw) and renders now
  // and on every change of this chapter's state or of the language.
  function start(fn) {
    draw = fn;
    store.subscribe((all) => all[id] !== lastSlice && render());
    i18n.onChange(render);
    render();
  }

  // Keep the error box near the top of the chapter, after its heading.
  queueMicrotask(() => section.querySelector('h2')?.after(errorBox));

  return { attn, i18n, tr, common, state, patch, reset, el, text, commonText, grid, editable, toggle, slider, number, button, stepper, start, render, invalidMessage };
}

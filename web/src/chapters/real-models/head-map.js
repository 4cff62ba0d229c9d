// The real-models chapter's model view (as BertViz's): every layer × head of the model as a
// small map of its weights on the sentence, a row per layer. The maps are built, painted and
// labelled a few a frame (a job of frames.js); data-painted says how many show the current
// sentence. It is one Tab stop (a WAI-ARIA grid with a roving tabindex): the arrow keys move
// between heads, Home/End to the row's ends (with Ctrl, the grid's), Enter or Space enlarges
// the head; a click does the same. Each cell is named by its layer, head and role.
//
//   const map = headMap({ k, frames, model: () => info, shown: () => heads on screen or null, headName });
//   map.figure(parent);       // the scroll box and the grid (map.scroll, map.view)
//   map.build();              // a new model: its maps from none, the chosen head selected
//   map.choose(head);         // the chosen head's map selected (the Tab stop follows it)
//   map.labelWith((x) => [aria-label, title, role]);  // the maps labelled again, a few a frame
import { weightMapPainter } from '../../components/weight-map.js';
import { offscreenCheap } from './lines.js';

export function headMap({ k, frames, model, shown, headName }) {
  const { el, tr, state, patch } = k;
  const paint = weightMapPainter();

  let scroll, view;
  let thumbs = [], thumbPx = 64, row = null;
  let focusAt = 0; // the cell that holds the Tab stop
  let refocus = false;
  // What the frames still have to do: maps built; painted with paintedFor (a heads result);
  // label (x) -> [aria-label, title, role] of the current render, and the maps labelled with it.
  let built = 0, painted = 0, paintedFor = null, label = null, labelled = 0;

  // (once that map is built and shown: the view is hidden until the new model's heads are
  // here; given up if the focus has gone somewhere meanwhile)
  function refocusMap() {
    const b = thumbs[focusAt]?.b;
    const root = view.getRootNode();
    if (!refocus || !b) return;
    if (root.activeElement && root.activeElement !== document.body && !view.contains(root.activeElement)) {
      refocus = false;
      return;
    }
    b.focus({ preventScroll: true });
    if (root.activeElement === b) refocus = false;
  }
  function buildThumb(index) {
    const H = model().heads, l = Math.floor(index / H), h = index % H;
    let lab = null, sizer = null;
    if (h === 0) {
      row = el('div', '', view);
      row.setAttribute('role', 'row');
      row.style.display = 'contents';
      // The layer's name stays in view while a narrow screen scrolls the row sideways: it
      // spans the whole row (a sticky grid item moves only within its grid area) over the
      // first column, whose width a hidden copy of the name sets.
      sizer = el('span', 'hint', row);
      sizer.setAttribute('aria-hidden', 'true');
      Object.assign(sizer.style, { visibility: 'hidden', whiteSpace: 'nowrap', gridRow: String(l + 1), gridColumn: '1', paddingRight: '.3rem' });
      lab = el('span', 'hint', row);
      lab.setAttribute('role', 'rowheader');
      lab.dataset.layer = String(l);
      Object.assign(lab.style, {
        whiteSpace: 'nowrap', gridRow: String(l + 1), gridColumn: '1 / -1', justifySelf: 'start',
        position: 'sticky', left: '0', zIndex: '1', background: 'var(--bg)', paddingRight: '.3rem',
      });
      sizer.textContent = lab.textContent = tr('layerName', { layer: l + 1 });
    }
    const b = el('div', 'head-thumb', row);
    Object.assign(b.style, { gridRow: String(l + 1), gridColumn: String(h + 2) });
    b.setAttribute('role', 'gridcell');
    b.dataset.head = String(index);
    b.tabIndex = index === focusAt ? 0 : -1;
    if (refocus && index === focusAt) queueMicrotask(refocusMap);
    b.setAttribute('aria-label', headName(index)); // (with its role once labelled: step())
    Object.assign(b.style, { padding: '2px', border: '2px solid var(--line)', borderRadius: '.3rem', cursor: 'pointer', lineHeight: 0 });
    const c = el('canvas', '', b);
    c.setAttribute('aria-hidden', 'true');
    Object.assign(c.style, { width: `${thumbPx}px`, height: `${thumbPx}px`, imageRendering: 'pixelated' });
    b.addEventListener('click', () => {
      moveFocus(index, false);
      patch({ head: index });
    });
    const th = { b, c, lab, sizer, l, h, pressed: null };
    thumbs.push(th);
    select(th, index === state().head);
  }
  // the chosen head's map selected and outlined; the Tab stop follows it while the focus
  // is elsewhere
  function select(th, on) {
    if (th.pressed === on) return;
    th.pressed = on;
    th.b.setAttribute('aria-selected', String(on));
    th.b.style.borderColor = on ? 'var(--accent, #c60)' : 'var(--line)';
    if (on && !view.contains(document.activeElement)) moveFocus(thumbs.indexOf(th), false);
  }
  function moveFocus(x, focus = true) {
    if (!thumbs[x]) return;
    if (thumbs[focusAt] && focusAt !== x) thumbs[focusAt].b.tabIndex = -1;
    focusAt = x;
    if (thumbs[x].b.tabIndex !== 0) thumbs[x].b.tabIndex = 0;
    if (focus) thumbs[x].b.focus();
  }

  // The frames' share: maps built, then painted with the heads on screen, then labelled.
  frames.add({
    step(budget) {
      const n = model().layers * model().heads;
      while (built < n && budget > 0) {
        buildThumb(built++);
        budget--;
      }
      const heads = shown(); // (none while the sentence is empty or refused)
      if (heads && paintedFor !== heads) {
        paintedFor = heads;
        painted = 0;
      }
      while (heads && painted < built && budget > 0) {
        paint(thumbs[painted].c, heads.weights, painted * heads.T * heads.T, heads.T);
        painted++;
        budget--;
      }
      const count = String(heads ? painted : 0);
      if (view.dataset.painted !== count) view.dataset.painted = count;
      while (label && labelled < built && budget > 0) {
        const { b } = thumbs[labelled];
        const [aria, title, role] = label(labelled++);
        if (b.getAttribute('aria-label') !== aria) b.setAttribute('aria-label', aria);
        if (b.title !== title) b.title = title;
        if (b.dataset.role !== role) b.dataset.role = role;
        budget--;
      }
      return budget;
    },
    pending: () => built < model().layers * model().heads || (!!shown() && painted < built) || (!!label && labelled < built),
  });

  return {
    get scroll() {
      return scroll;
    },
    get view() {
      return view;
    },
    thumb: (x) => thumbs[x],
    figure(parent) {
      scroll = el('div', 'table-scroll', parent);
      scroll.style.overflowX = 'auto';
      view = el('div', '', scroll);
      view.dataset.heads = 'model-view';
      view.setAttribute('role', 'grid');
      offscreenCheap(scroll, '20rem');
      // (the kit's check of sideways-scrolling boxes runs again when the box is laid out)
      scroll.addEventListener('contentvisibilityautostatechange', () => k.scrollers.schedule());
      view.addEventListener('keydown', (e) => {
        const cell = e.target.closest?.('[data-head]');
        if (!cell || !model()) return;
        const x = Number(cell.dataset.head), H = model().heads, n = thumbs.length, start = x - (x % H);
        const to = {
          ArrowRight: x % H < H - 1 && x + 1 < n ? x + 1 : x,
          ArrowLeft: x % H > 0 ? x - 1 : x,
          ArrowDown: x + H < n ? x + H : x,
          ArrowUp: x >= H ? x - H : x,
          Home: e.ctrlKey ? 0 : start,
          End: e.ctrlKey ? n - 1 : Math.min(n - 1, start + H - 1),
        }[e.key];
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          patch({ head: x });
        } else if (to !== undefined) {
          e.preventDefault();
          moveFocus(to);
        }
      });
    },
    // A new model: its maps from none.
    build() {
      const { heads: H, layers } = model();
      thumbPx = H > 8 ? 44 : 64;
      Object.assign(view.style, { display: 'grid', width: 'max-content', gridTemplateColumns: `max-content repeat(${H}, ${thumbPx + 8}px)`, justifyContent: 'start', gap: '4px', alignItems: 'center' });
      thumbs = [];
      focusAt = Math.min(state().head, layers * H - 1);
      // (the keyboard's focus on a map of the model before: on the same head of this one, once
      // its map is built)
      refocus = view.contains(view.getRootNode().activeElement);
      view.replaceChildren();
      view.dataset.painted = '0';
      built = painted = labelled = 0;
      paintedFor = null;
      frames.later();
    },
    choose(head) {
      thumbs.forEach((th, x) => select(th, x === head));
    },
    labelWith(fn) {
      label = fn;
      labelled = 0;
    },
    // shown again (a sentence's heads are here): the keyboard's focus back on its map if it was
    // on the model before's
    reshown() {
      if (refocus) refocusMap();
    },
    // no sentence: no map shows one
    cleared() {
      if (view.dataset.painted !== '0') view.dataset.painted = '0';
    },
  };
}

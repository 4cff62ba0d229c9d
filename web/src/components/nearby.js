// Figures far from the screen are drawn when they come near it (issue 13, edit → paint).
//
//   const draw = whenNear(el, () => writeTheDom());
//   draw();        // on screen (or not known yet): writes now; far away: marks el dirty
//   draw.flush();  // writes now if dirty (before a reader looks at the DOM)
//
// An edit that changes a whole chapter's numbers then writes, lays out and paints only the
// grids and plots within about half a screen of the viewport; the others keep their old
// DOM until one shared IntersectionObserver (margin: half a screen above and below) sees
// them come near, before the browser paints them there. An element counts as near until
// the observer has first said otherwise, so a figure's first draw is never put off. A
// figure hidden far (display: none) that an edit shows is drawn in the edit's own frame.
// Everything dirty is drawn at `beforeprint`, and a figure is drawn when focus enters it.
// window.__eagerFigures = true (set before the page's script runs: the browser tests do,
// since they read numbers in grids anywhere on the page) turns the deferral off.
//
// What a screen reader can read is never a wrong number: while a figure holds older numbers
// than its state it is marked stale (data-stale, aria-busy="true"), and styles.css hides its
// numbers (a grid's values, a plot's texts) until it is drawn; `stale(on)` (optional) hides
// what CSS cannot reach (a plot's description). One attribute write when a figure falls
// behind and one when it catches up: no layout of the figure's own.
const dirty = new Map(); // element -> its draw, while far away with a newer value
const far = new WeakSet(); // elements the observer last saw far from the screen
const hidden = new Set(); // far ones that were not rendered when last seen (display: none)
let observer = null;
let resizes = null;

// Within half a screen of the viewport (the IntersectionObserver's margin), by its box.
const isNear = (r) => r.bottom >= -window.innerHeight / 2 && r.top <= 1.5 * window.innerHeight;
// el is near now: its newer value, if it has one, drawn.
function drawNear(el) {
  far.delete(el);
  const draw = dirty.get(el);
  dirty.delete(el);
  draw?.();
}

function watch(el) {
  if (!observer) {
    if (typeof IntersectionObserver !== 'function') return false;
    observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) drawNear(e.target);
        else {
          far.add(e.target);
          // not rendered (display: none, a part of the chapter the state hides): watched
          // for the edit that shows it (shown below)
          if (e.target.checkVisibility?.() === false && resizes) {
            hidden.add(e.target);
            resizes.observe(e.target);
          }
        }
      }
    }, { rootMargin: '50% 0px' });
    // A hidden figure that an edit shows is drawn in that edit's frame: a ResizeObserver
    // reports it after the frame's layout and before its paint (where a write is laid out
    // again in the same frame), whereas the IntersectionObserver would say it is near only
    // after the paint, a frame later, showing it stale meanwhile.
    resizes = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => {
      for (const e of entries) {
        const el = e.target;
        if (!hidden.has(el) || (!e.contentRect.width && !e.contentRect.height)) continue;
        hidden.delete(el);
        resizes.unobserve(el); // (before it is drawn: its new size is not reported again)
        if (isNear(el.getBoundingClientRect())) drawNear(el); // (far: the other observer draws it when near)
      }
    }) : null;
    // An edit that shows or hides part of a chapter moves the figures below it: one that was
    // far may be near after the edit's layout, and the IntersectionObserver would say so only
    // after the paint, drawing it a frame later. The body's size changes with that layout, and
    // a ResizeObserver reports it before the paint: the dirty figures now near are drawn there
    // (their places read first, all at once, on the layout just done).
    if (typeof ResizeObserver === 'function' && typeof document !== 'undefined' && document.body)
      new ResizeObserver(() => {
        if (!dirty.size) return;
        const near = [...dirty.keys()].filter((el) => {
          const r = el.getBoundingClientRect();
          return (r.width || r.height) && isNear(r);
        });
        for (const el of near) drawNear(el);
      }).observe(document.body);
    if (typeof window !== 'undefined') window.addEventListener('beforeprint', flushAll);
  }
  observer.observe(el);
  return true;
}

export function flushAll() {
  const all = [...dirty.values()];
  dirty.clear();
  for (const draw of all) draw();
}

export function whenNear(el, write, stale) {
  let watched = false;
  const mark = (on) => {
    if (on === (el.dataset.stale === 'true')) return;
    if (on) {
      el.dataset.stale = 'true';
      el.setAttribute('aria-busy', 'true');
    } else {
      delete el.dataset.stale;
      el.removeAttribute('aria-busy');
    }
    stale?.(on);
  };
  const current = () => {
    mark(false);
    write();
  };
  const draw = () => {
    if (!watched) watched = watch(el);
    if (watched && far.has(el) && !globalThis.__eagerFigures) {
      dirty.set(el, current);
      mark(true);
    } else {
      dirty.delete(el);
      current();
    }
  };
  draw.flush = () => {
    const pending = dirty.get(el);
    if (!pending) return;
    dirty.delete(el);
    pending();
  };
  el.addEventListener('focusin', draw.flush);
  return draw;
}

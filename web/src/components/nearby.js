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
// the observer has first said otherwise, so a figure's first draw is never put off, and
// so does one that is not rendered (display: none), which an edit may show.
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
let observer = null;

function watch(el) {
  if (!observer) {
    if (typeof IntersectionObserver !== 'function') return false;
    observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) {
          far.delete(e.target);
          const draw = dirty.get(e.target);
          dirty.delete(e.target);
          draw?.();
        } else if (e.target.checkVisibility?.() === false) {
          // not rendered (display: none, a part of the chapter the state hides): where it
          // will be is not known, so it is drawn with every edit, as a figure not yet seen.
          // (The edit that shows it then draws it in the same frame, instead of marking it
          // stale and drawing it again once the observer has seen it come near.)
          far.delete(e.target);
        } else far.add(e.target);
      }
    }, { rootMargin: '50% 0px' });
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

// Sideways scrolling that says so. A grid, table, formula or code block wider than its box
// (a phone, a narrow widget, a long number) scrolls inside it; this marks each such box
// after every render of its chapter, when a step panel opens and when the window resizes:
//   - class "scrolls" (styles.css fades the side where more content hides: "scrolled"
//     once moved from the start, "at-end" at the end), so that it shows that it scrolls;
//   - when nothing inside it can take focus (a formula, a table of numbers), a tab stop,
//     role="group" and a name, so that a keyboard reaches what is hidden (axe's
//     scrollable-region-focusable);
//   - a hint line just above it ("→ more columns: scroll sideways"), right-aligned, that a
//     learner cannot miss, hidden once scrolled to the end (a fade alone went unnoticed);
//     it is aria-hidden: a screen reader gets the box's name or its grid's cells instead;
//   - a box that fits gets none of this back.
// After an edit, the checks read sizes just after the frame that shows the render (a task
// posted from its animation frame runs once that frame is laid out and painted); after a
// chapter's first render and a language switch, in that frame. Every watching chapter's
// reads before any of their writes: the reads find the layout done and force none, so an
// edit's frame lays the chapter out once and the check costs no layout of its own; a box
// whose cue changes gets it one frame later (issue 13, edit → paint).
export const SCROLLERS = '.grid-scroll, .table-scroll, .worked-math, .katex-display, .formula, pre';
const FOCUSABLE = 'input, button, select, textarea, a[href], [tabindex]:not([tabindex="-1"])';

export function watchScrollers(root, nameOf, hintOf) {
  const seen = new WeakSet();
  const hints = new Map(); // box -> its hint line
  function hint(n, show) {
    let h = hints.get(n);
    if (!show) {
      if (h) h.hidden = true;
      return;
    }
    if (!h || h.nextElementSibling !== n) {
      h?.remove();
      h = document.createElement('span');
      h.className = 'scroll-hint';
      h.setAttribute('aria-hidden', 'true');
      n.before(h);
      hints.set(n, h);
    }
    const text = hintOf(n);
    if (h.textContent !== text) h.textContent = text;
    h.hidden = false;
  }
  // Sizes are read for every box first and written after (classes, hints, tab stops), so
  // that one check forces at most one layout: a write between two reads (a hint inserted, a
  // class toggled) would make the browser lay the page out again at the next read.
  const measure = (n) => ({ scroll: n.scrollWidth, client: n.clientWidth, left: n.scrollLeft });
  function mark(n, m) {
    const over = m.scroll > m.client + 1;
    if (n.classList.contains('scrolls') !== over) n.classList.toggle('scrolls', over);
    if (over && !seen.has(n)) {
      seen.add(n);
      n.addEventListener('scroll', () => edges(n, measure(n)), { passive: true });
    }
    if (over) edges(n, m);
    else hint(n, false);
    const own = n.dataset.scrollStop === 'true';
    const needsStop = over && !n.querySelector(FOCUSABLE);
    if (needsStop && !own) {
      n.tabIndex = 0;
      n.setAttribute('role', 'group');
      n.dataset.scrollStop = 'true';
    } else if (!needsStop && own) {
      n.removeAttribute('tabindex');
      n.removeAttribute('role');
      n.removeAttribute('aria-label');
      delete n.dataset.scrollStop;
    }
    if (needsStop) {
      const name = nameOf(n);
      if (n.getAttribute('aria-label') !== name) n.setAttribute('aria-label', name);
    }
  }
  function edges(n, m) {
    const scrolled = m.left > 1;
    const atEnd = m.left + m.client >= m.scroll - 1;
    if (n.classList.contains('scrolled') !== scrolled) n.classList.toggle('scrolled', scrolled);
    if (n.classList.contains('at-end') !== atEnd) n.classList.toggle('at-end', atEnd);
    hint(n, !atEnd);
  }
  // a box re-rendered away takes its hint with it
  function prune() {
    for (const [n, h] of hints) if (!n.isConnected || h.nextElementSibling !== n) {
      h.remove();
      hints.delete(n);
    }
  }
  // read (a box in a hidden panel is checked when shown); returns the writes to make
  function read() {
    const boxes = [];
    for (const n of root.querySelectorAll(SCROLLERS)) if (n.getClientRects().length) boxes.push([n, measure(n)]);
    // a formula inside a worked box: only the box that actually overflows is marked
    return () => { for (const [n, m] of boxes) mark(n, m); };
  }
  const watcher = { prune, read };
  const check = () => run([watcher]);
  // inFrame: read in the animation frame itself, before it is painted (a chapter's first
  // render, a language switch: a cue inserted a frame later would shift what is shown)
  const schedule = (inFrame = false) => {
    due.add(watcher);
    if (inFrame) urgent = true;
    if (!frame) frame = requestAnimationFrame(afterFrame);
  };
  addEventListener('resize', schedule);
  return { schedule, check };
}

// Every chapter's watcher due in this frame is checked together: all prune, all read, all
// write, so that chapters rendered in the same frame cost one forced layout, not one each.
const due = new Set();
let frame = 0;
let urgent = false;
let channel = null;
function afterFrame() {
  if (urgent || typeof MessageChannel !== 'function') return flush();
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = flush;
  }
  channel.port2.postMessage(0);
}
function flush() {
  frame = 0;
  urgent = false;
  const ws = [...due];
  due.clear();
  run(ws);
}
function run(ws) {
  for (const w of ws) w.prune();
  const writes = ws.map((w) => w.read());
  for (const write of writes) write();
}

// The reading position: what the reader sees at the top of the window stays there.
//
// One module for the four ways the page could lose it:
//   - anchoring: a chapter above the reader that changes height (mounted over its
//     placeholder, its figures filled in, maths re-laid out when the fonts arrive, a language
//     switch) moves the window back by as much, before the frame is painted;
//   - reload: the place is saved at pagehide (sessionStorage) and put back at load;
//   - Back and Forward: each history entry keeps its place (history.state.position);
//   - printing: the print layout is not the screen's; afterwards the window is put back.
//
//   const position = createReadingPosition({ printing, onShift });
//   position.watch(elements);       // elements whose height moves what follows (sections, header)
//   position.pin();                 // before a change of ours: the anchor is what is on screen now
//   position.anchorHere();          // the page just put the window somewhere: keep what is at its top
//   position.where();               // {id, offset, path, dy}: the chapter and the element at the top
//   position.goTo(pos, fragment);   // put the window at a saved place (or at a fragment's element)
//   const { target, place } = position.navigate({ sections, owner, isMounted, mount, fragment });
//                                   // reload / Back / Forward / #fragment links (the whole page only)
//
// The anchor is the deepest element that reaches the top of the window (descending from
// <body>, down to one whose top is on screen); a placeholder there shows nothing but its
// title, so if that is off screen the anchor is the top of what follows it (the next
// chapter's title). It is chosen when the reader scrolls (not when we do), in document
// coordinates, and kept until they scroll again: a chapter above that is still filling in
// moves nothing on screen. Browsers' overflow-anchor is off (styles.css): it re-chooses
// after each change and keeps a straddling placeholder's top, which is that very jump;
// Safari has none; and we must not correct twice.
//
// A saved place (reload, history) is that same anchor, written as its chapter, the path of
// child indices from the chapter down to the element and the element's distance from the
// top of the window, besides the chapter's own offset. Put back, it is re-applied while the
// page is still arriving (until the reader scrolls, or the page says it has settled), so a
// figure of the chapter above the anchor, drawn after the first placing, or a chapter
// mounted at another height, does not leave the reader elsewhere.
//
// `env` (tests): { window, document } stand-ins; by default the page's own.
export function createReadingPosition({ printing = { on: false }, onShift = () => {}, env = {} } = {}) {
  const w = env.window ?? globalThis.window;
  const d = env.document ?? globalThis.document;
  const micro = w.queueMicrotask?.bind(w) ?? queueMicrotask;

  // ---- anchoring ------------------------------------------------------------------------------
  let anchor = []; // [{el, edge: 'top' | 'bottom', at}], outermost first; at: document y
  let anchorY = NaN; // the scroll position it was chosen for (or corrected to)
  const edgeOf = (el, edge) => {
    const r = el.getBoundingClientRect();
    return edge === 'bottom' ? r.bottom : r.top;
  };
  const moves = (el) => !/^(fixed|sticky)$/.test(w.getComputedStyle(el).position); // (with the page)
  function pick() {
    const chain = [];
    const y = w.scrollY;
    let el = d.body;
    for (;;) {
      let next = null, r = null;
      // (1 px: a fragment puts a section's top at a fraction of a pixel)
      for (const c of el.children) {
        const b = c.getBoundingClientRect();
        if (b.bottom > 1 && b.height > 0 && moves(c)) {
          next = c;
          r = b;
          break;
        }
      }
      if (!next) break;
      el = next;
      if (el.classList.contains('placeholder') && r.top < -1 && !(el.querySelector('h2')?.getBoundingClientRect().bottom > 1)) {
        const after = el.nextElementSibling;
        chain.push(after ? { el: after, edge: 'top', at: after.getBoundingClientRect().top + y } : { el, edge: 'bottom', at: r.bottom + y });
        break;
      }
      chain.push({ el, edge: 'top', at: r.top + y });
      if (r.top >= -1) break; // wholly at or below the top of the window: this one
    }
    anchor = chain;
    anchorY = y;
  }
  // Before a change that we make: if the reader scrolled since, the anchor is what is on
  // screen now. Read once per task: reading scrollY lays out whatever changed, and at a
  // language switch every chapter on screen pins before it redraws, after the one before it
  // has (each read laid the page out again: 50–140 ms at #multi-head on a loaded machine).
  let pinned = false;
  function pin() {
    if (printing.on || pinned) return;
    pinned = true;
    micro(() => (pinned = false));
    if (w.scrollY !== anchorY) pick();
  }
  // After a change: the anchor (or, if it was taken out of the page, its innermost ancestor
  // still in it) moved by as much in the page; the window follows it. A saved place being
  // put back is re-applied instead (it names the element more exactly than the anchor did
  // when the chapter was still a placeholder).
  function correct() {
    if (restoring && apply(restoring)) return;
    anchor = anchor.filter((x) => x.el.isConnected);
    const a = anchor.at(-1);
    if (a) {
      const dy = edgeOf(a.el, a.edge) + w.scrollY - a.at;
      if (Math.abs(dy) >= 0.5) shift(dy);
    }
    for (const x of anchor) x.at = edgeOf(x.el, x.edge) + w.scrollY;
    anchorY = w.scrollY;
  }
  function shift(dy) {
    w.scrollBy(0, dy);
    onShift(dy); // (a scroll of ours, not the reader's: main.js's toolbar does not tuck for it)
  }
  // The reader scrolled (our own corrections leave scrollY at anchorY): a new anchor, chosen
  // as the frame begins, before this frame's changes are laid out; a change of ours made
  // since the scroll chose it already (pin). A scroll of the reader's also ends the putting
  // back of a saved place.
  w.addEventListener('scroll', () => {
    if (printing.on) return;
    if (restoring && w.scrollY !== anchorY) restoring = null;
    pin();
  }, { passive: true });

  // ResizeObserver reports after layout and before paint, so the correction is never seen.
  // While printing the page keeps still; afterprint brings the anchor chosen before printing
  // back to its place.
  const last = new Map(); // element -> last height
  const RO = w.ResizeObserver;
  const sizes = typeof RO === 'function' ? new RO((records) => {
    let changed = false;
    for (const r of records) {
      const h = r.borderBoxSize?.[0]?.blockSize ?? r.contentRect.height;
      const before = last.get(r.target);
      last.set(r.target, h);
      if (before !== undefined && h !== before) changed = true;
    }
    if (printing.on) return;
    if (changed) correct();
    else if (!anchor.length) pick();
  }) : { observe() {} };
  w.addEventListener('beforeprint', () => {
    if (w.scrollY !== anchorY) pick(); // (printing.on is already set: kit/print.js listens first)
  });
  w.addEventListener('afterprint', () => w.requestAnimationFrame(() => {
    if (!printing.on) correct();
  }));

  // ---- saved places ---------------------------------------------------------------------------
  let chapters = null; // navigate()'s {sections, owner, isMounted, mount}
  let restoring = null; // a saved place being put back while the page arrives
  // A step back or forward is being placed (popstate until two frames later): the page is not
  // settled meanwhile (onPlacing's listeners are told when it starts and ends).
  let traversing = 0;
  const placingListeners = [];
  const placing = (on) => {
    traversing += on ? 1 : -1;
    for (const fn of placingListeners) fn();
  };
  const raf = w.requestAnimationFrame?.bind(w) ?? ((fn) => setTimeout(fn, 16));
  const byId = (id) => d.getElementById(id);

  // The reading position: the first chapter reaching into the window and how far into it,
  // and the anchor's element inside it (path of child indices) and its distance from the top.
  function where() {
    const top = chapters?.sections().find((s) => s.getBoundingClientRect().bottom > 0);
    if (!top) return null;
    const pos = { id: top.id, offset: Math.round(-top.getBoundingClientRect().top) };
    if (w.scrollY !== anchorY) pick();
    const a = anchor.filter((x) => x.el.isConnected && x.edge === 'top').at(-1);
    if (a && a.el !== top && top.contains(a.el)) {
      const path = [];
      for (let n = a.el; n !== top; n = n.parentElement) path.unshift([...n.parentElement.children].indexOf(n));
      pos.path = path;
      pos.tag = a.el.tagName;
      pos.dy = Math.round(a.el.getBoundingClientRect().top);
    }
    return pos;
  }
  // The element a saved place names, as deep as the chapter holds it now.
  function resolve(pos) {
    const s = byId(pos.id);
    if (!s) return null;
    let el = s, depth = 0;
    for (const k of pos.path ?? []) {
      const c = el.children[k];
      if (!c) break;
      el = c;
      depth++;
    }
    return { el, exact: depth === (pos.path?.length ?? 0) && depth > 0 && el.tagName === pos.tag };
  }
  // Puts the window at a saved place; true if it was moved.
  function apply(pos) {
    const r = resolve(pos);
    if (!r) return false;
    const y = r.exact ? r.el.getBoundingClientRect().top + w.scrollY - pos.dy
      : byId(pos.id).getBoundingClientRect().top + w.scrollY + pos.offset;
    const dy = y - w.scrollY;
    if (Math.abs(dy) >= 0.5) shift(dy);
    pick();
    return true;
  }
  // Puts the window at a reading position ({id, offset, path?, dy?}) if its chapter is on
  // this page, else at a fragment's element (or its chapter's placeholder); what is then at
  // the top of the window is the anchor. A saved place stays being put back until the
  // reader scrolls or settle() is called.
  function goTo(pos, frag) {
    if (pos && chapters?.owner(pos.id)) {
      restoring = pos;
      apply(pos);
    } else if (frag && chapters?.owner(frag)) {
      restoring = null;
      (byId(frag) ?? byId(chapters.owner(frag))).scrollIntoView();
      anchorHere();
    }
  }
  function anchorHere() {
    if (!printing.on) pick();
  }

  // Reload, Back and Forward, #fragment links: the whole page (not an embedded chapter).
  // The browser's own restoring would land elsewhere, as the chapters above are only
  // placeholders again: scrollRestoration is manual and the page does it.
  function navigate({ sections, owner, isMounted, mount, fragment, key }) {
    chapters = { sections, owner, isMounted, mount };
    let position = null;
    w.history.scrollRestoration = 'manual';
    const nav = w.performance.getEntriesByType?.('navigation')[0]?.type;
    try {
      if (nav === 'reload' || nav === 'back_forward') position = JSON.parse(w.sessionStorage.getItem(key) ?? 'null');
    } catch { /* no storage */ }
    w.addEventListener('pagehide', () => {
      const here = where();
      try {
        if (here) w.sessionStorage.setItem(key, JSON.stringify(here));
      } catch { /* no storage */ }
    });
    // Each history entry keeps where the reader was (written when they stop scrolling and
    // before a link takes them elsewhere); a step back or forward returns there, or to its
    // fragment if it has none.
    const remember = () => {
      const here = where();
      if (here) w.history.replaceState({ ...w.history.state, position: here }, '');
    };
    let rememberTimer = 0;
    w.addEventListener('scroll', () => {
      clearTimeout(rememberTimer);
      rememberTimer = setTimeout(remember, 300);
    }, { passive: true });
    d.addEventListener('click', (e) => {
      const a = e.target?.closest?.('a[href^="#"]');
      if (a && !e.defaultPrevented && e.button === 0) remember();
    }, true);
    let traversed = false; // a step back or forward places the window itself
    w.addEventListener('popstate', async (e) => {
      clearTimeout(rememberTimer);
      const saved = e.state?.position;
      const frag = fragment(w.location.hash);
      const id = owner(saved && owner(saved.id) ? saved.id : frag);
      if (!id) return;
      traversed = true;
      placing(true);
      try {
        if (!isMounted(id)) await mount(id);
        goTo(saved, frag);
      } catch (err) {
        placing(false); // (the chapter's failure is shown in its section by the mount)
        throw err;
      } finally {
        traversed = false; // (the hashchange that follows a traversal came during the mount)
      }
      // The place is put back again in the next two frames, whatever scrolled meanwhile (no
      // reader scrolls within two frames of Back; the browser may lay out, or scroll to the
      // fragment, after this event), and only then is the page said to be placed.
      let left = 2;
      const again = () => {
        if (saved && owner(saved.id) && resolve(saved)) {
          restoring = saved;
          apply(saved);
        }
        if (--left > 0) raf(again);
        else placing(false);
      };
      raf(again);
    });
    // A link to a chapter not mounted yet, or to an element inside one: mount it, go there.
    w.addEventListener('hashchange', async () => {
      const frag = fragment(w.location.hash);
      const id = owner(frag);
      const placed = traversed;
      traversed = false;
      if (id && !isMounted(id)) {
        await mount(id);
        if (!placed) {
          restoring = null;
          byId(frag)?.scrollIntoView();
        }
      }
    });
    const frag = fragment(w.location.hash);
    const target = (position && owner(position.id)) || (frag && owner(frag)) || null;
    return { target, place: () => goTo(position, frag) };
  }

  return {
    watch(els) {
      for (const el of els) sizes.observe(el);
    },
    pin,
    anchorHere,
    where,
    goTo,
    navigate,
    // The page has arrived (nothing near the screen pending): a saved place is no longer
    // re-applied, the anchor holds from now on.
    settle() {
      if (!traversing) restoring = null;
    },
    // A step back or forward is still being placed (the page is not settled).
    placing: () => traversing > 0,
    onPlacing(fn) {
      placingListeners.push(fn);
    },
  };
}

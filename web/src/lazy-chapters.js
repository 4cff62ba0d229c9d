// The page's chapters, mounted when they come near the screen.
//
// Every chapter gets its <section id="<id>"> at once, holding only its title and a reserved
// height (the height it had the last time it was drawn at this width and in this language,
// else an estimate), so the table of contents, #fragment links and the scroll bar work
// before any chapter code has loaded. A chapter's code and prose are loaded (dynamic import,
// one chunk each) and it is mounted when its section comes within a screen of the viewport,
// one chapter per task so that the page keeps answering input. A chapter above the viewport
// that changes height (mounted, or its maths re-laid out when the fonts arrive) does not move
// what the reader sees: `position` (reading-position.js) watches the sections and is told
// before each change of ours (pin). Printing mounts the rest first (beforeprint; their code
// is fetched while the page is idle, after the first screen is ready).
//
//   const lazy = createLazyChapters({ main, list, i18n, position, mount: (c, section, module) => ... });
//   await lazy.mount(id);          // load and mount one now (and what it needs)
//   lazy.observe();                // from now on, mount what comes near the screen
//   lazy.onScreen(id, fn);         // fn now if the chapter is in view, at the next idle time if
//                                  // it is near the screen, else when it comes near
//
// body[data-settled="true"] says that nothing is pending near the screen: no chapter near it
// waits to be loaded or mounted, and no redraw of one is queued. ("false" while something is;
// the browser tests wait for it instead of for a time.)
import { printing } from './kit/print.js';
import { LANGS } from './kit/i18n.js';
import { setHeading } from './kit/plain.js';

const NEAR = '75% 0px 75% 0px'; // "near the screen": three quarters of a screen above and below
const idle = (fn) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 50));
const nextTask = () => new Promise((r) => {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => r();
  ch.port2.postMessage(0);
});

// `above`: elements above the chapters whose height may change (the header, a notice), so
// that they keep the reading position too.
export function createLazyChapters({ main, list, i18n, position, mount, onMounted = () => {}, above = [] }) {
  // (before a change of ours: the reading position reads what is on screen now)
  const pin = () => position.pin();
  const entries = new Map(); // id -> {c, section, state: 'placeholder' | 'mounted', module}
  const near = new Set(); // ids of sections near the screen
  const later = new Map(); // id -> fn to run when the chapter comes near the screen
  const inView = new Set(); // ids of sections in the viewport itself
  const soon = new Map(); // id -> fn to run when the main thread is next idle (near, not in view)
  const heights = readHeights();

  // The sections the page's HTML already holds (the build writes them: scripts/chapters.mjs
  // pageShell) are taken over; others (a chapter not in this view: ?embed=) go.
  const ids = new Set(list.map((c) => c.id));
  for (const s of main.querySelectorAll('section.chapter')) if (!ids.has(s.id)) s.remove();
  for (const c of list) {
    let section = document.getElementById(c.id);
    if (!section) {
      section = document.createElement('section');
      section.id = c.id;
      section.className = 'chapter placeholder';
      section.setAttribute('aria-busy', 'true');
      section.style.setProperty('--reserve-wide', `${c.height[0]}px`);
      section.style.setProperty('--reserve-narrow', `${c.height[1]}px`);
      main.append(section);
    }
    const h2 = section.querySelector('h2') ?? section.appendChild(document.createElement('h2'));
    section.lang = i18n.lang; // the language of what the section shows (below)
    entries.set(c.id, { c, section, h2, state: 'placeholder', module: null });
    // Keyboard: a chapter not mounted yet is one tab stop, so that Tab from the chapter
    // before it does not leave the page (focus went to <body>, then the skip link at the
    // top); reaching it mounts the chapter and moves on to its first control (Shift+Tab:
    // its last).
    section.tabIndex = 0;
    section.addEventListener('focus', () => enter(c.id));
  }
  const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
  let backwards = false; // the last Tab was Shift+Tab
  let tabAt = -Infinity; // when it was pressed
  addEventListener('keydown', (ev) => {
    if (ev.key !== 'Tab') return;
    backwards = ev.shiftKey;
    tabAt = performance.now();
  }, true);
  async function enter(id) {
    const e = entries.get(id);
    // Only for Tab, once the page mounts chapters: a fragment link also focuses its
    // section, before the core has loaded (main.js mounts that one itself).
    if (e.state !== 'placeholder' || !observing || performance.now() - tabAt > 1000) return;
    const back = backwards;
    await mountNow(id);
    // (mounting took the section out of the tab order, so the focus may have fallen to <body>)
    const at = document.activeElement;
    if (at && at !== e.section && at !== document.body) return; // the reader moved on meanwhile
    // (a control in a closed <details> or otherwise not rendered takes no focus: the next one)
    const all = [...e.section.querySelectorAll(FOCUSABLE)].filter((n) => (n.checkVisibility ? n.checkVisibility() : n.getClientRects().length));
    for (const n of back ? all.reverse() : all) {
      n.focus();
      if (document.activeElement === n) return;
    }
    const title = e.section.querySelector('h2'); // nothing to focus: the chapter's title then
    if (title) {
      title.tabIndex = -1;
      title.focus();
    }
  }
  relabel();
  reserve();

  // The reserved heights: measured ones where known (per width class and language), else
  // the estimates (styles.css, from chapter.json).
  function reserve() {
    for (const e of entries.values())
      if (e.state === 'placeholder') {
        const known = heights[key(e.c.id)];
        e.section.style.minHeight = known ? `${Math.round(known)}px` : '';
      }
  }
  function relabel() {
    for (const e of entries.values()) {
      const t = e.state === 'placeholder' && i18n.t(`${e.c.id}.title`);
      if (t) setHeading(e.h2, t); // (its TeX as plain text: KaTeX is in no chunk here)
      if (e.state === 'placeholder') {
        e.section.lang = i18n.lang;
        // printed before its code arrived (the browser's menu: beforeprint cannot wait): a
        // line saying so, not pages of blank reserved space (styles.css)
        e.section.dataset.printNote = i18n.t('common.chapterNotLoaded');
      }
    }
  }
  // Every section carries the language of what it shows (lang="ko" | "en"): a mounted chapter
  // that a switch redraws later (off screen) still shows, and is marked as, the language it
  // was drawn in, and <html lang> changing then restyles and lays out none of its text (at
  // #multi-head that was most of a switch: the whole page's text re-shaped for the new
  // locale, :lang(ko) line breaking included).
  i18n.onChange(() => {
    pin();
    relabel();
    reserve();
    for (const e of entries.values()) if (e.state === 'failed') showError(e);
    // after the chapters' own listeners: those with nothing left to redraw speak the new language
    queueMicrotask(() => {
      for (const e of entries.values()) if (e.state === 'mounted' && !later.has(e.c.id) && !soon.has(e.c.id)) e.section.lang = i18n.lang;
    });
  });

  // ---- loading and mounting ---------------------------------------------------------------------
  function load(id) {
    const e = entries.get(id);
    e.loading ??= e.c.load().then((m) => (e.module = m.default));
    return Promise.all([e.loading, i18n.load(i18n.lang, [id])]);
  }
  const ready = (id) => !!entries.get(id)?.module && i18n.loaded(i18n.lang, id);
  // A chapter and the chapters it needs (mounted with it), those on this page.
  const group = (id) => [id, ...entries.get(id).c.needs.filter((n) => entries.has(n))];

  // A chapter whose code or prose could not be loaded, or whose mount threw: it says so where
  // it is (its title, then the error), and the other chapters go on mounting. (A dynamic
  // import that failed fails again in the same document: the message asks for a reload.)
  function fail(id, err) {
    const e = entries.get(id);
    if (e.state === 'failed') return;
    pin();
    console.error(err);
    e.state = 'failed';
    e.error = err?.message ?? String(err);
    e.section.classList.remove('placeholder');
    e.section.style.minHeight = '';
    e.section.removeAttribute('aria-busy');
    e.section.removeAttribute('tabindex');
    delete e.section.dataset.printNote;
    e.section.dataset.mounted = 'failed';
    showError(e);
  }
  function showError(e) {
    e.section.textContent = '';
    const h2 = document.createElement('h2');
    setHeading(h2, i18n.t(`${e.c.id}.title`)); // (its TeX as plain text: KaTeX is in no chunk here)
    const p = document.createElement('p');
    p.className = 'chapter-error';
    p.setAttribute('role', 'alert');
    p.textContent = i18n.t('common.chapterFailed', { message: e.error });
    e.section.append(h2, p);
    e.section.lang = i18n.lang;
  }

  // Mounts a loaded chapter now (synchronously).
  function mountLoaded(id) {
    const e = entries.get(id);
    if (!e || e.state !== 'placeholder') return;
    pin();
    e.state = 'mounted';
    e.section.textContent = '';
    delete e.section.dataset.printNote;
    e.section.classList.remove('placeholder');
    e.section.style.minHeight = '';
    e.section.removeAttribute('aria-busy');
    e.section.removeAttribute('tabindex');
    e.section.lang = i18n.lang;
    try {
      mount(e.c, e.section, e.module);
    } catch (err) {
      fail(id, err);
      return;
    }
    e.section.dataset.mounted = 'true';
    onMounted(id);
  }

  // Loads (code, prose, and the chapters it needs) and mounts; resolves when mounted, or
  // when it failed (the chapter shows the error).
  let mounting = 0; // mountNow() calls under way
  async function mountNow(id) {
    if (!entries.has(id)) return;
    const ids = group(id);
    mounting++;
    markSettled();
    try {
      // again if the language changed meanwhile; a chapter needed that failed does not hold this one
      while (!ids.every((x) => ready(x) || entries.get(x).state === 'failed'))
        await Promise.all(ids.map((x) => load(x).catch((err) => fail(x, err))));
      // one chapter per task: a chapter and the one it needs are two long tasks, not one
      for (const [k, x] of ids.entries()) {
        if (k) await nextTask();
        mountLoaded(x);
      }
    } finally {
      mounting--;
      markSettled();
    }
  }

  // The chapters near the screen, one per task. Whichever near chapter has its code and prose
  // here mounts next: those in the viewport first, then in reading order. A chapter the
  // reader scrolled past is no longer near and waits until it comes near again (a fast
  // scroll down twenty chapters puts none of them ahead of the one the reader stops at), and
  // loads run side by side, so a chapter whose code is slow, never arrives or fails holds
  // back no other.
  let pumping = false;
  const requested = new Set(); // `${lang}/${id}` being loaded for the pump
  function request(id) {
    const k = `${i18n.lang}/${id}`;
    if (requested.has(k)) return;
    requested.add(k);
    load(id).then(() => {
      requested.delete(k);
      pump();
    }, (err) => {
      requested.delete(k);
      fail(id, err);
      pump();
    });
  }
  const waiting = () => [...entries.values()].filter((e) => e.state === 'placeholder' && near.has(e.c.id))
    .sort((a, b) => inView.has(b.c.id) - inView.has(a.c.id)); // (stable: reading order otherwise)
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        const next = waiting().find((e) => {
          const ids = group(e.c.id).filter((x) => entries.get(x).state === 'placeholder');
          for (const x of ids) if (!ready(x)) request(x);
          return ids.every(ready);
        });
        if (!next) break;
        await mountNow(next.c.id);
        await nextTask();
      }
    } finally {
      pumping = false;
    }
    if (!waiting().length) for (const fn of settled.splice(0)) fn();
    markSettled();
  }
  const settled = []; // resolved once no chapter near the screen is waiting
  function markSettled() {
    const now = String(observing && !firstBatch && !pumping && !mounting && !soon.size && !waiting().length && !position.placing?.());
    if (document.body.dataset.settled !== now) document.body.dataset.settled = now;
    if (now === 'true') position.settle(); // (a saved place put back is held by the anchor from now on)
  }

  let firstBatch = null; // resolves observe() once the first report is handled
  let observing = false; // observe() was called: the core is loaded, chapters may mount
  const io = typeof IntersectionObserver === 'function' ? new IntersectionObserver((records) => {
    for (const r of records) {
      const id = r.target.id;
      if (r.isIntersecting) near.add(id);
      else near.delete(id);
    }
    for (const e of entries.values()) if (near.has(e.c.id) && later.has(e.c.id) && e.state === 'mounted') run(later, e.c.id);
    if (firstBatch) {
      settled.push(firstBatch);
      firstBatch = null;
    }
    pump();
  }, { rootMargin: NEAR }) : null;
  // What is in the viewport itself: onScreen() runs these at once and the chapters that are
  // only near it once the main thread is idle after that (a language switch at a fragment
  // redraws the chapter being read in its own frame, then its neighbours).
  const view = io ? new IntersectionObserver((records) => {
    for (const r of records) {
      const id = r.target.id;
      if (r.isIntersecting) {
        inView.add(id);
        if (soon.has(id)) runSoon(id);
      } else inView.delete(id);
    }
    markSettled();
  }, { rootMargin: '-1px 0px' }) : null; // (a section that only touches the viewport's edge is not in it)
  // (a chapter's callback that throws is reported and stops nothing else)
  function run(map, id) {
    const fn = map.get(id);
    map.delete(id);
    if (fn) pin();
    try {
      fn?.();
    } catch (err) {
      console.error(err);
    }
    const e = entries.get(id);
    if (e?.state === 'mounted') e.section.lang = i18n.lang; // redrawn in it
  }
  const runSoon = (id) => run(soon, id);
  let soonPending = false;
  function scheduleSoon() {
    markSettled();
    if (soonPending) return;
    soonPending = true;
    // once the main thread is idle: after the frames that show the chapters in view (and
    // their follow-ups, such as the scroll cues' check) have been painted
    idle(() => {
      soonPending = false;
      for (const id of [...soon.keys()]) runSoon(id);
      markSettled();
    });
  }

  // A mounted chapter's height is remembered for the next visit's placeholders (the reading
  // position, reading-position.js, watches the same elements and keeps the place).
  const sizes = typeof ResizeObserver === 'function' ? new ResizeObserver((records) => {
    if (printing.on) return; // (the print layout is not the screen's)
    for (const r of records) {
      const h = r.borderBoxSize?.[0]?.blockSize ?? r.contentRect.height;
      if (h > 0 && r.target.dataset?.mounted === 'true') {
        heights[key(r.target.id)] = Math.round(h);
        // Once drawn, a chapter far from the screen is skipped by style, layout and paint
        // (content-visibility: auto, styles.css) at the height it last had when drawn
        // ("auto": the browser remembers it), so that an edit elsewhere does not walk it.
        // (The size given is the content's, without the padding: a chapter skipped before the
        // browser remembered its height was 24 px taller than drawn, and moved the page.)
        if (!r.target.classList.contains('skippable')) {
          const content = r.contentBoxSize?.[0]?.blockSize ?? r.contentRect.height;
          r.target.style.containIntrinsicBlockSize = `auto ${Math.round(content)}px`;
          r.target.classList.add('skippable');
        }
      }
    }
    saveHeights();
  }) : { observe() {} };
  const sections = [...entries.values()].map((e) => e.section);
  position.watch([...above, ...sections]);
  position.onPlacing?.(() => markSettled()); // (a step back or forward: not settled until placed)
  for (const n of sections) sizes.observe(n);

  function key(id) {
    return `${matchMedia('(max-width: 700px)').matches ? 'narrow' : 'wide'}:${i18n.lang}:${id}`;
  }
  function readHeights() {
    try {
      return JSON.parse(localStorage.getItem('attention-explorer:heights') ?? '{}') ?? {};
    } catch {
      return {};
    }
  }
  let saveTimer = 0;
  function writeHeights() {
    clearTimeout(saveTimer);
    saveTimer = 0;
    try {
      localStorage.setItem('attention-explorer:heights', JSON.stringify(heights));
    } catch { /* private mode, full storage: estimates next time */ }
  }
  function saveHeights() {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(writeHeights, 1000);
  }
  // (a reload within the second after a change still finds the heights it had)
  addEventListener('pagehide', () => saveTimer && writeHeights());

  // ---- printing and idle prefetch -------------------------------------------------------------
  // beforeprint cannot wait: the chapters whose code is here are mounted at once; the code of
  // the others is fetched while the page is idle (prefetch), so that printing after the first
  // seconds shows everything. Ctrl/Cmd+P waits for whatever is still missing.
  let prefetched = false;
  function prefetch() {
    if (prefetched) return;
    prefetched = true;
    const rest = list.map((c) => c.id).filter((id) => !ready(id));
    const step = () => {
      const id = rest.shift();
      if (id) load(id).then(() => idle(step), () => idle(step));
      else {
        // and the other language's prose of what is mounted, so that a switch is instant
        const mountedIds = [...entries.values()].filter((e) => e.state === 'mounted').map((e) => e.c.id);
        Promise.all(LANGS.filter((l) => l !== i18n.lang).map((l) => i18n.load(l, mountedIds))).catch(() => {});
        document.body.dataset.prefetched = 'true'; // for the tests: printing can show all
      }
    };
    idle(step);
  }
  function mountAllLoaded() {
    for (const e of entries.values()) if (ready(e.c.id)) mountLoaded(e.c.id);
    for (const id of [...later.keys()]) run(later, id);
    for (const id of [...soon.keys()]) runSoon(id);
  }
  addEventListener('beforeprint', mountAllLoaded);
  addEventListener('keydown', async (ev) => {
    if (ev.key !== 'p' || !(ev.ctrlKey || ev.metaKey) || ev.altKey || ev.shiftKey) return;
    if ([...entries.values()].every((e) => e.state !== 'placeholder')) return;
    ev.preventDefault();
    prefetched = true;
    await Promise.all(list.map((c) => load(c.id).catch((err) => fail(c.id, err))));
    mountAllLoaded();
    print();
  });

  return {
    sections: () => [...entries.values()].map((e) => e.section),
    isMounted: (id) => entries.get(id)?.state === 'mounted',
    mounted: () => [...entries.values()].filter((e) => e.state === 'mounted').map((e) => e.c.id),
    mount: mountNow,
    // From now on, mount what comes near the screen; resolves once the first batch is in.
    observe() {
      observing = true;
      return new Promise((resolve) => {
        if (!io) {
          // No IntersectionObserver: everything, one chapter per task.
          for (const c of list) near.add(c.id);
          settled.push(resolve);
          pump();
          return;
        }
        // The observer reports every section once at first; resolve after that batch.
        firstBatch = resolve;
        for (const e of entries.values()) {
          io.observe(e.section);
          view.observe(e.section);
        }
      });
    },
    load: (id) => (entries.has(id) ? load(id) : Promise.resolve()),
    onScreen(id, fn) {
      if (!io || inView.has(id) || printing.on) {
        later.delete(id);
        pin();
        soon.delete(id);
        fn();
        const e = entries.get(id);
        if (e?.state === 'mounted') e.section.lang = i18n.lang;
      } else if (near.has(id)) {
        later.delete(id);
        soon.set(id, fn);
        scheduleSoon();
      } else later.set(id, fn);
      markSettled();
    },
    prefetch,
    // Which chapter a fragment names: a chapter's id, or an element inside one (its id
    // starts with the chapter's, e.g. two-keys-exercise).
    owner(fragment) {
      if (entries.has(fragment)) return fragment;
      let best = null;
      for (const id of entries.keys()) if (fragment.startsWith(`${id}-`) && (!best || id.length > best.length)) best = id;
      return best;
    },
  };
}

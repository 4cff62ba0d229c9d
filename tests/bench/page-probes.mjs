// In-page probes of the page benchmark (page.mjs) and its profiler (page-profile.mjs):
// functions serialised into the page by playwright (no closures over module scope).
// Installed before any script of the page runs: long tasks, LCP, layout shifts, and the first
// animation frame in which the target chapter has content.
export function bootProbe() {
  const b = (window.__boot = { long: [], lcp: 0, cls: 0, shifts: [], ready: null, mountedAtReady: 0, target: null });
  const obs = (type, fn) => {
    try {
      new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({ type, buffered: true });
    } catch { /* not supported */ }
  };
  obs('longtask', (e) => b.long.push([Math.round(e.startTime), Math.round(e.duration)]));
  obs('largest-contentful-paint', (e) => (b.lcp = Math.round(e.startTime)));
  obs('layout-shift', (e) => {
    if (e.hadRecentInput) return;
    b.cls += e.value;
    b.shifts.push([Math.round(e.startTime), +e.value.toFixed(4)]);
  });
  // A chapter "has content" once it holds its title and its body (a placeholder reserving
  // its space holds a title at most).
  b.filled = (s) => !!s.querySelector('h2')?.textContent.trim() && s.querySelectorAll('p, [data-grid], [data-plot], input').length > 3;
  const frame = () => {
    if (b.ready === null) {
      const id = location.hash.slice(1) || document.querySelector('#toc a[href^="#"]')?.getAttribute('href').slice(1)
        || new URLSearchParams(location.search).get('embed');
      const s = id && document.getElementById(id);
      if (s && b.filled(s)) {
        b.ready = Math.round(performance.now());
        b.target = id;
        b.mountedAtReady = [...document.querySelectorAll('section.chapter')].filter(b.filled).length;
      }
    }
    if (!b.stop) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

// Installed into a page after load: the edit and language-switch timers.
export function editProbe() {
  const frameEnd = () => new Promise((r) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => r(performance.now());
    ch.port2.postMessage(0);
  }));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // act() runs at the start of a frame (in a rAF callback, where Chromium dispatches input);
  // the time runs until the end of the last frame in which `root`'s DOM changed.
  // `inScope(node)`, if given, also times the last frame that changed a node it accepts
  // (msScoped: what was on screen, for a language switch).
  async function timed(act, rootEl, inScope = null) {
    let mutated = false, scoped = false, mutations = 0;
    const mo = new MutationObserver((records) => {
      mutated = true;
      mutations += records.length;
      if (inScope && !scoped) scoped = records.some((r) => inScope(r.target));
    });
    mo.observe(rootEl, { subtree: true, childList: true, attributes: true, characterData: true });
    const [t0, t1] = await new Promise((r) => requestAnimationFrame(() => {
      const start = performance.now();
      performance.mark('bench-edit-start');
      act();
      const ch = new MessageChannel();
      ch.port1.onmessage = () => r([start, performance.now()]);
      ch.port2.postMessage(0);
    }));
    let last = t1, lastScoped = t1;
    let frames = 1;
    let quiet = 0;
    for (let k = 0; k < 30 && quiet < 2; k++) {
      mutated = scoped = false;
      const t = await frameEnd();
      if (scoped) lastScoped = t;
      if (mutated) {
        last = t;
        frames++;
        quiet = 0;
      } else quiet++;
    }
    mo.disconnect();
    performance.mark('bench-edit-end', { startTime: last });
    // mutations: the DOM mutation records of the edit (writes, whatever the machine's load)
    return { ms: last - t0, frames, mutations, ...(inScope && { msScoped: lastScoped - t0 }) };
  }
  const visible = (n) => n.checkVisibility?.() ?? n.offsetParent !== null;
  const usable = (n) => visible(n) && !n.disabled && !n.readOnly;
  const controlsOf = (section) => ({
    cell: [...section.querySelectorAll('[data-grid] td input:not(.answer)')].filter(usable),
    toggle: [...section.querySelectorAll('input[type="checkbox"]')].filter(usable),
    slider: [...section.querySelectorAll('input[type="range"]')].filter(usable),
    select: [...section.querySelectorAll('select'), ...groupsOf(section)].filter((n) => (n.tagName ? usable(n) : n.every(usable))),
    number: [...section.querySelectorAll('label.number input')].filter(usable),
  });
  function groupsOf(section) {
    const by = new Map();
    for (const r of section.querySelectorAll('input[type="radio"]')) by.set(r.name, [...(by.get(r.name) ?? []), r]);
    return [...by.values()].filter((g) => g.length > 1);
  }
  const numberOf = (t) => Number(String(t).replace('\u2212', '-'));
  const setValue = (input, v) => {
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  // A plan of edits for one kind: [[control, act], ...], returning the state to where it
  // started (pairs, or a slider dragged up and back).
  function plan(kind, list, n) {
    const out = [];
    let c = 0;
    while (out.length < n && list.length) {
      const ctl = list[c++ % list.length];
      if (kind === 'cell' || kind === 'number') {
        const v0 = numberOf(ctl.value);
        const v1 = Number.isFinite(v0) ? v0 + 1 : 1;
        out.push([ctl, () => setValue(ctl, v1)], [ctl, () => setValue(ctl, v0)]);
      } else if (kind === 'toggle') out.push([ctl, () => ctl.click()], [ctl, () => ctl.click()]);
      else if (kind === 'slider') {
        const min = Number(ctl.min || 0), max = Number(ctl.max || 100), step = Number(ctl.step || 1);
        const v0 = Number(ctl.value);
        const dir = v0 + step <= max ? 1 : -1;
        const m = Math.max(1, Math.min(5, Math.floor((dir > 0 ? max - v0 : v0 - min) / step)));
        for (let k = 1; k <= m; k++) out.push([ctl, () => setValue(ctl, +(v0 + dir * k * step).toFixed(6))]);
        for (let k = m - 1; k >= 0; k--) out.push([ctl, () => setValue(ctl, +(v0 + dir * k * step).toFixed(6))]);
      } else if (kind === 'select') {
        if (ctl.tagName === 'SELECT') {
          const i0 = ctl.selectedIndex;
          for (let k = 1; k <= ctl.options.length; k++) {
            const i = (i0 + k) % ctl.options.length;
            out.push([ctl, () => {
              ctl.selectedIndex = i;
              ctl.dispatchEvent(new Event('input', { bubbles: true }));
              ctl.dispatchEvent(new Event('change', { bubbles: true }));
            }]);
          }
        } else {
          const i0 = Math.max(0, ctl.findIndex((r) => r.checked));
          for (let k = 1; k <= ctl.length; k++) out.push([ctl[0], () => ctl[(i0 + k) % ctl.length].click()]);
        }
      }
    }
    return out;
  }
  window.__bench = {
    kinds: (id) => {
      const s = document.getElementById(id);
      return Object.fromEntries(Object.entries(controlsOf(s)).map(([k, v]) => [k, v.length]));
    },
    async edits(id, kind, n, gap) {
      const section = document.getElementById(id);
      const steps = plan(kind, controlsOf(section)[kind], n);
      const samples = [];
      for (const [ctl, act] of steps) {
        if (!ctl.isConnected) continue; // the chapter rebuilt its controls
        ctl.scrollIntoView({ block: 'center' });
        if (kind === 'cell' || kind === 'number') ctl.focus({ preventScroll: true });
        await frameEnd();
        await frameEnd();
        samples.push(await timed(act, section));
        await sleep(gap);
      }
      document.activeElement?.blur?.();
      return samples;
    },
    async lang(gap) {
      // on screen: the chapters and the page's parts in the viewport when the toggle is
      // clicked (the header, or the tool bar docked at the top once it has scrolled away)
      const shown = [...document.querySelectorAll('section.chapter, .site-header, .site-tools, #toc')].filter((s) => {
        const r = s.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.height > 0;
      });
      const onScreen = (n) => {
        const e = n.nodeType === 1 ? n : n.parentElement;
        return shown.some((s) => s.contains(e));
      };
      const r = await timed(() => document.getElementById('lang-toggle').click(), document.body, onScreen);
      await sleep(gap);
      return r;
    },
  };
}


// (Node side) A chapter at 1280 × 900 with the boot probe, alone (?embed=) or inside the full
// page, once its section has content: {context, page}. The profiling tools' common opening.
export async function openChapter(browser, url, id, { alone = true } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(bootProbe);
  await page.goto(`${url}${alone ? `?embed=${id}` : ''}#${id}`);
  await page.waitForFunction((i) => {
    const s = document.getElementById(i);
    return s && window.__boot.filled(s);
  }, id, { timeout: 60000 });
  return { context, page };
}

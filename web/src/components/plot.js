// Plot: a small SVG chart for curves, histograms and 2-D points, with axes, ticks,
// a legend and an accessible text summary. d3 scales do the mapping; numbers come
// from the core.
//
//   const p = createPlot({ title: () => 'loss', x: { label: () => 'step' }, y: { label: () => 'loss', type: 'log' } });
//   container.append(p.el);
//   p.update({ series: [{ name: 'with √d_k', points: [[x, y], ...], kind: 'line' }],
//              bars: [{ x0, x1, y }], marks: [{ x, y, label }] , polygons: [{ points, name }] });
//
// kinds: 'line' (default; a line of one point is drawn as a dot), 'points'; bars are drawn as a histogram; polygons filled.
// A series with dashed: true is drawn dashed, and so is its legend swatch.
// x.type / y.type: 'linear' (default) or 'log'. domain: [lo, hi] to fix an axis;
// x.ticks / y.ticks: explicit tick values (e.g. powers of two; those outside the domain are
// dropped); x.tickFormat / y.tickFormat: v -> label.
//
// A figure that is still empty says so: update({ message }) writes the text across the plot
// area (and into the figure's description), e.g. what the figure will show and how to start
// it ("Press Run: the time of each kernel appears here"). A plot that has not been updated
// by the end of its mount draws its axes once, with createPlot's `empty()` as the message.
//
// Draggable points: pass onDrag to createPlot and handles to update. A handle is moved
// with the pointer or, once focused (Tab), with the arrow keys (step `dragStep`, Shift
// ×10); onDrag(id, x, y) receives the new data coordinates and the chapter decides what
// to do with them (usually: store them and call update again). Fix both axes' domains so
// the picture does not rescale under the pointer.
//   const p = createPlot({ ..., x: { domain: [-1, 2] }, y: { domain: [-1, 2] }, onDrag: (id, x, y) => ... });
//   p.update({ handles: [{ id: 'v1', x: 1, y: 0, label: 'v₁', ariaLabel: 'Value 1', labelDir: [1, -1] }] });
import { scaleLinear, scaleLog } from 'd3-scale';
import { fmt } from '../format.js';
import { setText } from '../kit/prose.js';
import { svgToString, svgToPng, download, closeOnEscape } from './figure-export.js';
import { whenNear } from './nearby.js';

const NS = 'http://www.w3.org/2000/svg';
// A polyline's path, M x,y L x,y …, its numbers rounded to 3 decimals: what d3-shape's
// line() draws by default, without the library (all of d3-shape and d3-path went into the
// bundles for this one use: 3.7 KB of the one-file widget's gzip).
const round3 = (v) => Math.round(v * 1e3) / 1e3;
const polyline = (points) => (points.length ? `M${points.map(([x, y]) => `${round3(x)},${round3(y)}`).join('L')}` : '');
const PALETTE = ['#1f5fbf', '#c2760c', '#2e8b6e', '#b3416b', '#5b4fb3', '#555b66']; // distinguishable, CB-safe order
let plotCount = 0;
// A mark label's drawn width by its text (.mark-label: one font and size on every plot),
// once the page's fonts are in.
const labelWidths = new Map();

function svgEl(tag, attrs = {}, parent) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (parent) parent.append(n);
  return n;
}

// Draws into `parent` reusing its children in order: the k-th element drawn takes the k-th
// child already there when its tag matches (attributes written only where they differ, those
// no longer given removed), else a new one is made; done() removes what is left over. A plot
// redrawn on every edit then changes a few attributes instead of building its SVG anew (no
// garbage per edit, no style and layout of new nodes). put(tag, attrs, text, keep) -> the
// element; `keep`: attributes the caller sets afterwards (not removed).
function reuse(parent) {
  let next = parent.firstElementChild;
  const put = (tag, attrs = {}, text = undefined, keep = []) => {
    let n = next;
    if (n && n.localName === tag) {
      next = n.nextElementSibling;
      for (const a of [...n.attributes]) if (!(a.name in attrs) && !keep.includes(a.name)) n.removeAttribute(a.name);
      for (const [k, v] of Object.entries(attrs)) if (n.getAttribute(k) !== String(v)) n.setAttribute(k, v);
    } else {
      n = svgEl(tag, attrs);
      parent.insertBefore(n, next);
    }
    if (text !== undefined) setText(n, text);
    return n;
  };
  put.done = () => {
    while (next) {
      const n = next;
      next = n.nextElementSibling;
      n.remove();
    }
  };
  return put;
}

// tools (default on): a "⋯" menu that saves the figure as SVG or PNG (labels from
// toolText(key), key = menu | svg | png; fileName without extension).
const PLOT_TEXT = { menu: 'Figure tools: save as image', svg: 'SVG image', png: 'PNG image' };
export function createPlot({ title = () => '', x = {}, y = {}, width = 520, height = 300, testId, square = false,
  tools = true, toolText = (k) => PLOT_TEXT[k], fileName = testId ?? 'figure', onDrag = null, dragStep = 0.1, empty = null } = {}) {
  const id = `plot-${++plotCount}`;
  const el = document.createElement('figure');
  el.className = 'plot';
  if (testId) el.dataset.plot = testId;
  const cap = document.createElement('figcaption');
  // With draggable handles the figure has focusable parts, so it is a group, not an image.
  const svg = svgEl('svg', { viewBox: `0 0 ${width} ${height}`, role: onDrag ? 'group' : 'img', 'aria-labelledby': `${id}-t ${id}-d` });
  const t = svgEl('title', { id: `${id}-t` }, svg);
  const desc = svgEl('desc', { id: `${id}-d` }, svg);
  const legend = document.createElement('div');
  legend.className = 'plot-legend';
  el.append(cap);
  let menu = null;
  const menuButtons = {};
  if (tools) {
    menu = closeOnEscape(document.createElement('details'));
    menu.className = 'grid-tools';
    menu.dataset.tools = '';
    const summary = document.createElement('summary');
    summary.textContent = '⋯';
    const list = document.createElement('div');
    list.className = 'grid-tools-menu';
    menu.append(summary, list);
    for (const kind of ['svg', 'png']) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.act = kind;
      b.addEventListener('click', async () => {
        menu.open = false;
        later.flush();
        const out = svgToString(svg);
        download(kind === 'svg' ? new Blob([out.svg], { type: 'image/svg+xml' }) : await svgToPng(out.svg, out.width, out.height), `${fileName}.${kind}`, el);
      });
      list.append(b);
      menuButtons[kind] = b;
    }
    el.append(menu);
  }
  el.append(svg, legend);
  const relabel = () => {
    if (!menu) return;
    // (called by every draw: written only when the words changed, a language switch)
    const sm = menu.querySelector('summary');
    const name = toolText('menu') ?? PLOT_TEXT.menu;
    if (sm.getAttribute('aria-label') !== name) sm.setAttribute('aria-label', name);
    if (sm.title !== name) sm.title = name;
    for (const [k, b] of Object.entries(menuButtons)) setText(b, toolText(k) ?? PLOT_TEXT[k]);
  };
  relabel();
  const m = { top: 12, right: 14, bottom: 42, left: 56 };

  function scale(axis, lo, hi, range) {
    const s = axis.type === 'log' ? scaleLog() : scaleLinear();
    const dom = axis.domain ?? [lo, hi];
    s.domain(dom).range(range);
    if (!axis.domain && axis.type !== 'log') s.nice();
    return s;
  }

  let scales = null; // the last update's {sx, sy}, for turning pointer positions into data
  let dragging = null; // id of the handle under the pointer
  if (onDrag) {
    const toData = (e) => {
      const ctm = svg.getScreenCTM();
      if (!ctm || !scales) return null;
      const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
      return [scales.sx.invert(pt.x), scales.sy.invert(pt.y)];
    };
    svg.addEventListener('pointerdown', (e) => {
      const h = e.target.closest?.('[data-handle]');
      if (!h) return;
      e.preventDefault();
      dragging = h.dataset.handle;
      svg.setPointerCapture(e.pointerId);
      h.focus({ preventScroll: true });
    });
    svg.addEventListener('pointermove', (e) => {
      if (dragging == null) return;
      const p = toData(e);
      if (p) onDrag(dragging, p[0], p[1]);
    });
    const stop = (e) => {
      dragging = null;
      if (svg.hasPointerCapture?.(e.pointerId)) svg.releasePointerCapture(e.pointerId);
    };
    svg.addEventListener('pointerup', stop);
    svg.addEventListener('pointercancel', stop);
    svg.addEventListener('keydown', (e) => {
      const h = e.target.closest?.('[data-handle]');
      const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
      if (!h || !dir) return;
      e.preventDefault();
      e.stopPropagation(); // not the page's stepper keys
      const step = dragStep * (e.shiftKey ? 10 : 1);
      onDrag(h.dataset.handle, Number(h.dataset.x) + dir[0] * step, Number(h.dataset.y) + dir[1] * step);
    });
  }

  let axisGroup = null, dataGroup = null, lastAxisKey = '', lastKey = '', lastLegendKey = '';
  function draw(args = {}) {
    // Render only what changed: the same data, size and words draw nothing.
    const key = JSON.stringify([args, width, title(), x.label?.(), y.label?.(), x.domain, y.domain, x.ticks, y.ticks, toolText('menu')]);
    if (key === lastKey && scales) return scales;
    lastKey = key;
    const { series = [], bars = [], marks = [], polygons = [], handles = [], summary = '', message = '' } = args;
    relabel();
    setText(cap, title());
    setText(t, title());
    setText(desc, [message, summary].filter(Boolean).join(' '));
    const focused = svg.contains(document.activeElement) ? document.activeElement.dataset?.handle : undefined;
    const xs = [], ys = [];
    for (const s of series) for (const [a, b] of s.points) if (Number.isFinite(a) && Number.isFinite(b)) (xs.push(a), ys.push(b));
    for (const b of bars) (xs.push(b.x0, b.x1), ys.push(0, b.y));
    for (const mk of [...marks, ...handles]) (xs.push(mk.x), ys.push(mk.y));
    for (const p of polygons) for (const [a, b] of p.points) (xs.push(a), ys.push(b));
    const finite = (arr, log) => arr.filter((v) => Number.isFinite(v) && (!log || v > 0));
    const fx = finite(xs, x.type === 'log'), fy = finite(ys, y.type === 'log');
    const ext = (arr, dflt) => (arr.length ? [Math.min(...arr), Math.max(...arr)] : dflt);
    let [x0, x1] = ext(fx, [0, 1]);
    let [y0, y1] = ext(fy, [0, 1]);
    if (x0 === x1) (x0 -= 1, x1 += 1);
    if (y0 === y1) (y0 = y0 > 0 && y.type === 'log' ? y0 / 2 : y0 - 1, y1 += 1);
    let left = m.left, right = width - m.right, top = m.top, bottom = height - m.bottom;
    // Room for the longest y tick label (about 6.5 px per character at 11 px) beside the
    // rotated axis label, so "100 MB" does not run into it.
    // A log axis is labelled at powers of ten, or at 1, 2 and 5 times them when fewer than two
    // powers of ten fall inside it (a short run's times, 6–44 ms, get 10 and 20 as well).
    const yTickValues = (s) => {
      if (y.ticks) return y.ticks.filter((v) => inDomain(s, v));
      const all = s.ticks(5);
      if (y.type !== 'log') return all;
      const decades = all.filter((v) => Number.isInteger(Math.log10(v)));
      return decades.length >= 2 ? decades : all.filter((v) => [1, 2, 5].includes(Math.round(v / 10 ** Math.floor(Math.log10(v) + 1e-9))));
    };
    const yLabelChars = Math.max(0, ...yTickValues(scale(y, y0, y1, [bottom, top])).map((v) => (y.tickFormat ?? tickFmt)(v).length));
    left = Math.max(left, Math.ceil(26 + 6.5 * yLabelChars));
    if (square) {
      const side = Math.min(right - left, bottom - top);
      right = left + side;
      bottom = top + side;
    }
    // A square plot narrower than planned is also shorter: no empty band below it.
    // (written only when it changes: a new viewBox lays the whole SVG out again)
    const viewBox = `0 0 ${width} ${square ? bottom + m.bottom : height}`;
    if (svg.getAttribute('viewBox') !== viewBox) svg.setAttribute('viewBox', viewBox);
    const sx = scale(x, x0, x1, [left, right]);
    const sy = scale(y, y0, y1, [bottom, top]);
    // The axes are rebuilt only when they change (domains, labels, size): a plot redrawn many
    // times a second with fixed domains then only replaces its data.
    const axisKey = JSON.stringify([sx.domain(), sy.domain(), sx.range(), sy.range(), x.type, y.type, x.ticks, y.ticks, x.label?.(), y.label?.()]);
    if (!svg.contains(axisGroup) || !svg.contains(dataGroup)) {
      svg.querySelectorAll('g').forEach((n) => n.remove());
      axisGroup = svgEl('g', {}, svg);
      svgEl('g', { class: 'axis' }, axisGroup);
      dataGroup = svgEl('g', {}, svg);
      lastAxisKey = '';
    }
    if (axisKey !== lastAxisKey) {
      lastAxisKey = axisKey;
      const ax = reuse(axisGroup.firstElementChild);
      drawAxes(ax);
      ax.done();
    }
    // the data: the previous draw's elements reused in order (reuse above)
    const g = reuse(dataGroup);
    function drawAxes(ax) {
      ax('line', { x1: left, x2: right, y1: bottom, y2: bottom });
      ax('line', { x1: left, x2: left, y1: top, y2: bottom });
      let xTicks = x.ticks ? x.ticks.filter((v) => inDomain(sx, v)) : sx.ticks(6)
        .filter((v) => x.type !== 'log' || Number.isInteger(Math.log10(v)) || Number.isInteger(Math.log2(v)));
      // On a narrow plot keep every other explicit tick until they are ~34 px apart.
      while (x.ticks && xTicks.length > 2 && (right - left) / (xTicks.length - 1) < 34) xTicks = xTicks.filter((_, i) => i % 2 === 0);
      for (const v of xTicks) {
        const px = sx(v);
        ax('line', { x1: px, x2: px, y1: bottom, y2: bottom + 4 });
        ax('text', { x: px, y: bottom + 16, 'text-anchor': 'middle' }, (x.tickFormat ?? tickFmt)(v));
      }
      const yTicks = yTickValues(sy);
      for (const v of yTicks) {
        const py = sy(v);
        ax('line', { x1: left - 4, x2: left, y1: py, y2: py });
        ax('line', { x1: left, x2: right, y1: py, y2: py, class: 'gridline' });
        ax('text', { x: left - 7, y: py + 4, 'text-anchor': 'end' }, (y.tickFormat ?? tickFmt)(v));
      }
      if (x.label) ax('text', { x: (left + right) / 2, y: bottom + 36, 'text-anchor': 'middle', class: 'axis-label' }, x.label());
      if (y.label) ax('text', { x: 15, y: (top + bottom) / 2, 'text-anchor': 'middle', transform: `rotate(-90 15 ${(top + bottom) / 2})`, class: 'axis-label' }, y.label());
    }
    // data
    polygons.forEach((p, k) => {
      g('polygon', { points: p.points.map(([a, b]) => `${sx(a)},${sy(b)}`).join(' '), class: 'polygon', fill: p.color ?? PALETTE[k % PALETTE.length] });
    });
    for (const b of bars) {
      const bx0 = sx(b.x0), bx1 = sx(b.x1), by = sy(Math.max(b.y, y.type === 'log' ? y0 : 0));
      g('rect', { x: Math.min(bx0, bx1) + 0.5, width: Math.max(0, Math.abs(bx1 - bx0) - 1), y: by, height: Math.max(0, sy(y.type === 'log' ? y0 : 0) - by), class: 'bar', fill: b.color ?? PALETTE[0] });
    }
    const drawn = []; // what a mark's label must not cross: [x, y] polylines and dots, in px
    series.forEach((s, k) => {
      const color = s.color ?? PALETTE[k % PALETTE.length];
      const pts = s.points.filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && (x.type !== 'log' || a > 0) && (y.type !== 'log' || b > 0));
      if (s.kind === 'points' || pts.length === 1) { // a line of one point (a run cut short) is a dot
        for (const [a, b] of pts) g('circle', { cx: sx(a), cy: sy(b), r: 3.5, fill: color });
        for (const [a, b] of pts) drawn.push([[sx(a), sy(b)]]);
      } else {
        const px = pts.map(([a, b]) => [sx(a), sy(b)]);
        g('path', { d: polyline(px), fill: 'none', stroke: color, 'stroke-width': 2, 'stroke-dasharray': s.dashed ? '6 4' : 'none' });
        drawn.push(px);
      }
    });
    for (const mk of marks) {
      g('circle', { cx: sx(mk.x), cy: sy(mk.y), r: mk.r ?? 5, class: 'mark', fill: mk.color ?? PALETTE[1] });
      drawn.push([[sx(mk.x), sy(mk.y)]]);
    }
    // Each label goes where it crosses no line, dot or earlier label and stays inside the
    // plot area (placeLabel), at its drawn width.
    const placed = [];
    for (const mk of marks) {
      if (!mk.label) continue;
      const node = g('text', { class: 'mark-label' }, mk.label, ['x', 'y', 'text-anchor']);
      // (measured once per text: a measure after the draw's writes lays the page out then)
      let w = labelWidths.get(mk.label);
      if (w === undefined) {
        w = node.getComputedTextLength?.() || textWidth(mk.label);
        if (w > 0 && document.fonts?.status === 'loaded') labelWidths.set(mk.label, w);
      }
      const p = placeLabel([sx(mk.x), sy(mk.y)], w, drawn, placed, [left, top, right, bottom]);
      for (const [a, v] of Object.entries({ x: p.x, y: p.y, 'text-anchor': p.anchor })) if (node.getAttribute(a) !== String(v)) node.setAttribute(a, v);
      placed.push(p.box);
    }
    for (const hd of handles) {
      const node = reuse(g('g', { class: 'handle', tabindex: 0, role: 'button', 'data-handle': hd.id, 'data-x': hd.x, 'data-y': hd.y,
        'aria-label': hd.ariaLabel ?? hd.label ?? hd.id }));
      node('circle', { cx: sx(hd.x), cy: sy(hd.y), r: 16, class: 'handle-hit' });
      node('circle', { cx: sx(hd.x), cy: sy(hd.y), r: hd.r ?? 7, class: 'handle-dot', fill: hd.color ?? PALETTE[0] });
      // Label beside the point; labelDir [dx, dy] (screen directions, e.g. away from the
      // other points) picks the side, default right and below.
      const [ldx, ldy] = hd.labelDir ?? [1, 1];
      if (hd.label) node('text', { x: sx(hd.x) + (ldx < 0 ? -11 : 11), y: sy(hd.y) + (ldy < 0 ? -9 : 18), 'text-anchor': ldx < 0 ? 'end' : 'start', class: 'mark-label' }, hd.label);
      node.done();
    }
    if (focused !== undefined) svg.querySelector(`[data-handle="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
    scales = { sx, sy };
    // the legend: written again only when its entries change
    const legendKey = JSON.stringify(series.map((s, k) => s.name && [s.name, !!s.dashed, s.color ?? PALETTE[k % PALETTE.length]]));
    if (legendKey !== lastLegendKey) {
      lastLegendKey = legendKey;
      legend.textContent = '';
      series.forEach((s, k) => {
        if (!s.name) return;
        const item = document.createElement('span');
        const sw = document.createElement('span');
        sw.className = s.dashed ? 'swatch dashed' : 'swatch';
        if (s.dashed) sw.style.borderTopColor = s.color ?? PALETTE[k % PALETTE.length];
        else sw.style.background = s.color ?? PALETTE[k % PALETTE.length];
        item.append(sw, document.createTextNode(s.name));
        legend.append(item);
      });
    }
    if (message) {
      // across the plot area, on a band of the page's colour so gridlines do not cross it
      const box = reuse(g('g', { class: 'plot-message' }));
      const lines = wrapText(message, right - left - 24);
      const cy = (top + bottom) / 2 - ((lines.length - 1) * 16) / 2;
      box('rect', { x: left + 6, y: cy - 18, width: right - left - 12, height: lines.length * 16 + 14, rx: 4 });
      lines.forEach((l, k) => box('text', { x: (left + right) / 2, y: cy + k * 16, 'text-anchor': 'middle' }, l));
      box.done();
    }
    g.done();
    return { sx, sy };
  }

  // Narrow screens: the plot is redrawn at its rendered width (down to 260 units), so one
  // unit stays one CSS pixel and the 11 px labels stay 11 px instead of shrinking with it.
  // A plot far from the screen keeps the new arguments and draws them when it comes near
  // (nearby.js); one on screen draws now.
  let lastArgs;
  // (while stale, the plot's name is its title alone: its description holds older numbers)
  const later = whenNear(el, () => lastArgs && draw(lastArgs), (on) => svg.setAttribute('aria-labelledby', on ? `${id}-t` : `${id}-t ${id}-d`));
  const update = (args) => {
    lastArgs = args;
    later();
  };
  if (empty) queueMicrotask(() => lastArgs || update({ message: empty() }));
  if (typeof ResizeObserver === 'function') {
    const base = width;
    new ResizeObserver(() => {
      const rendered = svg.getBoundingClientRect().width;
      if (!rendered) return;
      const w = Math.round(Math.min(base, Math.max(260, rendered)));
      if (Math.abs(w - width) < 4) return;
      width = w;
      if (lastArgs) later(); // sets the viewBox
      else svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    }).observe(svg);
  }

  return { el, update, svg, flush: () => later.flush() };
}

// A message's lines for a box `room` px wide at 12 px: estimated widths, about 6.8 px for
// a Latin letter or digit and 12 px for a Hangul syllable or another wide (CJK, full-width)
// character, so Korean wraps as early as it needs to.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const textWidth = (t) => [...t].reduce((a, c) => a + (WIDE.test(c) ? 12 : 6.8), 0);
export function wrapText(message, room) {
  const lines = [];
  for (const w of message.split(/\s+/).filter(Boolean)) {
    if (lines.length && textWidth(`${lines.at(-1)} ${w}`) <= room) lines[lines.length - 1] += ` ${w}`;
    else lines.push(w);
  }
  return lines;
}

// Where a mark's label goes: beside its point [px, py] (above right first, then the other
// corners, then straight above or below, each at 8 then 20 px), the first place whose box
// (w px wide, 12 px text) crosses none of the `lines` (polylines of [x, y]; one point is a
// dot), none of the `boxes` already placed, and stays inside `area` [left, top, right,
// bottom]. If none of those is free (a point in the plot's corner where lines meet, as the
// live run's last tiled point), the nearest free place further out (up to ~150 px, the box's
// nearest edge from the point); if none at all, the place with the fewest crossings.
// Returns {x, y, anchor, box: [x0, y0, x1, y1]} (x, y: the text's anchor point and baseline).
export function placeLabel([px, py], w, lines, boxes, [left, top, right, bottom]) {
  const asc = 11, desc = 3, pad = 2;
  const costOf = (box) => {
    const grown = [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad];
    let cost = 0;
    if (box[0] < left || box[2] > right || box[1] < top - 2 || box[3] > bottom) cost += 100;
    for (const l of lines) {
      if (l.length === 1) cost += dotIn(l[0], grown, 4) ? 1 : 0;
      else for (let k = 1; k < l.length; k++) cost += segmentHits(l[k - 1], l[k], grown) ? 1 : 0;
    }
    for (const b of boxes) cost += b[0] < grown[2] && grown[0] < b[2] && b[1] < grown[3] && grown[1] < b[3] ? 10 : 0;
    return cost;
  };
  const tries = [];
  for (const d of [8, 20]) tries.push([1, -1, d], [-1, -1, d], [1, 1, d], [-1, 1, d], [0, -1, d], [0, 1, d]);
  let best = null;
  for (const [hx, vy, d] of tries) {
    const x0 = hx > 0 ? px + d : hx < 0 ? px - d - w : px - w / 2;
    const base = vy < 0 ? py - d : py + d + asc;
    const box = [x0, base - asc, x0 + w, base + desc];
    const cost = costOf(box);
    if (!best || cost < best.cost) best = { cost, x: hx > 0 ? box[0] : hx < 0 ? box[2] : px, y: base, anchor: hx > 0 ? 'start' : hx < 0 ? 'end' : 'middle', box };
    if (cost === 0) return best;
  }
  // further out: left or right of the point, any height, nearest first
  const far = [];
  for (let dx = 8; dx <= 150; dx += 12)
    for (let dy = -150; dy <= 150; dy += 6)
      for (const hx of [1, -1]) {
        const x0 = hx > 0 ? px + dx : px - dx - w;
        const base = py + dy + (asc - desc) / 2;
        far.push([Math.hypot(dx, Math.max(0, Math.abs(dy) - (asc + desc) / 2)), hx, [x0, base - asc, x0 + w, base + desc], base]);
      }
  far.sort((a, b) => a[0] - b[0]);
  for (const [, hx, box, base] of far)
    if (costOf(box) === 0) return { cost: 0, x: hx > 0 ? box[0] : box[2], y: base, anchor: hx > 0 ? 'start' : 'end', box };
  return best;
}
const dotIn = ([x, y], [x0, y0, x1, y1], r) => x + r > x0 && x - r < x1 && y + r > y0 && y - r < y1;
// Whether the segment a-b meets the box [x0, y0, x1, y1] (Liang–Barsky clipping).
function segmentHits([ax, ay], [bx, by], [x0, y0, x1, y1]) {
  const dx = bx - ax, dy = by - ay;
  let t0 = 0, t1 = 1;
  for (const [p, q] of [[-dx, ax - x0], [dx, x1 - ax], [-dy, ay - y0], [dy, y1 - ay]]) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
      if (t0 > t1) return false;
    }
  }
  return true;
}

const tickFmt = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(0) : fmt(v, { digits: 3 }));
const inDomain = (s, v) => {
  const [a, b] = s.domain();
  return v >= Math.min(a, b) && v <= Math.max(a, b);
};

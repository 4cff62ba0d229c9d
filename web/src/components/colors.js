// Colour scales for heatmaps: one hue for weights (0..1), a colour-blind-safe
// diverging scale (purple-orange) for signed values, and readable text on both.
// Each scale starts from the page's background colour at "nothing" (weight 0, value 0),
// so that an empty cell is the quietest one: white-to-blue on the light page, and on a
// dark page (dark = true) from the dark background to light blue, purple and orange
// (the same hues, lightness rising with size, so they stay colour-blind safe).
import { scaleSequential, scaleDiverging } from 'd3-scale';
import { interpolateBlues, interpolatePuOr } from 'd3-scale-chromatic';
import { interpolateLab } from 'd3-interpolate';

export const DARK_BG = '#15171b'; // styles.css --bg in the dark scheme
const darkBlues = interpolateLab(DARK_BG, '#7fb2ff');
const darkPurple = interpolateLab(DARK_BG, '#b9a4f4');
const darkOrange = interpolateLab(DARK_BG, '#f2a248');
const darkPuOr = (t) => (t < 0.5 ? darkPurple(1 - 2 * t) : darkOrange(2 * t - 1));

// Scales are pure: each is built once (per domain and scheme) and shared by every grid
// that uses it, so a grid can tell that its colours did not change by comparing scales.
const weights = [null, null];
export function weightScale(dark = false) {
  return (weights[+dark] ??= scaleSequential(dark ? darkBlues : interpolateBlues).domain([0, 1]).clamp(true));
}

// Symmetric around 0 so that 0 is the neutral colour; m = largest |finite value|.
const diverging = new Map();
export function divergingScale(m, dark = false) {
  const r = m > 0 && Number.isFinite(m) ? m : 1;
  const key = dark ? -r : r;
  let s = diverging.get(key);
  if (!s) {
    if (diverging.size > 256) diverging.clear();
    s = scaleDiverging(dark ? darkPuOr : (t) => interpolatePuOr(1 - t)).domain([-r, 0, r]).clamp(true);
    diverging.set(key, s);
  }
  return s;
}

// Whether the heatmaps of `el` sit on the dark scheme: a widget says so on its root
// (data-scheme, widget.js), the page follows the system's preference.
const darkQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
export function isDark(el) {
  const scheme = el?.closest?.('[data-scheme]')?.dataset.scheme;
  return scheme ? scheme === 'dark' : !!darkQuery?.matches;
}
// Calls fn when the system's scheme changes (grids then redraw their colours).
export function onSchemeChange(fn) {
  darkQuery?.addEventListener?.('change', fn);
}

export function maxAbsFinite(data) {
  let m = 0;
  for (const x of data) if (Number.isFinite(x) && Math.abs(x) > m) m = Math.abs(x);
  return m;
}

// Black or white text, whichever contrasts more with the background (WCAG luminance).
const textColors = new Map();
export function textColorFor(rgb) {
  let c = textColors.get(rgb);
  if (c === undefined) {
    if (textColors.size > 4096) textColors.clear();
    c = contrastingText(rgb);
    textColors.set(rgb, c);
  }
  return c;
}
function contrastingText(rgb) {
  const m = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(rgb);
  if (!m) return '#000';
  const lin = (c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const L = 0.2126 * lin(m[1]) + 0.7152 * lin(m[2]) + 0.0722 * lin(m[3]);
  return (L + 0.05) / 0.05 > 1.05 / (L + 0.05) ? '#000' : '#fff';
}

// Colour scales for heatmaps: one hue for weights (0..1), a colour-blind-safe
// diverging scale (purple-orange) for signed values, and readable text on both.
import { scaleSequential, scaleDiverging } from 'd3-scale';
import { interpolateBlues, interpolatePuOr } from 'd3-scale-chromatic';

// Scales are pure: each is built once (per domain) and shared by every grid that uses it,
// so a grid can tell that its colours did not change by comparing scales.
let weights = null;
export function weightScale() {
  return (weights ??= scaleSequential(interpolateBlues).domain([0, 1]).clamp(true));
}

// Symmetric around 0 so that 0 is the neutral colour; m = largest |finite value|.
const diverging = new Map();
export function divergingScale(m) {
  const r = m > 0 && Number.isFinite(m) ? m : 1;
  let s = diverging.get(r);
  if (!s) {
    if (diverging.size > 256) diverging.clear();
    s = scaleDiverging((t) => interpolatePuOr(1 - t)).domain([-r, 0, r]).clamp(true);
    diverging.set(r, s);
  }
  return s;
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

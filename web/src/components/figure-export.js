// Figures out of the page, for notes and slides: a matrix grid drawn as a standalone SVG,
// any on-screen SVG (a plot) with its CSS resolved into attributes, PNG from either, and
// the clipboard and download plumbing. Everything is produced in the page: no request.
import { cellText } from '../format.js';

const NS = 'http://www.w3.org/2000/svg';
const XML_ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xml = (s) => String(s).replace(/[&<>"]/g, (c) => XML_ESC[c]);

// The colours the figure shows right now (light or dark scheme), from its CSS variables.
export function themeOf(el) {
  const cs = getComputedStyle(el);
  const v = (name, dflt) => cs.getPropertyValue(name).trim() || dflt;
  return { bg: v('--bg', '#ffffff'), fg: v('--fg', '#1d1f23'), muted: v('--muted', '#555b66'), panel: v('--panel', '#f3f4f6'), line: v('--line', '#d5d8de') };
}

// A matrix as an SVG table: title, column and row labels, one coloured cell per entry
// with its number as shown on screen. cellStyle(x) -> {bg, fg} or null (no heatmap).
export function gridSvg(m, { title = '', rowLabel = (i) => String(i + 1), colLabel = (j) => String(j + 1), digits = 3, fixed = false, significant = 0,
  cellStyle = () => null, hidden = new Set(), theme = { bg: '#fff', fg: '#1d1f23', muted: '#555b66', panel: '#f3f4f6' } } = {}) {
  const texts = Array.from({ length: m.rows }, (_, i) => Array.from({ length: m.cols }, (_, j) =>
    hidden.has(`${i},${j}`) ? '?' : cellText(m.data[i * m.cols + j], { digits, fixed, significant })));
  const longest = Math.max(3, ...texts.flat().map((s) => s.length), ...Array.from({ length: m.cols }, (_, j) => colLabel(j).length));
  const cw = Math.max(44, longest * 8 + 16), ch = 30, gap = 2, pad = 10;
  const lw = Math.max(24, Math.max(...Array.from({ length: m.rows }, (_, i) => rowLabel(i).length)) * 7 + 12);
  const th = title ? 26 : 0, hh = 20;
  const width = pad * 2 + lw + m.cols * (cw + gap);
  const height = pad * 2 + th + hh + m.rows * (ch + gap);
  const out = [`<svg xmlns="${NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans KR', sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="${xml(theme.bg)}"/>`];
  if (title) out.push(`<text x="${pad}" y="${pad + 16}" fill="${xml(theme.fg)}" font-size="15">${xml(title)}</text>`);
  const y0 = pad + th + hh, x0 = pad + lw;
  for (let j = 0; j < m.cols; j++)
    out.push(`<text x="${x0 + j * (cw + gap) + cw / 2}" y="${y0 - 6}" text-anchor="middle" fill="${xml(theme.muted)}" font-size="11">${xml(colLabel(j))}</text>`);
  for (let i = 0; i < m.rows; i++) {
    const y = y0 + i * (ch + gap);
    out.push(`<text x="${x0 - 6}" y="${y + ch / 2 + 4}" text-anchor="end" fill="${xml(theme.muted)}" font-size="11">${xml(rowLabel(i))}</text>`);
    for (let j = 0; j < m.cols; j++) {
      const x = x0 + j * (cw + gap);
      const v = m.data[i * m.cols + j];
      const st = hidden.has(`${i},${j}`) || !Number.isFinite(v) ? null : cellStyle(v);
      out.push(`<rect x="${x}" y="${y}" width="${cw}" height="${ch}" rx="3" fill="${xml(st?.bg ?? theme.panel)}"/>`,
        `<text x="${x + cw / 2}" y="${y + ch / 2 + 4.5}" text-anchor="middle" fill="${xml(st?.fg ?? (v === -Infinity ? theme.muted : theme.fg))}">${xml(texts[i][j])}</text>`);
    }
  }
  out.push('</svg>');
  return { svg: out.join(''), width, height };
}

const STYLE_PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity', 'opacity', 'font-size', 'font-family', 'font-weight', 'visibility'];

// An on-screen <svg> as a standalone file: CSS (classes, variables) resolved into
// attributes, a background in the figure's colour, explicit width and height.
export function svgToString(svg, theme = themeOf(svg)) {
  const clone = svg.cloneNode(true);
  const src = [svg, ...svg.querySelectorAll('*')];
  const dst = [clone, ...clone.querySelectorAll('*')];
  src.forEach((n, k) => {
    const cs = getComputedStyle(n);
    for (const p of STYLE_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v && v !== 'auto') dst[k].setAttribute(p, v);
    }
    dst[k].removeAttribute('class');
  });
  const vb = svg.viewBox?.baseVal;
  const width = Math.round(vb?.width || svg.getBoundingClientRect().width || 300);
  const height = Math.round(vb?.height || svg.getBoundingClientRect().height || 150);
  clone.setAttribute('xmlns', NS);
  clone.setAttribute('width', width);
  clone.setAttribute('height', height);
  const bg = document.createElementNS(NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', theme.bg);
  clone.insertBefore(bg, clone.firstChild);
  return { svg: new XMLSerializer().serializeToString(clone), width, height };
}

// Rasterises an SVG string (drawn at `scale` for sharp slides) into a PNG blob.
export function svgToPng(svg, width, height, scale = 2) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(width * scale);
      canvas.height = Math.ceil(height * scale);
      const ctx = canvas.getContext('2d');
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png');
    };
    img.onerror = () => reject(new Error('the SVG could not be drawn'));
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

// Saves a blob as a file (an <a download> clicked next to `near`, inside a widget's
// shadow root too).
export function download(blob, fileName, near = document.body) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName;
  a.hidden = true;
  (near ?? document.body).append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// Writes text to the clipboard when the page may; resolves to whether it did (the text is
// also shown selected, so Ctrl+C works where the clipboard API is not allowed).
export async function copyText(text) {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// A figure's "⋯" tools menu (a <details>): Escape closes it and gives the focus back to
// its "⋯", as a menu does (a <details> alone ignores Escape).
export function closeOnEscape(menu) {
  menu.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menu.open) return;
    e.preventDefault();
    e.stopPropagation();
    menu.open = false;
    menu.querySelector('summary')?.focus();
  });
  return menu;
}

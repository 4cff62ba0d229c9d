// A grid's colours and legend: the scale its cells are painted with ('weights': 0 to 1,
// 'diverging': symmetric around 0 up to the largest finite |value|, 'none') and the bar
// under the grid that reads it. The legend's two ends and its bar are made once and then
// rewritten in place (a new range changes two text nodes and one style, nothing comes or
// goes). A change of the colour scheme (dark/light) repaints the grid.
import { fmt } from '../../format.js';
import { weightScale, divergingScale, maxAbsFinite, isDark, onSchemeChange } from '../colors.js';

export function legendOf(g) {
  const { color } = g.opts;
  const el = document.createElement('div');
  el.className = 'legend';
  el.setAttribute('aria-hidden', 'true');
  if (color !== 'none') onSchemeChange(() => g.current && g.update(g.current));

  function scaleFor(m) {
    if (color === 'weights') return weightScale(isDark(g.el));
    if (color === 'diverging') return divergingScale(maxAbsFinite(m.data), isDark(g.el));
    return null;
  }

  let key = null, parts = null;
  function render(s) {
    const k = s ? `${s.domain()[0]}|${s.domain().at(-1)}|${color}` : '';
    if (k === key) return;
    key = k;
    if (!s) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const [lo, hi] = [s.domain()[0], s.domain().at(-1)];
    const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => s(lo + t * (hi - lo)));
    if (!parts) {
      const a = document.createTextNode(''), b = document.createTextNode('');
      const bar = document.createElement('span');
      bar.className = 'legend-bar';
      const span = (t) => {
        const n = document.createElement('span');
        n.append(t);
        return n;
      };
      el.append(span(a), bar, span(b));
      parts = { a, bar, b };
    }
    const { a, bar, b } = parts;
    a.data = fmt(lo, { digits: 2 });
    b.data = fmt(hi, { digits: 2 });
    bar.style.background = `linear-gradient(to right, ${stops.join(', ')})`;
  }
  return { el, scaleFor, render };
}

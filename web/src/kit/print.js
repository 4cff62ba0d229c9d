// Printing shows everything: hidden step panels, closed folds, lazily drawn figures and
// (on the page) the chapters not mounted yet. A chapter that is mounted while the page
// prints (main.js mounts the rest on beforeprint) must draw as if the event had reached it,
// so chapters use onPrint(fn), which also runs fn at once during printing.
export const printing = { on: false };
const fns = new Set();
if (typeof window !== 'undefined') {
  window.addEventListener('beforeprint', () => {
    printing.on = true;
    for (const fn of fns) fn();
  });
  window.addEventListener('afterprint', () => (printing.on = false));
}

export function onPrint(fn) {
  fns.add(fn);
  if (printing.on) fn();
  return () => fns.delete(fn);
}

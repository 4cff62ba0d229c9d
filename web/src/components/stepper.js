// Stepper: one stage at a time, with tabs, previous/next buttons and ←/→ keys.
// Every panel stays in the DOM (hidden when not current), so printing shows them all.
const steppers = new Set();

export function createStepper({ steps, label = () => '', prevText, nextText, onChange = () => {}, testId }) {
  const el = document.createElement('div');
  el.className = 'stepper';
  if (testId) el.dataset.stepper = testId;
  const nav = document.createElement('div');
  nav.className = 'stepper-nav';
  const list = document.createElement('div');
  list.setAttribute('role', 'tablist');
  const prev = document.createElement('button');
  prev.type = 'button';
  prev.className = 'step-prev';
  const next = document.createElement('button');
  next.type = 'button';
  next.className = 'step-next';
  nav.append(prev, list, next);
  const panels = document.createElement('div');
  panels.className = 'stepper-panels';
  el.append(nav, panels);

  const tabs = steps.map((s, k) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.setAttribute('role', 'tab');
    tab.dataset.step = s.key;
    tab.id = `${testId ?? 'step'}-tab-${s.key}`;
    tab.addEventListener('click', () => go(k));
    list.append(tab);
    s.panel.setAttribute('role', 'tabpanel');
    s.panel.setAttribute('aria-labelledby', tab.id);
    s.panel.dataset.step = s.key;
    s.panel.classList.add('step-panel');
    panels.append(s.panel);
    return tab;
  });

  let index = 0;
  function go(k) {
    index = Math.max(0, Math.min(steps.length - 1, k));
    tabs.forEach((t, n) => {
      t.setAttribute('aria-selected', String(n === index));
      t.tabIndex = n === index ? 0 : -1;
    });
    steps.forEach((s, n) => (s.panel.hidden = n !== index));
    prev.disabled = index === 0;
    next.disabled = index === steps.length - 1;
    onChange(index, steps[index].key);
  }
  prev.addEventListener('click', () => go(index - 1));
  next.addEventListener('click', () => go(index + 1));
  list.addEventListener('keydown', (e) => {
    const target = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1 }[e.key];
    if (target !== undefined) {
      e.preventDefault();
      go(target);
      tabs[index].focus();
    }
  });

  function relabel() {
    steps.forEach((s, k) => (tabs[k].textContent = s.label()));
    list.setAttribute('aria-label', label());
    prev.textContent = `← ${prevText()}`;
    next.textContent = `${nextText()} →`;
  }

  const has = (key) => steps.some((s) => s.key === key);
  const goTo = (key) => has(key) && go(steps.findIndex((s) => s.key === key));
  const api = { el, go, goTo, has, relabel, get index() { return index; }, get key() { return steps[index].key; }, get keys() { return steps.map((s) => s.key); } };
  steppers.add(api);
  relabel();
  go(0);
  return api;
}

// ←/→ anywhere on the page (outside text fields) step the stepper nearest the middle
// of the viewport.
document.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
  // Inside a widget's shadow root e.target is the widget itself: look at the real target.
  const t = e.composedPath?.()[0] ?? e.target;
  if (t && (t.closest?.('input, textarea, select, summary, [contenteditable="true"], [role="tablist"], [role="grid"]'))) return;
  let best = null;
  let bestDist = Infinity;
  const mid = window.innerHeight / 2;
  for (const s of steppers) {
    if (!s.el.isConnected) continue;
    const r = s.el.getBoundingClientRect();
    if (r.bottom < 0 || r.top > window.innerHeight) continue;
    const d = Math.abs((r.top + r.bottom) / 2 - mid);
    if (d < bestDist) [best, bestDist] = [s, d];
  }
  if (best) {
    e.preventDefault();
    best.go(best.index + (e.key === 'ArrowRight' ? 1 : -1));
  }
});

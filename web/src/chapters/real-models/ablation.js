// The real-models chapter's ablation: every head switched off in turn on the sentence shown
// (the worker runs it a few heads at a time) and the loss measured again. Its button works
// only on a sentence whose heads are here (else it is disabled and the line says why); the
// bar and Stop show only while one runs; the line says how far a stopped run got, why it
// stopped, its error, or the heads that matter most. What the worker said of it is kept here.
//
//   const abl = ablationPanel({ k, id, link, errors, headName, f3, model: () => info, now, sentence });
//   abl.figure(parent);
//   abl.draw(st);                    // st: the sentence's state (index.js, sentenceState)
//   abl.running(m) / stopped(m) / done(m) / failed(error) / modelLoaded();   // the worker's answers
//   abl.of(text)                     // the finished ablation of this text, or null
import { setText } from '../../kit/prose.js';
import { show } from './lines.js';

export function ablationPanel({ k, id, link, errors, headName, f3, model, now, sentence }) {
  const { el, tr } = k;
  let ablBox, ablateButton, ablBar, ablStop, ablLine, stopAsked = false;
  let ablation = null, ablating = null, ablationStopped = null, ablationError = null;
  let ablateText = null; // the text of the ablation last asked for

  function draw(st) {
    const ready = st.state === 'ready';
    // The keyboard's focus stays in the ablation's controls when the one it is on goes
    // (hidden or disabled): to Stop while a run goes on, then back to the button, or to the
    // line when the button cannot take it. Focus elsewhere is left where it is.
    const root = ablBox.getRootNode();
    const focused = root.activeElement && ablBox.contains(root.activeElement) ? root.activeElement : null;
    show(ablBar, !!ablating);
    show(ablStop, !!ablating);
    const off = !ready || !!ablating;
    if (ablateButton.disabled !== off) ablateButton.disabled = off;
    if (!ablating && stopAsked) {
      stopAsked = false;
      ablStop.removeAttribute('aria-disabled');
    }
    if (focused && (focused.hidden || focused.disabled)) (ablating ? ablStop : !off ? ablateButton : ablLine).focus();
    let line = '', lineState = 'none';
    const waits = tr(st.state === 'pending' ? 'ablateWaiting' : 'ablateNeedsSentence'); // (why the button cannot run)
    if (ablating) {
      const label = tr('ablateButton');
      if (ablBar.getAttribute('aria-label') !== label) ablBar.setAttribute('aria-label', label);
      if (ablBar.max !== (ablating.total || 1)) ablBar.max = ablating.total || 1;
      if (ablBar.value !== ablating.done) ablBar.value = ablating.done;
      line = tr('ablating', { done: ablating.done, total: ablating.total });
      lineState = 'busy';
    } else if (ablationStopped) {
      // (how far a stopped run got stays said, and why the button waits, if it does)
      const why = { sentence: 'Sentence', model: 'Model' }[ablationStopped.why] ?? '';
      line = `${tr(`ablationStopped${why}`, { done: ablationStopped.done, total: ablationStopped.total })} ${
        ready ? tr(`ablationAgain${why}`) : waits}`;
      lineState = 'stopped';
    } else if (!ready) {
      line = waits;
      lineState = st.state === 'pending' ? 'waiting' : 'invalid';
    } else if (ablationError) {
      line = tr('ablationFailed', { message: errors.message(ablationError) });
      lineState = 'error';
    } else if (ablation) {
      const t = sentence();
      const order = [...ablation.delta].map((v, x) => [v, x]).sort((a, b) => b[0] - a[0]);
      const top = order.slice(0, 3).map(([v, x]) => `${headName(x)} (${v >= 0 ? '+' : ''}${f3(v)})`).join(', ');
      const stale = ablation.forText !== t;
      const helped = order.filter(([v]) => v < 0).length;
      const [low, lowAt] = order.at(-1);
      line = stale ? tr('ablationStale') : tr('ablationLine', {
        base: f3(ablation.base.loss), top, total: order.length, hurt: order.filter(([v]) => v > 0).length, helped,
      }) + (helped ? ` ${tr('negativeDelta', { head: headName(lowAt), delta: f3(low) })}` : '');
      lineState = stale ? 'stale' : 'done';
    }
    setText(ablLine, line);
    if (ablLine.dataset.state !== lineState) ablLine.dataset.state = lineState;
  }

  return {
    figure(parent) {
      ablBox = el('div', 'controls', parent);
      ablateButton = k.button('ablateButton', () => {
        const st = now();
        if (!model() || st.state !== 'ready') return;
        ablateText = st.shown.forText;
        ablationError = null;
        ablationStopped = null;
        stopAsked = false;
        ablating = { done: 0, total: model().layers * model().heads };
        link.ablate();
        draw(now());
      }, ablBox);
      ablateButton.dataset.control = 'ablate';
      ablBar = el('progress', '', ablBox);
      ablBar.style.width = '12rem';
      // stops it between two pieces (the worker runs it a few heads at a time); the model stays
      // (asked once; not disabled meanwhile, which would drop the keyboard's focus)
      ablStop = k.button('ablateStop', () => {
        if (ablating && !stopAsked) link.stopAblation();
        stopAsked = true;
        ablStop.setAttribute('aria-disabled', 'true');
      }, ablBox);
      ablStop.dataset.control = 'ablate-stop';
      ablLine = el('p', 'check-line', parent);
      ablLine.dataset.check = 'ablation';
      ablLine.tabIndex = -1; // (the focus's place when the run ends and the button cannot take it)
      ablLine.id = `${id}-ablation-line-${Math.random().toString(36).slice(2)}`;
      ablateButton.setAttribute('aria-describedby', ablLine.id);
      ablBar.hidden = ablStop.hidden = true;
    },
    draw,
    of: (text) => (ablation && ablation.forText === text ? ablation : null),
    running(m) {
      ablating = m;
    },
    // (why: 'asked', or a new sentence or model stopped it: the line says which)
    stopped(m) {
      ablating = null;
      ablationStopped = m;
    },
    done(m) {
      ablation = { ...m.ablation, forText: ablateText };
      ablating = null;
      ablationError = null;
    },
    failed(error) {
      ablationError = error;
      ablating = null;
    },
    // a new model: no ablation of the one before (one this load stopped is said once more)
    modelLoaded() {
      ablation = null;
      ablationError = null;
      ablationStopped = ablationStopped?.why === 'model' && !ablationStopped.said ? { ...ablationStopped, said: true } : null;
    },
  };
}

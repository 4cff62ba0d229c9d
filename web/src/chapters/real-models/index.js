// Chapter "Heads of a real pretrained model" (source: seeds/001, 헤드별 패턴; issue 27;
// docs/real-models.md): the learner's own GPT-2 or BERT checkpoint, opened from disk (a file
// picker taking several files or a folder, drag-and-drop), from `?model=<folder on this site>`
// or from the widget's `model` attribute, read and computed in the chapter's worker
// (web/src/workers/real-model.js in dist/real-model.js, with its own WebAssembly module): every
// layer × head as a small map (as BertViz's model view), one head enlarged with its
// token-to-token weights beside the value-norm or rollout view, the measured roles sorted
// with the heads of no nameable role counted, and the ablation of every head.
//
// With no file the chapter explains what to open and works as it is (the project's own model
// stays in trained-heads). Nothing leaves the machine: files are read with File.slice in the
// worker. Every error is a message in the page's language, the previous model stays in use.
//
// This module is the chapter's wiring: what the worker last said of the model and the
// sentence, what each of its answers redraws, and the sentence box. Each behaviour has its
// module beside it: worker-link.js (the worker and its protocol), opening.js (opening a
// model: pickers, drop, link, bar, the model's line and error; model-source.js), head-map.js
// (every head's map), head-grids.js (the chosen head enlarged), role-table.js and roles.js
// (the roles), ablation.js, frames.js (the work spread over frames), errors.js (errors in
// words) and lines.js (the lines' writing).
import { chapterKit } from '../../kit/kit.js';
import { setText, setProse } from '../../kit/prose.js';
import { fmt } from '../../format.js';
import narrative from './narrative.js';
import { say, show, safe, shownToken } from './lines.js';
import { errorWording } from './errors.js';
import { roleWords } from './roles.js';
import { workerLink } from './worker-link.js';
import { modelOpening } from './opening.js';
import { framePump } from './frames.js';
import { headMap } from './head-map.js';
import { headGrids } from './head-grids.js';
import { roleTable } from './role-table.js';
import { ablationPanel } from './ablation.js';

const ID = 'real-models';
const MAX_CHARS = 2000;
const TYPING_PAUSE = 250;

export default {
  id: ID,
  mount(section, ctx) {
    const k = chapterKit(section, ctx, ID, () => ({ text: null, head: 0, view: 'norm' }));
    const { el, tr, state, patch } = k;
    const f2 = (x) => fmt(x, { digits: 2, fixed: true });
    const f3 = (x) => fmt(x, { digits: 3, fixed: true });

    // What the worker last said of the model and the sentence (the load's and the ablation's
    // own are kept by opening.js and ablation.js).
    let info = null; // the loaded model
    let analyseError = null, rolesError = null;
    let heads = null, roles = null;
    let headsFor = null, analyseText = null; // the text last sent to the worker (its heads)

    // Each message redraws what it changes, nothing else: a progress message the load's bar
    // and its line (up to 20 a second while hundreds of MB load), an ablation's step its bar
    // and line, the roles their line and table; a new model or sentence the results.
    const link = workerLink({
      // (a page without module workers cannot open a model, and says so through the error line)
      spawn: () => new Worker(new URL('./real-model.js', import.meta.url), { type: 'module' }),
      on: {
        progress(m) {
          opening.progress(m);
          opening.drawProgress();
        },
        loaded(m) {
          info = m.info;
          opening.loaded();
          heads = roles = analyseError = rolesError = null;
          ablationView.modelLoaded();
          headsFor = null;
          map.build();
          analyse(true);
          k.render();
        },
        cancelled() {
          opening.cancelled();
          opening.draw();
        },
        heads(m) {
          heads = { ...m, forText: analyseText };
          analyseError = null;
          if (!patchHead()) drawResults();
        },
        roles(m) {
          roles = { ...m.roles, ms: m.ms, forText: analyseText };
          rolesError = null;
          const st = now();
          if (st.shown) drawHeads(state(), st); // (the maps' labels name their roles)
          drawRoles(st);
        },
        ablating(m) {
          ablationView.running(m);
          ablationView.draw(now());
        },
        ablationStopped(m) {
          ablationView.stopped(m);
          ablationView.draw(now());
        },
        ablation(m) {
          ablationView.done(m);
          const st = now();
          drawRoles(st);
          ablationView.draw(st);
        },
        // (the worker's own failure too: the load's error line says it)
        openFailed(error) {
          opening.failed(error);
          opening.draw();
        },
        analyseFailed(error) {
          analyseError = { ...error, forText: analyseText };
          heads = null;
          roles = null;
          drawResults();
        },
        rolesFailed(error) {
          rolesError = { ...error, forText: analyseText };
          drawRoles(now());
        },
        ablateFailed(error) {
          ablationView.failed(error);
          ablationView.draw(now());
        },
      },
    });
    // a link's head past this model's heads: back to the first
    function patchHead() {
      const n = info.layers * info.heads;
      if (!(Number.isInteger(state().head) && state().head >= 0 && state().head < n)) {
        patch({ head: 0 });
        return true;
      }
      return false;
    }
    const sentenceOf = (s) => s.text ?? tr('defaultText');
    function analyse(force = false) {
      if (!info) return;
      const t = sentenceOf(state());
      if (!force && t === headsFor) return;
      headsFor = analyseText = t;
      rolesError = null;
      link.analyse(t);
    }

    // What the view shows for the current sentence, decided in one place: 'empty' (nothing
    // typed), 'error' (the worker refused it: too long, …), 'ready' (its heads are here) or
    // 'pending' (asked for; the results of the sentence before, if any, stay, marked busy).
    // The maps, the grids, the roles' line and table and the ablation all follow it.
    function sentenceState(t) {
      if (!t.trim()) return { state: 'empty', error: { kind: 'empty' } };
      if (analyseError && analyseError.forText === t) return { state: 'error', error: analyseError };
      if (heads && heads.forText === t) return { state: 'ready', shown: heads };
      return { state: 'pending', shown: heads };
    }
    const now = () => sentenceState(sentenceOf(state()));
    const headName = (x) => (info ? tr('headName', { layer: Math.floor(x / info.heads) + 1, head: (x % info.heads) + 1 }) : '');
    // The roles of the heads on screen, or none.
    const rolesOnScreen = (st) => (st.shown && roles && roles.forText === st.shown.forText ? roles : null);

    // (named by the widget's model attribute, not by the page's link: its lines say so)
    const byAttribute = ctx.model?.from === 'attribute';
    const errors = errorWording(tr, { byAttribute });
    const roleText = roleWords(tr, { f2, f3 });
    const model = () => info;
    const frames = framePump({ ready: () => !!info });
    const opening = modelOpening({ k, ctx, link, errors, byAttribute, model });
    // (the order of the frames' jobs: the grids, the maps, the table's rows)
    const grids = headGrids({ k, id: ID, frames, model, state });
    const map = headMap({ k, frames, model, shown: () => now().shown, headName });
    const table = roleTable({ k, frames, errors });
    const ablationView = ablationPanel({ k, id: ID, link, errors, headName, f3, model, now, sentence: () => sentenceOf(state()) });

    // ---- the sentence -----------------------------------------------------------------------
    let input, sentenceError, sentenceDetail, tokensLine;
    function sentenceFigure(parent) {
      ({ input } = k.sentenceField('inputLabel', { parent, maxLength: MAX_CHARS }));
      let typing = 0;
      input.addEventListener('input', () => {
        clearTimeout(typing);
        const t = input.value;
        // (an emptied field at once: no results of the text before stay beside it)
        if (!t.trim()) patch({ text: t });
        else typing = setTimeout(() => patch({ text: t }), TYPING_PAUSE);
      });
      sentenceError = el('p', 'number-error', parent);
      sentenceError.setAttribute('role', 'alert');
      sentenceError.dataset.check = 'sentence-error';
      sentenceDetail = el('p', 'hint', parent);
      sentenceDetail.dataset.check = 'sentence-error-detail';
      tokensLine = el('p', 'hint', parent);
      tokensLine.dataset.check = 'tokens';
    }

    // The figures, each built in its place in narrative.js; the roles' sentence and thresholds
    // say the numbers of the roles on screen, or before they are measured the ones the worker
    // said it will use when the model loaded (the render writes them, and drawRoles when the
    // worker's roles arrive without one).
    const { work, viewTitle, oneTitle, oneBody, rolesBody, rolesThresholds } = k.narrative(narrative, {
      figures: {
        ...opening.figures, // drop, load
        sentence: sentenceFigure,
        modelView: map.figure,
        one: grids.figure,
        roles: table.figure,
        ablation: ablationView.figure,
      },
      vars: {
        oneTitle: (s) => ({ head: safe(headName(s.head)) }),
        rolesBody: () => roleText.bodyVars(rolesOnScreen(now()), info),
        thresholds: () => roleText.thresholdVars(rolesOnScreen(now()), info),
      },
    });
    viewTitle.id = `${ID}-view-title-${Math.random().toString(36).slice(2)}`;
    map.view.setAttribute('aria-labelledby', viewTitle.id);
    opening.fromContext();

    // ---- drawing ----------------------------------------------------------------------------
    let labelKey = null;
    function drawSentence(s) {
      const t = sentenceOf(s);
      if (t !== headsFor) queueMicrotask(() => analyse());
      const st = sentenceState(t);
      if (st.error) say(sentenceError, ...errors.text(st.error));
      else say(sentenceError, null);
      say(sentenceDetail, ...errors.detail(st.error));
      if (sentenceError.dataset.kind !== (st.error?.kind ?? '')) sentenceError.dataset.kind = st.error?.kind ?? '';
      if (work.dataset.sentence !== st.state) work.dataset.sentence = st.state;
      const on = !!st.shown;
      for (const n of [tokensLine, map.scroll, oneTitle, oneBody]) show(n, on); // (the head's heading with its grids)
      grids.show(on);
      if (on) map.reshown();
      const busy = String(st.state === 'pending');
      if (map.view.getAttribute('aria-busy') !== busy) map.view.setAttribute('aria-busy', busy);
      if (!on) {
        grids.clear(); // (the grids it speaks of are gone with the sentence)
        setText(tokensLine, '');
        delete tokensLine.dataset.for;
        map.cleared();
      }
      return st;
    }
    function drawHeads(s, st) {
      const H = heads;
      if (!st.shown) return;
      const T = H.T, nh = info.layers * info.heads;
      const labels = H.labels.map(shownToken);
      // (a word that became the unknown token says so: 「고양이가 → [UNK]」)
      const shown = labels.map((x, i) => (H.unknown?.[i] && x !== H.tokens[i] ? `「${x} → ${H.tokens[i]}」` : `「${x}」`));
      setText(tokensLine, tr('tokensLine', { n: T, tokens: shown.join(' ') }));
      if (tokensLine.dataset.for !== H.forText) tokensLine.dataset.for = H.forText; // (the sentence it shows: a state to wait for)
      const ms = String(Math.round(H.ms ?? 0)); // the worker's time for every head (make bench-model)
      if (tokensLine.dataset.ms !== ms) tokensLine.dataset.ms = ms;
      const head = Math.min(s.head, nh - 1);
      // the small maps: painted, built and labelled a few a frame; the chosen one now
      map.choose(head);
      const lk = [roles, document.documentElement.lang, tr('layerName', { layer: 1 })];
      if (!labelKey || lk.some((v, i) => v !== labelKey[i])) {
        labelKey = lk;
        map.labelWith((x) => {
          const rx = roles && roles.forText === heads?.forText ? roles.layers[Math.floor(x / info.heads)][x % info.heads] : null;
          const why = rx ? roleText.why(rx, roles.thresholds) : '…';
          const th = map.thumb(x);
          if (th.lab) for (const n of [th.lab, th.sizer]) setText(n, tr('layerName', { layer: th.l + 1 }));
          return [tr('thumbLabel', { head: headName(x), role: why }), `${headName(x)} · ${why}`, rx?.role ?? ''];
        });
      }
      frames.later();
      grids.draw(H, head, s.view, labels);
      frames.later();
    }
    // The roles' sentence, line and table from one value: the roles of the heads on screen,
    // or none (then the line says why and the table has no rows).
    function drawRoles(st) {
      const R = rolesOnScreen(st);
      setProse(rolesBody, tr('rolesBody'), roleText.bodyVars(R, info));
      setProse(rolesThresholds, tr('rolesThresholds'), roleText.thresholdVars(R, info));
      const counted = R ? { ...roleText.table(R, info.heads, { headName, abl: ablationView.of(R.forText) }), ms: R.ms } : null;
      const failed = st.shown && rolesError && rolesError.forText === st.shown.forText ? rolesError : null;
      table.draw({ counted, shown: st.shown, failed });
    }
    function drawResults(s = state()) {
      if (!info) return;
      const st = drawSentence(s);
      drawHeads(s, st);
      drawRoles(st);
      ablationView.draw(st);
    }
    // (section.__renders: the chapter's whole renders, counted for the browser test; a worker's
    // message redraws only its part, without one)
    k.start((s) => {
      section.__renders = (section.__renders ?? 0) + 1;
      grids.setView(s.view);
      const t = sentenceOf(s);
      if (document.activeElement !== input && input.value !== t) input.value = t;
      opening.draw();
      work.hidden = !info;
      drawResults(s);
    });
  },
};

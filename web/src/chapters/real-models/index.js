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
import { chapterKit } from '../../kit/kit.js';
import { setText, setProse, rebuild } from '../../kit/prose.js';
import { fmt } from '../../format.js';
import { weightScale } from '../../components/colors.js';
import narrative from './narrative.js';
import { modelUrl, droppedFiles, pickedModel } from './model-source.js';
import { say, show, safe, shownToken } from './lines.js';
import { errorWording } from './errors.js';
import { roleWords } from './roles.js';
import { workerLink } from './worker-link.js';

const ID = 'real-models';
const MAX_CHARS = 2000;
const TYPING_PAUSE = 250;
export default {
  id: ID,
  mount(section, ctx) {
    const k = chapterKit(section, ctx, ID, () => ({ text: null, head: 0, view: 'norm' }));
    const { el, text, tr, state, patch } = k;
    const f2 = (x) => fmt(x, { digits: 2, fixed: true });
    const f3 = (x) => fmt(x, { digits: 3, fixed: true });

    // What the worker last said.
    let info = null; // the loaded model
    let progress = null; // {bytesDone, bytesTotal, tensorsDone, tensorsTotal} while reading
    let openError = null, analyseError = null, rolesError = null, ablationError = null;
    let cancelled = false;
    let heads = null, roles = null, ablation = null, ablating = null, ablationStopped = null;
    let headsFor = null, analyseText = null, ablateText = null; // the text last sent to the worker (its heads, its ablation)
    let urlNote = null, urlId = -1; // [key, vars]; the load the link asked for (its open's number)

    // Each message redraws what it changes, nothing else: a progress message the load's bar
    // and its line (up to 20 a second while hundreds of MB load), an ablation's step its bar
    // and line, the roles their line and table; a new model or sentence the results.
    const link = workerLink({
      // (a page without module workers cannot open a model, and says so through the error line)
      spawn: () => new Worker(new URL('./real-model.js', import.meta.url), { type: 'module' }),
      on: {
        progress(m) {
          progress = m;
          drawProgress();
        },
        loaded(m) {
          info = m.info;
          progress = null;
          openError = null;
          heads = roles = ablation = analyseError = rolesError = null;
          headsFor = null;
          // (an ablation this load stopped is said once more on the new model; any other goes)
          ablationStopped = ablationStopped?.why === 'model' && !ablationStopped.said ? { ...ablationStopped, said: true } : null;
          buildModelView();
          analyse(true);
          k.render();
        },
        cancelled() {
          progress = null;
          cancelled = true;
          drawLoad();
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
          ablating = m;
          drawAblation(now());
        },
        ablationStopped(m) {
          ablating = null;
          ablationStopped = m; // (why: 'asked', or a new sentence or model stopped it: the line says which)
          drawAblation(now());
        },
        ablation(m) {
          ablation = { ...m.ablation, forText: ablateText };
          ablating = null;
          ablationError = null;
          const st = now();
          drawRoles(st);
          drawAblation(st);
        },
        // (the worker's own failure too: the load's error line says it)
        openFailed(error) {
          openError = error;
          progress = null;
          drawLoad();
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
          ablationError = error;
          ablating = null;
          drawAblation(now());
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

    // (byLink: the load the page's link asked for, named as such in the model's line)
    function open(source, { byLink = false } = {}) {
      openError = null;
      cancelled = false;
      progress = { bytesDone: 0, bytesTotal: 0, tensorsDone: 0, tensorsTotal: 0, starting: true };
      try {
        link.open(source);
      } catch (e) {
        openError = { kind: 'core', detail: e.message };
        progress = null;
      }
      if (byLink) urlId = link.openId;
      drawLoad();
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

    let bar, barText, cancelButton, status, urlSpan, cancelSpan, loadedSpan, errorLine, errorDetail, dismissError;
    let input, sentenceError, sentenceDetail, tokensLine;
    let viewScroll, modelView, viewBox, viewButtons, pair, gridP, gridV, gridsCut;
    let rolesLine, tableBox, table, thead, tbody;
    let ablBox, ablateButton, ablBar, ablStop, ablLine, stopAsked = false;
    let labels = [];
    const fillingTo = new Map(); // a grid of the chosen head -> the matrix it is filling to (gridStep)
    const label = (i) => labels[i] ?? '';
    const headName = (x) => (info ? tr('headName', { layer: Math.floor(x / info.heads) + 1, head: (x % info.heads) + 1 }) : '');
    // The big blocks skip their layout and paint while far from the screen (a sentence's two
    // T × T grids are ~2,000 elements, GPT-2 small's maps 300; not its role table: below).
    const offscreenCheap = (node, height) => Object.assign(node.style, { contentVisibility: 'auto', containIntrinsicSize: `auto ${height}` });

    // The figures, each built in its place in narrative.js.
    const figures = {
      // ---- opening a model ------------------------------------------------------------------
      drop(parent) {
        const drop = el('div', 'controls drop-zone', parent);
        drop.dataset.drop = 'model';
        Object.assign(drop.style, { border: '2px dashed var(--line)', borderRadius: '.5rem', padding: '.8rem', display: 'flex', flexWrap: 'wrap', gap: '.6rem', alignItems: 'center' });
        const pickFiles = el('input', '', drop);
        Object.assign(pickFiles, { type: 'file', multiple: true, hidden: true });
        pickFiles.dataset.control = 'model-files';
        const pickFolder = el('input', '', drop);
        Object.assign(pickFolder, { type: 'file', multiple: true, hidden: true });
        pickFolder.setAttribute('webkitdirectory', '');
        pickFolder.dataset.control = 'model-folder';
        const filesButton = k.button('openFiles', () => pickFiles.click(), drop);
        filesButton.dataset.control = 'open-files';
        const folderButton = k.button('openFolder', () => pickFolder.click(), drop);
        folderButton.dataset.control = 'open-folder';
        text('span', 'dropHint', drop, undefined, 'hint');
        for (const picker of [pickFiles, pickFolder])
          picker.addEventListener('change', () => {
            const files = [...picker.files];
            picker.value = '';
            if (!files.length) return;
            const picked = pickedModel(files);
            if (picked.error) {
              openError = picked.error;
              cancelled = false;
              drawLoad();
              return;
            }
            open({ kind: 'files', files: picked.files });
          });
        drop.addEventListener('dragover', (e) => {
          e.preventDefault();
          drop.style.borderColor = 'var(--accent, #c60)';
        });
        drop.addEventListener('dragleave', () => (drop.style.borderColor = ''));
        drop.addEventListener('drop', async (e) => {
          e.preventDefault();
          drop.style.borderColor = '';
          const files = await droppedFiles(e.dataTransfer);
          if (files.length) open({ kind: 'files', files });
        });
      },
      load(parent) {
        const loadBox = el('div', 'controls', parent);
        bar = el('progress', '', loadBox);
        bar.dataset.progress = 'model';
        bar.style.width = '16rem';
        barText = el('span', 'hint', loadBox);
        cancelButton = k.button('cancel', () => link.cancel(), loadBox);
        cancelButton.dataset.control = 'cancel';
        status = el('p', 'check-line', parent);
        status.setAttribute('role', 'status');
        status.dataset.check = 'model';
        [urlSpan, cancelSpan, loadedSpan] = [0, 1, 2].map(() => el('span', '', status));
        loadedSpan.dataset.check = 'model-summary';
        errorLine = el('p', 'number-error', parent);
        errorLine.setAttribute('role', 'alert');
        errorLine.dataset.check = 'model-error';
        errorDetail = el('p', 'hint', parent);
        errorDetail.dataset.check = 'model-error-detail';
        // A failed load while another model is in use: the learner goes on with that one and
        // puts the error away (it also goes when another model is opened).
        dismissError = k.button('dismissError', () => {
          openError = null;
          drawLoad();
          status.focus?.();
        }, parent);
        dismissError.dataset.control = 'dismiss-model-error';
        dismissError.hidden = true;
        status.tabIndex = -1;
      },
      // ---- the sentence -----------------------------------------------------------------------
      sentence(parent) {
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
      },
      // ---- the model view ---------------------------------------------------------------------
      modelView(parent) {
        viewScroll = el('div', 'table-scroll', parent);
        viewScroll.style.overflowX = 'auto';
        modelView = el('div', '', viewScroll);
        modelView.dataset.heads = 'model-view';
        modelView.setAttribute('role', 'grid');
        offscreenCheap(viewScroll, '20rem');
      },
      // ---- one head ---------------------------------------------------------------------------
      one(parent) {
        viewBox = el('div', 'controls', parent);
        viewBox.setAttribute('role', 'radiogroup');
        text('span', 'viewLabel', viewBox, undefined, 'label');
        // one name for both: one radio group, one Tab stop, the arrow keys move between them
        const viewName = `${ID}-view-${Math.random().toString(36).slice(2)}`;
        viewButtons = ['norm', 'rollout'].map((v) => {
          const lab = el('label', 'toggle', viewBox);
          const r = el('input', '', lab);
          Object.assign(r, { type: 'radio', name: viewName, value: v });
          r.dataset.control = `view-${v}`;
          r.disabled = k.readOnly;
          r.addEventListener('change', () => patch({ view: v }));
          text('span', `view_${v}`, lab);
          return r;
        });
        // (a long sentence: the tables show its first tokens, and this says so, above them)
        gridsCut = el('p', 'hint', parent);
        gridsCut.dataset.check = 'grids-cut';
        gridsCut.hidden = true;
        pair = el('div', 'grid-row', parent);
        pair.dataset.grids = 'head';
        // While a grid fills row by row its table holds part of the new matrix: the caption
        // names the shape it is filling to (T × T), marked as filling, never the rows so far.
        const shape = (grid) => (m) => {
          const D = fillingTo.get(grid());
          return D && m !== D ? `${D.rows}\u2009×\u2009${D.cols} (${tr('gridFilling')})` : null;
        };
        gridP = k.grid({
          caption: () => 'P', ariaLabel: () => tr('gridP'), rowLabel: label, colLabel: label, shape: shape(() => gridP),
          note: () => k.common('rowsQueries'), color: 'weights', digits: 2, fixed: true, testId: 'rm-P',
        });
        gridV = k.grid({
          caption: () => (state().view === 'norm' ? '\\tilde P_{ij} \\propto P_{ij}\\,\\lVert v_j W_O^h \\rVert' : '\\text{rollout}'),
          ariaLabel: () => tr(state().view === 'norm' ? 'gridNorm' : 'gridRollout'), rowLabel: label, colLabel: label,
          color: 'weights', digits: 2, fixed: true, testId: 'rm-view', shape: shape(() => gridV),
        });
        pair.append(gridP.el, gridV.el);
        offscreenCheap(pair, '24rem');
      },
      // ---- roles ------------------------------------------------------------------------------
      roles(parent) {
        rolesLine = el('p', 'check-line', parent);
        rolesLine.dataset.check = 'roles';
        tableBox = el('div', 'table-scroll', parent);
        tableBox.style.overflowX = 'auto';
        table = el('table', 'compare-table', tableBox);
        text('caption', 'rolesOrder', table, undefined, 'table-order');
        table.dataset.table = 'roles';
        table.style.minWidth = '40rem';
        // The table is filled and shown by worker messages, a few rows a frame, without a render
        // of the chapter: the kit's check of sideways-scrolling boxes (kit/scrollers.js: a tab
        // stop and a name when nothing inside can take focus) runs again when it is filled or
        // shown (step, drawRoles). It is laid out even far from the screen (no
        // content-visibility, unlike the maps): a box skipped there has no width to measure,
        // so it would not be a tab stop until it had been on screen, and Tab would pass it.
        viewScroll.addEventListener('contentvisibilityautostatechange', () => k.scrollers.schedule());
        thead = el('thead', '', table);
        tbody = el('tbody', '', table);
      },
      // ---- ablation ---------------------------------------------------------------------------
      ablation(parent) {
        ablBox = el('div', 'controls', parent);
        ablateButton = k.button('ablateButton', () => {
          if (!info || now().state !== 'ready') return;
          ablateText = heads.forText;
          ablationError = null;
          ablationStopped = null;
          stopAsked = false;
          ablating = { done: 0, total: info.layers * info.heads };
          link.ablate();
          drawAblation(now());
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
        ablLine.id = `${ID}-ablation-line-${Math.random().toString(36).slice(2)}`;
        ablateButton.setAttribute('aria-describedby', ablLine.id);
        ablBar.hidden = ablStop.hidden = true;
      },
    };
    // The roles' sentence and thresholds: the numbers of the roles on screen, or before they
    // are measured the ones the worker said it will use when the model loaded (info.roles:
    // the thresholds are the core's constants, the random sequences' length the model's)
    // (the render writes them, and drawRoles when the worker's roles arrive without one).
    const rolesOnScreen = (st) => (st.shown && roles && roles.forText === st.shown.forText ? roles : null);
    const roleText = roleWords(tr, { f2, f3 });
    const { work, viewTitle, oneTitle, oneBody, rolesBody, rolesThresholds } = k.narrative(narrative, {
      figures,
      vars: {
        oneTitle: (s) => ({ head: safe(headName(s.head)) }),
        rolesBody: () => roleText.bodyVars(rolesOnScreen(now()), info),
        thresholds: () => roleText.thresholdVars(rolesOnScreen(now()), info),
      },
    });
    viewTitle.id = `${ID}-view-title-${Math.random().toString(36).slice(2)}`;
    modelView.setAttribute('aria-labelledby', viewTitle.id);

    // The page thread's share of a model: 144 maps (GPT-2 small) and a 144-row table are built,
    // painted and labelled a few at a time, at most FRAME_BUDGET units of work in one frame (a
    // map built, painted or labelled: 1; a table row of 9 cells: 4; and besides, the chosen
    // head's two T × T grids GRID_CELLS cells a frame, one grid after the other), so no frame of the page waits for all of them (docs/real-models.md,
    // "The page thread"). data-painted says how many maps show the current sentence; the
    // table's data-filled, whether its rows are the current ones; the grids' pair's
    // data-filled, whether both grids show the chosen head.
    let thumbs = [], thumbPx = 64;
    function buildModelView() {
      const { heads: H } = info;
      thumbPx = H > 8 ? 44 : 64;
      Object.assign(modelView.style, { display: 'grid', width: 'max-content', gridTemplateColumns: `max-content repeat(${H}, ${thumbPx + 8}px)`, justifyContent: 'start', gap: '4px', alignItems: 'center' });
      thumbs = [];
      focusAt = Math.min(state().head, info.layers * H - 1);
      // (the keyboard's focus on a map of the model before: on the same head of this one, once
      // its map is built)
      refocus = modelView.contains(modelView.getRootNode().activeElement);
      modelView.replaceChildren();
      modelView.dataset.painted = '0';
      pump.built = pump.painted = pump.labelled = 0;
      pump.paintedFor = null;
      later();
    }
    // The model view is one Tab stop (a WAI-ARIA grid with a roving tabindex): a row per layer
    // (its header the layer's name), a cell per head; the arrow keys move between heads,
    // Home/End to the row's ends (with Ctrl, the grid's), Enter or Space enlarges the head;
    // a click does the same. Each cell is named by its layer, head and role.
    let focusAt = 0; // the cell that holds the Tab stop
    let refocus = false;
    // (once that map is built and shown: the view is hidden until the new model's heads are
    // here; given up if the focus has gone somewhere meanwhile)
    function refocusMap() {
      const b = thumbs[focusAt]?.b;
      const root = modelView.getRootNode();
      if (!refocus || !b) return;
      if (root.activeElement && root.activeElement !== document.body && !modelView.contains(root.activeElement)) {
        refocus = false;
        return;
      }
      b.focus({ preventScroll: true });
      if (root.activeElement === b) refocus = false;
    }
    let row = null;
    function buildThumb(index) {
      const H = info.heads, l = Math.floor(index / H), h = index % H;
      let lab = null, sizer = null;
      if (h === 0) {
        row = el('div', '', modelView);
        row.setAttribute('role', 'row');
        row.style.display = 'contents';
        // The layer's name stays in view while a narrow screen scrolls the row sideways: it
        // spans the whole row (a sticky grid item moves only within its grid area) over the
        // first column, whose width a hidden copy of the name sets.
        sizer = el('span', 'hint', row);
        sizer.setAttribute('aria-hidden', 'true');
        Object.assign(sizer.style, { visibility: 'hidden', whiteSpace: 'nowrap', gridRow: String(l + 1), gridColumn: '1', paddingRight: '.3rem' });
        lab = el('span', 'hint', row);
        lab.setAttribute('role', 'rowheader');
        lab.dataset.layer = String(l);
        Object.assign(lab.style, {
          whiteSpace: 'nowrap', gridRow: String(l + 1), gridColumn: '1 / -1', justifySelf: 'start',
          position: 'sticky', left: '0', zIndex: '1', background: 'var(--bg)', paddingRight: '.3rem',
        });
        sizer.textContent = lab.textContent = tr('layerName', { layer: l + 1 });
      }
      const b = el('div', 'head-thumb', row);
      Object.assign(b.style, { gridRow: String(l + 1), gridColumn: String(h + 2) });
      b.setAttribute('role', 'gridcell');
      b.dataset.head = String(index);
      b.tabIndex = index === focusAt ? 0 : -1;
      if (refocus && index === focusAt) queueMicrotask(refocusMap);
      b.setAttribute('aria-label', headName(index)); // (with its role once labelled: step())
      Object.assign(b.style, { padding: '2px', border: '2px solid var(--line)', borderRadius: '.3rem', cursor: 'pointer', lineHeight: 0 });
      const c = el('canvas', '', b);
      c.setAttribute('aria-hidden', 'true');
      Object.assign(c.style, { width: `${thumbPx}px`, height: `${thumbPx}px`, imageRendering: 'pixelated' });
      b.addEventListener('click', () => {
        moveFocus(index, false);
        patch({ head: index });
      });
      const th = { b, c, lab, sizer, l, h, pressed: null };
      thumbs.push(th);
      select(th, index === state().head);
    }
    // the chosen head's map selected and outlined; the Tab stop follows it while the focus
    // is elsewhere
    function select(th, on) {
      if (th.pressed === on) return;
      th.pressed = on;
      th.b.setAttribute('aria-selected', String(on));
      th.b.style.borderColor = on ? 'var(--accent, #c60)' : 'var(--line)';
      if (on && !modelView.contains(document.activeElement)) moveFocus(thumbs.indexOf(th), false);
    }
    function moveFocus(x, focus = true) {
      if (!thumbs[x]) return;
      if (thumbs[focusAt] && focusAt !== x) thumbs[focusAt].b.tabIndex = -1;
      focusAt = x;
      if (thumbs[x].b.tabIndex !== 0) thumbs[x].b.tabIndex = 0;
      if (focus) thumbs[x].b.focus();
    }
    modelView.addEventListener('keydown', (e) => {
      const cell = e.target.closest?.('[data-head]');
      if (!cell || !info) return;
      const x = Number(cell.dataset.head), H = info.heads, n = thumbs.length, start = x - (x % H);
      const to = {
        ArrowRight: x % H < H - 1 && x + 1 < n ? x + 1 : x,
        ArrowLeft: x % H > 0 ? x - 1 : x,
        ArrowDown: x + H < n ? x + H : x,
        ArrowUp: x >= H ? x - H : x,
        Home: e.ctrlKey ? 0 : start,
        End: e.ctrlKey ? n - 1 : Math.min(n - 1, start + H - 1),
      }[e.key];
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        patch({ head: x });
      } else if (to !== undefined) {
        e.preventDefault();
        moveFocus(to);
      }
    });

    // ---- a model named by a link or the widget ----------------------------------------------
    const given = ctx.model ?? null;
    // (named by the widget's model attribute, not by the page's link: its lines say so)
    const byAttribute = given?.from === 'attribute';
    const errors = errorWording(tr, { byAttribute });
    const sayDetail = (node, e) => say(node, ...errors.detail(e));
    if (given) {
      const url = modelUrl(given.url ?? given, { sameOrigin: given.sameOrigin ?? true });
      if (url) {
        urlNote = ['fromUrl', { url: safe(url) }];
        queueMicrotask(() => open({ kind: 'url', base: url }, { byLink: true }));
      } else urlNote = ['badUrl', { url: safe(String(given.url ?? given).slice(0, 200)) }];
    }

    // ---- drawing ----------------------------------------------------------------------------
    const scale = weightScale();
    const colour = new Map();
    const rgba = (p) => {
      const key = Math.round(p * 100);
      let c = colour.get(key);
      if (!c) {
        const x = Number.isFinite(p) ? String(scale(key / 100)).match(/^rgb\((\d+), (\d+), (\d+)\)$/) : null;
        c = x ? [+x[1], +x[2], +x[3], 255] : [0, 0, 0, 0];
        colour.set(key, c);
      }
      return c;
    };
    function paint(canvas, data, offset, T) {
      if (canvas.width !== T) canvas.width = canvas.height = T;
      const g = canvas.getContext('2d');
      const img = g.createImageData(T, T);
      for (let q = 0; q < T * T; q++) img.data.set(rgba(data[offset + q]), 4 * q);
      g.putImageData(img, 0, 0);
    }
    // What the frames still have to do (set by the render, done by step()).
    const FRAME_BUDGET = 32, ROW_COST = 4;
    const pump = {
      built: 0, painted: 0, paintedFor: null, // maps built; painted with paintedFor (a heads result)
      label: null, labelled: 0,               // (x) -> [aria-label, title, role] of the current render; maps labelled with it
      rows: [], rowsDone: 0,                   // the table's rows ([x, cells…]) and how many are written
      grids: [],                               // {grid, data, r} to update, GRID_CELLS a frame
      frame: 0,
    };
    // A grid's T × T cells GRID_CELLS at a time (whole rows, at least one): the rows up to r
    // show the new matrix, the ones below it what the grid showed (a table of the same width
    // keeps its cells; a new one grows by rows, as the grid's table is built: grid/table.js).
    // False when the grid shows the whole new matrix.
    // Far from the screen (half a screen's margin, as components/nearby.js), the grids wait
    // and are written, a few rows a frame again, when they come near: left to the grid's own
    // deferral, a far grid's whole table would be written in the one frame it comes near.
    const GRID_CELLS = 64;
    const GRID_TOKENS = globalThis.__realModelsGridTokens ?? 64; // (tests set a smaller one: their models read 24 positions)
    let pairNear = true; // (until the observer first says otherwise)
    if (typeof IntersectionObserver === 'function' && !globalThis.__eagerFigures)
      new IntersectionObserver((entries) => {
        pairNear = entries.at(-1).isIntersecting;
        if (pairNear) later();
      }, { rootMargin: '50% 0px' }).observe(pair);
    // The grids written whole now: before printing, and when the keyboard comes into their
    // figures (at their tools), so that the next Tab finds their cells, not the table below.
    const writeGridsNow = () => {
      for (const { grid, data } of pump.grids.splice(0)) grid.update(data);
    };
    window.addEventListener('beforeprint', writeGridsNow);
    pair.addEventListener('focusin', writeGridsNow);
    function gridStep(job) {
      const { grid, data: D } = job;
      const S = grid.value;
      fillingTo.set(grid, D);
      job.r = Math.min(D.rows, (job.r ?? 0) + Math.max(1, Math.floor(GRID_CELLS / D.cols)));
      if (job.r >= D.rows) {
        grid.update(D);
        grid.flush(); // (written now, whatever the grid's own observer last saw)
        return false;
      }
      const kept = S && S.cols === D.cols ? Math.min(S.rows, D.rows) : 0;
      const rows = Math.max(kept, job.r);
      const data = new Float32Array(rows * D.cols);
      data.set(D.data.subarray(0, job.r * D.cols));
      if (rows > job.r) data.set(S.data.subarray(job.r * D.cols, rows * D.cols), job.r * D.cols);
      grid.update({ rows, cols: D.cols, data });
      grid.flush();
      return true;
    }
    function later() {
      if (!pump.frame) pump.frame = requestAnimationFrame(step);
    }
    function step() {
      pump.frame = 0;
      if (!info) return;
      let budget = FRAME_BUDGET;
      const n = info.layers * info.heads;
      if (pump.grids.length && pairNear && !gridStep(pump.grids[0])) pump.grids.shift(); // (besides the budget)
      const done = String(!pump.grids.length);
      if (pair.dataset.filled !== done) pair.dataset.filled = done;
      while (pump.built < n && budget > 0) {
        buildThumb(pump.built++);
        budget--;
      }
      const shown = now().shown; // (the heads on screen: none while the sentence is empty or refused)
      if (shown && pump.paintedFor !== shown) {
        pump.paintedFor = shown;
        pump.painted = 0;
      }
      while (shown && pump.painted < pump.built && budget > 0) {
        paint(thumbs[pump.painted].c, shown.weights, pump.painted * shown.T * shown.T, shown.T);
        pump.painted++;
        budget--;
      }
      const painted = String(shown ? pump.painted : 0);
      if (modelView.dataset.painted !== painted) modelView.dataset.painted = painted;
      while (pump.label && pump.labelled < pump.built && budget > 0) {
        const { b } = thumbs[pump.labelled];
        const [aria, title, role] = pump.label(pump.labelled++);
        if (b.getAttribute('aria-label') !== aria) b.setAttribute('aria-label', aria);
        if (b.title !== title) b.title = title;
        if (b.dataset.role !== role) b.dataset.role = role;
        budget--;
      }
      // the table: rows written in place (a cell's text only when it changed)
      const rows = pump.rows;
      while (tbody.rows.length > rows.length) tbody.lastElementChild.remove();
      while (pump.rowsDone < rows.length && budget > 0) {
        const [x, name, ...cells] = rows[pump.rowsDone];
        let row = tbody.rows[pump.rowsDone];
        if (!row) {
          row = el('tr', '', tbody);
          const th = el('th', '', row);
          th.scope = 'row';
          th.style.whiteSpace = 'nowrap';
          cells.forEach(() => el('td', '', row));
        }
        if (row.dataset.head !== String(x)) row.dataset.head = String(x);
        [name, ...cells].forEach((v, i) => {
          if (row.cells[i].textContent !== v) row.cells[i].textContent = v;
        });
        pump.rowsDone++;
        budget -= ROW_COST;
      }
      const filled = String(pump.rowsDone === rows.length && rows.length > 0);
      if (table.dataset.filled !== filled) {
        table.dataset.filled = filled;
        if (filled === 'true') k.scrollers.schedule(); // (its width known: a tab stop if it scrolls)
      }
      if ((pump.grids.length && pairNear) || pump.built < n || (shown && pump.painted < pump.built) || (pump.label && pump.labelled < pump.built) || pump.rowsDone < rows.length) later();
    }
    let labelKey = null, tableKey = null, headKey = null, gridKey = null;

    function drawProgress() {
      // (Stop goes when the load ends: the keyboard's focus on it goes to the model's line,
      // which says how the load ended)
      const hadFocus = cancelButton.getRootNode().activeElement === cancelButton;
      if (bar.hidden !== !progress) bar.hidden = barText.hidden = cancelButton.hidden = !progress;
      if (hadFocus && cancelButton.hidden) status.focus();
      if (!progress) return;
      const label = tr('readingStart');
      if (bar.getAttribute('aria-label') !== label) bar.setAttribute('aria-label', label);
      const max = progress.bytesTotal || 1;
      if (bar.max !== max) bar.max = max;
      if (bar.value !== progress.bytesDone) bar.value = progress.bytesDone;
      setText(barText, progress.starting ? tr('readingStart') : tr('reading', {
        done: f2(progress.bytesDone / 1e6), total: f2(progress.bytesTotal / 1e6),
        tensorsDone: progress.tensorsDone, tensorsTotal: progress.tensorsTotal,
      }));
    }
    // The model's line, the load's bar and its error (what opening a model changes).
    function drawLoad() {
      drawProgress();
      const loadedVars = info ? {
        modelType: safe(info.modelType), layers: info.layers, heads: info.heads, dModel: info.dModel, vocab: info.vocab,
        positions: info.positions, mb: f2(info.weightBytes / 1e6), seconds: f2(info.seconds), tokenizer: safe(info.tokenizer),
      } : null;
      // the link's folder: being read or read, or its load failed or stopped; nothing once
      // another model was opened after it
      const linkLoad = urlNote && (urlNote[0] === 'badUrl' || urlId === link.openId);
      // (a failure that names the folder itself is said once, by the error below)
      const urlKey = !linkLoad ? null : urlNote[0] !== 'fromUrl' ? urlNote[0]
        : openError ? (openError.folder ? null : 'fromUrlFailed') : cancelled ? 'fromUrlStopped' : info && !progress ? 'fromUrlRead' : 'fromUrl';
      const sourceKey = urlKey && byAttribute ? urlKey.replace(/^fromUrl/, 'fromAttr').replace(/^badUrl$/, 'badAttr') : urlKey;
      say(urlSpan, sourceKey ? `${tr(sourceKey)} ` : null, urlNote?.[1]);
      say(cancelSpan, cancelled && urlKey !== 'fromUrlStopped' ? `${tr('cancelled')} ` : null);
      // no model, but the link (or the widget's state attribute) brought a sentence or a head:
      // they wait for the model, which no link carries
      const s = state();
      const waiting = !info && !progress && (s.text != null || (Number.isInteger(s.head) && s.head > 0));
      // (the project's own model's chapter is named only where it is on the page: not in a
      // widget or an ?embed= frame, which show this chapter alone)
      const noModel = ctx.onPage?.('trained-heads') ? `${tr('noModel')} ${tr('ownModelThere')}` : tr('noModel');
      const none = waiting ? `${noModel} ${tr(ctx.widget ? 'stateWaitsAttr' : 'stateWaitsLink')}` : noModel;
      say(loadedSpan, info ? tr('loaded') : progress ? null : none, loadedVars);
      const st = info ? 'loaded' : progress ? 'loading' : 'none';
      if (status.dataset.state !== st) status.dataset.state = st;
      if (openError) {
        const [tpl, vars] = errors.text(openError);
        say(errorLine, info ? `${tpl} ${tr('keepPrevious')}` : tpl, vars);
      } else say(errorLine, null);
      sayDetail(errorDetail, openError);
      const canDismiss = !!(openError && info);
      if (dismissError.hidden !== !canDismiss) dismissError.hidden = !canDismiss;
      if (errorLine.dataset.kind !== (openError?.kind ?? '')) errorLine.dataset.kind = openError?.kind ?? '';
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
    function drawSentence(s) {
      const t = sentenceOf(s);
      if (t !== headsFor) queueMicrotask(() => analyse());
      const st = sentenceState(t);
      if (st.error) say(sentenceError, ...errors.text(st.error));
      else say(sentenceError, null);
      sayDetail(sentenceDetail, st.error);
      if (sentenceError.dataset.kind !== (st.error?.kind ?? '')) sentenceError.dataset.kind = st.error?.kind ?? '';
      if (work.dataset.sentence !== st.state) work.dataset.sentence = st.state;
      const on = !!st.shown;
      for (const n of [tokensLine, viewScroll, oneTitle, oneBody, viewBox, pair]) show(n, on); // (the head's heading with its grids)
      if (on && refocus) refocusMap();
      const busy = String(st.state === 'pending');
      if (modelView.getAttribute('aria-busy') !== busy) modelView.setAttribute('aria-busy', busy);
      if (!on) {
        say(gridsCut, null); // (the grids it speaks of are gone with the sentence)
        setText(tokensLine, '');
        delete tokensLine.dataset.for;
        if (modelView.dataset.painted !== '0') modelView.dataset.painted = '0';
        pump.grids = [];
        gridKey = null;
      }
      return st;
    }
    function drawHeads(s, st) {
      const H = heads;
      if (!st.shown) return;
      const T = H.T, nh = info.layers * info.heads;
      labels = H.labels.map(shownToken);
      // (a word that became the unknown token says so: 「고양이가 → [UNK]」)
      const shown = labels.map((x, i) => (H.unknown?.[i] && x !== H.tokens[i] ? `「${x} → ${H.tokens[i]}」` : `「${x}」`));
      setText(tokensLine, tr('tokensLine', { n: T, tokens: shown.join(' ') }));
      if (tokensLine.dataset.for !== H.forText) tokensLine.dataset.for = H.forText; // (the sentence it shows: a state to wait for)
      const ms = String(Math.round(H.ms ?? 0)); // the worker's time for every head (make bench-model)
      if (tokensLine.dataset.ms !== ms) tokensLine.dataset.ms = ms;
      const head = Math.min(s.head, nh - 1);
      // the small maps: painted, built and labelled by step(), a few a frame; the chosen one now
      thumbs.forEach((th, x) => select(th, x === head));
      const lk = [roles, document.documentElement.lang, tr('layerName', { layer: 1 })];
      if (!labelKey || lk.some((v, i) => v !== labelKey[i])) {
        labelKey = lk;
        pump.labelled = 0;
        pump.label = (x) => {
          const rx = roles && roles.forText === heads?.forText ? roles.layers[Math.floor(x / info.heads)][x % info.heads] : null;
          const shown_ = rx ? roleText.why(rx, roles.thresholds) : '…';
          if (thumbs[x].lab) for (const n of [thumbs[x].lab, thumbs[x].sizer]) setText(n, tr('layerName', { layer: thumbs[x].l + 1 }));
          return [tr('thumbLabel', { head: headName(x), role: shown_ }), `${headName(x)} · ${shown_}`, rx?.role ?? ''];
        };
      }
      later();
      // the head enlarged, and beside it the value-norm view or the rollout
      // (a render with the same head, view and language leaves the grids' work as it is)
      const gk = [H, head, s.view, document.documentElement.lang];
      if (!gridKey || gk.some((v, i) => v !== gridKey[i])) {
        gridKey = gk;
        const P = { rows: T, cols: T, data: H.weights.slice(head * T * T, (head + 1) * T * T) };
        let other;
        if (s.view === 'rollout') other = { rows: T, cols: T, data: H.rollout };
        else {
          const norm = H.norms.subarray(head * T, (head + 1) * T);
          const d = new Float32Array(T * T);
          for (let i = 0; i < T; i++) {
            let sum = 0;
            for (let j = 0; j < T; j++) sum += d[i * T + j] = P.data[i * T + j] * norm[j];
            if (sum > 0) for (let j = 0; j < T; j++) d[i * T + j] /= sum;
          }
          other = { rows: T, cols: T, data: d };
        }
        // a long sentence: the grids show its first GRID_TOKENS tokens (a 500-token sentence's
        // two 250,000-cell tables took seconds of the page's thread to lay out)
        const W = Math.min(T, GRID_TOKENS);
        const block = (m) => {
          if (W === T) return m;
          const data = new Float32Array(W * W);
          for (let i = 0; i < W; i++) data.set(m.data.subarray(i * T, i * T + W), i * W);
          return { rows: W, cols: W, data };
        };
        pump.grids = [{ grid: gridP, data: block(P) }, { grid: gridV, data: block(other) }]; // GRID_CELLS a frame (step)
        pair.dataset.filled = 'false';
        if (W < T) say(gridsCut, tr(info.modelType === 'gpt2' ? 'gridsCutCausal' : 'gridsCut'), { T, W });
        else say(gridsCut, null);
      }
      later();
    }
    // The roles' sentence, line and table from one value: the roles of the heads on screen,
    // or none (then the line says why and the table has no rows).
    function drawRoles(st) {
      const R = rolesOnScreen(st);
      const H = info.heads;
      setProse(rolesBody, tr('rolesBody'), roleText.bodyVars(R, info));
      setProse(rolesThresholds, tr('rolesThresholds'), roleText.thresholdVars(R, info));
      let lineState, body = [];
      if (R) {
        const abl = ablation && ablation.forText === R.forText ? ablation : null;
        const counted = roleText.table(R, H, { headName, abl });
        setText(rolesLine, counted.line);
        lineState = 'done';
        const ms = String(Math.round(R.ms ?? 0));
        if (rolesLine.dataset.ms !== ms) rolesLine.dataset.ms = ms;
        body = counted.rows;
      } else if (!st.shown) {
        setText(rolesLine, tr('rolesNeedSentence'));
        lineState = 'none';
      } else if (rolesError && rolesError.forText === st.shown.forText) {
        setText(rolesLine, tr('rolesFailed', { message: errors.message(rolesError) }));
        lineState = 'error';
      } else {
        setText(rolesLine, tr('rolesWaiting'));
        lineState = 'busy';
      }
      if (rolesLine.dataset.state !== lineState) rolesLine.dataset.state = lineState;
      const cols = ['colHead', 'colRole', 'colPrev', 'colFirst', 'colDup', 'colLocal', 'colInduction', 'colDelta'].map((c) => tr(c));
      const key = JSON.stringify([cols, body]);
      if (key !== tableKey) {
        tableKey = key;
        const hk = JSON.stringify(cols);
        if (hk !== headKey) {
          headKey = hk;
          rebuild(thead, (into) => {
            const row = el('tr', '', into);
            cols.forEach((c) => { const th = el('th', '', row); th.scope = 'col'; th.textContent = c; });
          });
        }
        pump.rows = body;
        pump.rowsDone = 0;
        table.dataset.filled = 'false';
        later();
      }
      const busy = String(!R);
      if (table.getAttribute('aria-busy') !== busy) table.setAttribute('aria-busy', busy);
      if (tableBox.hidden !== !st.shown) {
        show(tableBox, !!st.shown); // (no sentence: no table, not even its header)
        k.scrollers.schedule();
      }
    }
    // The ablation's button, bar and line: the button works only on a sentence whose heads are
    // here (else it is disabled and the line says why), the bar shows only while one runs.
    function drawAblation(st) {
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
        const t = sentenceOf(state());
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
    function drawResults(s = state()) {
      if (!info) return;
      const st = drawSentence(s);
      drawHeads(s, st);
      drawRoles(st);
      drawAblation(st);
    }
    // (section.__renders: the chapter's whole renders, counted for the browser test; a worker's
    // message redraws only its part, without one)
    k.start((s) => {
      section.__renders = (section.__renders ?? 0) + 1;
      viewButtons.forEach((b) => (b.checked = b.value === s.view));
      const t = sentenceOf(s);
      if (document.activeElement !== input && input.value !== t) input.value = t;
      drawLoad();
      work.hidden = !info;
      drawResults(s);
    });

  },
};

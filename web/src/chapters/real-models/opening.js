// The real-models chapter's opening of a model: the file and folder pickers and the drop
// zone, a folder named by the page's link (?model=) or the widget's model attribute, the
// load's bar and Stop button, the model's line (what is open, or being read, or why
// nothing is) and the load's error with its technical note. The previous model stays in use
// when a load fails or stops; the error can then be put away.
//
//   const opening = modelOpening({ k, ctx, link, errors, byAttribute, model: () => info });
//   opening.figures.drop(parent); opening.figures.load(parent);
//   opening.fromContext();      // opens the folder ctx.model names (or says why it cannot)
//   opening.progress(m) / loaded() / cancelled() / failed(error);   // the worker's answers
//   opening.draw();             // the model's line, the bar and the error (what a load changes)
//   opening.drawProgress();     // the bar and its line alone (a progress message)
import { setText } from '../../kit/prose.js';
import { fmt } from '../../format.js';
import { modelUrl, droppedFiles, pickedModel } from './model-source.js';
import { say, safe } from './lines.js';

export function modelOpening({ k, ctx, link, errors, byAttribute, model }) {
  const { el, text, tr, state } = k;
  const f2 = (x) => fmt(x, { digits: 2, fixed: true });
  let progress = null; // {bytesDone, bytesTotal, tensorsDone, tensorsTotal} while reading
  let openError = null, cancelled = false;
  let urlNote = null, urlId = -1; // [key, vars]; the load the link asked for (its open's number)
  let bar, barText, cancelButton, status, urlSpan, cancelSpan, loadedSpan, errorLine, errorDetail, dismissError;
  const sayDetail = (node, e) => say(node, ...errors.detail(e));

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
    const info = model();
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

  return {
    figures: {
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
    },
    // A model named by a link or the widget (byAttribute: by the widget's model attribute,
    // not by the page's link: its lines say so)
    fromContext() {
      const given = ctx.model ?? null;
      if (!given) return;
      const url = modelUrl(given.url ?? given, { sameOrigin: given.sameOrigin ?? true });
      if (url) {
        urlNote = ['fromUrl', { url: safe(url) }];
        queueMicrotask(() => open({ kind: 'url', base: url }, { byLink: true }));
      } else urlNote = ['badUrl', { url: safe(String(given.url ?? given).slice(0, 200)) }];
    },
    draw: drawLoad,
    drawProgress,
    progress(m) {
      progress = m;
    },
    loaded() {
      progress = null;
      openError = null;
    },
    cancelled() {
      progress = null;
      cancelled = true;
    },
    // (the worker's own failure too)
    failed(error) {
      openError = error;
      progress = null;
    },
  };
}

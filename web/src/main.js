// Boots the page: loads the WebAssembly core once and mounts the chapter in the URL
// fragment (or the first), then the chapters as they come near the screen
// (lazy-chapters.js: code and prose loaded per chapter, space reserved, printing mounts all).
//
// The address bar is a permalink: ?lang=en&<chapter-id>=<state>#<chapter-id>, where
// <state> is what differs from the chapter's defaults (web/src/kit/url-state.js), including
// its step (!step) and exercise cells (!hide). ?embed=<chapter-id> shows that chapter
// alone, sized to its frame (for <iframe> embeds). A link that cannot be read falls back
// to the defaults where it fails and says so in a notice at the top.
import createAttention from './attn.mjs';
import chapters from 'chapters:list';
import { createI18n, LANGS } from './kit/i18n.js';
import { createStore } from './kit/store.js';
import { createHost } from './kit/host.js';
import { readQuery, buildQuery, problemText, readFragment } from './kit/url-state.js';
import { copyText } from './components/figure-export.js';
import { createLazyChapters } from './lazy-chapters.js';
import { createReadingPosition } from './reading-position.js';
import { printing } from './kit/print.js';

const $ = (id) => document.getElementById(id);
const ids = new Set(chapters.map((c) => c.id));

// ---- reading the link ------------------------------------------------------------------------
const restore = {};
const named = new Set(); // the chapters the link names (readable or not): mounted at load
const linkProblems = []; // [key, vars], translated when shown
let lang = 'ko';
let embed = null;
// ?model=<folder on this site>: a checkpoint for the real-models chapter (docs/real-models.md),
// opened when that chapter mounts (it is mounted at load, as a chapter the link names).
let model = null;
for (const [name, value, bad] of readQuery(location.search)) {
  if (ids.has(name)) named.add(name);
  if (bad) linkProblems.push([ids.has(name) ? 'unreadable' : 'unknownSetting', { name: name.slice(0, 40) }]);
  else if (name === 'lang') {
    if (LANGS.includes(value)) lang = value;
    else linkProblems.push(['badLang', { lang: value.slice(0, 20) }]);
  } else if (name === 'embed') {
    if (ids.has(value)) embed = value;
    else linkProblems.push(['unknownChapter', { id: value.slice(0, 40) }]);
  } else if (name === 'model' && ids.has('real-models')) {
    model = value;
    named.add('real-models');
  } else if (ids.has(name)) restore[name] = value;
  else linkProblems.push(['unknownSetting', { name: name.slice(0, 40) }]);
}

const i18n = createI18n(lang, chapters);
const store = createStore({});
const host = createHost({ store, restore });
const shown = embed ? chapters.filter((c) => c.id === embed) : chapters;
if (embed) document.documentElement.classList.add('embed');

// ---- notice for links that could not be used -------------------------------------------------
// The notice lives at the top of the page. A reader who opened the link at a chapter further
// down (a #fragment, a reload, a chapter mounted later whose state could not be used) would
// never see it there: it then floats at the bottom of the window (.floating) until it is
// dismissed or its place at the top comes into view, where it docks again. Its place keeps its
// height meanwhile (noticeHome), so floating moves nothing on the page.
const noticeHome = document.createElement('div');
noticeHome.className = 'notice-home';
$('notice').before(noticeHome);
let noticeKey = '', noticeSeen = ''; // the items shown; the items the reader has had in view
function floatNotice(on) {
  const box = $('notice');
  if (on === box.classList.contains('floating')) return;
  if (on) holdNoticePlace();
  else noticeHome.style.height = '';
  box.classList.toggle('floating', on);
}
// (its height and its margin above, which a fixed box keeps but takes out of the page)
function holdNoticePlace() {
  const box = $('notice');
  noticeHome.style.height = `${box.offsetHeight + parseFloat(getComputedStyle(box).marginTop)}px`;
}
const inView = (r) => r.bottom > 0 && r.top < innerHeight;
if (typeof IntersectionObserver === 'function') new IntersectionObserver(([e]) => {
  if (!e.isIntersecting || $('notice').hidden || document.body.dataset.ready !== 'true') return;
  floatNotice(false);
  noticeSeen = noticeKey;
}).observe(noticeHome);
function renderNotice() {
  const box = $('notice');
  const t = (k, vars = {}) => i18n.t(`common.${k}`, vars);
  const items = [...linkProblems.map(([k, vars]) => t(k, vars)),
    ...host.notices.map((n) => t('noticeChapter', { chapter: i18n.t(`${n.chapter}.toc`), problems: n.problems.map((q) => problemText(q, (k, v) => t(`link.${k}`, v))).join('; ') }))];
  if (items.length === 0 || box.dataset.dismissed) {
    floatNotice(false);
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.textContent = '';
  const p = document.createElement('p');
  p.className = 'notice-title';
  p.textContent = t('noticeTitle');
  const ul = document.createElement('ul');
  for (const it of items) ul.append(Object.assign(document.createElement('li'), { textContent: it }));
  const close = Object.assign(document.createElement('button'), { type: 'button', textContent: t('noticeDismiss') });
  close.addEventListener('click', () => {
    const hadFocus = box.contains(document.activeElement);
    box.dataset.dismissed = 'true';
    floatNotice(false);
    box.hidden = true;
    if (hadFocus) focusBack();
  });
  // (how the keyboard gets here from anywhere: the notice comes before every chapter)
  const keys = Object.assign(document.createElement('p'), { className: 'notice-keys', textContent: t('noticeKeys') });
  box.append(p, ul, keys, close);
  // (once the page is placed: before, the window is still at the top whatever the link names)
  noticeKey = JSON.stringify([linkProblems, host.notices.map((n) => [n.chapter, n.problems])]);
  if (document.body.dataset.ready === 'true' && noticeKey !== noticeSeen) {
    if (inView((box.classList.contains('floating') ? noticeHome : box).getBoundingClientRect())) noticeSeen = noticeKey;
    else floatNotice(true);
  }
  if (box.classList.contains('floating')) holdNoticePlace();
}
host.onNotice(() => renderNotice());
// The notice is the first thing on the page, the chapter a link opened may be hundreds of
// tab stops below it: the keyboard reaches its Dismiss button with Alt+Shift+N from
// anywhere (by key position, as Alt+Shift+T), and, while it floats over a chapter, with the
// first Tab of a reader whose focus has not moved yet (nothing takes the focus on load).
// Escape inside it dismisses it (while it floats, Escape outside a field too), and Tab
// leaves the floating notice: the focus then goes back where it was, else to the heading of
// the chapter in view; Shift+Tab from the first tab stop under it comes back to it.
let focusBefore = null; // where the focus was when Alt+Shift+N brought it to the notice
let focusMoved = false; // the reader has moved the focus (a click, a Tab) since the page loaded
document.addEventListener('pointerdown', () => (focusMoved = true), true);
function toNotice() {
  const button = $('notice').querySelector('button');
  if ($('notice').hidden || !button) return false;
  const now = document.activeElement;
  focusBefore = now && now !== document.body && !$('notice').contains(now) ? now : focusBefore;
  button.focus({ preventScroll: $('notice').classList.contains('floating') });
  return true;
}
function focusBack() {
  const back = focusBefore?.isConnected ? focusBefore : null;
  focusBefore = null;
  if (back) return back.focus({ preventScroll: true });
  // (the chapter at the top of the window, below the tools docked there: not one whose last
  // pixels are still under them)
  const reading = [...document.querySelectorAll('section.chapter')].find((n) => n.getBoundingClientRect().bottom > Math.min(100, innerHeight / 4));
  const h = reading?.querySelector('h2');
  if (!h) return;
  if (!h.hasAttribute('tabindex')) h.tabIndex = -1;
  h.focus({ preventScroll: true });
}
// Whether the tab stop before `from` (in the page's order) is on the screen below `top`.
function aboveOnScreen(from, top) {
  if (!from || from === document.body) return true;
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  w.currentNode = from;
  for (let n = w.previousNode(); n; n = w.previousNode()) {
    if (n.tabIndex < 0 || n.disabled || n.closest('[hidden], [inert]') || !n.checkVisibility?.({ visibilityProperty: true })) continue;
    if (n.matches('a[href], button, input, select, textarea, summary, [tabindex]')) return n.getBoundingClientRect().bottom > top;
  }
  return false;
}
document.addEventListener('keydown', (e) => {
  const box = $('notice');
  if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyN') {
    if (toNotice()) e.preventDefault();
  } else if (e.key === 'Tab' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !focusMoved &&
      box.classList.contains('floating') && !box.hidden && (document.activeElement === document.body || !document.activeElement)) {
    if (toNotice()) e.preventDefault();
  } else if (e.key === 'Tab' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey &&
      box.classList.contains('floating') && box.contains(document.activeElement)) {
    // (on from the floating notice: back into the chapter being read, not to the top of the
    // page where the notice sits in the document)
    e.preventDefault();
    focusBack();
  } else if (e.key === 'Tab' && e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey &&
      box.classList.contains('floating') && !box.hidden && !box.contains(document.activeElement) &&
      !aboveOnScreen(document.activeElement, box.getBoundingClientRect().bottom)) {
    // (back from the first tab stop under the floating notice: to the notice, which is
    // above it on the screen, not to a chapter scrolled out of view above)
    if (toNotice()) e.preventDefault();
  } else if (e.key === 'Escape' && !box.hidden && (box.contains(document.activeElement) ||
      (box.classList.contains('floating') && !e.defaultPrevented && !e.isComposing && !document.activeElement?.closest('dialog, [role="dialog"]')))) {
    // (inside the notice; or, while it floats over the chapter, wherever Escape has nothing
    // else to do: not where a field put a value back with it (it prevents the default), nor
    // an input method's composition, nor a dialog it closes)
    e.preventDefault();
    box.querySelector('button').click();
  }
  if (e.key === 'Tab') focusMoved = true;
});

// ---- writing the link ---------------------------------------------------------------------------
// (withLang: the language even when it is the page's default, Korean: for the iframe code,
// which goes into a host page of any language)
function query({ withEmbed = true, withLang = false } = {}) {
  const pairs = [];
  if (embed && withEmbed) pairs.push(['embed', embed]);
  if (i18n.lang !== 'ko' || withLang) pairs.push(['lang', i18n.lang]);
  if (model !== null) pairs.push(['model', model]);
  // A chapter not mounted yet keeps the text its link came with.
  for (const ch of shown) {
    const text = lazy.isMounted(ch.id) ? host.encode(ch.id) : restore[ch.id];
    if (text) pairs.push([ch.id, text]);
  }
  return buildQuery(pairs);
}
let syncTimer = 0;
function syncUrl({ now = false } = {}) {
  clearTimeout(syncTimer);
  const write = () => {
    const next = `${location.pathname}${query()}${location.hash}`;
    if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', next);
    // (the open panel follows the edits: its link is the page's as it is now, to copy again
    // while it differs from the one copied; back to that one, the panel says so again)
    if (!$('share-panel').hidden && sharedFor !== null) {
      const { url, changed } = fillShare(sharedFor);
      if (changed) $('share-status').textContent = i18n.t(url === copied.url ? copied.status : 'common.linkChanged');
    }
  };
  if (now) write();
  else syncTimer = setTimeout(write, 150); // typing and hovering: once things settle
}
host.onChange(syncUrl);
store.subscribe(syncUrl);

// Where "copy link" points to: the chapter the learner last worked in (the link button
// sits in the header, so the window has usually scrolled away from it by the time it is
// clicked), else the chapter nearest the top of the window.
let lastActive = null;
for (const type of ['pointerdown', 'focusin', 'input']) {
  document.addEventListener(type, (e) => {
    const section = e.target?.closest?.('section.chapter');
    if (section) lastActive = section.id;
  }, true);
}
// (a link to a chapter not mounted yet is reading-position.js's: it mounts it and goes there)
window.addEventListener('hashchange', () => {
  const fragment = readFragment(location.hash);
  if (shown.some((ch) => ch.id === fragment)) lastActive = fragment;
});
function currentChapter() {
  if (lastActive && shown.some((ch) => ch.id === lastActive)) return lastActive;
  let best = shown[0]?.id;
  for (const ch of shown) {
    const s = $(ch.id);
    if (s && s.getBoundingClientRect().top <= 120) best = ch.id;
  }
  return best;
}

// (its language always: a widget without lang takes the host page's, so the code of a page
// read in Korean pasted into an English page would come out in English)
function widgetSnippet(id) {
  const attrs = [`chapter="${id}"`, `lang="${i18n.lang}"`];
  const c = host.chapters.get(id);
  const step = c?.steppers.find((s) => s.index !== 0);
  if (step) attrs.push(`step="${step.key}"`);
  const state = host.encodeState(id);
  if (state) attrs.push(`state="${state}"`);
  const hide = host.hiddenRefs(id);
  if (hide.length) attrs.push(`hide="${hide.join(' ')}"`);
  return `<script type="module" src="attention-explorer.js"></script>\n<attention-explorer ${attrs.join(' ')}></attention-explorer>`;
}

// The panel's three texts for the chapter `id`, as the page is now: the link, the widget, the
// iframe. Written when the panel opens, and again when an edit changes them while it is open.
let sharedFor = null;
// The link the panel last put on the clipboard (or asked to copy by hand) and what it said then.
const copied = { url: null, status: 'common.linkCopied' };
function fillShare(id) {
  sharedFor = id;
  const url = `${location.origin}${location.pathname}${query()}${id ? `#${id}` : ''}`;
  const input = $('share-link');
  const q = query({ withEmbed: false, withLang: true }).replace(/^\?/, '').split('&').filter(Boolean);
  const texts = [[input, url], [$('share-widget'), widgetSnippet(id)],
    [$('share-iframe'), `<iframe src="${location.origin}${location.pathname}?${['embed=' + id, ...q].join('&')}" ` +
      `title="${i18n.t(`${id}.toc`).replace(/"/g, '&quot;')}" width="100%" height="720" style="border:0" loading="lazy"></iframe>`]];
  let changed = false;
  for (const [node, v] of texts) if (node.value !== v) (node.value = v), (changed = true);
  return { url, changed };
}
async function openShare() {
  const id = currentChapter();
  clearTimeout(syncTimer);
  const { url } = fillShare(id);
  history.replaceState(history.state, '', url);
  const panel = $('share-panel');
  panel.hidden = false;
  $('copy-link').setAttribute('aria-expanded', 'true');
  const input = $('share-link');
  input.focus();
  input.select();
  const ok = await copyText(url);
  Object.assign(copied, { url, status: ok ? 'common.linkCopied' : 'common.linkSelect' });
  $('share-status').textContent = i18n.t(copied.status);
}

// ---- chrome ---------------------------------------------------------------------------------------
function renderChrome() {
  const t = (k) => i18n.t(`common.${k}`);
  document.documentElement.lang = i18n.lang;
  $('site-title').textContent = t('siteTitle');
  $('site-subtitle').textContent = t('siteSubtitle');
  $('toc-title').textContent = t('toc');
  document.querySelector('.skip-link').textContent = t('skip');
  $('to-tools').textContent = t('toTools');
  const toggle = $('lang-toggle');
  toggle.textContent = t('langToggle');
  toggle.lang = i18n.lang === 'ko' ? 'en' : 'ko';
  toggle.title = t('langToggleLabel'); // the name is the visible word itself (in its own language)
  $('copy-link').textContent = t('copyLink');
  $('copy-link').title = t('linkTitle');
  $('share-title').textContent = t('copyLink');
  $('share-link-label').textContent = t('linkLabel');
  $('share-widget-label').textContent = t('embedLabel');
  $('share-iframe-label').textContent = t('iframeLabel');
  $('share-close').textContent = t('closePanel');
  $('exercise-toggle').textContent = t(host.picking ? 'exerciseOn' : 'exercise');
  $('exercise-help').textContent = t('exerciseHelp');
  $('footer-text').textContent = t('footer');
  const full = $('open-full').querySelector('a');
  full.textContent = `${t('openFull')} ↗`;
  document.title = `${t('siteTitle')}`;
  const ol = $('toc').querySelector('ol');
  ol.textContent = '';
  for (const ch of shown) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#${ch.id}`;
    a.textContent = i18n.t(`${ch.id}.toc`);
    li.append(a);
    ol.append(li);
  }
  renderNotice();
}

// The prose of the mounted chapters in the other language, then the switch: chapters in
// view are redrawn at once, those near the screen when the page is next idle, the others
// when they come near it (ctx.onScreen, lazy-chapters.js).
$('lang-toggle').addEventListener('click', async () => {
  await i18n.switchTo(i18n.lang === 'ko' ? 'en' : 'ko', lazy.mounted);
  syncUrl({ now: true });
});
$('copy-link').addEventListener('click', openShare);
const closeShare = () => {
  $('share-panel').hidden = true;
  $('copy-link').setAttribute('aria-expanded', 'false');
};
$('share-close').addEventListener('click', closeShare);
// Escape closes the panel from anywhere inside it (or from its button), and the focus goes
// back to the button that opened it.
$('share-panel').addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  e.preventDefault();
  closeShare();
  $('copy-link').focus();
});
$('copy-link').addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !$('share-panel').hidden) closeShare();
});
// ... and from elsewhere on the page too, wherever Escape has nothing else to do (not a field
// that put a value back with it, which prevents the default, nor an input method's
// composition, nor a menu or a notice it closes first); a field with nothing to undo
// leaves the key to the page
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing || $('share-panel').hidden) return;
  if (document.activeElement?.closest('details[open], #notice')) return;
  closeShare();
});
// The way back to the tools from anywhere (the page has hundreds of tab stops): Alt+Shift+T
// (by key position, so whatever the keyboard layout or input method), or the link at the
// foot of the page. The first tool takes the focus (in the bar docked at the top of the
// window, so the reading position stays where it was) and a status line says where it is.
function toTools() {
  document.body.classList.remove('tucked');
  $('lang-toggle').focus();
  const said = $('tools-said');
  said.textContent = '';
  requestAnimationFrame(() => (said.textContent = i18n.t('common.toToolsSaid')));
}
document.addEventListener('keydown', (e) => {
  if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyT') {
    e.preventDefault();
    toTools();
  }
});
$('to-tools').addEventListener('click', (e) => {
  e.preventDefault();
  toTools();
});
$('exercise-toggle').addEventListener('click', () => {
  host.setPicking(!host.picking);
  $('exercise-toggle').setAttribute('aria-pressed', String(host.picking));
  $('exercise-help').hidden = !host.picking;
  renderChrome();
});
renderChrome(); // (it follows language switches once the chapters' pages are set up, below)

// ---- the tools stay within reach ------------------------------------------------------------------
// Once the header has scrolled away, its buttons (language, link, exercise) dock in a thin
// bar at the top of the window (body.docked, styles.css), with the link panel and the
// exercise help under it. On a narrow screen the bar tucks away while the reader scrolls
// down and comes back on the way up, so it does not sit over what is being read. The
// chapters' own scroll corrections (a chapter above the reader mounted or grew: the page
// moves with it, lazy-chapters.js) are not the reader's scrolling: they move toolsLastY too.
let toolsLastY = scrollY;
{
  const header = document.querySelector('.site-header');
  const tools = document.querySelector('.site-tools');
  const row = document.querySelector('.tool-row');
  const body = document.body;
  new IntersectionObserver(([e]) => {
    const dock = !e.isIntersecting && e.boundingClientRect.bottom < 0;
    if (dock === body.classList.contains('docked')) return;
    if (dock) tools.style.minHeight = `${tools.offsetHeight}px`; // the header keeps its height
    body.classList.toggle('docked', dock);
    if (!dock) body.classList.remove('tucked');
  }).observe(header);
  addEventListener('scroll', () => {
    const y = scrollY, dy = y - toolsLastY;
    if (Math.abs(dy) < 6) return;
    toolsLastY = y;
    const busy = !$('share-panel').hidden || row.contains(document.activeElement) || host.picking;
    const tuck = dy > 0 && innerWidth < 700 && !busy;
    if (body.classList.contains('tucked') !== tuck) body.classList.toggle('tucked', tuck);
    // While an exercise is being made the bar stays (its toggle ends it), but its hint, which
    // covers a figure's worth of a phone's window, tucks away while the reader scrolls down.
    const away = dy > 0 && innerWidth < 700;
    if (body.classList.contains('hint-away') !== away) body.classList.toggle('hint-away', away);
  }, { passive: true });
}

// ---- the chapters ------------------------------------------------------------------------------
let attn = null;
// The page's core has no trainer (createAttention({training: false}): a quarter lighter);
// the training chapter trains in its Web Worker, which loads the whole core, and where no
// worker can start, on the page with this one, loaded on first use.
let withTrainer = null;
const coreWithTrainer = () => (withTrainer ??= createAttention());
// The reading position (reading-position.js): kept when what is above changes height, across a
// reload, Back and Forward, and printing.
const position = createReadingPosition({ printing, onShift: (d) => { toolsLastY += d; } });
const lazy = createLazyChapters({
  main: $('main'), list: shown, i18n, position,
  above: [document.querySelector('.site-header'), $('share-panel'), $('exercise-help'), $('toc'), noticeHome, $('notice'), $('boot-status')].filter(Boolean),
  mount(c, section, module) {
    // (onPage: whether a chapter is on this page; ?embed= shows one alone)
    module.mount(section, { attn, i18n, store, host, onScreen: (fn) => lazy.onScreen(c.id, fn), pin: () => position.pin(), coreWithTrainer, model, onPage: (id) => shown.some((x) => x.id === id) });
    host.finishRestore(c.id);
  },
  onMounted: () => renderNotice(),
});
// After lazy-chapters' own listener, which reads the reading position before anything
// changes (a read after renderChrome's changes would lay the whole page out at once).
i18n.onChange(renderChrome);
document.documentElement.classList.add('outline-ready');

// Where the reader is: a reload or a step back in history returns to the same place in the
// same chapter; a #fragment link mounts its chapter and goes there; else the fragment's
// chapter, else the first.
const nav = embed ? { target: null, place: () => {} } : position.navigate({
  key: `attention-explorer:position:${location.pathname}`, fragment: readFragment,
  sections: lazy.sections, owner: lazy.owner, isMounted: lazy.isMounted, mount: lazy.mount,
});
const fragment = readFragment(location.hash);
const target = nav.target || (fragment && lazy.owner(fragment)) || shown[0]?.id;
const place = nav.place;
place(); // the placeholder's title is on screen while the code loads
lazy.load(target);

// In a frame: tell the embedding page how tall the chapter is (it may size the frame).
if (embed && window.parent !== window) {
  const post = () => window.parent.postMessage({ type: 'attention-explorer:height', chapter: embed, height: document.documentElement.scrollHeight }, '*');
  new ResizeObserver(post).observe(document.body);
}

try {
  attn = await createAttention({ training: false });
  $('simd-badge').textContent = i18n.t('common.simd', { simd: attn.simd });
  i18n.onChange(() => ($('simd-badge').textContent = i18n.t('common.simd', { simd: attn.simd })));
  await lazy.mount(target);
  $('boot-status').remove();
  // In the next frame, before it paints: the layout that place() reads is then the frame's
  // own, not a forced one at the end of the mounting task (a long task at a #fragment).
  await new Promise((r) => requestAnimationFrame(() => r(place())));
  await lazy.observe(); // the chapters near the screen
  // The chapters the link carries a state for: mounted now, so that a link that cannot be
  // used says so at once, beside the chapter it was for.
  for (const id of named) if (shown.some((c) => c.id === id)) await lazy.mount(id);
  if (embed) {
    const a = $('open-full').querySelector('a');
    const refresh = () => (a.href = `${location.pathname}${query({ withEmbed: false })}#${embed}`);
    refresh();
    host.onChange(refresh);
    store.subscribe(refresh);
    i18n.onChange(refresh);
    $('open-full').hidden = false;
  }
  document.body.dataset.ready = 'true';
  renderNotice();
  syncUrl();
  // The other chapters' code, while the page is idle (so that printing can show them).
  setTimeout(lazy.prefetch, 3000);
} catch (e) {
  const status = $('boot-status');
  status.textContent = i18n.t('common.loadFailed', { message: e.message });
  status.classList.add('error');
  console.error(e);
}

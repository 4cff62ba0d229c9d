// Boots the page: loads the WebAssembly core once, then mounts every chapter.
import createAttention from './attn.mjs';
import { createI18n } from './i18n.js';
import { createStore } from './store.js';
import chapters from './chapters/index.js';

const params = new URLSearchParams(location.search);
const i18n = createI18n(params.get('lang') === 'en' ? 'en' : 'ko');
const store = createStore({});
const $ = (id) => document.getElementById(id);

function renderChrome() {
  const t = (k) => i18n.t(`common.${k}`);
  document.documentElement.lang = i18n.lang;
  $('site-title').textContent = t('siteTitle');
  $('site-subtitle').textContent = t('siteSubtitle');
  $('toc-title').textContent = t('toc');
  document.querySelector('.skip-link').textContent = t('skip');
  const toggle = $('lang-toggle');
  toggle.textContent = t('langToggle');
  toggle.lang = i18n.lang === 'ko' ? 'en' : 'ko';
  toggle.setAttribute('aria-label', t('langToggleLabel'));
  $('footer-text').textContent = t('footer');
  document.title = `${t('siteTitle')}`;
  const ol = $('toc').querySelector('ol');
  ol.textContent = '';
  for (const ch of chapters) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#${ch.id}`;
    a.textContent = i18n.t(`${ch.id}.toc`);
    li.append(a);
    ol.append(li);
  }
}

$('lang-toggle').addEventListener('click', () => {
  i18n.setLang(i18n.lang === 'ko' ? 'en' : 'ko');
  const url = new URL(location.href);
  if (i18n.lang === 'ko') url.searchParams.delete('lang');
  else url.searchParams.set('lang', i18n.lang);
  history.replaceState(null, '', url);
});
i18n.onChange(renderChrome);
renderChrome();

try {
  const attn = await createAttention();
  $('simd-badge').textContent = i18n.t('common.simd').replace('{simd}', attn.simd);
  i18n.onChange(() => ($('simd-badge').textContent = i18n.t('common.simd').replace('{simd}', attn.simd)));
  const main = $('main');
  $('boot-status').remove();
  for (const ch of chapters) {
    const section = document.createElement('section');
    section.id = ch.id;
    section.className = 'chapter';
    main.append(section);
    ch.mount(section, { attn, i18n, store });
  }
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  document.body.dataset.ready = 'true';
} catch (e) {
  const status = $('boot-status');
  status.textContent = i18n.t('common.loadFailed').replace('{message}', e.message);
  status.classList.add('error');
  console.error(e);
}

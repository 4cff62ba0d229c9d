// The chapter list, generated from the folders of web/src/chapters/ (no hand-kept registry).
//
// A chapter is one folder, web/src/chapters/<id>/:
//   index.js        the module: export default { id, options?, mount(section, ctx) }
//   ko.js, en.js    its prose (export default { toc, title, ... }), Korean and English
//   chapter.json    { "order": 40, "height": [2700, 4800] }: its place in the reading order
//                   (any numbers, sorted ascending) and its height in px at 1280 and 390 px
//                   wide, the space the page reserves for it before it is first drawn (an
//                   estimate: after that the page remembers the real one); optionally
//                   "needs": ["<id>", ...]: chapters whose elements this one links into or
//                   reads, mounted together with it
//   <id>.test.mjs   its browser test (ctest finds it there)
//
// build.mjs bundles the list as the module 'chapters:list' (chapterList() gives its source):
//   export default [{ id, order, needs, height: [wide, narrow], toc: {ko, en}, title: {ko, en},
//                     load: () => import('./<id>/index.js'),
//                     text: { ko: () => import('./<id>/ko.js'), en: () => import('./<id>/en.js') } }, ...]
// so the page's first load carries the titles of every chapter and the code of none; with
// esbuild's splitting each chapter is a chunk, loaded when it is mounted.
import { readdir, readFile, access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CHAPTERS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'chapters');
export const LANGS = ['ko', 'en'];
const ID = /^[a-z][a-z0-9-]*$/;

// Every chapter folder, in reading order, with what the list needs from it. Throws (the build
// fails) on a folder that is not a complete chapter.
export async function readChapters(dir = CHAPTERS_DIR) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const id = entry.name;
    const folder = join(dir, id);
    if (!ID.test(id)) throw new Error(`chapter folder "${id}": an id is lower-case letters, digits and '-'`);
    for (const f of ['index.js', 'chapter.json', ...LANGS.map((l) => `${l}.js`)])
      await access(join(folder, f)).catch(() => {
        throw new Error(`chapter ${id}: ${f} is missing in ${folder}`);
      });
    const meta = JSON.parse(await readFile(join(folder, 'chapter.json'), 'utf8'));
    if (!Number.isFinite(meta.order)) throw new Error(`chapter ${id}: chapter.json needs a numeric "order"`);
    const text = {};
    for (const lang of LANGS) {
      const url = pathToFileURL(join(folder, `${lang}.js`));
      url.search = `?t=${Date.now()}`; // a rebuild in the same process reads the file again
      text[lang] = (await import(url.href)).default;
      for (const key of ['toc', 'title'])
        if (typeof text[lang]?.[key] !== 'string') throw new Error(`chapter ${id}: ${lang}.js has no "${key}" string`);
    }
    const height = meta.height ?? [2500, 4000];
    if (!(Array.isArray(height) && height.length === 2 && height.every((x) => x > 0))) throw new Error(`chapter ${id}: chapter.json "height" is [px at 1280 wide, px at 390 wide]`);
    out.push({ id, order: meta.order, needs: meta.needs ?? [], height, text });
  }
  out.sort((a, b) => a.order - b.order);
  for (let i = 1; i < out.length; i++)
    if (out[i].order === out[i - 1].order) throw new Error(`chapters ${out[i - 1].id} and ${out[i].id} have the same order ${out[i].order}`);
  const ids = new Set(out.map((c) => c.id));
  for (const c of out) for (const n of c.needs) if (!ids.has(n)) throw new Error(`chapter ${c.id} needs "${n}", which is not a chapter`);
  return out;
}

// Source of the 'chapters:list' module (resolved from web/src/chapters/). With `side`
// ({ids, file}), those chapters' code and prose are not bundled with the list but come from
// `file`, a module next to the bundle (the one-file widget's attention-explorer-more.js:
// build.mjs), whose default export is {<id>: {module, text: {ko, en}}}.
export async function chapterList(dir = CHAPTERS_DIR, { side = null } = {}) {
  const chapters = await readChapters(dir);
  const pick = (c, key) => `{ ${LANGS.map((l) => `${l}: ${JSON.stringify(c.text[l][key])}`).join(', ')} }`;
  const outside = (c) => side?.ids.includes(c.id);
  const rows = chapters.map((c) => {
    const id = JSON.stringify(c.id);
    const load = outside(c) ? `() => sideFile().then((s) => s.default[${id}].module)` : `() => import(${JSON.stringify(`./${c.id}/index.js`)})`;
    const text = (l) => (outside(c) ? `() => sideFile().then((s) => s.default[${id}].text.${l})` : `() => import(${JSON.stringify(`./${c.id}/${l}.js`)})`);
    return `  {
    id: ${id}, order: ${c.order}, needs: ${JSON.stringify(c.needs)}, height: ${JSON.stringify(c.height)},
    toc: ${pick(c, 'toc')},
    title: ${pick(c, 'title')},
    load: ${load},
    text: { ${LANGS.map((l) => `${l}: ${text(l)}`).join(', ')} },
  },`;
  });
  const sideLoader = !side ? '' : `
// ${side.ids.join(', ')}: from ${side.file} next to this file, imported on first use.
let sidePromise = null;
async function sideFile() {
  let url = null;
  try {
    url = new URL(${JSON.stringify(`./${side.file}`)}, import.meta.url).href;
  } catch {
    // import.meta.url is a blob: or data: URL (a notebook): there is no folder to look in
  }
  return (sidePromise ??= (url ? import(url) : Promise.reject(new Error('the widget was not loaded from a file'))).catch((e) => {
    sidePromise = null;
    throw Object.assign(new Error(\`this chapter is in ${side.file}, next to the widget's script\${url ? \` (\${url})\` : ''}: \${e.message}\`),
      { sideFile: ${JSON.stringify(side.file)}, cause: e });
  }));
}
`;
  return `// Generated by web/scripts/chapters.mjs from the folders of web/src/chapters/.\n${sideLoader}export default [\n${rows.join('\n')}\n];\n`;
}

// esbuild plugin: import chapters from 'chapters:list'; chapterListPluginWith({side}) for a
// list whose `side` chapters come from another file (chapterList).
export const chapterListPluginWith = (options = {}) => ({
  name: 'chapter-list',
  setup(b) {
    b.onResolve({ filter: /^chapters:list$/ }, () => ({ path: 'chapters:list', namespace: 'chapter-list' }));
    b.onLoad({ filter: /.*/, namespace: 'chapter-list' }, async () => ({
      contents: await chapterList(CHAPTERS_DIR, options), resolveDir: CHAPTERS_DIR, loader: 'js',
      watchDirs: [CHAPTERS_DIR],
    }));
  },
});
export const chapterListPlugin = chapterListPluginWith();

// The page's shell (dist/index.html): the table of contents and a placeholder section per
// chapter (its title, the height reserved for it) written into the HTML, so the page has its
// final outline before any script runs and nothing moves when the script fills it in.
// Korean, the page's default language; the script relabels for ?lang=en.
const esc = (t) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
export function pageShell(html, chapters, lang = 'ko') {
  const toc = chapters.map((c) => `<li><a href="#${c.id}">${esc(c.text[lang].toc)}</a></li>`).join('');
  const sections = chapters.map((c) => `<section id="${c.id}" class="chapter placeholder" aria-busy="true" ` +
    `style="--reserve-wide:${c.height[0]}px;--reserve-narrow:${c.height[1]}px"><h2>${esc(c.text[lang].title)}</h2></section>`).join('\n    ');
  const out = html.replace(/(<nav id="toc"[^]*?<ol>)(<\/ol>)/, `$1${toc}$2`)
    .replace(/<!-- chapters:[^>]*-->/, sections);
  if (out === html) throw new Error('index.html has no <nav id="toc">…<ol></ol> or no <!-- chapters --> mark');
  return out;
}

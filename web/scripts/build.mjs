// Builds the static site into web/dist/:
//   dist/index.html, dist/app.js (the page, bundled by esbuild; each chapter and its prose
//   in ch-<id>.js, ch-<id>.<lang>.js, shared code in chunk-<hash>.js), dist/styles.css,
//   dist/training-worker.js (the training chapter's module worker),
//   dist/cost-run.js (the Web Worker of the cost chapter's live run; imports ./attn.mjs),
//   dist/katex/ (KaTeX's stylesheet and fonts, served locally: no CDN),
//   dist/attn.mjs + attn.d.ts (the public JS API) and attn-core.mjs + attn-core.wasm
//   (the Emscripten build of the core, from build/wasm-release/wasm by default), plus
//   attn-core-scalar.mjs + .wasm (the same core without SIMD, for engines lacking it),
//   dist/attention-explorer.js: the <attention-explorer> widget in one file (the page's
//   chapters and components, KaTeX's styles and fonts, and the same attn-core.wasm, inlined).
import { build } from 'esbuild';
import { cp, mkdir, rm, access, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chapterListPlugin, readChapters, LANGS, pageShell } from './chapters.mjs';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(web, '..');
const dist = join(web, 'dist');
const wasmDir = resolve(process.env.ATTN_WASM_DIR ?? join(root, 'build', 'wasm-release', 'wasm'));

async function mustExist(path, hint) {
  try { await access(path); } catch { throw new Error(`missing ${path}\n${hint}`); }
}

await mustExist(join(wasmDir, 'attn-core.wasm'), 'build the WebAssembly core first: make wasm');
await mustExist(join(wasmDir, 'attn-core-scalar.wasm'), 'build the WebAssembly core first: make wasm');

await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'katex'), { recursive: true });

await Promise.all([
  cp(join(wasmDir, 'attn-core.mjs'), join(dist, 'attn-core.mjs')),
  cp(join(wasmDir, 'attn-core.wasm'), join(dist, 'attn-core.wasm')),
  cp(join(wasmDir, 'attn-core-scalar.mjs'), join(dist, 'attn-core-scalar.mjs')),
  cp(join(wasmDir, 'attn-core-scalar.wasm'), join(dist, 'attn-core-scalar.wasm')),
  cp(join(root, 'wasm', 'attn.mjs'), join(dist, 'attn.mjs')),
  cp(join(root, 'wasm', 'attn.d.ts'), join(dist, 'attn.d.ts')),
  cp(join(web, 'index.html'), join(dist, 'index.html')),
  cp(join(web, 'favicon.svg'), join(dist, 'favicon.svg')),
  cp(join(web, 'node_modules', 'katex', 'dist', 'katex.min.css'), join(dist, 'katex', 'katex.min.css')),
  cp(join(web, 'node_modules', 'katex', 'dist', 'fonts'), join(dist, 'katex', 'fonts'), { recursive: true }),
]);

// The page's outline in its HTML: the table of contents and a placeholder per chapter.
await writeFile(join(dist, 'index.html'), pageShell(await readFile(join(web, 'index.html'), 'utf8'), await readChapters()));

// The page: app.js (the page's own code and the chapter list), one entry per chapter
// (ch-<id>.js) and per chapter's prose (ch-<id>.ko.js, ch-<id>.en.js), loaded with import()
// when a chapter is mounted, and chunk-<hash>.js for the code they share (the kit, the
// components, KaTeX, d3). All in dist/ itself, so a chapter's new URL('./x.js',
// import.meta.url) finds the workers next to it.
const chapterEntries = {};
for (const c of await readChapters()) {
  chapterEntries[`ch-${c.id}`] = join(web, 'src', 'chapters', c.id, 'index.js');
  for (const lang of LANGS) chapterEntries[`ch-${c.id}.${lang}`] = join(web, 'src', 'chapters', c.id, `${lang}.js`);
}
const target = ['es2022', 'chrome100', 'firefox100', 'safari15'];
const minify = !process.env.ATTN_NO_MINIFY;
await build({
  entryPoints: {
    app: join(web, 'src', 'main.js'),
    styles: join(web, 'src', 'styles.css'),
    ...chapterEntries,
  },
  outdir: dist,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  target,
  minify,
  sourcemap: true,
  external: ['./attn.mjs'],
  plugins: [chapterListPlugin],
  logLevel: 'warning',
});
// The workers, one file each (no shared chunks: the widget's documentation has a teacher
// copy one worker file next to the widget): training-worker is the training chapter's,
// cost-run the cost chapter's live run. Both are module workers importing ./attn.mjs.
await build({
  entryPoints: {
    'training-worker': join(web, 'src', 'workers', 'training.js'),
    'cost-run': join(web, 'src', 'workers', 'cost-run.js'),
  },
  outdir: dist,
  bundle: true,
  format: 'esm',
  target,
  minify,
  sourcemap: true,
  external: ['./attn.mjs'],
  logLevel: 'warning',
});

// ---- the widget ------------------------------------------------------------------------------
// The page's stylesheet, rewritten for a shadow root: variables on .ae-root instead of
// :root, the dark scheme picked by the widget (data-scheme, from the host page) instead of
// the OS alone, rem (the host's root font size, which a course page may set to anything)
// replaced by the widget's own unit, and the phone layout chosen by the widget's width.
export function widgetCss(pageCss, katexCss, ownCss) {
  let css = pageCss.replace(/@media \(prefers-color-scheme: dark\)\s*\{\s*:root\s*\{([^}]*)\}\s*\}/,
    (m, body) => `.ae-root[data-scheme="dark"] {${body}}`);
  css = css.replace(/:root\b/g, '.ae-root').replace(/@media \(max-width: (\d+)px\)/g, '@container ae-root (max-width: $1px)');
  css = css.replace(/(-?\d*\.?\d+)rem\b/g, 'calc($1 * var(--ae-rem))');
  const katex = katexCss.replace(/@font-face\{[^}]*\}/g, '');
  return `${katex}\n${css}\n${ownCss.replace(/(-?\d*\.?\d+)rem\b/g, 'calc($1 * var(--ae-rem))')}`;
}

// KaTeX's fonts (woff2) as {family, style, weight, data: base64}, from its @font-face rules.
async function katexFonts(katexCss) {
  const out = [];
  for (const [rule] of katexCss.matchAll(/@font-face\{[^}]*\}/g)) {
    const family = /font-family:([^;]+)/.exec(rule)[1].trim();
    const style = /font-style:([^;]+)/.exec(rule)[1].trim();
    const weight = /font-weight:([^;]+)/.exec(rule)[1].trim();
    const file = /url\(fonts\/([^)]+\.woff2)\)/.exec(rule)[1];
    const bytes = await readFile(join(web, 'node_modules', 'katex', 'dist', 'fonts', file));
    out.push({ family, style, weight, data: bytes.toString('base64') });
  }
  return out;
}

const katexCss = await readFile(join(web, 'node_modules', 'katex', 'dist', 'katex.min.css'), 'utf8');
const pageCss = await readFile(join(web, 'src', 'styles.css'), 'utf8');
const ownCss = await readFile(join(web, 'src', 'widget.css'), 'utf8');
const css = (await build({ stdin: { contents: widgetCss(pageCss, katexCss, ownCss), loader: 'css' }, write: false, minify: true, logLevel: 'warning' })).outputFiles[0].text;
const fonts = await katexFonts(katexCss);

const widgetAssets = {
  name: 'widget-assets',
  setup(b) {
    // The wrapper's loader import resolves to the Emscripten build; the page's './attn.mjs'
    // (a separate file next to app.js) is bundled into the widget.
    b.onResolve({ filter: /^\.\/attn-core\.mjs$/ }, () => ({ path: join(wasmDir, 'attn-core.mjs') }));
    b.onResolve({ filter: /^\.\/attn-core-scalar\.mjs$/ }, () => ({ path: join(wasmDir, 'attn-core-scalar.mjs') }));
    b.onResolve({ filter: /^\.\/attn\.mjs$/ }, () => ({ path: join(root, 'wasm', 'attn.mjs') }));
    b.onResolve({ filter: /^widget-assets$/ }, () => ({ path: 'widget-assets', namespace: 'widget-assets' }));
    b.onLoad({ filter: /.*/, namespace: 'widget-assets' }, () => ({
      contents: `export const css = ${JSON.stringify(css)};\nexport const fonts = ${JSON.stringify(fonts)};\n` +
        `export { default as wasm } from ${JSON.stringify(join(wasmDir, 'attn-core.wasm'))};\n` +
        `export { default as wasmScalar } from ${JSON.stringify(join(wasmDir, 'attn-core-scalar.wasm'))};`,
      resolveDir: web,
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: { 'attention-explorer': join(web, 'src', 'widget.js') },
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  minify: true,
  loader: { '.wasm': 'binary' },
  external: ['node:*'],
  plugins: [widgetAssets, chapterListPlugin],
  logLevel: 'warning',
});
const size = (await stat(join(dist, 'attention-explorer.js'))).size;

const files = await readdir(dist);
console.log(`web: built ${files.length} entries into ${dist} (widget ${(size / 1e6).toFixed(2)} MB)`);

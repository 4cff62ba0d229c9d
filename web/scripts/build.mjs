// Builds the static site into web/dist/:
//   dist/index.html, dist/app.js (the page, bundled by esbuild; each chapter and its prose
//   in ch-<id>.js, ch-<id>.<lang>.js, shared code in chunk-<hash>.js), dist/styles.css,
//   dist/training-worker.js (the training chapter's module worker),
//   dist/cost-run.js (the Web Worker of the cost chapter's live run; imports ./attn.mjs),
//   dist/katex/ (KaTeX's stylesheet and fonts, served locally: no CDN),
//   dist/attn.mjs + attn.d.ts (the public JS API, wasm/attn.mjs and wasm/api/*.mjs bundled) and attn-core.mjs + attn-core.wasm
//   (the Emscripten build of the core, from build/wasm-release/wasm by default),
//   attn-core-lite.wasm (the same without the trainer, which the page loads),
//   attn-core-relaxed.wasm and attn-core-lite-relaxed.wasm (the same two with relaxed SIMD's
//   multiply-add in the matrix products; the page loads the lite one where the engine has it), plus
//   attn-core-scalar.mjs + .wasm (the same core without SIMD, for engines lacking it),
//   dist/attention-explorer.js: the <attention-explorer> widget in one file (the page's
//   chapters and components, their prose packed with zstd, KaTeX's styles and the fonts they
//   use subset to the characters the maths draws, and the same attn-core-lite.wasm as the
//   page, inlined), and
//   attention-explorer-scalar.js (the scalar core for the widget on engines without SIMD,
//   fetched only there), attention-explorer-more.js (the training and trained-heads
//   chapters, which the one file imports from next to itself when one is shown),
//   dist/text-model.bin + text-model-results.json (the trained text model and its measured
//   roles, from models/text-model/; fetched by the trained-heads chapter next to its script),
//   and next to every text and wasm file its .gz and .br (precompressed, the last step).
//
// Incremental: build/web-stamp.json records a hash of every input (web/src but the browser
// tests, web/scripts, index.html, the npm lockfiles, the wasm modules, the JS of wasm/ (attn.mjs
// and what it imports), the text model,
// every other file a bundle read, the build's environment) and the hash of every file it wrote.
// When the inputs hash the same and dist/ holds exactly those bytes, the build does nothing
// ("up to date").
// Else it rebuilds dist/ from scratch (esbuild bundles everything in seconds, so no stale
// bundle is ever left), but the slow steps are content-addressed in build/web-cache/: the
// .gz/.br of a file whose bytes are unchanged, the zstd of an unchanged wasm, the font subsets.
// So after an edit to one chapter only its bundles (and the widget files holding it) are
// compressed again. --force (or ATTN_WEB_FORCE=1) rebuilds even when the stamp matches.
import { build } from 'esbuild';
import { cp, mkdir, rm, access, readdir, readFile, stat, writeFile, rename } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import subsetFont from 'subset-font';
import { chapterListPlugin, chapterListPluginWith, readChapters, LANGS, pageShell } from './chapters.mjs';
import { WIDGET_FONTS } from './widget-fonts.mjs';
import { chromaticPlugin } from './chromatic.mjs';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(web, '..');
const dist = join(web, 'dist');
const wasmDir = resolve(process.env.ATTN_WASM_DIR ?? join(root, 'build', 'wasm-release', 'wasm'));
// The data files chapters fetch next to their script (name in dist/ -> source): the page's
// dist/ and the light widget's folder both carry them (the one-file widget's teacher copies
// them, docs/embedding.md). trained-heads: the text model and its measured roles
// (docs/text-model.md).
const DATA_FILES = {
  'text-model.bin': join(root, 'models', 'text-model', 'model.bin'),
  'text-model-results.json': join(root, 'models', 'text-model', 'results.json'),
};

async function mustExist(path, hint) {
  try { await access(path); } catch { throw new Error(`missing ${path}\n${hint}`); }
}

await mustExist(join(wasmDir, 'attn-core.wasm'), 'build the WebAssembly core first: make wasm');
await mustExist(join(wasmDir, 'attn-core-scalar.wasm'), 'build the WebAssembly core first: make wasm');
await mustExist(join(wasmDir, 'attn-core-lite.wasm'), 'build the WebAssembly core first: make wasm');
await mustExist(join(wasmDir, 'attn-core-relaxed.wasm'), 'build the WebAssembly core first: make wasm');
await mustExist(join(wasmDir, 'attn-core-lite-relaxed.wasm'), 'build the WebAssembly core first: make wasm');
await mustExist(join(wasmDir, 'pretrained', 'attn-pretrained.wasm'), 'build the WebAssembly core first: make wasm');
// attn.mjs loads attn-core-lite.wasm (the core without the trainer) with attn-core.mjs, so
// the two Emscripten loaders must be the same but for the wasm file's name.
{
  const [full, ...others] = await Promise.all(['attn-core', 'attn-core-lite', 'attn-core-relaxed', 'attn-core-lite-relaxed']
    .map((f) => readFile(join(wasmDir, `${f}.mjs`), 'utf8')));
  for (const [name, other] of [['attn-core-lite', others[0]], ['attn-core-relaxed', others[1]], ['attn-core-lite-relaxed', others[2]]])
    if (full !== other.replaceAll(`${name}.wasm`, 'attn-core.wasm'))
      throw new Error(`attn-core.mjs and ${name}.mjs differ by more than the wasm file's name: attn.mjs cannot load ${name}.wasm with the full loader`);
}

// ---- up to date? ---------------------------------------------------------------------------------
const STAMP = join(root, 'build', 'web-stamp.json');
const cacheDir = join(root, 'build', 'web-cache');
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
// Every file under dir (relative to root), skipping the browser tests beside the chapters.
async function filesUnder(dir) {
  const out = [];
  const walk = async (d) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (!e.name.endsWith('.test.mjs')) out.push(p);
    }
  };
  await walk(dir);
  return out;
}
// The inputs' hash: each file's path and bytes (a missing one hashes as missing), the
// environment that changes the output, and this Node's zlib and brotli (the precompression).
async function inputHash(extra) {
  const files = new Set([
    ...await filesUnder(join(web, 'src')), ...await filesUnder(join(web, 'scripts')),
    join(web, 'index.html'), join(web, 'favicon.svg'), join(web, 'package.json'), join(web, 'package-lock.json'),
    join(web, 'node_modules', '.package-lock.json'),
    // the public API: wasm/attn.mjs, attn.d.ts and any module beside or below them
    ...(await filesUnder(join(root, 'wasm'))).filter((f) => /\.(m?js|ts|json)$/.test(f)),
    join(root, 'models', 'text-model', 'model.bin'), join(root, 'models', 'text-model', 'results.json'),
    ...['attn-core', 'attn-core-lite', 'attn-core-relaxed', 'attn-core-lite-relaxed', 'attn-core-scalar']
      .flatMap((f) => [join(wasmDir, `${f}.mjs`), join(wasmDir, `${f}.wasm`)]),
    join(wasmDir, 'pretrained', 'attn-pretrained.mjs'), join(wasmDir, 'pretrained', 'attn-pretrained.wasm'),
    ...extra.map((p) => resolve(root, p)),
  ]);
  const h = createHash('sha256');
  h.update(JSON.stringify({ wasmDir, minify: process.env.ATTN_NO_MINIFY ?? '', node: process.version, zlib: process.versions.zlib, brotli: process.versions.brotli }));
  for (const f of [...files].sort()) {
    const bytes = await readFile(f).catch(() => null);
    h.update(`\0${relative(root, f)}\0${bytes ? sha(bytes) : 'missing'}`);
  }
  return h.digest('hex');
}
const force = process.argv.includes('--force') || !!process.env.ATTN_WEB_FORCE;
// Every file of dist/ (relative to it) with its bytes' hash.
async function distFiles() {
  const out = {};
  const walk = async (d) => {
    for (const e of await readdir(join(dist, d), { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out[p] = sha(await readFile(join(dist, p)));
    }
  };
  await walk('.');
  return out;
}
const previous = await readFile(STAMP, 'utf8').then(JSON.parse, () => null);
const startHash = await inputHash(previous?.extra ?? []);
if (!force && previous?.inputs === startHash && previous.outputs) {
  const now = await distFiles().catch(() => ({}));
  if (JSON.stringify(now) === JSON.stringify(previous.outputs)) {
    console.log(`web: up to date (inputs unchanged since ${previous.built}; --force rebuilds)`);
    process.exit(0);
  }
}
await rm(STAMP, { force: true }); // no stamp while dist/ is being rebuilt

// ---- the content-addressed caches of the slow steps (build/web-cache/) ------------------------------
// cached(kind, key, make): the bytes make() returns for this key, from the cache when there.
// Entries not used by this build are deleted at its end (the cache holds one build's worth).
// (One promise per key: identical files, such as a wasm copied twice, are compressed once.)
const usedCache = new Map();
function cached(kind, key, make) {
  const file = join(cacheDir, `${kind}-${key}`);
  if (!usedCache.has(file)) usedCache.set(file, (async () => {
    const hit = await readFile(file).catch(() => null);
    if (hit) return hit;
    const bytes = Buffer.from(await make());
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
    return bytes;
  })());
  return usedCache.get(file);
}
await mkdir(cacheDir, { recursive: true });

await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'katex'), { recursive: true });

await Promise.all([
  cp(join(wasmDir, 'attn-core.mjs'), join(dist, 'attn-core.mjs')),
  cp(join(wasmDir, 'attn-core.wasm'), join(dist, 'attn-core.wasm')),
  cp(join(wasmDir, 'attn-core-lite.wasm'), join(dist, 'attn-core-lite.wasm')),
  cp(join(wasmDir, 'attn-core-relaxed.wasm'), join(dist, 'attn-core-relaxed.wasm')),
  cp(join(wasmDir, 'attn-core-lite-relaxed.wasm'), join(dist, 'attn-core-lite-relaxed.wasm')),
  cp(join(wasmDir, 'attn-core-scalar.mjs'), join(dist, 'attn-core-scalar.mjs')),
  cp(join(wasmDir, 'attn-core-scalar.wasm'), join(dist, 'attn-core-scalar.wasm')),
  // the public API: wasm/attn.mjs and its parts (wasm/api/*.mjs) in one readable ES module
  build({
    entryPoints: [join(root, 'wasm', 'attn.mjs')],
    outfile: join(dist, 'attn.mjs'),
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    external: ['./attn-core.mjs', './attn-core-scalar.mjs', 'node:fs/promises'],
    logLevel: 'warning',
  }),
  // the real-model worker's own module (wasm/pretrained/; docs/real-models.md)
  cp(join(wasmDir, 'pretrained', 'attn-pretrained.mjs'), join(dist, 'attn-pretrained.mjs')),
  cp(join(wasmDir, 'pretrained', 'attn-pretrained.wasm'), join(dist, 'attn-pretrained.wasm')),
  cp(join(root, 'wasm', 'pretrained', 'pretrained.mjs'), join(dist, 'pretrained.mjs')),
  cp(join(root, 'wasm', 'attn.d.ts'), join(dist, 'attn.d.ts')),
  cp(join(web, 'index.html'), join(dist, 'index.html')),
  cp(join(web, 'favicon.svg'), join(dist, 'favicon.svg')),
  ...Object.entries(DATA_FILES).map(([name, from]) => cp(from, join(dist, name))),
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
// Files the bundles read (esbuild's metafiles; paths relative to the working directory): those outside the
// folders hashed anyway go into the stamp, so an edit to them rebuilds too.
const readByBundles = new Set();
function noteInputs(result) {
  for (const p of Object.keys(result.metafile?.inputs ?? {})) {
    if (p.includes(':')) continue; // a plugin's namespace (chapters:list, widget-assets)
    readByBundles.add(relative(root, resolve(p)));
  }
  return result;
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
  charset: 'utf8', // Korean prose as UTF-8, not \uXXXX escapes
  sourcemap: true,
  external: ['./attn.mjs'],
  plugins: [chromaticPlugin, chapterListPlugin],
  logLevel: 'warning',
  metafile: true,
}).then(noteInputs);
// The workers, one file each (no shared chunks: the widget's documentation has a teacher
// copy one worker file next to the widget): training-worker is the training chapter's,
// cost-run the cost chapter's live run, sentence-heads the trained-heads chapter's
// measurer. All are module workers importing ./attn.mjs.
await build({
  entryPoints: {
    'training-worker': join(web, 'src', 'workers', 'training.js'),
    'cost-run': join(web, 'src', 'workers', 'cost-run.js'),
    'sentence-heads': join(web, 'src', 'workers', 'sentence-heads-worker.js'),
  },
  outdir: dist,
  bundle: true,
  format: 'esm',
  target,
  minify,
  sourcemap: true,
  external: ['./attn.mjs'],
  logLevel: 'warning',
  metafile: true,
}).then(noteInputs);
// The real-model chapter's worker (dist/real-model.js): the checkpoint's reader and the
// tokenizer library, importing ./pretrained.mjs (the worker's own module, up to 4 GB).
await build({
  entryPoints: { 'real-model': join(web, 'src', 'workers', 'real-model-worker.js') },
  outdir: dist,
  bundle: true,
  format: 'esm',
  target,
  minify,
  sourcemap: true,
  external: ['./pretrained.mjs'],
  logLevel: 'warning',
  metafile: true,
}).then(noteInputs);

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

// The KaTeX fonts the widgets carry (scripts/widget-fonts.mjs), as {family, style, weight,
// data: base64 of the woff2 subset to the characters kept} for the one-file widget; with
// inline false, {…, file: 'fonts/KaTeX_<face>.woff2'} (the light widget's, whole fonts).
// The subset drops the TrueType hinting (the fpgm, prep and cvt programs: ~1.8 KB a face,
// 11.6 KB of the six): macOS, iOS and Android never run it and Linux browsers draw with
// FreeType's light hinting, which ignores it; only on Windows may a stem snap a pixel
// differently at small sizes. (The page and the light widget keep KaTeX's whole fonts.)
const FONT_SUBSET = { targetFormat: 'woff2', noHinting: true };
async function katexFonts(katexCss, { inline = true } = {}) {
  const out = [];
  for (const [rule] of katexCss.matchAll(/@font-face\{[^}]*\}/g)) {
    const file = /url\(fonts\/KaTeX_([^)]+)\.woff2\)/.exec(rule)[1];
    const keep = WIDGET_FONTS.find((f) => f.face === file);
    if (!keep) continue;
    const family = /font-family:([^;]+)/.exec(rule)[1].trim();
    const style = /font-style:([^;]+)/.exec(rule)[1].trim();
    const weight = /font-weight:([^;]+)/.exec(rule)[1].trim();
    if (!inline) {
      out.push({ family, style, weight, file: `fonts/KaTeX_${file}.woff2` });
      continue;
    }
    const whole = await readFile(join(web, 'node_modules', 'katex', 'dist', 'fonts', `KaTeX_${file}.woff2`));
    const bytes = keep.text === null ? whole
      : await cached('font-nohint', sha(Buffer.concat([whole, Buffer.from(`\0${keep.text}`)])), () => subsetFont(whole, keep.text, FONT_SUBSET));
    out.push({ family, style, weight, data: Buffer.from(bytes).toString('base64') });
  }
  if (out.length !== WIDGET_FONTS.length) throw new Error(`KaTeX's stylesheet has ${out.length} of the widget's ${WIDGET_FONTS.length} fonts`);
  return out;
}

const katexCss = await readFile(join(web, 'node_modules', 'katex', 'dist', 'katex.min.css'), 'utf8');
const pageCss = await readFile(join(web, 'src', 'styles.css'), 'utf8');
const ownCss = await readFile(join(web, 'src', 'widget.css'), 'utf8');
const css = (await build({ stdin: { contents: widgetCss(pageCss, katexCss, ownCss), loader: 'css' }, write: false, minify: true, logLevel: 'warning' })).outputFiles[0].text;
const fonts = await katexFonts(katexCss);

// The SIMD core without the trainer (attn-core-lite.wasm, as the page loads) goes into the
// widget compressed with Zstandard at its strongest level (the zstd command, Debian's
// package), then base64: a server's gzip of base64 text gains back what base64 spends (6 bits
// a character), so this costs about what the compressed bytes cost, and zstd's are 18% fewer
// than gzip's (91 against 111 KB); the widget unpacks them with fzstd (3 KB gzip, ~10 ms).
// The scalar core is not inlined: engines without SIMD get it from
// attention-explorer-scalar.js (built below; web/src/widget-scalar.js); the whole core, for
// the two chapters that need the trainer or the text model, is attn-core.wasm next to it.
function zstd(file) {
  try {
    return execFileSync('zstd', ['-q', '--ultra', '-22', '-c', file], { maxBuffer: 64 << 20 });
  } catch (e) {
    throw new Error(`the widget's core is packed with the zstd command (Debian package zstd; make deps installs it): ${e.message}`);
  }
}
const liteWasm = await readFile(join(wasmDir, 'attn-core-lite.wasm'));

// The one file's words (web/src/widget-text.js): the prose of each chapter it holds and the
// kit's, read as the modules they are, packed as one JSON text with zstd -22 (base64). Each
// must be plain data (strings, numbers, arrays, objects), which JSON keeps as it is: the
// build fails on anything else (a function, undefined).
const PACKED_TEXT = /[\\/]src[\\/](chapters[\\/]([a-z0-9-]+)|kit)[\\/](ko|en)\.js$/;
const packedKey = (path) => relative(join(web, 'src'), path).replaceAll('\\', '/').replace(/\.js$/, '');
async function packText(ids) {
  const files = [...ids.flatMap((id) => LANGS.map((l) => join(web, 'src', 'chapters', id, `${l}.js`))),
    ...LANGS.map((l) => join(web, 'src', 'kit', `${l}.js`))];
  const all = {};
  for (const f of files) {
    const url = pathToFileURL(f);
    url.search = `?t=${Date.now()}`; // a rebuild in the same process reads the file again
    const value = (await import(url.href)).default;
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value))
      throw new Error(`${relative(root, f)}: the one-file widget packs it as JSON, so it must be plain data (no functions, undefined, …)`);
    all[packedKey(f)] = value;
  }
  const json = Buffer.from(JSON.stringify(all));
  return (await cached('zstd22', sha(json), async () => {
    const tmp = join(cacheDir, `text-${process.pid}.json`);
    await writeFile(tmp, json);
    try { return zstd(tmp); } finally { await rm(tmp, { force: true }); }
  })).toString('base64');
}
// The one-file build's modules that are packed: each is `export default text(key)`; the
// packed text itself is the module 'widget-text-data' (a module of its own, which imports
// nothing: the text is there before any module that asks for it runs).
const packedTextPlugin = (ids, packed) => ({
  name: 'packed-text',
  setup(b) {
    b.onResolve({ filter: /^widget-text-data$/ }, () => ({ path: 'widget-text-data', namespace: 'packed-text-data' }));
    b.onLoad({ filter: /.*/, namespace: 'packed-text-data' }, () => ({ contents: `export const textZstd = ${JSON.stringify(packed)};\n`, loader: 'js' }));
    b.onResolve({ filter: /(^|[\\/])(ko|en)\.js$/ }, async (args) => {
      if (args.pluginData?.inner) return undefined;
      const r = await b.resolve(args.path, { resolveDir: args.resolveDir, importer: args.importer, kind: args.kind, pluginData: { inner: true } });
      const m = PACKED_TEXT.exec(r.path ?? '');
      if (r.errors.length || !m || (m[2] && !ids.includes(m[2]))) return undefined;
      return { path: r.path, namespace: 'packed-text' };
    });
    b.onLoad({ filter: /.*/, namespace: 'packed-text' }, (args) => ({
      contents: `import { text } from ${JSON.stringify(join(web, 'src', 'widget-text.js'))};\nexport default text(${JSON.stringify(packedKey(args.path))});\n`,
      resolveDir: web,
      loader: 'js',
    }));
  },
});
const wasmZstd = (await cached('zstd22', sha(liteWasm), () => zstd(join(wasmDir, 'attn-core-lite.wasm')))).toString('base64');

// registry: the modules the one file lends to attention-explorer-more.js (above), by path.
const widgetAssets = (registry) => ({
  name: 'widget-assets',
  setup(b) {
    // The wrapper's loader import resolves to the Emscripten build; the page's './attn.mjs'
    // (a separate file next to app.js) is bundled into the widget; the scalar loader is the
    // widget's stand-in that imports attention-explorer-scalar.js.
    b.onResolve({ filter: /^\.\/attn-core\.mjs$/ }, () => ({ path: join(wasmDir, 'attn-core.mjs') }));
    b.onResolve({ filter: /^\.\/attn-core-scalar\.mjs$/ }, () => ({ path: join(web, 'src', 'widget-scalar.js') }));
    b.onResolve({ filter: /^\.\/attn\.mjs$/ }, () => ({ path: join(root, 'wasm', 'attn.mjs') }));
    b.onResolve({ filter: /^widget-assets$/ }, () => ({ path: 'widget-assets', namespace: 'widget-assets' }));
    b.onLoad({ filter: /.*/, namespace: 'widget-assets' }, () => ({
      contents: `export const css = ${JSON.stringify(css)};\nexport const fonts = ${JSON.stringify(fonts)};\n` +
        `export const wasmZstd = ${JSON.stringify(wasmZstd)};\n` + lending(registry),
      resolveDir: web,
      loader: 'js',
    }));
  },
});

// The registry's source: each module lent as a CommonJS-shaped object (its exports as
// getters, so live; __esModule, so a default import is its default export), put on globalThis
// under Symbol.for(SHARED) when the one file runs.
function lending(registry) {
  if (!registry.length) return '';
  const imports = registry.map((p, k) => `import * as m${k} from ${JSON.stringify(p)};`).join('\n');
  const entries = registry.map((p, k) => `  ${JSON.stringify(relative(web, p))}: lend(m${k}),`).join('\n');
  return `${imports}
const lend = (ns) => Object.defineProperties({}, {
  __esModule: { value: true },
  ...Object.fromEntries(Object.keys(ns).map((k) => [k, { get: () => ns[k], enumerable: true }])),
});
globalThis[Symbol.for(${JSON.stringify(SHARED)})] ??= {
${entries}
};
`;
}

const widgetOptions = {
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  minify: true,
  charset: 'utf8', // Korean prose as UTF-8, not \uXXXX escapes (modules are always read as UTF-8)
  logLevel: 'warning',
};
// The one file holds every chapter but those that need files next to it anyway (the whole
// core for training's in-page trainer and for trained-heads' text model, the model's weights,
// the training worker; real-models' worker and its own module): those, their code and prose, are attention-explorer-more.js,
// imported from next to the widget when one of them is shown. That file holds only what is
// theirs: every module it imports that the one file has too (the kit, the components, KaTeX)
// is the one file's own instance, which the one file lends it through a registry on
// globalThis (SHARED). Three passes: the one file without the registry (what it holds), the
// side file (which of those modules it imports), the one file with the registry.
const SIDE = { ids: ['training', 'trained-heads', 'real-models'], file: 'attention-explorer-more.js' };
const inOneFile = (await readChapters()).map((c) => c.id).filter((id) => !SIDE.ids.includes(id));
const textZstd = await packText(inOneFile);
const SHARED = 'attention-explorer.shared';
const oneFile = (registry) => build({
  ...widgetOptions,
  entryPoints: { 'attention-explorer': join(web, 'src', 'widget.js') },
  external: ['node:*'],
  write: registry !== null,
  metafile: true,
  plugins: [chromaticPlugin, packedTextPlugin(inOneFile, textZstd), widgetAssets(registry ?? []), chapterListPluginWith({ side: SIDE })],
});
// (a packed text module is the file it stands for: the side file borrows the one file's)
const held = new Set(Object.keys(noteInputs(await oneFile(null)).metafile.inputs).map((p) => resolve(web, p.replace(/^packed-text:/, ''))));
const lent = new Set();
await build({
  ...widgetOptions,
  stdin: {
    contents: SIDE.ids.map((id, k) => `import * as c${k} from ${JSON.stringify(join(web, 'src', 'chapters', id, 'index.js'))};\n` +
      LANGS.map((l) => `import * as c${k}${l} from ${JSON.stringify(join(web, 'src', 'chapters', id, `${l}.js`))};\n`).join('')).join('') +
      `export default {\n${SIDE.ids.map((id, k) => `  ${JSON.stringify(id)}: { module: c${k}, text: { ${LANGS.map((l) => `${l}: c${k}${l}`).join(', ')} } },`).join('\n')}\n};\n`,
    resolveDir: web,
    loader: 'js',
  },
  outfile: join(dist, SIDE.file),
  outdir: undefined,
  external: ['node:*'],
  plugins: [chromaticPlugin, {
    name: 'lent-by-the-one-file',
    setup(b) {
      // an import of a module that the one file holds: that instance, from the registry
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.inner || args.kind === 'entry-point') return undefined;
        const r = await b.resolve(args.path, { resolveDir: args.resolveDir, importer: args.importer, kind: args.kind, pluginData: { inner: true } });
        if (r.errors.length || !held.has(r.path)) return undefined;
        lent.add(r.path);
        return { path: r.path, namespace: 'lent' };
      });
      b.onLoad({ filter: /.*/, namespace: 'lent' }, (args) => ({
        contents: `module.exports = globalThis[Symbol.for(${JSON.stringify(SHARED)})][${JSON.stringify(relative(web, args.path))}];`,
        loader: 'js',
      }));
    },
  }, widgetAssets([])],
});
await oneFile([...lent]);
// The scalar core for the widget: its Emscripten loader and the wasm (base64) in one module,
// {default: loader factory, wasm: Uint8Array}, not packed (the server's gzip applies).
await build({
  ...widgetOptions,
  stdin: {
    contents: `export { default } from ${JSON.stringify(join(wasmDir, 'attn-core-scalar.mjs'))};\n` +
      `export { default as wasm } from ${JSON.stringify(join(wasmDir, 'attn-core-scalar.wasm'))};`,
    resolveDir: web,
    loader: 'js',
  },
  outfile: join(dist, 'attention-explorer-scalar.js'),
  outdir: undefined,
  loader: { '.wasm': 'binary' },
});
const size = (await stat(join(dist, 'attention-explorer.js'))).size;

// The light widget (docs/embedding.md): the same widget.js as a folder, dist/widget/, for a
// course site that serves files. attention-explorer.js holds the element and the shared
// code; each chapter (its code and its prose per language) and KaTeX come in chunks
// imported when a widget shows them; the core without the trainer (attn-core-lite.wasm),
// the scalar build for engines without SIMD, the whole core for the training chapter's
// in-page trainer, its workers and KaTeX's fonts are files next to it, fetched only when
// used.
const widgetDist = join(dist, 'widget');
const lightFonts = await katexFonts(katexCss, { inline: false });
await build({
  ...widgetOptions,
  entryPoints: { 'attention-explorer': join(web, 'src', 'widget.js') },
  outdir: widgetDist,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  external: ['node:*', './attn-core.mjs', './attn-core-scalar.mjs'],
  plugins: [chromaticPlugin, {
    name: 'widget-assets-light',
    setup(b) {
      b.onResolve({ filter: /^\.\/attn\.mjs$/ }, () => ({ path: join(root, 'wasm', 'attn.mjs') }));
      b.onResolve({ filter: /^widget-assets$/ }, () => ({ path: 'widget-assets', namespace: 'widget-assets' }));
      b.onLoad({ filter: /.*/, namespace: 'widget-assets' }, () => ({
        contents: `export const css = ${JSON.stringify(css)};\nexport const fonts = ${JSON.stringify(lightFonts)};\nexport const wasmZstd = null;`,
        resolveDir: web,
        loader: 'js',
      }));
    },
  }, chapterListPlugin],
});
await mkdir(join(widgetDist, 'fonts'), { recursive: true });
await Promise.all([
  // (attn-core-lite-relaxed.wasm: what the cost chapter's workers load where the engine has
  // relaxed SIMD, as on the page)
  ...['attn-core.mjs', 'attn-core.wasm', 'attn-core-lite.wasm', 'attn-core-lite-relaxed.wasm', 'attn-core-scalar.mjs', 'attn-core-scalar.wasm']
    .map((f) => cp(join(wasmDir, f), join(widgetDist, f))),
  // the workers import ./attn.mjs next to them
  ...['attn.mjs', 'training-worker.js', 'cost-run.js', 'sentence-heads.js', 'real-model.js', 'pretrained.mjs', 'attn-pretrained.mjs', 'attn-pretrained.wasm']
    .map((f) => cp(join(dist, f), join(widgetDist, f))),
  // the files chapters fetch next to their script: a chapter's chunk is in this folder
  ...Object.keys(DATA_FILES).map((f) => cp(join(dist, f), join(widgetDist, f))),
  ...lightFonts.map((f) => cp(join(web, 'node_modules', 'katex', 'dist', f.file), join(widgetDist, f.file))),
]);

// ---- precompressed copies (the last step) ------------------------------------------------------
// Next to every text or wasm file of dist/ its gzip (.gz) and brotli (.br) forms, at the
// strongest settings, as a static host would serve them; `make serve` (sirv) sends them
// with Content-Encoding when the browser asks. Fonts are skipped: woff2 is brotli inside,
// and browsers that read woff2 never ask for the ttf and woff copies.
const COMPRESSIBLE = /\.(html|js|mjs|css|wasm|svg|json|map|ts|txt|bin)$/;
async function precompress(dir) {
  const gzip = promisify(zlib.gzip), brotli = promisify(zlib.brotliCompress);
  const walk = async (d) => (await Promise.all((await readdir(join(dir, d), { withFileTypes: true }))
    .map((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)])))).flat();
  const files = (await walk('.')).filter((f) => COMPRESSIBLE.test(f));
  let raw = 0, gz = 0, br = 0;
  await Promise.all(files.map(async (f) => {
    const bytes = await readFile(join(dir, f));
    const key = sha(bytes);
    const [g, b] = await Promise.all([
      cached('gz9', key, () => gzip(bytes, { level: 9 })),
      cached('br11', key, () => brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })),
    ]);
    raw += bytes.length; gz += g.length; br += b.length;
    await Promise.all([writeFile(join(dir, `${f}.gz`), g), writeFile(join(dir, `${f}.br`), b)]);
  }));
  return { files: files.length, raw, gz, br };
}

const packed = await precompress(dist);
const files = await readdir(dist);

// The stamp, last: what went in (the inputs' hash, with the files the bundles read outside the
// folders always hashed) and every file written. None if an input changed during the build.
{
  const always = [join(web, 'src'), join(web, 'scripts'), join(web, 'node_modules')].map((d) => relative(root, d) + '/');
  const extra = [...readByBundles].filter((p) => !always.some((d) => p.startsWith(d))).sort();
  if (await inputHash(previous?.extra ?? []) === startHash)
    await writeFile(STAMP, JSON.stringify({ built: new Date().toISOString(), inputs: await inputHash(extra), extra, outputs: await distFiles() }, null, 1));
  else console.warn('web: an input changed during the build: no stamp written (the next build starts again)');
  for (const e of await readdir(cacheDir)) if (!usedCache.has(join(cacheDir, e))) await rm(join(cacheDir, e), { force: true });
}
console.log(`web: built ${files.length} entries into ${dist} (widget ${(size / 1e6).toFixed(2)} MB); ` +
  `${packed.files} files precompressed: ${(packed.raw / 1e6).toFixed(2)} MB, gzip ${(packed.gz / 1e6).toFixed(2)} MB, brotli ${(packed.br / 1e6).toFixed(2)} MB`);

// Builds the static site into web/dist/:
//   dist/index.html, dist/app.js (the page, bundled by esbuild), dist/styles.css,
//   dist/cost-run.js (the Web Worker of the cost chapter's live run; imports ./attn.mjs),
//   dist/katex/ (KaTeX's stylesheet and fonts, served locally: no CDN),
//   dist/attn.mjs + attn.d.ts (the public JS API) and attn-core.mjs + attn-core.wasm
//   (the Emscripten build of the core, from build/wasm-release/wasm by default).
import { build } from 'esbuild';
import { cp, mkdir, rm, access, readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(web, '..');
const dist = join(web, 'dist');
const wasmDir = resolve(process.env.ATTN_WASM_DIR ?? join(root, 'build', 'wasm-release', 'wasm'));

async function mustExist(path, hint) {
  try { await access(path); } catch { throw new Error(`missing ${path}\n${hint}`); }
}

await mustExist(join(wasmDir, 'attn-core.wasm'), 'build the WebAssembly core first: make wasm');

await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'katex'), { recursive: true });

await Promise.all([
  cp(join(wasmDir, 'attn-core.mjs'), join(dist, 'attn-core.mjs')),
  cp(join(wasmDir, 'attn-core.wasm'), join(dist, 'attn-core.wasm')),
  cp(join(root, 'wasm', 'attn.mjs'), join(dist, 'attn.mjs')),
  cp(join(root, 'wasm', 'attn.d.ts'), join(dist, 'attn.d.ts')),
  cp(join(web, 'index.html'), join(dist, 'index.html')),
  cp(join(web, 'favicon.svg'), join(dist, 'favicon.svg')),
  cp(join(web, 'node_modules', 'katex', 'dist', 'katex.min.css'), join(dist, 'katex', 'katex.min.css')),
  cp(join(web, 'node_modules', 'katex', 'dist', 'fonts'), join(dist, 'katex', 'fonts'), { recursive: true }),
]);

await build({
  entryPoints: {
    app: join(web, 'src', 'main.js'),
    styles: join(web, 'src', 'styles.css'),
    'cost-run': join(web, 'src', 'workers', 'cost-run.js'),
  },
  outdir: dist,
  bundle: true,
  format: 'esm',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  minify: true,
  sourcemap: true,
  external: ['./attn.mjs'],
  logLevel: 'warning',
});

const files = await readdir(dist);
console.log(`web: built ${files.length} entries into ${dist}`);

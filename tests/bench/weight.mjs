// What each way of embedding weighs (never a test): raw, gzip and brotli bytes of the
// files of web/dist that a browser fetches, read from the .gz and .br copies the build
// leaves (what `make serve` and a precompressing host send).
//
//   node tests/bench/weight.mjs            (after make web)
//
// The page's files are those index.html and the core load at boot (the chapter code the
// page imports later is counted by `make bench-page`, which measures transferred bytes).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
const size = (f) => {
  const p = join(dist, f);
  if (!existsSync(p)) return null;
  const alt = (ext) => (existsSync(`${p}${ext}`) ? statSync(`${p}${ext}`).size : statSync(p).size);
  return { raw: statSync(p).size, gzip: alt('.gz'), br: alt('.br') };
};
const sum = (files) => files.map(size).filter(Boolean).reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip, br: a.br + s.br }), { raw: 0, gzip: 0, br: 0 });

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const linked = [...html.matchAll(/<(?:link rel="(?:stylesheet|modulepreload)"|script type="module") (?:href|src)="([^"]+)"/g)].map((m) => m[1]);
const fonts = [...html.matchAll(/<link rel="preload" href="([^"]+)" as="font"/g)].map((m) => m[1]);
const core = ['attn.mjs', 'attn-core.mjs', 'attn-core-lite-relaxed.wasm']; // the page's core has no trainer (relaxed SIMD in Chromium)
const modes = [
  ['page (and an `<iframe>` of it): JS + wasm + CSS at boot', ['index.html', ...linked, ...core]],
  ['  + the KaTeX fonts it preloads', fonts],
  ['widget, one file (a SIMD browser)', ['attention-explorer.js']],
  ['  + attention-explorer-scalar.js (a browser without SIMD only)', ['attention-explorer-scalar.js']],
  ['  + for training and trained-heads only: their code, the whole core (and trained-heads\' weights)', ['attention-explorer-more.js', 'attn-core.wasm', 'text-model.bin', 'text-model-results.json']],
];

const kb = (x) => `${(x / 1000).toFixed(1)}`;
console.log('| what | files | raw KB | gzip KB | brotli KB |');
console.log('| --- | --- | ---: | ---: | ---: |');
for (const [what, files] of modes) {
  const s = sum(files);
  console.log(`| ${what} | ${files.filter((f) => size(f)).map((f) => `\`${f}\``).join(', ')} | ${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.br)} |`);
}
console.log('\nEvery file:');
console.log('| file | raw KB | gzip KB | brotli KB |');
console.log('| --- | ---: | ---: | ---: |');
for (const f of readdirSync(dist).filter((f) => /\.(html|m?js|css|wasm)$/.test(f)).sort()) {
  const s = size(f);
  console.log(`| \`${f}\` | ${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.br)} |`);
}

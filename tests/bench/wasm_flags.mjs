// Compares builds of the WebAssembly core made with different flags (never a test):
// module size (raw, gzip -9, brotli, and gzip of base64(gzip) as the widget inlines it),
// the cost of small calls (attention() with its trace and flashAttention at T = 3,
// d = 4, causal; a call whose core throws), a large call (flashAttention, n = 1024,
// d_h = 64, GFLOP/s = 4·n²·d_h / t) and a training step (createModel() defaults), every
// build in each round so that all see the same machine load. Times are process CPU time;
// the median over the rounds is printed, with the load average.
//
//   node tests/bench/wasm_flags.mjs [--scalar] [--rounds 7] name=dir [name=dir ...]
//
// Each dir holds attn-core.{mjs,wasm} and attn-core-scalar.{mjs,wasm} (a wasm build's
// wasm/ folder); --scalar times the scalar modules. A build with other flags:
//   cmake --preset wasm-release -B build/wasm-js -DATTN_WASM_EXCEPTIONS=js -DATTN_WASM_OPT_SIMD=-O3
//   cmake --build build/wasm-js -j2 --target attn_wasm attn_wasm_scalar
//   node tests/bench/wasm_flags.mjs chosen=build/wasm-release/wasm js-O3=build/wasm-js/wasm
// (The cache variables are ATTN_WASM_EXCEPTIONS, ATTN_WASM_OPT_{SIMD,SCALAR} and
// ATTN_WASM_LINK_OPT_{SIMD,SCALAR}; see wasm/CMakeLists.txt and docs/benchmarks.md.)
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const scalar = args.includes('--scalar');
const ri = args.indexOf('--rounds');
const ROUNDS = ri >= 0 ? Number(args[ri + 1]) : 7;
const specs = args.filter((a, i) => a.includes('=') && args[i - 1] !== '--rounds').map((a) => a.split('='));
if (!specs.length) {
  console.error('usage: node tests/bench/wasm_flags.mjs [--scalar] [--rounds 7] name=dir [name=dir ...]');
  process.exit(2);
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

const builds = [];
for (const [name, dir] of specs) {
  // attn.mjs imports the loader next to itself: each build gets its own folder
  const d = mkdtempSync(join(tmpdir(), 'attn-flags-'));
  cpSync(join(root, 'wasm', 'attn.mjs'), join(d, 'attn.mjs'));
  for (const f of ['attn-core.mjs', 'attn-core.wasm', 'attn-core-scalar.mjs', 'attn-core-scalar.wasm']) cpSync(join(dir, f), join(d, f));
  const { default: createAttention } = await import(pathToFileURL(join(d, 'attn.mjs')).href);
  const attn = await createAttention({ simd: !scalar });
  const wasm = readFileSync(join(d, scalar ? 'attn-core-scalar.wasm' : 'attn-core.wasm'));
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  builds.push({
    name, attn,
    size: { raw: wasm.length, gzip: gz(wasm), br: brotliCompressSync(wasm).length, inlined: gz(Buffer.from(gzipSync(wasm, { level: 9 }).toString('base64'))) },
    t: { attention: [], flash: [], error: [], big: [], train: [] },
  });
}

// A core error still reaches JS as a RangeError with the core's message, and the module
// keeps working after it.
for (const b of builds) {
  try {
    b.attn.example('no-such-example');
    throw new Error(`${b.name}: no error`);
  } catch (e) {
    if (!(e instanceof RangeError) || !/no example named/.test(e.message)) throw new Error(`${b.name}: ${e?.constructor?.name}: ${e?.message}`);
  }
}

const N = 1024, DH = 64, SMALL = 3000;
for (let round = 0; round < ROUNDS; round++) {
  for (const b of builds) {
    const { attn, t } = b;
    const m = (rows, cols, seed) => attn.random({ rows, cols, seed });
    const Q = m(3, 4, 1), K = m(3, 4, 2), V = m(3, 4, 3);
    for (let i = 0; i < 300; i++) attn.attention(Q, K, V, { causal: true });
    let c = cpuUs();
    for (let i = 0; i < SMALL; i++) attn.attention(Q, K, V, { causal: true });
    t.attention.push((cpuUs() - c) / SMALL);
    c = cpuUs();
    for (let i = 0; i < SMALL; i++) attn.flashAttention(Q, K, V, { causal: true });
    t.flash.push((cpuUs() - c) / SMALL);
    c = cpuUs();
    for (let i = 0; i < 500; i++) {
      try {
        attn.example('no-such-example');
      } catch { /* expected */ }
    }
    t.error.push((cpuUs() - c) / 500);
    const BQ = m(N, DH, 4), BK = m(N, DH, 5), BV = m(N, DH, 6);
    attn.flashAttention(BQ, BK, BV);
    c = cpuUs();
    for (let i = 0; i < 3; i++) attn.flashAttention(BQ, BK, BV);
    t.big.push((3 * 4 * N * N * DH) / ((cpuUs() - c) * 1e3));
    const model = attn.createModel();
    model.train(5);
    c = cpuUs();
    model.train(40);
    t.train.push((cpuUs() - c) / 40 / 1e3);
    model.dispose();
  }
}

const kb = (x) => (x / 1000).toFixed(1);
console.log(`${scalar ? 'scalar' : 'SIMD'} modules, Node ${process.version}, ${ROUNDS} rounds, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log('| build | raw KB | gzip KB | brotli KB | inlined (gzip of base64 gzip) KB | attention() T=3 µs | flashAttention T=3 µs | a call that throws µs | flashAttention n=1024 GFLOP/s | training step ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const b of builds) {
  const { size: s, t } = b;
  console.log(`| ${b.name} | ${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.br)} | ${kb(s.inlined)} | ${median(t.attention).toFixed(1)} | ${median(t.flash).toFixed(1)} | ` +
    `${median(t.error).toFixed(1)} | ${median(t.big).toFixed(median(t.big) < 10 ? 2 : 1)} | ${median(t.train).toFixed(2)} |`);
}

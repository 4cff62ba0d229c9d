#!/usr/bin/env node
// The text model's corpus (docs/text-model.md): plain text from Debian packages whose
// licence allows it, plus the page's own Korean and English prose, cut into paragraphs,
// deduplicated, split into training and held-out text, with a manifest.
//
//   node tools/text-model/corpus.mjs [--out build/text-model/corpus] [--eval models/text-model/eval.txt]
//                                    [--page-rev <git revision> | --page-rev worktree]
//                                    [--sources id,id,...]   (a subset, for tests: tests/web/text-corpus.test.mjs)
//
// The page's prose changes with every chapter edit, so the page sources are read from a git
// revision: by default the one the committed manifest names (models/text-model/manifest.json,
// `pageRevision`), so that a fresh clone rebuilds the corpus of the committed weights and
// `make train-text-model` reproduces them bit for bit; `--page-rev HEAD` (or any revision)
// takes the page as committed there, `--page-rev worktree` the files as they are on disk.
//
// Writes, into --out: train.txt and test.txt (one paragraph per line, NFC, whitespace
// runs collapsed to one space), and manifest.json (package names and versions from dpkg,
// licences, a checksum of every input file set and of every output, paragraph counts);
// writes the committed evaluation slice (--eval: held-out paragraphs of the sources whose
// licence lets us redistribute them, see EVAL_SOURCES) and its manifest beside it.
//
// Deterministic: the same installed packages and page give byte-identical outputs.
// Paragraphs are held out by a hash of their own text (1 in HOLD_OUT_MODULUS), so the
// split does not depend on the order or the number of sources, and a paragraph that
// appears twice is deduplicated before it can land on both sides.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// htmlparser2 is a devDependency of web/ (web/package.json); resolved from there.
const require = createRequire(join(root, 'web', 'package.json'));
const { parseDocument, DomUtils } = require('htmlparser2');

const HOLD_OUT_MODULUS = 20;  // 1 paragraph in 20 is held out
const MIN_CHARS = 16;         // shorter paragraphs are headings, menu items, labels
const EVAL_SOURCES = ['debian-faq', 'debian-faq-ko', 'page-en', 'page-ko'];
const EVAL_CHARS_PER_SOURCE = 5000;  // the committed slice: about this many characters from each

// ---- sources ---------------------------------------------------------------------------------

const FAQ = '/usr/share/doc/debian/FAQ';
const FORTUNES = '/usr/share/games/fortunes';
// Not used: ascii-art (drawings, not prose); ethnic and men-women (jokes built on group
// stereotypes: nothing the page needs a model to have read).
const FORTUNES_LEFT_OUT = new Set(['ascii-art', 'ethnic', 'men-women']);

const SOURCES = [
  {
    id: 'debian-faq-ko', package: 'debian-faq-ko', lang: 'ko', kind: 'html',
    licence: 'Debian FAQ licence (SPI): verbatim and modified copies may be made and distributed provided the copyright notice and the permission notice are preserved',
    // The HTML, not debian-faq.ko.txt.gz: the text rendering wraps Korean lines inside words
    // (배\n포하면), which no rule can undo; the HTML has the paragraphs as written.
    files: () => listFiles(join(FAQ, 'ko'), (f) => f.endsWith('.ko.html')),
  },
  {
    id: 'debian-faq', package: 'debian-faq', lang: 'en', kind: 'html',
    licence: 'Debian FAQ licence (SPI): verbatim and modified copies may be made and distributed provided the copyright notice and the permission notice are preserved',
    files: () => listFiles(FAQ, (f) => f.endsWith('.en.html')),
  },
  {
    id: 'gimp-help-ko', package: 'gimp-help-ko', lang: 'ko', kind: 'html',
    licence: 'GFDL-1.2+ with no Invariant Sections, no Front-Cover Texts and no Back-Cover Texts',
    files: () => listFiles('/usr/share/gimp/2.0/help/ko', (f) => f.endsWith('.html')),
  },
  {
    id: 'fortunes', package: 'fortunes', lang: 'en', kind: 'fortune',
    licence: 'BSD-3-Clause (the package\'s copyright file; the cookie files are distributed under it in Debian main)',
    files: () => listFiles(FORTUNES, (f) => !f.includes('.') && !FORTUNES_LEFT_OUT.has(f)),
  },
  {
    id: 'page-ko', package: null, lang: 'ko', kind: 'prose',
    licence: 'this project\'s own text',
    files: () => proseFiles('ko'),
  },
  {
    id: 'page-en', package: null, lang: 'en', kind: 'prose',
    licence: 'this project\'s own text',
    files: () => proseFiles('en'),
  },
];

function listFiles(dir, keep) {
  if (!existsSync(dir)) throw new Error(`${dir} is missing: install the package (make train-text-model does)`);
  return readdirSync(dir).filter(keep).sort().map((f) => join(dir, f)).filter((p) => statSync(p).isFile());
}

// The page's prose: one module per chapter and language, wherever the page keeps them
// (web/content/<lang>/<chapter>.js, or web/src/chapters/<chapter>/<lang>.js), under
// pageRoot: the repository itself, or web/ as a git revision had it (pageTree below).
function proseFiles(lang) {
  const out = [];
  const content = join(pageRoot, 'web', 'content', lang);
  if (existsSync(content)) out.push(...listFiles(content, (f) => f.endsWith('.js') && f !== 'index.js'));
  const chapters = join(pageRoot, 'web', 'src', 'chapters');
  if (existsSync(chapters))
    for (const d of readdirSync(chapters).sort()) {
      const f = join(chapters, d, `${lang}.js`);
      if (existsSync(f)) out.push(f);
    }
  if (out.length === 0) throw new Error(`no ${lang} prose found under web/`);
  return out;
}

// ---- text extraction -------------------------------------------------------------------------

// One paragraph: NFC, every run of white space (NBSP included) one space, trimmed.
const clean = (s) => s.normalize('NFC').replace(/[\s\u00a0\u200b\ufeff]+/gu, ' ').trim();

const BLOCK = new Set(['p', 'li', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'title', 'caption',
  'blockquote', 'div', 'tr', 'table', 'ul', 'ol', 'dl', 'br', 'figcaption', 'section']);
// Left out: code listings, scripts, the navigation bars and tables of contents the
// DocBook/HTML generators add to every page.
const SKIP = new Set(['head', 'script', 'style', 'pre', 'img']);
const SKIP_CLASSES = /\b(navheader|navfooter|toc|list-of-figures|list-of-tables|list-of-examples|footnotes)\b/;

function htmlParagraphs(text) {
  const doc = parseDocument(text, { decodeEntities: true });
  const out = [];
  let cur = '';
  const flush = () => {
    if (cur.trim()) out.push(cur);
    cur = '';
  };
  const walk = (node) => {
    if (node.type === 'text') {
      cur += node.data;
      return;
    }
    if (!node.children) return;
    const name = node.name?.toLowerCase();
    if (SKIP.has(name) || SKIP_CLASSES.test(node.attribs?.class ?? '')) return;
    const block = BLOCK.has(name);
    if (block) flush();
    for (const c of node.children) walk(c);
    if (block) flush();
  };
  walk(doc);
  flush();
  return out;
}

// A fortune file: cookies separated by lines holding only '%'; each cookie one paragraph
// (its hard line breaks and indentation become single spaces).
const fortuneParagraphs = (text) => text.split(/^%$/m);

// The string values of a prose module (recursively), without TeX ($...$), the page's
// placeholders ({name}) and markup.
async function proseParagraphs(file) {
  const mod = await import(pathToFileURL(file).href);
  const out = [];
  const visit = (v) => {
    if (typeof v === 'string') {
      for (const part of v.split(/\n\s*\n/))
        out.push(part.replace(/\$\$[\s\S]*?\$\$|\$[^$]*\$/g, ' ').replace(/\{[A-Za-z_][\w.]*\}/g, ' ')
          .replace(/<[^>]+>/g, ' ').replace(/\\[a-zA-Z]+/g, ' '));
    } else if (v && typeof v === 'object') {
      for (const x of Object.values(v)) visit(x);
    }
  };
  visit(mod.default);
  return out;
}

// ---- helpers -------------------------------------------------------------------------------

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const hangulShare = (s) => {
  let h = 0, n = 0;
  for (const c of s) {
    if (c === ' ') continue;
    n++;
    const u = c.codePointAt(0);
    if (u >= 0xac00 && u <= 0xd7a3) h++;
  }
  return n ? h / n : 0;
};
const chars = (s) => [...s].length;
// Held out when the first 32 bits of sha256(paragraph) are 0 modulo HOLD_OUT_MODULUS.
const heldOut = (p) => createHash('sha256').update(p).digest().readUInt32BE(0) % HOLD_OUT_MODULUS === 0;

function dpkgVersion(pkg) {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`dpkg does not know ${pkg}: install it (make train-text-model does)`);
  }
}

function args() {
  const a = process.argv.slice(2);
  const get = (k, d) => {
    const i = a.indexOf(k);
    return i >= 0 ? a[i + 1] : d;
  };
  return {
    out: resolve(get('--out', join(root, 'build', 'text-model', 'corpus'))),
    eval: resolve(get('--eval', join(root, 'models', 'text-model', 'eval.txt'))),
    pageRev: get('--page-rev', null),
    sources: get('--sources', null)?.split(','),
  };
}

// Where the page's prose is read from: `worktree` → the files on disk; otherwise web/ as the
// git revision had it, extracted into a scratch directory. Returns [directory, revision or null].
function pageTree(rev) {
  if (rev === 'worktree') return [root, null];
  if (rev === null) {
    const committed = join(root, 'models', 'text-model', 'manifest.json');
    rev = existsSync(committed) ? JSON.parse(readFileSync(committed, 'utf8')).pageRevision : undefined;
    if (!rev) throw new Error(`${relative(root, committed)} names no pageRevision: pass --page-rev <revision> or --page-rev worktree`);
  }
  let sha;
  try {
    sha = execFileSync('git', ['-C', root, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`the page revision ${rev} is not in this repository's history (a clone with its history ` +
      'is needed, or pass --page-rev worktree to read the page as it is on disk)');
  }
  const dir = join(root, 'build', 'text-model', `page-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, 'web'))) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', sha, 'web'], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  }
  return [dir, sha];
}

// ---- main ----------------------------------------------------------------------------------

const opt = args();
let pageRoot, pageRevision;
try {
  [pageRoot, pageRevision] = pageTree(opt.pageRev);
} catch (e) {
  console.error(`corpus.mjs: ${e.message}`);
  process.exit(2);
}
if (pageRevision) console.log(`page prose from revision ${pageRevision}`);
const seen = new Set();
const train = [], test = [];
const evalBySource = new Map();
const manifest = {
  description: 'Corpus of the text model (docs/text-model.md), written by tools/text-model/corpus.mjs',
  normalisation: 'HTML: text of block elements (p, li, dt, dd, h1-h6, td, ...), without pre, script, style, ' +
    'navigation headers/footers and tables of contents; fortunes: one cookie per paragraph; page prose: the ' +
    'string values of each chapter module without TeX, placeholders and markup. Then NFC, white space runs ' +
    `to one space, paragraphs shorter than ${MIN_CHARS} characters dropped, exact duplicates dropped (first kept).`,
  split: `a paragraph is held out when the first 32 bits (big-endian) of sha256(paragraph, UTF-8) are 0 modulo ${HOLD_OUT_MODULUS}`,
  // The revision whose web/ gave the page's prose (null: the files on disk). corpus.mjs
  // reads the page from it by default, so the committed corpus can be rebuilt.
  pageRevision,
  sources: [],
};

for (const id of opt.sources ?? []) {
  if (!SOURCES.some((s) => s.id === id)) {
    console.error(`corpus.mjs: no source ${id} (sources: ${SOURCES.map((s) => s.id).join(', ')})`);
    process.exit(2);
  }
}
for (const src of SOURCES.filter((s) => !opt.sources || opt.sources.includes(s.id))) {
  const files = src.files();
  const listing = [];
  const stats = { paragraphs: 0, duplicates: 0, short: 0, train: 0, test: 0, chars: 0, hangulShare: 0 };
  let hangulChars = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    listing.push(`${src.package ? file : relative(pageRoot, file)}\t${sha256(bytes)}\n`);
    let paragraphs;
    if (src.kind === 'html') paragraphs = htmlParagraphs(bytes.toString('utf8'));
    else if (src.kind === 'fortune') paragraphs = fortuneParagraphs(bytes.toString('utf8'));
    else paragraphs = await proseParagraphs(file);
    for (const raw of paragraphs) {
      const p = clean(raw);
      if (chars(p) < MIN_CHARS) {
        if (p) stats.short++;
        continue;
      }
      if (seen.has(p)) {
        stats.duplicates++;
        continue;
      }
      seen.add(p);
      stats.paragraphs++;
      stats.chars += chars(p);
      hangulChars += hangulShare(p) * chars(p);
      if (heldOut(p)) {
        test.push(p);
        stats.test++;
        if (EVAL_SOURCES.includes(src.id)) {
          const list = evalBySource.get(src.id) ?? [];
          evalBySource.set(src.id, list);
          list.push(p);
        }
      } else {
        train.push(p);
        stats.train++;
      }
    }
  }
  stats.hangulShare = Number((stats.chars ? hangulChars / stats.chars : 0).toFixed(3));
  manifest.sources.push({
    id: src.id,
    package: src.package,
    version: src.package ? dpkgVersion(src.package) : null,
    copyright: src.package ? `/usr/share/doc/${src.package}/copyright` : null,
    licence: src.licence,
    language: src.lang,
    files: files.length,
    bytes: files.reduce((n, f) => n + statSync(f).size, 0),
    // sha256 of the lines "<path>\t<sha256 of the file>\n", in file-name order
    filesSha256: sha256(listing.join('')),
    ...(src.package ? {} : { fileList: files.map((f) => relative(pageRoot, f)) }),
    ...stats,
  });
  console.log(`${src.id}: ${files.length} files, ${stats.paragraphs} paragraphs (${stats.train} train, ${stats.test} held out), ` +
    `${stats.chars} characters, Hangul share ${stats.hangulShare}, ${stats.duplicates} duplicates dropped`);
}

await mkdir(opt.out, { recursive: true });
const trainText = train.join('\n') + '\n', testText = test.join('\n') + '\n';
await writeFile(join(opt.out, 'train.txt'), trainText);
await writeFile(join(opt.out, 'test.txt'), testText);
manifest.outputs = {
  'train.txt': { paragraphs: train.length, characters: chars(trainText), bytes: Buffer.byteLength(trainText), sha256: sha256(trainText) },
  'test.txt': { paragraphs: test.length, characters: chars(testText), bytes: Buffer.byteLength(testText), sha256: sha256(testText) },
};

// The committed evaluation slice: held-out paragraphs of the redistributable sources, in
// their corpus order, about EVAL_CHARS_PER_SOURCE characters from each.
const slice = [];
const sliceSources = [];
for (const id of EVAL_SOURCES) {
  let n = 0;
  const taken = [];
  for (const p of evalBySource.get(id) ?? []) {
    if (n >= EVAL_CHARS_PER_SOURCE) break;
    taken.push(p);
    n += chars(p) + 1;
  }
  slice.push(...taken);
  sliceSources.push({ id, paragraphs: taken.length, characters: n });
}
const evalText = slice.join('\n') + '\n';
await mkdir(dirname(opt.eval), { recursive: true });
await writeFile(opt.eval, evalText);
manifest.outputs[basename(opt.eval)] = {
  paragraphs: slice.length, characters: chars(evalText), bytes: Buffer.byteLength(evalText), sha256: sha256(evalText),
  sources: sliceSources,
  note: 'committed (models/text-model/): held-out paragraphs of the Debian FAQ (SPI notice in EVAL-NOTICE.md) and of the page',
};
await writeFile(join(opt.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`train.txt: ${train.length} paragraphs, ${manifest.outputs['train.txt'].characters} characters; ` +
  `test.txt: ${test.length} paragraphs, ${manifest.outputs['test.txt'].characters}; ` +
  `${basename(opt.eval)}: ${slice.length} paragraphs, ${manifest.outputs[basename(opt.eval)].characters}`);

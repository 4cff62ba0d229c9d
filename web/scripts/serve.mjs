// Serves web/dist on localhost with the page's Content-Security-Policy.
//   node scripts/serve.mjs [--port 8000] [--host 127.0.0.1]
// Also imported by the browser tests: startServer({port: 0}) -> {url, close}.
//
// /examples/ serves docs/examples (the embedding examples of docs/embedding.md), with the
// widget, dist/attention-explorer.js (and its scalar core, attention-explorer-scalar.js, the
// whole core attn-core.wasm, and the text model's text-model.bin and text-model-results.json),
// next to every example (as a teacher copies it) and reveal.js from web/node_modules for
// the slides example. startServer({mounts}) adds more folders: {'/prefix/': dir} or
// {'/prefix/': {dir, csp, alone}}.
import http from 'node:http';
import sirv from 'sirv';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const examples = resolve(web, '..', 'docs', 'examples');
const reveal = join(web, 'node_modules', 'reveal.js');

// What the page needs, and nothing more (tests/e2e/hardening.test.mjs checks that the page
// raises no violation and requests nothing from another origin):
// * Emscripten's loader compiles the core with WebAssembly.instantiate(Streaming), which
//   needs 'wasm-unsafe-eval' in script-src (not 'unsafe-eval': the module is linked with
//   -sDYNAMIC_EXECUTION=0, so no glue is built with eval or new Function);
// * it fetches attn-core.wasm (or attn-core-scalar.wasm) from the page's origin: connect-src 'self';
// * attn.mjs imports the core's loader with import(): script-src 'self';
// * KaTeX and the heatmaps set inline styles: style-src 'unsafe-inline' (styles only).
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors *",
].join('; ');

export function startServer({ port = 8000, host = '127.0.0.1', dir = dist, mounts = {} } = {}) {
  const options = {
    dev: true, // no caching: a rebuilt page is seen on reload
    // The build leaves foo.js.br and foo.js.gz next to foo.js: sent with Content-Encoding
    // (and Vary: Accept-Encoding) to a browser that accepts them, the file itself otherwise.
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      res.setHeader('Content-Security-Policy', CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (pathname.endsWith('.wasm')) res.setHeader('Content-Type', 'application/wasm');
      if (pathname.endsWith('.qmd') || pathname.endsWith('.md')) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    },
  };
  const serve = sirv(dir, options);
  // A mount is a folder, or {dir, csp} for a host page that needs another policy (a
  // notebook's output, say, runs inline scripts).
  const table = Object.entries({ '/examples/reveal.js/': reveal, '/examples/': examples, ...mounts })
    .map(([prefix, m]) => [prefix, typeof m === 'string' ? { dir: m } : m])
    .filter(([, m]) => existsSync(m.dir))
    .sort((a, b) => b[0].length - a[0].length)
    .map(([prefix, m]) => [prefix, m.alone, sirv(m.dir, m.csp ? {
      ...options,
      setHeaders(res, pathname, st) {
        options.setHeaders(res, pathname, st);
        res.setHeader('Content-Security-Policy', m.csp);
      },
    } : options)]);
  const notFound = (res) => () => {
    res.statusCode = 404;
    res.end('not found');
  };
  const server = http.createServer((req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/favicon.ico') { // pages without an icon of their own (the examples)
      res.statusCode = 204;
      return res.end();
    }
    for (const [prefix, alone, handler] of table) {
      if (!path.startsWith(prefix)) continue;
      // the widget and the files it fetches next to itself (the whole core and the text
      // model's weights, for the chapters that need them); not in a folder mounted
      // {alone: true}, which is served as it is (a copy made as the embedding guide says)
      const widget = !alone && /\/(attention-explorer(-scalar|-more)?\.js|attn-core\.wasm|text-model\.bin|text-model-results\.json)$/.exec(path);
      if (widget) {
        req.url = `/${widget[1]}`;
        return serve(req, res, notFound(res));
      }
      req.url = req.url.slice(prefix.length - 1);
      return handler(req, res, notFound(res));
    }
    return serve(req, res, notFound(res));
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: p } = server.address();
      ok({ url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${p}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const port = Number(arg('port', 8000));
  try {
    const { url } = await startServer({ port, host: arg('host', '127.0.0.1') });
    console.log(`Serving ${join(dist)} at ${url}  (Ctrl+C to stop); embedding examples at ${url}examples/`);
  } catch (e) {
    if (e.code !== 'EADDRINUSE') throw e;
    console.error(`error: port ${port} is in use; try another one, e.g. make serve PORT=8080`);
    process.exit(1);
  }
}

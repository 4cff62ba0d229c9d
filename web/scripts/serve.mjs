// Serves web/dist on localhost with the page's Content-Security-Policy.
//   node scripts/serve.mjs [--port 8000] [--host 127.0.0.1]
// Also imported by the browser tests: startServer({port: 0}) -> {url, close}.
import http from 'node:http';
import sirv from 'sirv';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

// What the page needs, and nothing more (tests/e2e/hardening.test.mjs checks that the page
// raises no violation and requests nothing from another origin):
// * Emscripten's loader compiles the core with WebAssembly.instantiate(Streaming), which
//   needs 'wasm-unsafe-eval' in script-src (not 'unsafe-eval': the module is linked with
//   -sDYNAMIC_EXECUTION=0, so Embind builds its glue without eval or new Function);
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

export function startServer({ port = 8000, host = '127.0.0.1', dir = dist } = {}) {
  const serve = sirv(dir, {
    dev: true, // no caching: a rebuilt page is seen on reload
    setHeaders(res, pathname) {
      res.setHeader('Content-Security-Policy', CSP);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (pathname.endsWith('.wasm')) res.setHeader('Content-Type', 'application/wasm');
    },
  });
  const server = http.createServer((req, res) =>
    serve(req, res, () => {
      res.statusCode = 404;
      res.end('not found');
    }));
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
  const { url } = await startServer({ port: Number(arg('port', 8000)), host: arg('host', '127.0.0.1') });
  console.log(`Serving ${join(dist)} at ${url}  (Ctrl+C to stop)`);
}

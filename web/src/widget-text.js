// The one-file widget's words: every chapter's prose in it (chapters/<id>/ko.js, en.js) and
// the kit's (kit/ko.js, kit/en.js) are plain data, so web/scripts/build.mjs packs them as
// one JSON text with Zstandard at its strongest level (base64, like the core) instead of
// bundling them as code, and each of those modules becomes `export default text(key)`.
// zstd over all the words at once is ~13 KB (gzip) fewer than the same words spread through
// the script, where gzip sees them 32 KB at a time between code (docs/embedding.md,
// "Weight"). The first word asked for (the kit's, as the script starts) unpacks them all:
// ~200 KB of JSON, 10-50 ms once (Node on the loaded 2-core build machine, most of it
// fzstd's first run; the core's unpacking follows and then runs warm). The light widget and
// the page bundle the modules as they are.
import { decompress } from 'fzstd';
import { textZstd } from 'widget-text-data';

let all = null;
export function text(key) {
  if (all === null) {
    const bin = atob(textZstd), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    all = JSON.parse(new TextDecoder().decode(decompress(bytes)));
  }
  if (!Object.hasOwn(all, key)) throw new Error(`the widget's packed text has no ${key}`);
  return all[key];
}

// The widget's stand-in for attn-core-scalar.mjs (web/scripts/build.mjs points attn.mjs's
// import of the scalar loader here). The widget inlines only the SIMD core; an engine
// without WebAssembly SIMD loads the scalar
// core from attention-explorer-scalar.js, a second file next to attention-explorer.js,
// fetched only then. Without that file (or when the widget itself came from a blob: or
// data: URL, as in a notebook) the widget shows this error instead of its chapter.
export const SCALAR_FILE = 'attention-explorer-scalar.js';

export default async function createAttnCore(moduleArgs) {
  let url = null;
  try {
    url = new URL(`./${SCALAR_FILE}`, import.meta.url).href;
  } catch {
    // import.meta.url is a blob: or data: URL: there is no folder to look in
  }
  let scalar;
  try {
    if (!url) throw new Error(`the widget was not loaded from a file (${import.meta.url.slice(0, 30)}…)`);
    scalar = await import(url);
  } catch (e) {
    // (error.file: createAttention passes an error that names its file as it is)
    throw Object.assign(new Error(`this browser has no WebAssembly SIMD, so the widget needs its scalar core, ${SCALAR_FILE}, ` +
      `next to attention-explorer.js${url ? ` (${url})` : ''}: ${e.message}`, { cause: e }), { file: SCALAR_FILE });
  }
  return scalar.default({ ...moduleArgs, wasmBinary: scalar.wasm });
}

// The page's d3-scale-chromatic (web/scripts/chromatic.mjs: only the interpolators it
// draws) gives the library's colours, and is a small part of the library's size.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { chromaticPlugin, USED } from '../../web/scripts/chromatic.mjs';

// the page's packages, from web/node_modules
const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { build } = require('esbuild');
const library = await import(pathToFileURL(require.resolve('d3-scale-chromatic')).href);

const bundle = async (contents, plugins) => (await build({
  stdin: { contents, resolveDir: new URL('../../web/', import.meta.url).pathname, loader: 'js' },
  bundle: true, format: 'esm', minify: true, write: false, plugins,
})).outputFiles[0].text;

test('chromatic: the bundled interpolators are the library\'s, at a fraction of its weight', async () => {
  const names = Object.keys(USED).join(', ');
  const ours = await bundle(`export { ${names} } from 'd3-scale-chromatic';`, [chromaticPlugin]);
  const whole = await bundle(`export { ${names} } from 'd3-scale-chromatic';`, []);
  const mod = await import(`data:text/javascript;base64,${Buffer.from(ours).toString('base64')}`);
  for (const name of Object.keys(USED)) {
    for (let i = 0; i <= 40; i++) assert.equal(mod[name](i / 40), library[name](i / 40), `${name}(${i / 40})`);
  }
  // over what the page bundles anyway (d3-interpolate and d3-color, for its own scales)
  const base = (await bundle(`export { interpolateRgbBasis } from 'd3-interpolate';`, [])).length;
  assert.ok(ours.length - base < (whole.length - base) / 4, `${ours.length - base} B against ${whole.length - base} B`);
});

test('chromatic: a name the page does not list fails the build', async () => {
  await assert.rejects(bundle(`export { interpolateViridis } from 'd3-scale-chromatic';`, [chromaticPlugin]), /interpolateViridis/);
});

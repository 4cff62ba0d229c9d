// d3-scale-chromatic in the bundles, without the schemes the page does not draw.
//
// The library ships every colour scheme in one module whose top-level statements
// (`new Array(3).concat(...).map(colors)`) a bundler cannot prove free of side effects, so
// importing two interpolators bundled all of them (31 KB minified, ~8 KB gzip, in the page
// and in the one-file widget). This esbuild plugin answers `from 'd3-scale-chromatic'` with a
// module holding only the interpolators in USED, made the way the library makes them
// (`interpolateRgbBasis` over the scheme's largest variant), from the colours the library
// itself exports at build time: the colours stay the library's. Importing a name missing
// from USED fails the build (esbuild: no matching export). tests/web/chromatic.test.mjs
// checks the result against the library.
import * as chromatic from 'd3-scale-chromatic';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

// interpolator -> the scheme it ramps over
export const USED = { interpolateBlues: 'schemeBlues', interpolatePuOr: 'schemePuOr' };

export function chromaticModule() {
  const lines = Object.entries(USED).map(([name, scheme]) => {
    const variants = chromatic[scheme];
    if (!variants || typeof chromatic[name] !== 'function') throw new Error(`d3-scale-chromatic has no ${name} / ${scheme}`);
    return `export const ${name} = interpolateRgbBasis(${JSON.stringify(variants[variants.length - 1])});`;
  });
  return `import { interpolateRgbBasis } from 'd3-interpolate';\n${lines.join('\n')}\n`;
}

export const chromaticPlugin = {
  name: 'd3-scale-chromatic-used',
  setup(b) {
    b.onResolve({ filter: /^d3-scale-chromatic$/ }, () => ({ path: 'd3-scale-chromatic', namespace: 'chromatic-used' }));
    b.onLoad({ filter: /.*/, namespace: 'chromatic-used' }, () => ({ contents: chromaticModule(), resolveDir: web, loader: 'js' }));
  },
};

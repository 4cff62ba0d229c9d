// What an edit writes to the DOM (a tool for working on the render path, as page-profile.mjs):
// opens a chapter (alone, or with --full inside the full page), makes N edits of one kind as
// bench-page does, and prints the DOM mutation records per edit grouped by kind, target
// (the nearest element with a data-testid or id, then the node) and attribute — counts that
// do not move with the machine's load, for an A/B of a change to the render path.
//   node tests/bench/page-writes.mjs <chapter> <cell|toggle|slider|select|number> [--full] [--edits 20] [--dist <dir>] [--top 30]
import { resolve } from 'node:path';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';
import { editProbe, openChapter } from './page-probes.mjs';

const [id = 'core-attention', kind = 'cell'] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.match(/^--(edits|dist|top)$/));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const FULL = process.argv.includes('--full');
const server = await startServer({ port: 0, ...(arg('dist', null) && { dir: resolve(arg('dist')) }) });
const browser = await launchChromium();
try {
  const { context, page } = await openChapter(browser, server.url, id, { alone: !FULL });
  await page.waitForTimeout(1500);
  await page.evaluate(editProbe);
  const out = await page.evaluate(async ([i, k, n]) => {
    const section = document.getElementById(i);
    const where = (node) => {
      const e = node.nodeType === 1 ? node : node.parentElement;
      const owner = e?.closest('[data-testid], [id]');
      const name = (x) => (x ? `${x.tagName.toLowerCase()}${x.className && typeof x.className === 'string' ? `.${x.className.trim().split(/\s+/).slice(0, 2).join('.')}` : ''}` : '?');
      return `${owner ? (owner.dataset.testid ?? `#${owner.id}`) : '-'} ${name(e)}`;
    };
    const counts = new Map();
    const mo = new MutationObserver((records) => {
      for (const r of records) {
        const key = `${r.type}${r.attributeName ? `[${r.attributeName}]` : ''}${r.type === 'childList' ? ` +${r.addedNodes.length}/-${r.removedNodes.length}` : ''} ${where(r.target)}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    });
    mo.observe(section, { subtree: true, childList: true, attributes: true, characterData: true });
    const samples = await window.__bench.edits(i, k, n, 100);
    mo.disconnect();
    return { samples, counts: [...counts] };
  }, [id, kind, Number(arg('edits', 20))]);
  const per = Math.max(1, out.samples.length);
  const total = out.samples.reduce((a, s) => a + s.mutations, 0);
  console.log(`${id} ${kind}${FULL ? ' (full page)' : ''}: ${out.samples.length} edits, ${(total / per).toFixed(1)} mutation records per edit; by kind and target, per edit:`);
  for (const [k, n] of out.counts.sort((a, b) => b[1] - a[1]).slice(0, Number(arg('top', 30)))) console.log(`${(n / per).toFixed(2).padStart(8)}  ${k}`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}

// Screenshots of single chapters (their <section>) at desktop and phone width, split into
// readable pieces:  node scripts/shot-sections.mjs outDir id [id...] [--lang=en]
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startServer } from './serve.mjs';
import { launchChromium, openPage } from './browser.mjs';

const args = process.argv.slice(2);
const out = resolve(args.shift() ?? 'screenshots');
const lang = args.find((a) => a.startsWith('--lang='))?.slice(7);
const ids = args.filter((a) => !a.startsWith('--'));
await mkdir(out, { recursive: true });
const server = await startServer({ port: 0 });
const browser = await launchChromium();
try {
  for (const [name, width] of [['desktop', 1280], ['phone', 360]]) {
    const { page, errors } = await openPage(browser, server.url + (lang ? `?lang=${lang}` : ''), { width, height: 900 });
    for (const id of ids) {
      const box = await page.$eval(`#${id}`, (n) => { const r = n.getBoundingClientRect(); return { y: r.top + scrollY, h: r.height }; });
      const piece = name === 'phone' ? 1400 : 1800;
      for (let y = 0, k = 0; y < box.h; y += piece, k++) {
        const file = join(out, `${id}-${name}${lang ? '-' + lang : ''}-${k}.png`);
        await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: box.y + y, width, height: Math.min(piece, box.h - y) } });
        console.log(file);
      }
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    if (overflow > 0) console.log(`[${name}] page is ${overflow}px wider than the viewport`);
    for (const e of errors) console.error(`[${name}] ${e}`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

// Takes full-page screenshots of the served page at desktop and phone width.
//   node scripts/screenshot.mjs [outDir] [query]   (e.g. "?lang=en")
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startServer } from './serve.mjs';
import { launchChromium, openPage } from './browser.mjs';

{
  const out = resolve(process.argv[2] ?? 'screenshots');
  const query = process.argv[3] ?? '';
  await mkdir(out, { recursive: true });
  const server = await startServer({ port: 0 });
  const browser = await launchChromium();
  try {
    for (const [name, width, height] of [['desktop', 1280, 900], ['phone', 360, 780]]) {
      const { page, errors } = await openPage(browser, server.url + query, { width, height });
      const file = join(out, `page-${name}${query ? '-' + query.replace(/\W+/g, '') : ''}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      if (name === 'phone' && process.env.SEGMENTS) {
        // Phone-width segments, readable one at a time.
        const total = await page.evaluate(() => document.documentElement.scrollHeight);
        for (let y = 0, k = 0; y < total; y += 1200, k++) {
          const seg = file.replace('.png', `-${k}.png`);
          await page.screenshot({ path: seg, fullPage: true, clip: { x: 0, y, width, height: Math.min(1200, total - y) } });
          console.log(seg);
        }
      }
      for (const e of errors) console.error(`[${name}] ${e}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

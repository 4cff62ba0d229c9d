// One served page and one headless Chromium per browser-test file, closed after its last
// test; screenshots go to ATTN_SCREENSHOT_DIR (ctest sets it under the build folder).
import test from 'node:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';

export const shots = process.env.ATTN_SCREENSHOT_DIR ?? join(process.cwd(), 'screenshots');

export async function harness() {
  await mkdir(shots, { recursive: true });
  const server = await startServer({ port: 0 });
  const browser = await launchChromium();
  test.after(async () => {
    await browser.close();
    await server.close();
  });
  return { server, browser };
}

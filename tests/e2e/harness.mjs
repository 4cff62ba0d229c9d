// One served page and one headless Chromium per browser-test file, closed after its last
// test; screenshots go to ATTN_SCREENSHOT_DIR (ctest sets it under the build folder).
import test from 'node:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium, openPage } from '../../web/scripts/browser.mjs';

export const shots = process.env.ATTN_SCREENSHOT_DIR ?? join(process.cwd(), 'screenshots');

// `mounts` ({'/url-prefix/': folder}) serve extra folders, e.g. test host pages.
export async function harness({ mounts } = {}) {
  await mkdir(shots, { recursive: true });
  const server = await startServer({ port: 0, mounts });
  const browser = await launchChromium();
  test.after(async () => {
    await browser.close();
    await server.close();
  });
  return { server, browser };
}

// The page mounts chapters as they come near the screen (web/src/lazy-chapters.js): this
// scrolls through the whole page, then brings each chapter still not mounted into view
// (on a loaded machine two scroll steps can fall in one frame, and a chapter passed over
// between two frames was never near the screen) and waits for it, then goes back to the top.
export async function mountAll(page) {
  const n = await page.$$eval('section.chapter', (s) => s.length);
  await page.evaluate(() => scrollTo(0, 0));
  for (let k = 0; k < 400; k++) {
    const done = await page.evaluate(() => {
      scrollBy(0, innerHeight * 0.9);
      return innerHeight + scrollY >= document.documentElement.scrollHeight - 2;
    });
    await page.waitForTimeout(40);
    if (done) break;
  }
  for (let pass = 0; pass < 3; pass++) {
    const left = await page.$$eval('section.chapter:not([data-mounted="true"])', (s) => s.map((x) => x.id));
    if (!left.length) break;
    await mountChapters(page, left);
  }
  await page.waitForFunction((count) => document.querySelectorAll('section.chapter[data-mounted="true"]').length === count, n, { timeout: 30000 });
  await page.evaluate(() => scrollTo(0, 0));
}

// Brings each chapter of `ids` into view in turn and waits until it is mounted (an error
// names the chapter that was not).
export async function mountChapters(page, ids) {
  for (const id of ids) {
    await page.evaluate((i) => document.getElementById(i).scrollIntoView(), id);
    try {
      await page.waitForFunction((i) => document.getElementById(i).dataset.mounted === 'true', id, { timeout: 30000 });
    } catch (e) {
      throw new Error(`#${id} was not mounted 30 s after it was scrolled into view: ${e.message}`);
    }
  }
}

// The language toggle loads the other language's prose before it switches: this clicks it
// and waits until the page speaks the other language.
export async function toggleLang(page) {
  const before = await page.evaluate(() => document.documentElement.lang);
  await page.click('#lang-toggle');
  await page.waitForFunction((b) => document.documentElement.lang !== b, before);
}

// Desktop (1280 px) and phone (360 px) screenshots of section #id of an open page, into
// `${id}-desktop${suffix}.png` and `${id}-phone${suffix}.png`; at 360 px nothing may widen
// the page.
export async function screenshotSection(page, id, suffix = '') {
  await page.setViewportSize({ width: 1280, height: 900 });
  await (await page.$(`#${id}`)).screenshot({ path: join(shots, `${id}-desktop${suffix}.png`) });
  await page.setViewportSize({ width: 360, height: 780 });
  await (await page.$(`#${id}`)).screenshot({ path: join(shots, `${id}-phone${suffix}.png`) });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`#${id} is ${overflow}px wider than a 360px phone`);
}

// The same for one chapter opened alone (?embed=<id>), which also must log no console
// error. (An element screenshot inside the whole page, some 50,000 px tall, takes ~15 s;
// of the chapter alone, under a second.) `prepare(page)` runs before the first screenshot
// (e.g. to let a lazy plot finish).
export async function shootChapter(browser, server, id, { query = '', suffix = '', prepare } = {}) {
  const q = new URLSearchParams(query);
  q.set('embed', id);
  const { page, errors } = await openPage(browser, `${server.url}?${q}#${id}`, { width: 1280, height: 900 });
  try {
    await page.waitForSelector(`section#${id} h2`);
    if (prepare) await prepare(page);
    await screenshotSection(page, id, suffix);
    if (errors.length) throw new Error(`#${id}: console errors ${JSON.stringify(errors)}`);
  } finally {
    await page.close();
  }
}

// What a paste from the clipboard delivers to a cell.
export function pasteInto(page, selector, text) {
  return page.$eval(selector, (input, t) => {
    input.focus();
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

// An element's top as the reader sees it: read after a painted frame, until two frames
// agree. (A chapter that mounts above the fragment moves the page back before the next
// paint, from a ResizeObserver; a read between that mount and the next frame would see the
// unpainted, uncorrected layout.)
export const paintedTop = (page, selector) => page.$eval(selector, async (n) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
  let prev = NaN;
  for (let k = 0; k < 30; k++) {
    await frame();
    const top = n.getBoundingClientRect().top;
    if (Math.abs(top - prev) < 0.5) return top;
    prev = top;
  }
  return prev;
});

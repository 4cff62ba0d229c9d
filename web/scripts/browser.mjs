// Headless Debian Chromium driven by playwright-core (no browser download).
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

// An init script: grids and plots far from the screen are drawn at once instead of when
// they come near it (web/src/components/nearby.js), so that a test reads a figure anywhere
// on the page right after an edit. Browser tests and screenshots use it; benchmarks do not.
export const eagerFigures = () => {
  window.__eagerFigures = true;
};

// Opens a page (eagerFigures) that records console errors and uncaught exceptions into `errors`.
export async function openPage(browser, url, { width = 1280, height = 900 } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.addInitScript(eagerFigures);
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

// Chapters mount when they come near the screen (web/src/lazy-chapters.js): every chapter
// still renders, reached by its fragment, by scrolling and by printing; the reading position
// holds (fragment, reload); the language and permalinks reach chapters mounted later.
// The reading position's cases are in tests/web/reading-position.test.mjs (no browser); here
// each behaviour is shown once in the page, with as few page loads as show it (20): subtests
// that open the same page share one load where the first leaves the state the next starts from.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, root, paintedTop, mountChapters, toggleLang, openPage, eagerFigures, settled, frames } from './harness.mjs';

const { server, browser } = await harness();

// What a mounted chapter holds: its heading and its numbers (grid cells or plots), drawn.
const content = (page, id) => page.evaluate((i) => {
  const s = document.getElementById(i);
  return {
    mounted: s?.dataset.mounted === 'true',
    title: s?.querySelector('h2')?.textContent.trim() ?? '',
    cells: s ? s.querySelectorAll('[data-grid] td .v, [data-grid] td input').length : 0,
    filled: s ? [...s.querySelectorAll('[data-grid] td .v')].filter((v) => v.textContent.trim()).length : 0,
    plots: s ? s.querySelectorAll('[data-plot] svg g').length : 0,
    math: s ? s.querySelectorAll('.katex').length : 0,
  };
}, id);
// The page has remembered where the reader is in its history entry (history.state.position,
// written when scrolling stops): the place the reader sees now.
const remembered = (page) => page.waitForFunction(() => {
  const top = [...document.querySelectorAll('section.chapter')].find((s) => s.getBoundingClientRect().bottom > 0);
  const p = history.state?.position;
  return top && p && p.id === top.id && p.offset === Math.round(-top.getBoundingClientRect().top);
});
const ids = (page) => page.$$eval('#toc a[href^="#"]', (as) => as.map((a) => a.getAttribute('href').slice(1)));
const mountedIds = (page) => page.$$eval('section.chapter[data-mounted="true"]', (ss) => ss.map((s) => s.id));
function assertDrawn(c, id) {
  assert.ok(c.mounted, `#${id} is mounted`);
  assert.ok(c.title.length > 0, `#${id} has its title`);
  assert.ok(c.filled > 0 || c.plots > 0 || c.cells > 0 || c.math > 0, `#${id} shows numbers (${JSON.stringify(c)})`);
}

// One load: what is mounted at load, then the whole page scrolled down.
test('the page mounts only the chapters near the screen; the others hold their title and their space, and print a line saying so; scrolling down the whole page mounts every chapter, each drawn', async () => {
  const { page, errors } = await openPage(browser, server.url);
  const all = await ids(page);
  assert.equal(all.length, await page.$$eval('section.chapter', (s) => s.length), 'a section for every chapter');
  const mounted = await mountedIds(page);
  assert.ok(mounted.includes(all[0]), 'the first chapter is mounted');
  assert.ok(mounted.length < all.length / 2, `only what is near the screen: ${mounted.join(', ')}`);
  const placeholders = await page.$$eval('section.chapter.placeholder', (ss) => ss.map((s) => ({
    id: s.id, title: s.querySelector('h2')?.textContent ?? '', height: s.getBoundingClientRect().height,
  })));
  for (const p of placeholders) {
    assert.ok(p.title.length > 0, `${p.id} shows its title`);
    // (its estimate at 1280 px from its chapter.json; no height is remembered in a new context)
    const estimate = JSON.parse(await readFile(join(root, 'web', 'src', 'chapters', p.id, 'chapter.json'), 'utf8')).height[0];
    assert.ok(p.height >= 0.9 * estimate, `${p.id} reserves its space (${p.height}px, estimate ${estimate}px)`);
  }
  // Printed from the browser's menu before a chapter's code arrived (beforeprint cannot wait
  // for it): the chapter prints its title and a line saying so, not pages of blank space.
  await page.emulateMedia({ media: 'print' }); // (no beforeprint: as if no code had arrived)
  const printed = await page.$$eval('section.chapter.placeholder', (ss) => ss.map((s) => ({
    id: s.id, height: s.getBoundingClientRect().height, note: getComputedStyle(s, '::after').content,
  })));
  await page.emulateMedia({ media: 'screen' });
  assert.ok(printed.length > 0);
  for (const p of printed) {
    assert.ok(p.height < 300, `${p.id} reserves no blank space on paper (${p.height}px)`);
    assert.match(p.note, /[가-힣].*Ctrl\+P/, `${p.id} says it was not loaded yet`);
  }
  // then a reader scrolls down the whole page
  for (let k = 0; k < 400; k++) {
    // a reader's scroll: each position is painted (two frames, so its intersection
    // observations are delivered), and what is on screen is drawn, before the next (a
    // chapter scrolled past before its code arrived is not mounted behind the reader)
    const done = await page.evaluate(() => new Promise((resolve) => {
      scrollBy(0, innerHeight * 0.9);
      const end = innerHeight + scrollY >= document.documentElement.scrollHeight - 2;
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(end)));
    }));
    await page.waitForFunction(() => [...document.querySelectorAll('section.chapter')].every((s) => {
      const r = s.getBoundingClientRect();
      return r.bottom <= 0 || r.top >= innerHeight || s.dataset.mounted === 'true';
    }), null);
    if (done) break;
  }
  await page.waitForFunction((n) => document.querySelectorAll('section.chapter[data-mounted="true"]').length === n, all.length);
  for (const id of all) assertDrawn(await content(page, id), id);
  assert.deepEqual(errors, []);
  await page.close();
});

// One load at an element inside a chapter not mounted yet (#two-keys-exercise), then every
// chapter by a fragment link (opening the page AT a chapter's fragment is shown by the tests
// below: #cost, #softmax, #multi-head, #trained-heads).
test('an element inside a chapter not mounted yet is reached by its fragment at load; every chapter is reached by its fragment link, drawn, and stays where the fragment put it', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#two-keys-exercise`);
  assert.ok(await page.isVisible('#two-keys-exercise'), 'at load: the exercise is shown');
  const exerciseTop = await paintedTop(page, '#two-keys-exercise');
  assert.ok(Math.abs(exerciseTop) < 5, `at load: the exercise is at the top (top = ${exerciseTop})`);
  // (positional-encoding, not mounted at load, is among the chapters reached by a link)
  assert.notEqual(await page.$eval('#positional-encoding', (s) => s.dataset.mounted), 'true', '#positional-encoding is not mounted at load');
  for (const id of await ids(page)) {
    await page.evaluate((i) => (location.hash = i), id);
    await page.waitForFunction((i) => document.getElementById(i).dataset.mounted === 'true', id);
    await settled(page);
    assertDrawn(await content(page, id), id);
    // Chapters above it mount too (they are near the screen): the reader is not moved.
    const top = await paintedTop(page, `#${id}`);
    assert.ok(Math.abs(top) < 5, `#${id} is at the top of the window after the chapters around it mounted (top = ${top})`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// The cause of a CI flake: the chapters were mounted in the order they were asked for, so
// after a fast scroll the chapter the reader stopped at waited behind every chapter scrolled
// past (30 s on a loaded machine). Counted, not timed: what mounts after the stop.
test('after a fast scroll, the chapter the reader stops at mounts before any chapter scrolled past', async () => {
  const { page, errors } = await openPage(browser, server.url, { width: 1280, height: 900 });
  const { order, target } = await page.evaluate(async () => {
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const sections = [...document.querySelectorAll('section.chapter')];
    const target = sections.at(-1);
    const order = []; // chapters mounted after the stop, and how many screens from the viewport
    let stopped = false;
    new MutationObserver((records) => {
      for (const { target: s } of records) {
        if (!stopped || !s.matches('section.chapter') || s.dataset.mounted !== 'true' || order.some((o) => o.id === s.id)) continue;
        const b = s.getBoundingClientRect();
        order.push({ id: s.id, screens: +(Math.max(0, b.top - innerHeight, -b.bottom) / innerHeight).toFixed(2) });
      }
    }).observe(document.querySelector('main'), { subtree: true, attributeFilter: ['data-mounted'] });
    for (const s of sections.slice(2, -1)) { // each chapter on screen for two frames: near, then passed
      s.scrollIntoView();
      await frames();
    }
    target.scrollIntoView();
    // counted once the observers have reported the stop (until then a chapter near the
    // previous position may still be taken: it was near when it was asked for)
    await frames();
    stopped = true;
    while (target.dataset.mounted !== 'true') await frames();
    return { order, target: target.id };
  });
  const upTo = order.slice(0, order.findIndex((o) => o.id === target) + 1); // (empty: it mounted first)
  const far = upTo.filter((o) => o.screens > 1);
  assert.deepEqual(far, [], `mounted before #${target}, far from the screen: ${JSON.stringify(upTo)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chapter whose code fails, whose prose fails, whose mount throws or whose code never arrives holds back no other chapter, and says so where it is', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(eagerFigures);
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const failing = ['scaling', 'weighted-sum', 'reading-matrix'];
  const hanging = 'one-head';
  await page.route(/\/ch-scaling\.js$/, (r) => r.abort()); // its code cannot be fetched
  await page.route(/\/ch-weighted-sum\.ko\.js$/, (r) => r.abort()); // its prose cannot be fetched
  await page.route(/\/ch-reading-matrix\.js$/, (r) => r.fulfill({ // its mount throws
    contentType: 'text/javascript', body: "export default { mount() { throw new Error('mount failed on purpose'); } };",
  }));
  await page.route(/\/ch-one-head\.js$/, () => {}); // its code never arrives
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  const all = await ids(page);
  // each failing chapter is brought into view and says it failed (its space is given back:
  // done first, so that no collapse moves the page while the others are being visited)
  for (const id of failing) {
    await page.evaluate((i) => document.getElementById(i).scrollIntoView(), id);
    await page.waitForSelector(`#${id}[data-mounted="failed"] .chapter-error`);
    const { title, error, busy } = await page.$eval(`#${id}`, (s) => ({
      title: s.querySelector('h2')?.textContent ?? '', error: s.querySelector('.chapter-error').textContent, busy: s.getAttribute('aria-busy'),
    }));
    assert.ok(title.length > 0, `#${id} keeps its title`);
    assert.match(error, /불러오지 못했습니다/, `#${id} says it failed: ${error}`);
    assert.equal(busy, null, `#${id} is no longer busy`);
  }
  // then the chapter that never arrives, in view; every other chapter still mounts
  await page.evaluate((h) => document.getElementById(h).scrollIntoView(), hanging);
  await mountChapters(page, all.filter((id) => ![...failing, hanging].includes(id)));
  assert.equal(await page.$eval(`#${hanging}`, (s) => [s.dataset.mounted ?? '', s.getAttribute('aria-busy')].join()), ',true', 'the chapter whose code never arrives is still loading');
  await toggleLang(page);
  assert.match(await page.textContent('#scaling .chapter-error'), /Could not load this chapter/);
  // each failure is reported once on the console, and nothing was left unhandled
  assert.deepEqual(errors.filter((e) => e.startsWith('pageerror')), []);
  assert.ok(errors.some((e) => /mount failed on purpose/.test(e)), JSON.stringify(errors));
  await page.close();
});

// Chromium's print path (page.pdf: beforeprint, the print layout, afterprint) at #softmax:
// every chapter is mounted for paper, and afterwards the reader is where they were.
test('printing shows every chapter (the rest is mounted first) and keeps the reading position', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#softmax`);
  const all = await ids(page);
  // The other chapters' code arrives while the page is idle; printing then mounts them all.
  await page.waitForSelector('body[data-prefetched="true"]');
  assert.ok((await mountedIds(page)).length < all.length);
  const before = await paintedTop(page, '#softmax');
  const pdf = await page.pdf({ format: 'A4' });
  assert.ok(pdf.length > 10000);
  const after = await paintedTop(page, '#softmax');
  assert.ok(Math.abs(after - before) < 5, `#softmax stays in place across printing: ${before} → ${after}`);
  assert.equal((await mountedIds(page)).length, all.length, 'every chapter was mounted for printing');
  for (const id of all) assertDrawn(await content(page, id), id);
  assert.deepEqual(errors, []);
  await page.close();
});

// A first visit (no heights remembered): the placeholders reserve estimates, some 2000 px
// off. A chapter whose tail is on screen above the one being read mounts at its drawn
// height: the reader stays where they are (the chapter's title keeps its place on screen),
// whether they came by the scroll bar or by scrollIntoView (whose scroll margin leaves the
// previous chapter's last lines on screen).
test('a first visit keeps the reading position when the chapter above mounts at a height far from its estimate', async () => {
  // (each after a chapter whose estimate is far from what it draws: trained-heads, scaling;
  // two places per page where the second's chapter above is still a placeholder)
  for (const visits of [[['real-models', 'scrollTo'], ['softmax', 'scrollTo']], [['real-models', 'scrollIntoView']]]) {
    const { page, errors } = await openPage(browser, server.url);
    for (const [id, how] of visits) {
      const prev = await page.$eval(`#${id}`, (s) => s.previousElementSibling.id);
      const reserved = await page.$eval(`#${prev}`, (s) => (s.dataset.mounted ? NaN : s.getBoundingClientRect().height));
      // (where the scroll put it, read in the same task: nothing has mounted yet)
      const before = await page.evaluate(([i, h]) => {
        const s = document.getElementById(i);
        if (h === 'scrollIntoView') s.scrollIntoView();
        else scrollTo(0, s.getBoundingClientRect().top + scrollY - 300);
        return s.getBoundingClientRect().top;
      }, [id, how]);
      await page.waitForFunction((ii) => ii.every((i) => document.getElementById(i).dataset.mounted === 'true'), [prev, id]);
      await settled(page);
      const after = await paintedTop(page, `#${id}`);
      const drawn = await page.$eval(`#${prev}`, (s) => s.getBoundingClientRect().height);
      // (the case at hand: the chapter above was a placeholder and its height changed much)
      assert.ok(Math.abs(drawn - reserved) > 100, `#${prev}: reserved ${reserved}px, drawn ${drawn}px`);
      assert.ok(Math.abs(after - before) < 5, `#${id} (${how}) stays in place while #${prev} mounts: ${before} → ${after}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});


// A language switch while the end of one chapter and the title of the next are on screen:
// the chapter above is redrawn at another height; what the reader saw stays.
test('a language switch with a chapter boundary on screen keeps the reading position', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.evaluate(() => {
    const s = document.getElementById('softmax');
    scrollTo(0, s.getBoundingClientRect().top + scrollY - 317);
  });
  const prev = await page.$eval('#softmax', (s) => s.previousElementSibling.id);
  await page.waitForFunction((ii) => ii.every((i) => document.getElementById(i).dataset.mounted === 'true'), [prev, 'softmax']);
  await settled(page);
  const before = await paintedTop(page, '#softmax');
  const height = () => page.$eval(`#${prev}`, (s) => s.getBoundingClientRect().height);
  const h0 = await height();
  await toggleLang(page);
  await page.waitForFunction((i) => document.getElementById(i).lang === 'en', prev);
  await settled(page);
  const after = await paintedTop(page, '#softmax');
  assert.notEqual(Math.round(await height()), Math.round(h0), `#${prev} changed height in English`);
  assert.ok(Math.abs(after - before) < 5, `#softmax stays in place across the switch: ${before} → ${after}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// A reload keeps the reading position inside a chapter far down the page: twice on one page
// (at 1280 px), with the heights the page remembers, then without (every placeholder is then
// an estimate, #cost's too: the chapter changes height in the frame that puts the window
// back in place, which must not move it again).
// The page restores positions itself (history.scrollRestoration = 'manual', for the reload),
// so Back and Forward after a link in the contents must too: on the same page after the
// reloads at 1280 px, and on a page of its own at 390 px.
test('a reload keeps the reading position inside a chapter far down the page, with and without the heights remembered; Back and Forward after a contents link return to where the reader was, at both widths', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page, errors } = await openPage(browser, `${server.url}#cost`, viewport);
    await settled(page);
    await page.evaluate(() => scrollBy(0, 700));
    await settled(page);
    if (viewport.width === 1280) {
      for (const forget of [false, true]) {
        const before = await paintedTop(page, '#cost');
        if (forget) await page.evaluate(() => localStorage.clear());
        await page.reload();
        await page.waitForSelector('body[data-ready="true"]');
        await settled(page);
        const after = await paintedTop(page, '#cost');
        assert.ok(Math.abs(after - before) < 5, `same place after reload${forget ? ' (heights forgotten)' : ''}: ${before} → ${after}`);
      }
    }
    await remembered(page);
    const atCost = await paintedTop(page, '#cost');
    const state = () => page.evaluate(() => {
      const p = history.state?.position;
      let el = document.getElementById(p?.id);
      for (const k of p?.path ?? []) el = el?.children[k];
      const heights = [...document.querySelectorAll('section.chapter')].map((s) => `${s.id}:${Math.round(s.getBoundingClientRect().height)}${s.dataset.mounted === 'true' ? '' : '?'}`).join(' ');
      return JSON.stringify({ y: scrollY, kept: p, anchorTop: el?.getBoundingClientRect().top, tag: el?.tagName, settled: document.body.dataset.settled, heights });
    });
    const before = await state();
    // (a link followed where it is: the contents' own is far above, and focusing it first
    // would scroll there, the place Back then returns to)
    await page.evaluate(() => document.querySelector('#toc a[href="#training"]').click());
    await page.waitForSelector('#training[data-mounted="true"]');
    await settled(page);
    await page.evaluate(() => scrollBy(0, 300));
    await settled(page);
    await remembered(page);
    const atTraining = await paintedTop(page, '#training');
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#cost');
    await settled(page);
    // (on a failure: where the window is, and the place the entry kept)
    const backAt = await paintedTop(page, '#cost');
    assert.ok(Math.abs(backAt - atCost) < 5, `${viewport.width}px: Back returns inside #cost (${atCost}, got ${backAt}; ${await state()}; before ${before})`);
    await page.goForward();
    await page.waitForFunction(() => location.hash === '#training');
    await settled(page);
    const forwardAt = await paintedTop(page, '#training');
    assert.ok(Math.abs(forwardAt - atTraining) < 5, `${viewport.width}px: Forward returns inside #training (${atTraining}, got ${forwardAt}; ${await state()})`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a language switch reaches chapters mounted later; a link keeps the state of chapters not mounted yet; a chapter above redrawn at a jump moves nothing', async () => {
  const state = 'heads:1';
  const { page, errors } = await openPage(browser, `${server.url}?lang=en&multi-head=${state}`);
  // The link's chapter is mounted at load (its state is checked), the URL keeps it.
  await page.waitForSelector('#multi-head[data-mounted="true"]');
  await page.waitForFunction((s) => new URLSearchParams(location.search).get('multi-head') === s, state); // (written after load)
  assert.match(page.url(), /multi-head=heads:1/);
  assert.match(await page.textContent('#multi-head h2'), /[A-Za-z]/);
  await page.click('#lang-toggle');
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  await page.evaluate(() => (location.hash = 'review'));
  await page.waitForSelector('#review[data-mounted="true"]');
  assert.match(await page.textContent('#review h2'), /[가-힣]/, 'a chapter mounted after the switch speaks Korean');
  assert.equal(await page.getAttribute('#review', 'lang'), 'ko');
  // multi-head was mounted (off screen) before the switch: until it is redrawn it still shows
  // English and says so (lang="en"); redrawn when it comes into view, in Korean.
  assert.deepEqual(await page.$eval('#multi-head', (s) => [s.lang, /[가-힣]/.test(s.querySelector('h2').textContent)]), ['en', false]);
  await page.evaluate(() => (location.hash = 'multi-head'));
  await page.waitForFunction(() => /[가-힣]/.test(document.querySelector('#multi-head h2').textContent), null);
  assert.equal(await page.getAttribute('#multi-head', 'lang'), 'ko', 'redrawn: marked Korean');
  // every section is marked with the language of its title
  const marks = await page.$$eval('section.chapter', (ss) => ss.map((s) => [s.id, s.lang, /[가-힣]/.test(s.querySelector('h2')?.textContent ?? '') ? 'ko' : 'en']));
  for (const [id, lang, title] of marks) assert.equal(lang, title, `#${id}: lang="${lang}", its title is in ${title}`);
  assert.match(page.url(), /multi-head=heads:1/);
  // A chapter above redrawn in the same task as a jump down (as a model or a worker's result
  // arriving right after the reader's jump): what the jump showed stays where it was put. (A
  // redraw that did not tell the reading position first was laid out before the jump's scroll
  // event chose its anchor, and pushed #training down by multi-head's growth.)
  await settled(page);
  const grown = () => page.$eval('#multi-head', (s) => s.getBoundingClientRect().height);
  const h1 = await grown();
  const jumped = await page.evaluate(() => {
    const t = document.getElementById('training');
    t.scrollIntoView();
    const top = t.getBoundingClientRect().top;
    document.querySelector('#multi-head [data-choice="mh-heads"] input[value="8"]').click();
    return top;
  });
  await page.waitForSelector('#training[data-mounted="true"]');
  await settled(page);
  const h8 = await grown();
  assert.ok(h8 - h1 > 300, `#multi-head grew: ${h1} → ${h8}px`);
  const landed = await paintedTop(page, '#training');
  assert.ok(Math.abs(landed - jumped) < 5, `#training stays where the jump put it: ${jumped} → ${landed}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('switching the language while chapters are being mounted: every chapter speaks the new language, no error', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=en`);
  // Jump far down (chapters start mounting there) and switch at once, twice over.
  await page.evaluate(() => {
    document.getElementById('multi-head').scrollIntoView();
    document.getElementById('lang-toggle').click();
  });
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  await page.evaluate(() => {
    document.getElementById('review').scrollIntoView();
    document.getElementById('lang-toggle').click();
  });
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.waitForSelector('#review[data-mounted="true"]');
  await page.waitForFunction(() => /[A-Za-z]{4}/.test(document.querySelector('#review h2').textContent) && !/[가-힣]/.test(document.querySelector('#review h2').textContent));
  await page.evaluate(() => document.getElementById('multi-head').scrollIntoView());
  await page.waitForFunction(() => !/[가-힣]/.test(document.querySelector('#multi-head h2').textContent));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Tab and Shift+Tab reach a chapter not mounted yet: it mounts and takes the focus', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#multi-head`);
  await page.waitForSelector('body[data-ready="true"]');
  // A mounted chapter followed by one still a placeholder, and one preceded by a placeholder.
  const pair = (dir) => page.evaluate((d) => {
    const ss = [...document.querySelectorAll('section.chapter')];
    const k = ss.findIndex((s, i) => s.dataset.mounted === 'true' && ss[i + d] && ss[i + d].dataset.mounted !== 'true');
    return k < 0 ? null : [ss[k].id, ss[k + d].id];
  }, dir);
  const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
  // (the first or last control that takes the focus, as Tab would)
  for (const [dir, key, pick] of [[1, 'Tab', 'last'], [-1, 'Shift+Tab', 'first']]) {
    const found = await pair(dir);
    assert.ok(found, `a mounted chapter with a placeholder ${dir > 0 ? 'after' : 'before'} it`);
    const [from, to] = found;
    await page.$eval(`#${from}`, (s, [sel, p]) => {
      const all = [...s.querySelectorAll(sel)].filter((n) => n.checkVisibility());
      for (const n of p === 'last' ? all.reverse() : all) {
        n.focus();
        if (document.activeElement === n) break;
      }
    }, [focusable, pick]);
    await page.keyboard.press(key);
    await page.waitForFunction((id) => document.getElementById(id).dataset.mounted === 'true'
      && document.activeElement?.closest('section.chapter')?.id === id && document.activeElement.id !== id, to);
    // forward: near the new chapter's top; backward: near its end (a radio group is one stop)
    const where = await page.$eval(`#${to}`, (s) => {
      const r = s.getBoundingClientRect(), f = document.activeElement.getBoundingClientRect();
      return (f.top - r.top) / r.height;
    });
    assert.ok(dir > 0 ? where < 0.5 : where > 0.5, `${key} from #${from} lands ${dir > 0 ? 'at the start' : 'at the end'} of #${to} (${where.toFixed(2)})`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a language switch on a phone keeps the chapter being read in place', async () => {
  // At 390 px the English header and table of contents are taller while a chapter just
  // above the one being read gets shorter: both move the page, in one batch.
  for (const id of ['multi-head', 'trained-heads']) {
    const { page, errors } = await openPage(browser, `${server.url}#${id}`, { width: 390, height: 844 });
    await page.waitForSelector('body[data-ready="true"]');
    await settled(page);
    const before = await paintedTop(page, `#${id}`);
    await page.$eval('#lang-toggle', (b) => b.click()); // (the tucked tool bar: clicked as a tap would)
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await settled(page);
    const after = await paintedTop(page, `#${id}`);
    assert.ok(Math.abs(after - before) < 5, `#${id} stays in place across the switch: ${before} → ${after}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// Grids far from the screen are written when they come near it, or at print
// (web/src/components/nearby.js); until then they keep what they showed. The other browser
// tests turn this off (eagerFigures) to read any grid right after an edit.
test('a grid far below the screen is written when it comes near it, and before printing', async () => {
  const open = async (eager) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    if (eager) await page.addInitScript(eagerFigures);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}?embed=why-qkv`);
    await page.waitForSelector('#why-qkv [data-grid] td .v');
    return { page, errors };
  };
  const setT = (page, v) => page.$eval('#why-qkv [data-control="T"]', (el, t) => {
    el.value = String(t);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  // the last grid of the chapter, more than one and a half screens below its top
  const lazy = await open(false), eager = await open(true);
  const name = await lazy.page.$$eval('#why-qkv [data-grid]', (gs) => gs.filter((g) => g.querySelector('td .v')
    && g.getBoundingClientRect().top > 1.6 * innerHeight).at(-1)?.dataset.grid);
  assert.ok(name, 'the chapter has a grid far below the screen');
  const read = (page) => page.$$eval(`[data-grid="${name}"] td .v`, (ns) => ns.map((n) => n.textContent).join(' '));
  await frames(lazy.page);
  const before = await read(lazy.page);
  for (const [T, flush] of [[3, (p) => p.$eval(`[data-grid="${name}"]`, (g) => g.scrollIntoView())],
    [5, (p) => p.evaluate(() => dispatchEvent(new Event('beforeprint')))]]) {
    const shown = await read(lazy.page);
    await setT(lazy.page, T);
    await setT(eager.page, T);
    await frames(lazy.page);
    await frames(eager.page);
    const want = await read(eager.page);
    assert.notEqual(want, shown, `T = ${T} changes ${name}`);
    assert.equal(await read(lazy.page), shown, `${name}, far from the screen, is not written yet`);
    await flush(lazy.page);
    await lazy.page.waitForFunction(([n, w]) => [...document.querySelectorAll(`[data-grid="${n}"] td .v`)]
      .map((v) => v.textContent).join(' ') === w, [name, want]);
    await lazy.page.evaluate(() => scrollTo(0, 0));
    await frames(lazy.page);
  }
  assert.notEqual(await read(lazy.page), before);
  assert.deepEqual([...lazy.errors, ...eager.errors], []);
  await lazy.page.close();
  await eager.page.close();
});

// A chapter marks rows of its grids on every edit (highlight, select): a mark on a grid far
// from the screen waits with its numbers, so the edit writes no far grid, and both appear
// together when the grid comes near (matrix-grid.js; no-weights marks the focus token's row
// of Z, at the bottom of the chapter).
test('a marked grid far below the screen is written with its mark when it comes near', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}?embed=no-weights`);
  await page.waitForSelector('[data-grid="nw-Z"] td .v');
  await frames(page);
  assert.ok(await page.$eval('[data-grid="nw-Z"]', (g) => g.getBoundingClientRect().top > 1.6 * innerHeight), 'Z is far below the screen');
  const read = () => page.$$eval('[data-grid="nw-Z"] tbody tr', (rows) => rows.map((r) => [r.querySelector('td.hl') ? 'hl' : '',
    ...[...r.querySelectorAll('td .v')].map((v) => v.textContent)].join(' ')));
  const before = await read();
  assert.match(before[1], /^hl /, 'the focus token (t2) is marked');
  // the focus moves to t3 and an input number changes: Z's numbers and mark are both new
  await page.check('[data-choice="nw-focus"] input[value="2"]');
  await page.$eval('[data-grid="nw-X"] td input', (n) => {
    n.value = String(Number(n.value) + 1);
    n.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await frames(page);
  assert.deepEqual(await read(), before, 'far from the screen, Z keeps its numbers and its mark');
  await page.$eval('[data-grid="nw-Z"]', (g) => g.scrollIntoView());
  await page.waitForFunction(() => document.querySelector('[data-grid="nw-Z"] tbody tr:nth-child(3) td.hl'), null);
  const after = await read();
  assert.notDeepEqual(after.map((r) => r.replace(/^hl /, '')), before.map((r) => r.replace(/^hl /, '')), 'Z has its new numbers');
  assert.deepEqual(after.map((r) => r.startsWith('hl')), before.map((_, i) => i === 2), 'and only t3 marked');
  assert.deepEqual(errors, []);
  await page.close();
});

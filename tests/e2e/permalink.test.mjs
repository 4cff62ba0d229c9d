// The page's state in its URL: edit, copy the link, open it, same numbers; corrupt links
// fall back to the defaults with a notice; the iframe embed; the embed code the page
// offers works in a host page; exercises made on the page travel in the link.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { toggleLang, harness, openIsolated, pageReady, cells, widgetsReady, widgetCells, shots, frames, tempDir } from './harness.mjs';

const gen = await tempDir('attn-permalink-');
const env = await harness({ mounts: { '/generated/': gen } });
const { server, browser } = env;

const Qcell = (i, j) => `[data-grid="input-Q"] tbody tr:nth-child(${i}) td:nth-of-type(${j}) input`;
const Kcell = (i, j) => `[data-grid="input-K"] tbody tr:nth-child(${i}) td:nth-of-type(${j}) input`;
const tab = (step) => `[data-stepper="core-attention"] [role="tab"][data-step="${step}"]`;
const selectedStep = (page) => page.getAttribute('[data-stepper="core-attention"] [role="tab"][aria-selected="true"]', 'data-step');
const snapshot = async (page) => {
  const out = {};
  for (const g of ['S', 'scaled', 'masked', 'P', 'O', 'H'])
    out[g] = await Promise.all([1, 2, 3].map((r) => cells(page, g, r)));
  return out;
};

test('permalink round trip: edited matrices, mask, head, step and language come back exactly', async () => {
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}#core-attention`, { permissions: ['clipboard-read', 'clipboard-write'] });
  await pageReady(page);
  await page.fill(Qcell(3, 4), '5');
  await page.fill(Kcell(1, 1), '-2.25');
  await page.uncheck('[data-control="causal"]');
  await page.check('[data-control="head-2"]');
  await page.click(tab('softmax'));
  await toggleLang(page);
  const before = await snapshot(page);
  await page.click('#copy-link');
  const link = await page.inputValue('#share-link');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
  assert.match(await page.textContent('#share-status'), /copied/i);
  assert.ok(link.length < 160, `link is short: ${link}`);
  assert.match(link, /lang=en/);
  assert.match(link, /core-attention=/);
  assert.match(link, /#core-attention$/);
  assert.equal(page.url(), link, 'the address bar holds the same link');
  // the embed codes the panel offers
  const snippet = await page.inputValue('#share-widget');
  assert.match(snippet, /<attention-explorer chapter="core-attention" lang="en" step="softmax" state="[^"]+"><\/attention-explorer>/);
  assert.match(await page.inputValue('#share-iframe'), /<iframe src="[^"]*\?embed=core-attention&lang=en&core-attention=/);
  await close();

  const again = await openIsolated(browser, link);
  await pageReady(again.page);
  assert.equal(await again.page.inputValue(Qcell(3, 4)), '5');
  assert.equal(await again.page.inputValue(Kcell(1, 1)), '-2.25');
  assert.equal(await again.page.isChecked('[data-control="causal"]'), false);
  assert.equal(await again.page.isChecked('[data-control="head-2"]'), true);
  assert.equal(await selectedStep(again.page), 'softmax');
  assert.equal(await again.page.getAttribute('html', 'lang'), 'en');
  assert.deepEqual(await snapshot(again.page), before);
  assert.equal(await again.page.isHidden('#notice'), true);
  assert.deepEqual(again.errors, []);
  await again.close();

  // the widget code from the panel shows the same numbers in a host page
  await writeFile(join(gen, 'snippet.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>snippet</title></head><body>${snippet}</body></html>`);
  const host = await openIsolated(browser, `${server.url}generated/snippet.html`);
  await widgetsReady(host.page);
  await host.page.check('attention-explorer [data-control="head-2"]');
  for (const g of ['S', 'P', 'O']) for (const r of [1, 2, 3])
    assert.deepEqual(await widgetCells(host.page, 'attention-explorer', g, r), before[g][r - 1], `${g} row ${r}`);
  assert.deepEqual(host.errors, []);
  await host.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
});

// The Copy-link panel (a fresh try): its widget code had no lang after a switch to Korean, so
// pasted into an English page the widget came out in English; its iframe code had no lang in
// Korean either.
test('Copy-link panel: the widget and iframe codes carry the page\'s language (ko, en)', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}?lang=en#core-attention`, { permissions: ['clipboard-read', 'clipboard-write'] });
  await pageReady(page);
  await toggleLang(page); // English -> Korean
  await page.click('#copy-link');
  await page.waitForSelector('#share-panel:not([hidden])');
  assert.match(await page.inputValue('#share-widget'), /<attention-explorer chapter="core-attention" lang="ko"[ >]/);
  assert.match(await page.inputValue('#share-iframe'), /<iframe src="[^"]*\?embed=core-attention&lang=ko"/);
  // the panel follows a language switch while it is open
  await toggleLang(page);
  await page.waitForFunction(() => /lang="en"/.test(document.querySelector('#share-widget').value));
  assert.match(await page.inputValue('#share-widget'), /<attention-explorer chapter="core-attention" lang="en"[ >]/);
  assert.match(await page.inputValue('#share-iframe'), /\?embed=core-attention&lang=en"/);
  assert.deepEqual(errors, []);
  await close();
});

// After a cell hidden and shown again the panel still said to copy the link again, though the
// link was back to the one copied (a fresh try).
test('Copy-link panel: "copy it again" only while the link differs from the one copied', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}?lang=en#core-attention`, { permissions: ['clipboard-read', 'clipboard-write'] });
  await pageReady(page);
  // an exercise: copy, hide a cell (copy again), show it again (the copied link: no "again")
  const P = (i, j) => `[data-grid="P"] tbody tr:nth-child(${i}) td:nth-of-type(${j})`;
  await page.click(tab('softmax'));
  await page.click('#exercise-toggle');
  await page.click('#copy-link');
  await page.waitForSelector('#share-panel:not([hidden])');
  const copied = await page.inputValue('#share-link');
  assert.match(await page.textContent('#share-status'), /^Link copied\.$/);
  await page.click(P(2, 2));
  await page.waitForFunction((c) => document.querySelector('#share-link').value !== c, copied);
  assert.match(await page.inputValue('#share-link'), /P\.2\.2/);
  assert.match(await page.textContent('#share-status'), /copy it again/);
  await page.click(P(2, 2));
  await page.waitForFunction((c) => document.querySelector('#share-link').value === c, copied);
  assert.equal(await page.textContent('#share-status'), 'Link copied.');
  // and an edit of the numbers, undone, the same
  await page.click('#exercise-toggle');
  await page.fill(Qcell(3, 4), '5');
  await page.waitForFunction(() => /copy it again/.test(document.querySelector('#share-status').textContent));
  await page.fill(Qcell(3, 4), '2');
  await page.waitForFunction((c) => document.querySelector('#share-link').value === c, copied);
  assert.equal(await page.textContent('#share-status'), 'Link copied.');
  assert.deepEqual(errors, []);
  await close();
});

test('corrupt or hand-edited links: a visible notice, the defaults, never a blank page', async () => {
  const cases = [
    // parses, but the chapter cannot compute it: the defaults, and why
    ['?core-attention=Q:2x2,1,2,3,4', [/Q: 2×2 행렬인데 이 장의 행렬은 3×8입니다/]],
    // every entry wrong in its own way, and settings the page does not know
    ['?core-attention=Q:3x8,1,2;causal:banana;nonsense;K:~999_1&lang=xx&foo=bar',
      [/숫자 24개가 필요/, /참\/거짓 값이어야/, /설정\(이름:값\)이 아닙니다/, /3×8 행렬의 항목이 아닙니다/, /xx/, /foo/]],
    // the same in English when the link asks for it: every item in the page's language
    ['?core-attention=Q:3x8,1,2;causal:banana;nonsense;K:~999_1&lang=en',
      [/needs 24 numbers/, /expected a boolean/, /not a setting/, /not an entry/]],
    ['?core-attention=%E0%A4%A', [/core-attention.*(cannot be read|읽을 수 없습니다)/]],
    ['?core-attention=V:3x8' + ',1e30'.repeat(24) + ';!step:nope;!hide:@Z.1.1&lang=en', [/outside the allowed range/, /no step "nope"/, /no figure "Z"/]],
    ['?embed=nope', [/nope/]],
  ];
  const { page, errors, close } = await openIsolated(browser, server.url);
  await pageReady(page); // (leaving a page while its core still loads logs a fetch error)
  for (const [query, res] of cases) {
    await page.goto(`${server.url}${query}#core-attention`); // the chapter read below (chapters mount near the screen)
    await pageReady(page);
    assert.equal(await page.isVisible('#notice'), true, query);
    // in the window, which the link put at its chapter (the notice's own place, at the top of
    // the page, is far above: it floats at the bottom of the window until dismissed)
    const [top, bottom, height] = await page.$eval('#notice', (n) => [n.getBoundingClientRect().top, n.getBoundingClientRect().bottom, innerHeight]);
    assert.ok(top >= 0 && bottom <= height, `${query}: the notice is in the window (${top}–${bottom} of ${height} px)`);
    const chapterTop = await page.$eval('#core-attention', (n) => n.getBoundingClientRect().top);
    assert.ok(Math.abs(chapterTop) < 80, `${query}: the link's chapter is at the top of the window (${chapterTop} px)`);
    const notice = await page.textContent('#notice');
    for (const re of res) assert.match(notice, re, query);
    assert.ok(await page.$$eval('section.chapter', (s) => s.length) >= 1, `${query}: a chapter is shown`);
    assert.deepEqual(await cells(page, 'P', 3), ['0.114', '0.042', '0.844'], `${query}: defaults`);
    assert.equal(await page.inputValue(Qcell(3, 4)), '2', query);
    // the notice can be dismissed; the address bar no longer holds what was dropped
    await page.click('#notice button');
    assert.equal(await page.isHidden('#notice'), true);
    await page.waitForFunction(() => !/1e30|banana|nonsense|%E0|nope|Z\.1\.1|2x2/.test(location.href));
  }
  assert.deepEqual(errors, []);
  await close();
});

// The notice sits before every chapter in the page, the link's chapter far below it (issue
// 26, a newcomer's try): the first Tab of a reader who has not moved the focus, or
// Alt+Shift+N from anywhere, reaches its Dismiss button; the notice says so; Escape
// dismisses it and the focus goes back to where it was (else to the chapter in view).
test('a notice floating over the link\'s chapter: one keystroke to its Dismiss, Escape, the focus back (ko, en)', async () => {
  for (const lang of ['ko', 'en']) {
    const url = `${server.url}?${lang === 'en' ? 'lang=en&' : ''}core-attention=Q:3x8,1#core-attention`;
    const { page, errors, close } = await openIsolated(browser, url);
    await pageReady(page);
    await page.waitForSelector('#notice.floating');
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      return a === document.body ? 'body' : a.closest('#notice') ? 'notice' : a.matches('h2') ? `h2 ${a.closest('section').id}` : a.closest('[data-grid]')?.dataset.grid ?? a.tagName;
    });
    assert.equal(await focused(), 'body', `${lang}: nothing takes the focus on load`);
    assert.match(await page.textContent('#notice .notice-keys'), /Alt\+Shift\+N/);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'notice', `${lang}: the first Tab goes to the floating notice`);
    assert.equal(await page.evaluate(() => document.activeElement.textContent), lang === 'en' ? 'Dismiss' : '닫기');
    // (where the chapter sits, read after a painted frame: a chapter above that mounts moves
    // it, and the reading position puts it back before that frame's paint, not before a read)
    const chapterTop = async () => {
      await frames(page);
      return page.$eval('#core-attention', (n) => n.getBoundingClientRect().top);
    };
    const top = await chapterTop();
    // Tab on: back into the chapter (not to the top of the page, where the notice sits)
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'h2 core-attention', `${lang}: Tab from the notice goes back to the chapter`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('#core-attention')), true, `${lang}: and on through it`);
    // Shift+Tab from there (the chapter's first tab stop): up to the notice above it on the
    // screen, not to the chapter before, scrolled out of view
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'notice', `${lang}: Shift+Tab from the chapter's first stop goes to the floating notice`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('#core-attention')), true, `${lang}: and Tab back into the chapter`);
    await page.keyboard.press('Alt+Shift+KeyN');
    assert.equal(await focused(), 'notice');
    await page.keyboard.press('Escape');
    assert.equal(await page.isHidden('#notice'), true, `${lang}: Escape dismisses it`);
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('#core-attention')), true, `${lang}: the focus is back in the chapter`);
    assert.ok(Math.abs(await chapterTop() - top) < 2, 'nothing scrolled');
    await close();

    // from a cell the reader is editing: Alt+Shift+N, Enter on Dismiss, back to the cell
    const again = await openIsolated(browser, url);
    await pageReady(again.page);
    await again.page.waitForSelector('#notice.floating');
    await again.page.focus(Qcell(3, 4));
    await again.page.keyboard.press('Alt+Shift+KeyN');
    assert.equal(await again.page.evaluate(() => !!document.activeElement.closest('#notice')), true, `${lang}: Alt+Shift+N reaches the notice`);
    await again.page.keyboard.press('Enter');
    assert.equal(await again.page.isHidden('#notice'), true);
    assert.equal(await again.page.evaluate((sel) => document.activeElement === document.querySelector(sel), Qcell(3, 4)), true, `${lang}: the focus is back in the cell`);
    assert.deepEqual([...errors, ...again.errors], []);
    await again.close();
    // Escape in a cell the reader edits puts its value back and leaves the notice; the next
    // Escape, with nothing left to undo, dismisses the floating notice (the focus stays); so
    // does Escape elsewhere in the chapter (a checkbox)
    for (const where of ['cell', 'checkbox']) {
      const third = await openIsolated(browser, url);
      await pageReady(third.page);
      await third.page.waitForSelector('#notice.floating');
      if (where === 'cell') {
        await third.page.focus(Qcell(1, 1));
        await third.page.keyboard.type('7');
        await third.page.keyboard.press('Escape');
        assert.equal(await third.page.isHidden('#notice'), false, `${lang}: Escape that undoes an edit is the field's`);
      } else await third.page.focus('#core-attention [data-control="causal"]');
      await third.page.keyboard.press('Escape');
      assert.equal(await third.page.isHidden('#notice'), true, `${lang}: Escape with nothing to undo (${where}) dismisses the floating notice`);
      if (where === 'checkbox') assert.equal(await third.page.evaluate(() => document.activeElement.dataset.control), 'causal', 'the focus stays');
      else assert.equal(await third.page.evaluate((sel) => document.activeElement === document.querySelector(sel), Qcell(1, 1)), true, 'the focus stays');
      assert.deepEqual(third.errors, []);
      await third.close();
    }
  }
});

test('exercise cells past a figure\'s edge: named in the notice with its shape, left out, nothing throws', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}?lang=en&core-attention=!step:softmax;!hide:@P.9.9,P.3.1,P.1.4,Z.1.1#core-attention`);
  await pageReady(page);
  const notice = await page.textContent('#notice');
  assert.match(notice, /no cell P\.9\.9 to hide: P is 3 × 3/, notice);
  assert.match(notice, /no cell P\.1\.4 to hide: P is 3 × 3/, notice);
  assert.match(notice, /no figure "Z"/, notice);
  const P = (i, j) => `[data-grid="P"] tbody tr:nth-child(${i}) td:nth-of-type(${j})`;
  assert.equal(await page.$$eval('[data-grid="P"] input.answer', (n) => n.filter((x) => !x.hidden).length), 1);
  await page.fill(`${P(3, 1)} input.answer`, '0.114');
  await page.click('[data-grid="P"] [data-act="check"]');
  assert.match(await page.textContent('[data-grid="P"] .exercise-result'), /1 of 1 correct/);
  await page.click('[data-grid="P"] [data-act="reveal"]');
  assert.match(await page.textContent('[data-grid="P"] .exercise-result'), /1 of 1 correct/);
  await frames(page); // the leak check runs a frame later
  // the link keeps only the cell that exists: the whole state, not a part of it
  await page.waitForFunction(() => new URLSearchParams(location.search).get('core-attention') === '!step:softmax;!hide:@P.3.1');
  assert.deepEqual(errors, []);
  await close();
});

test('iframe embed: one chapter, sized to the frame, with a link to the full page', async () => {
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}fixtures/iframe.html`, {
    width: 420, height: 700,
    init: () => window.addEventListener('message', (e) => (window.__heights ??= []).push(e.data)),
  });
  const frame = page.frame({ url: /embed=core-attention/ });
  await frame.waitForSelector('body[data-ready="true"]');
  assert.equal(await frame.$$eval('section.chapter', (s) => s.length), 1);
  assert.equal(await frame.isHidden('#toc'), true);
  assert.equal(await frame.isHidden('.site-footer'), true);
  assert.deepEqual(await frame.$$eval('[data-grid="P"] tbody tr:nth-child(3) td .v', (ns) => ns.map((n) => n.textContent)), ['0.114', '0.042', '0.844']);
  assert.match(await frame.textContent('#core-attention h2'), /Core attention/);
  const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the chapter is ${overflow}px wider than its 360px frame`);
  const full = await frame.getAttribute('#open-full a', 'href');
  assert.doesNotMatch(full, /embed=/);
  assert.match(full, /lang=en.*#core-attention$/);
  await page.waitForFunction(() => (window.__heights ?? []).some((m) => m?.type === 'attention-explorer:height' && m.height > 500));
  // editing inside the frame keeps the frame's own URL as a permalink
  await frame.fill(Qcell(3, 4), '4');
  await frame.waitForFunction(() => new URLSearchParams(location.search).get('core-attention') === 'Q:~19_4');
  assert.match(frame.url(), /embed=core-attention/);
  await page.screenshot({ path: join(shots, 'iframe-embed.png') });
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

test('exercise: a teacher hides cells, the link carries them, the learner checks answers against the core', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}?lang=en#core-attention`);
  await pageReady(page);
  await page.click(tab('softmax'));
  await page.click('#exercise-toggle');
  assert.equal(await page.isVisible('#exercise-help'), true);
  const P = (i, j) => `[data-grid="P"] tbody tr:nth-child(${i}) td:nth-of-type(${j})`;
  await page.click(P(3, 1));
  await page.click(P(3, 2));
  await page.click(P(2, 2));
  await page.click(P(2, 2)); // clicked twice: shown again
  assert.equal(await page.$$eval('[data-grid="P"] td.hidden-cell', (n) => n.length), 2);
  // The teacher is told where the hidden values still show (step ⑤ repeats P; H holds O₁).
  await page.waitForSelector('[data-grid="P"] .exercise-leak:not([hidden])');
  const leak = await page.textContent('[data-grid="P"] .exercise-leak');
  assert.match(leak, /Still visible elsewhere in this chapter: .*0\.114 in .*0\.042 in /, leak);
  // each place names its step: the copy of P is the one in step ⑤, not this figure
  assert.match(leak, /“weights P \(3 × 3\)[^”]*” in step “⑤ O = PV”/, leak);
  await page.click('#exercise-toggle');
  // The whole hide list, exactly: the page writes the URL a moment after the last change,
  // and a URL still listing P.2.2 (before the second click) also contains "P.3.1,P.3.2".
  await page.waitForFunction(() => {
    const m = decodeURIComponent(location.search).match(/!hide:@([^!&;]*)/);
    return m !== null && m[1] === 'P.3.1,P.3.2';
  });
  const link = page.url();
  await close();

  const learner = await openIsolated(browser, link);
  await pageReady(learner.page);
  const lp = learner.page;
  assert.equal(await selectedStep(lp), 'softmax');
  // the hidden numbers are not on the screen, nor in what the tools export
  assert.equal(await lp.isVisible(`${P(3, 1)} .v`), false);
  assert.equal(await lp.$$eval('[data-grid="P"] input.answer', (n) => n.filter((x) => !x.hidden).length), 2);
  await lp.click('[data-grid="P"] .grid-tools summary');
  await lp.click('[data-grid="P"] [data-act="latex"]');
  assert.match(await lp.inputValue('[data-grid="P"] .grid-io textarea'), /\\square & \\square & 0\.844/);
  // one right (within the tolerance of the core's 0.1142…), one wrong
  await lp.fill(`${P(3, 1)} input.answer`, '0.114');
  await lp.fill(`${P(3, 2)} input.answer`, '0.5');
  await lp.click('[data-grid="P"] [data-act="check"]');
  assert.match(await lp.textContent('[data-grid="P"] .exercise-result'), /1 of 2 correct/);
  assert.equal(await lp.getAttribute(`${P(3, 2)} input.answer`, 'aria-invalid'), 'true');
  assert.ok(await lp.$eval(P(3, 1), (td) => td.classList.contains('right')));
  // Judged relative to the value's size (with half a unit of the last digit shown as the
  // floor): 0.052 and 0.04 are not 0.0417…; 0.042, as shown, is.
  for (const wrong of ['0.052', '0.04']) {
    await lp.fill(`${P(3, 2)} input.answer`, wrong);
    await lp.click('[data-grid="P"] [data-act="check"]');
    assert.match(await lp.textContent('[data-grid="P"] .exercise-result'), /1 of 2 correct/, wrong);
  }
  await lp.fill(`${P(3, 2)} input.answer`, '0.042');
  await lp.click('[data-grid="P"] [data-act="check"]');
  assert.match(await lp.textContent('[data-grid="P"] .exercise-result'), /2 of 2 correct/);
  // The learner is not told where else the hidden numbers show.
  assert.equal(await lp.isVisible('[data-grid="P"] .exercise-leak'), false);
  // the answers are checked against the current numbers: change an input, check again
  await lp.fill(Qcell(3, 4), '5');
  await lp.click('[data-grid="P"] [data-act="check"]');
  assert.match(await lp.textContent('[data-grid="P"] .exercise-result'), /0 of 2 correct/);
  await lp.click('[data-grid="P"] [data-act="reveal"]');
  assert.match(await lp.textContent('[data-grid="P"] .exercise-result'), /2 of 2 correct/);
  // The viewport only: a full-page screenshot of the whole page takes ~10 s.
  await lp.$eval('[data-grid="P"]', (n) => n.scrollIntoView({ block: 'center' }));
  await lp.screenshot({ path: join(shots, 'exercise-desktop.png') });
  assert.deepEqual(learner.errors, []);
  assert.deepEqual(errors, []);
  await learner.close();
});

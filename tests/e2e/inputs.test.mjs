// What a learner types, key by key, into a grid cell and into a number field, and what the
// page then does and says (one rule for every number input, components/typed-number.js,
// which matrix-grid.js and kit.js number() use): a complete number in range is used at
// once; anything else is not used, the computation goes back to the value from before the
// edit, the message says exactly that, and leaving the input puts that value back with the
// message still explaining it.
// Also: a stored input is shown as the shortest text of its float32 (after a paste, after
// a permalink reload), and no cell cuts the number it holds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, pasteInto, openPage, afterTimers } from './harness.mjs';

const { server, browser } = await harness();

const S11 = '[data-grid="softmax-S"] tbody tr:nth-child(1) td:nth-of-type(1) input';
const sError = '[data-grid="softmax-S"] .grid-error';
const rowP = (page) => page.$$eval('[data-grid="softmax-P"] tbody tr:nth-child(1) td .v', (ns) => ns.map((n) => n.textContent).join(' '));
const linkState = (page) => new URL(page.url()).searchParams.get('softmax');
const message = (page, sel) => page.$eval(sel, (n) => (n.hidden || !n.offsetParent ? null : n.textContent));

async function typeInto(page, selector, keys) {
  await page.click(selector);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(keys);
}

// An input method in full-width mode (Korean, Japanese) types ２ and －: the same number.
test('grid cells: full-width digits and minus are the number they show', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=softmax&lang=ko#softmax`);
  await typeInto(page, S11, '-3.5');
  await page.keyboard.press('Tab');
  const ascii = await rowP(page);
  await typeInto(page, S11, '１');
  await page.keyboard.press('Tab');
  assert.notEqual(await rowP(page), ascii);
  await typeInto(page, S11, '－３．５');
  assert.equal(await page.getAttribute(S11, 'aria-invalid'), null, 'used as it is typed');
  await page.keyboard.press('Tab');
  assert.equal(await rowP(page), ascii);
  assert.equal(await page.inputValue(S11), '-3.5', 'shown in ASCII once left');
  assert.equal(await message(page, sError), null);
  assert.deepEqual(errors, []);
  await page.close();
});

// Every script's decimal digits (Unicode Nd) are the number they show, in a cell and in a
// number field alike: Arabic-Indic ١٢, Devanagari २, with the Arabic decimal separator ٫.
test('cells and number fields: Arabic-Indic and Devanagari digits are the number they show', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=softmax&lang=en#softmax`);
  await typeInto(page, S11, '-3.5');
  await page.keyboard.press('Tab');
  const ascii = await rowP(page);
  await typeInto(page, S11, '2');
  await page.keyboard.press('Tab');
  await typeInto(page, S11, '-٣٫٥');
  assert.equal(await page.getAttribute(S11, 'aria-invalid'), null, 'used as it is typed');
  assert.equal(await message(page, sError), null);
  await page.keyboard.press('Tab');
  assert.equal(await rowP(page), ascii);
  assert.equal(await page.inputValue(S11), '-3.5');
  await page.goto(`${server.url}?embed=cost&lang=en#cost`);
  const field = '#cost [data-control="n"]';
  await typeInto(page, field, '٢٠٤٨');
  assert.equal(await page.getAttribute(field, 'aria-invalid'), null);
  assert.match(await page.textContent('#cost-complexity-caption'), /n = 2,048/);
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue(field), '2048');
  await typeInto(page, field, '५१२');
  assert.match(await page.textContent('#cost-complexity-caption'), /n = 512/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('grid cells, typed key by key: what is not a number is not used, and the message says what is', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=softmax&lang=en#softmax`);
  const P0 = await rowP(page);
  // Each of these passes through a valid number on the way ("1e4", "-1e4", "1", "1.5",
  // ""), which is used while it is on screen; the final text is not a number in range.
  const cases = [
    ['1e40', /“1e40”: outside the range −1,000,000 to 1,000,000, so it is not used\. The computation uses 2,/],
    ['-1e40', /“-1e40”: outside the range/],
    ['1,5', /“1,5”: decimals are written with a point, as in 1\.5, so it is not used\. The computation uses 2,/],
    // grouped as the page prints counts, or a decimal comma: both readings said
    ['1,024', /“1,024”: a comma is not read here: write 1024 for the whole number, or 1\.024 for a decimal, so it is not used\. The computation uses 2,/],
    ['1.5.2', /“1\.5\.2”: not a number, so it is not used\. The computation uses 2,/],
    ['-', /“-”: not a complete number yet, so it is not used\. The computation uses 2,/],
    // float32 would store it as 0: refused like 1e40 on the large side ("1e-5" is used on the way)
    ['1e-50', /“1e-50”: too close to 0 for float32, which would store it as 0, so it is not used\. The computation uses 2,/],
  ];
  for (const [keys, said] of cases) {
    await typeInto(page, S11, keys);
    await page.waitForFunction((sel) => !document.querySelector(sel).hidden, sError);
    assert.equal(await page.getAttribute(S11, 'aria-invalid'), 'true', keys);
    assert.match(await message(page, sError), said, keys);
    assert.doesNotMatch(await message(page, sError), /too large|10000|keeps using/, keys);
    // What the message says is what is computed: the value from before the edit.
    assert.equal(await rowP(page), P0, `P for ${keys}`);
    await afterTimers(page, 250); // the address bar follows edits after 150 ms
    assert.equal(linkState(page), null, `the link for ${keys} records nothing new`);
    await page.keyboard.press('Tab');
    assert.equal(await page.inputValue(S11), '2', `the cell after leaving ${keys}`);
    assert.equal(await page.getAttribute(S11, 'aria-invalid'), null);
    assert.match(await message(page, sError), new RegExp(`“${keys.replace(/[.]/g, '\\.')}” was not used \\(.+\\)\\. The cell is back to 2, its value before you edited it\\.`), keys);
  }
  // Stopping on a half-typed number says nothing stale: the message about the empty cell
  // (after Backspace) is gone the moment "-" is typed.
  await page.click(S11);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await afterTimers(page, 900); // (the message comes after an 800 ms pause)
  assert.match(await message(page, sError), /the cell is empty/);
  await page.keyboard.type('-');
  assert.equal(await message(page, sError), null, 'no message about the empty cell once "-" is typed');
  assert.doesNotMatch(await page.textContent(sError), /empty|“”/, 'nor any stale text left in the hidden message');
  await afterTimers(page, 900); // (the message comes after an 800 ms pause)
  assert.match(await message(page, sError), /^“-”: not a complete number yet/, 'stopping on "-" says so');
  // A number in range is used at once, and clears the message.
  await page.keyboard.type('3');
  assert.equal(await page.getAttribute(S11, 'aria-invalid'), null);
  assert.equal(await message(page, sError), null);
  assert.notEqual(await rowP(page), P0);
  // (the address bar follows 150 ms after the last edit; on a loaded machine, later)
  await page.waitForFunction(() => /-3/.test(new URL(location.href).searchParams.get('softmax') ?? ''), null);
  assert.match(linkState(page), /-3/);
  // The same in Korean, with the value quoted.
  await page.click('#lang-toggle');
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  await typeInto(page, S11, '1e9');
  assert.match(await message(page, sError), /“1e9”: −1,000,000에서 1,000,000 사이를 벗어납니다\. .*: −3\./);
  await typeInto(page, S11, '1e-50');
  assert.match(await message(page, sError), /“1e-50”: 0에 너무 가까워 float32로는 0으로 저장됩니다\. .*: −3\./);
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue(S11), '-3', 'the cell after leaving 1e-50');
  assert.match(await message(page, sError), /“1e-50”은\(는\) 쓰지 않았습니다\(0에 너무 가까워/);
  // Clear, wait, then "-": the message about the empty cell goes at once, in Korean too.
  await page.click(S11);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await afterTimers(page, 900); // (the message comes after an 800 ms pause)
  assert.match(await message(page, sError), /칸이 비어 있습니다/);
  await page.keyboard.type('-');
  assert.equal(await message(page, sError), null);
  assert.doesNotMatch(await page.textContent(sError), /비어|“”/);
  await afterTimers(page, 900); // (the message comes after an 800 ms pause)
  assert.match(await message(page, sError), /^“-”: 아직 완성된 숫자가 아닙니다/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('number fields, typed key by key: the same rule and the same kind of message', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en#cost`);
  const field = '#cost [data-control="n"]';
  const error = '#cost label:has([data-control="n"]) .number-error';
  const caption = () => page.textContent('#cost-complexity-caption');
  const before = await caption();
  assert.match(before, /n = 1,024/);
  // "2000000" passes through 200000 (a valid n) on the way; 2,000,000 is past the maximum.
  await typeInto(page, field, '2000000');
  assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true');
  assert.match(await message(page, error), /“2000000”: not a whole number from 1 to 1,048,576, so it is not used\. The computation uses 1,024,/);
  assert.equal(await caption(), before, 'the table is computed for n = 1,024, as the message says');
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue(field), '1024');
  assert.match(await message(page, error), /“2000000” was not used \(.+\)\. The field is back to 1,024/);
  // A whole number the chapter's own check rejects: its reason, the same sentence around it.
  await typeInto(page, '#cost [data-control="heads"]', '3');
  assert.match(await message(page, '#cost label:has([data-control="heads"]) .number-error'),
    /“3”: h = 3 does not divide d_model = 512 \(.+\), so it is not used\. The computation uses 8,/);
  await typeInto(page, field, '1.5');
  assert.match(await message(page, error), /“1\.5”: not a whole number/);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  assert.equal(await message(page, error), null, 'a valid "1" clears the message');
  assert.match(await caption(), /n = 1[^,0-9]/);
  // n as the page prints it, "2,048", is n (a fresh try was told "not a whole number")
  await typeInto(page, field, '2,048');
  assert.equal(await message(page, error), null);
  assert.equal(await page.getAttribute(field, 'aria-invalid'), null);
  assert.match(await caption(), /n = 2,048/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Escape in a cell or a number field: the value in use (or, after a used text, the one from before) comes back at once, no message', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=softmax&lang=en#softmax`);
  const P0 = await rowP(page);
  const focused = (sel) => page.$eval(sel, (n) => document.activeElement === n);
  // emptied, and the message about it shown after the pause
  await typeInto(page, S11, '');
  await afterTimers(page, 900); // (the message comes after an 800 ms pause)
  assert.match(await message(page, sError), /the cell is empty/);
  await page.keyboard.press('Escape');
  assert.equal(await page.inputValue(S11), '2');
  assert.equal(await message(page, sError), null);
  assert.equal(await page.getAttribute(S11, 'aria-invalid'), null);
  assert.ok(await focused(S11), 'the cell keeps the focus');
  assert.equal(await rowP(page), P0);
  // not a number, and Escape before the pause is over: no late message either
  await typeInto(page, S11, '1,5');
  await page.keyboard.press('Escape');
  await typeInto(page, S11, '-');
  await page.keyboard.press('Escape');
  await afterTimers(page, 900); // (the message comes after an 800 ms pause)
  assert.equal(await page.inputValue(S11), '2');
  assert.equal(await message(page, sError), null, 'no message after the pause');
  // Escape selects the restored text, so the next key replaces it; a valid edit is undone
  // by Escape too (the value from when the cell was entered, used again), and leaving the
  // cell then says nothing
  await page.keyboard.type('3');
  assert.notEqual(await rowP(page), P0);
  await page.keyboard.press('Escape');
  assert.equal(await page.inputValue(S11), '2');
  assert.equal(await rowP(page), P0);
  await page.keyboard.press('Tab');
  assert.equal(await message(page, sError), null);
  // the kit's number fields: the same
  await page.goto(`${server.url}?embed=cost&lang=en#cost`);
  const field = '#cost [data-control="n"]';
  const error = '#cost label:has([data-control="n"]) .number-error';
  await typeInto(page, field, '2000000');
  assert.match(await message(page, error), /“2000000”/);
  await page.keyboard.press('Escape');
  assert.equal(await page.inputValue(field), '1024');
  assert.equal(await message(page, error), null);
  assert.equal(await page.getAttribute(field, 'aria-invalid'), null);
  assert.ok(await focused(field));
  // an empty field is marked only with its message: at once on Enter, or after a pause
  await typeInto(page, field, '');
  assert.equal(await page.getAttribute(field, 'aria-invalid'), null);
  await page.keyboard.press('Enter');
  assert.match(await message(page, error), /the field is empty/);
  assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true');
  await page.keyboard.press('Escape');
  await afterTimers(page, 900); // (the message comes after an 800 ms pause)
  assert.equal(await page.inputValue(field), '1024');
  assert.equal(await message(page, error), null);
  await page.keyboard.press('Tab');
  assert.equal(await message(page, error), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('stored inputs show the shortest text of their float32, after a paste and after a reload; no cell cuts its number', async () => {
  const long = '-1000000 123456.789 1000000 0.000001 1e-7 1.23456789 -0.5 3';
  const want = ['-1000000', '123456.79', '1000000', '0.000001', '1e-7', '1.2345679', '-0.5', '3'];
  for (const width of [1280, 390]) {
    const { page, errors } = await openPage(browser, `${server.url}?embed=core-attention&lang=en#core-attention`, { width, height: 844 });
    const row1 = () => page.$$eval('[data-grid="input-Q"] tbody tr:nth-child(1) input', (ns) => ns.map((n) => n.value));
    const clipped = () => page.$$eval('[data-grid] input', (ns) => ns.filter((n) => n.offsetParent && n.scrollWidth > n.clientWidth + 1).map((n) => n.value));
    await pasteInto(page, '[data-grid="input-Q"] tbody td input', long);
    await afterTimers(page, 300);
    assert.deepEqual(await row1(), want, `after a paste at ${width}px`);
    // Head 1's copy Q₁ (the first 4 columns, computed by the core) reads as the cells do, to
    // its 3 decimals: 123456.79 (not 123456.789, digits the float32 does not hold).
    const q1 = await page.$$eval('[data-grid="flow-Q1"] tbody tr:nth-child(1) td .v', (ns) => ns.map((n) => n.textContent));
    assert.deepEqual(q1, ['\u22121000000', '123456.79', '1000000', '0'], `Q₁ at ${width}px`);
    assert.deepEqual(await clipped(), [], `cells that cut their number at ${width}px`);
    // Typed values are shown as stored once the learner leaves the cell.
    await typeInto(page, '[data-grid="input-Q"] tbody tr:nth-child(2) td:nth-of-type(1) input', '0.30000001');
    await page.keyboard.press('Tab');
    assert.equal(await page.inputValue('[data-grid="input-Q"] tbody tr:nth-child(2) td:nth-of-type(1) input'), '0.3');
    await afterTimers(page, 250);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.deepEqual(await row1(), want, `after a reload at ${width}px`);
    assert.deepEqual(await clipped(), [], `cells that cut their number after the reload at ${width}px`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

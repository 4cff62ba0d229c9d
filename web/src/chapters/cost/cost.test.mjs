// The served page in headless Chromium: the "n² cost" chapter (seed 001).
import test from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harness, shots, openPage, afterTimers } from '../../../../tests/e2e/harness.mjs';

// The chapter alone (?embed=cost): the same chapter code and DOM, without the other chapters.
// The worker pool's source is served too (/pool-src/), to drive it directly in the browser.
const workersSrc = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'workers');
const { server, browser } = await harness({ mounts: { '/pool-src/': workersSrc } });

const figure = (page, key) => page.textContent(`#cost [data-figures="memory"] dd[data-figure="${key}"]`);
const cell = (page, row) => page.textContent(`#cost [data-table="complexity"] tr[data-row="${row}"] td:last-child`);
// Types into a kit.number field the way a learner does (select all, type, the input event fires).
async function setNumber(page, control, value) {
  const input = `#cost [data-control="${control}"]`;
  await page.fill(input, String(value));
}

test('memory calculator: the document\'s numbers, computed by the core; an edit changes them', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en`);
  assert.equal((await figure(page, 'entries')).trim(), '67,108,864');
  assert.equal((await figure(page, 'matrix')).trim(), '134 MB (128 MiB)');
  assert.equal((await figure(page, 'layer')).trim(), '1.61 GB (1.50 GiB)');
  assert.equal((await figure(page, 'total')).trim(), '19.3 GB (18.0 GiB)');
  // 6 tokens -> 36 scores in the lead.
  assert.match(await page.textContent('#cost .lead'), /6 tokens.*36 scores/);
  await setNumber(page, 'memN', 4096);
  assert.equal((await figure(page, 'entries')).trim(), '16,777,216');
  assert.equal((await figure(page, 'matrix')).trim(), '33.6 MB (32.0 MiB)');
  await setNumber(page, 'bytes', 4);
  assert.equal((await figure(page, 'matrix')).trim(), '67.1 MB (64.0 MiB)');
  // Bad input: marked invalid, explained, the last good value stays in use.
  await setNumber(page, 'layers', '1.5');
  assert.equal(await page.getAttribute('#cost [data-control="layers"]', 'aria-invalid'), 'true');
  const layersError = '#cost label:has([data-control="layers"]) .number-error';
  assert.match(await page.textContent(layersError), /whole number from 1 to 1,024/);
  assert.ok(await page.isVisible(layersError));
  assert.equal((await figure(page, 'layer')).trim(), '805 MB (768 MiB)');
  assert.equal((await figure(page, 'total')).trim(), '9.66 GB (9.00 GiB)'); // still 12 layers
  await setNumber(page, 'layers', 2);
  assert.equal(await page.isVisible(layersError), false);
  assert.equal((await figure(page, 'total')).trim(), '1.61 GB (1.50 GiB)');
  assert.deepEqual(errors, []);
  await page.close();
});

test('complexity table and crossover follow n, d_model and h; bad combinations show an error', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en`);
  assert.match(await cell(page, 'Stored'), /^1,048,576 entries per head/);
  assert.match(await cell(page, 'Path'), /^1 \(a recurrent layer: 1,023\)/);
  assert.match(await page.textContent('#cost [data-plot="crossover"]'), /n = d = 512/);
  const qk = await cell(page, 'QK');
  await setNumber(page, 'n', 2048);
  assert.notEqual(await cell(page, 'QK'), qk);
  assert.match(await cell(page, 'Path'), /2,047/);
  await setNumber(page, 'dModel', 256);
  assert.match(await page.textContent('#cost [data-plot="crossover"]'), /n = d = 256/);
  // 3 heads do not divide 256: said beside the field, the value is not taken, and the
  // rest of the chapter keeps computing (the memory calculator below still follows edits).
  const headsError = '#cost label:has([data-control="heads"]) .number-error';
  await setNumber(page, 'heads', 3);
  assert.ok(await page.isVisible(headsError));
  assert.match(await page.textContent(headsError), /“3”: h = 3 does not divide d_model = 256 .*so it is not used\. The computation uses 8,/);
  assert.equal(await page.isVisible('#cost .chapter-error'), false);
  assert.match(await page.textContent('#cost [data-plot="crossover"]'), /n = d = 256/);
  await setNumber(page, 'memN', 4096);
  assert.equal((await figure(page, 'entries')).trim(), '16,777,216');
  // d_model that 8 heads cannot split: the same, at the d_model field.
  await setNumber(page, 'dModel', 100);
  assert.match(await page.textContent('#cost label:has([data-control="dModel"]) .number-error'), /d_model = 100 is not a multiple of h = 8/);
  await setNumber(page, 'dModel', 256);
  await setNumber(page, 'heads', 4);
  assert.equal(await page.isVisible(headsError), false);
  // What was typed is quoted back, whatever it is.
  await setNumber(page, 'n', 'abc');
  assert.match(await page.textContent('#cost label:has([data-control="n"]) .number-error'), /“abc”/);
  assert.deepEqual(errors, []);
  await page.close();
});

// Every mark label of a plot against its drawn lines and the other labels, in the svg's own
// units: points every 0.5 px along each path, none inside a label's box; no two labels overlap.
const labelClashes = (page, plot) => page.$eval(`#cost [data-plot="${plot}"] svg`, (svg) => {
  const boxes = [...svg.querySelectorAll('.mark-label')].map((t) => ({ text: t.textContent, b: t.getBBox() }));
  const out = [];
  const inside = (p, b) => p.x > b.x && p.x < b.x + b.width && p.y > b.y && p.y < b.y + b.height;
  const vb = svg.viewBox.baseVal;
  for (const { text, b } of boxes) {
    if (b.x < 0 || b.y < 0 || b.x + b.width > vb.width || b.y + b.height > vb.height) out.push(`${text}: outside the figure`);
    for (const path of svg.querySelectorAll('path')) {
      const n = path.getTotalLength();
      for (let s = 0; s <= n; s += 0.5) if (inside(path.getPointAtLength(s), b)) { out.push(`${text}: crossed by a line`); break; }
    }
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i].b, c = boxes[j].b;
    if (a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height) out.push(`${boxes[i].text} / ${boxes[j].text}: overlap`);
  }
  return { labels: boxes.map((x) => x.text), out };
});

test('the crossover plot: its mark labels cross no line and no other label, at 390 and 1280 px, for several n and d', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en`, { width: 390, height: 800 });
  const plot = '#cost [data-plot="crossover"]';
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    for (const [n, d] of [[1024, 512], [512, 512], [2048, 512], [200, 64], [4096, 1024]]) {
      await setNumber(page, 'dModel', d);
      await setNumber(page, 'n', n);
      await page.$eval(plot, (p) => p.scrollIntoView());
      // drawn at the rendered width (one unit one CSS pixel, down to 260), with this n's mark
      await page.waitForFunction(([sel, w, label]) => {
        const svg = document.querySelector(`${sel} svg`);
        return Math.abs(svg.viewBox.baseVal.width - Math.min(520, Math.max(260, svg.getBoundingClientRect().width))) < 4 && w > 0
          && svg.textContent.includes(label);
      }, [plot, width, `n = d = ${d.toLocaleString('en')}`]);
      const r = await labelClashes(page, 'crossover');
      assert.ok(r.labels.length >= 1, `${width} px, n = ${n}, d = ${d}`);
      assert.deepEqual(r.out, [], `${width} px, n = ${n}, d = ${d}: ${r.labels.join(', ')}`);
    }
    await (await page.$(plot)).screenshot({ path: join(shots, `cost-crossover-${width}.png`) });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('live run: starts in a worker, reports progress, the page stays responsive, cancel stops it', async () => {
  // What the page asks of its workers: each Worker's script and the type of each message
  // the page posts to one (the kernels run where the page sends them, not how fast it does),
  // and the bytes of arrays in each message a worker sends back (what the page's thread must
  // receive, hold and collect: it grows with n·d when outputs cross, not with the machine).
  const init = () => {
    window.__workers = [];
    const Native = window.Worker;
    const arrayBytes = (x, seen = new Set()) => {
      if (x == null || typeof x !== 'object' || seen.has(x)) return 0;
      seen.add(x);
      if (x instanceof ArrayBuffer || ArrayBuffer.isView(x)) return x.byteLength;
      return Object.values(x).reduce((a, v) => a + arrayBytes(v, seen), 0);
    };
    window.Worker = class extends Native {
      constructor(url, opts) {
        super(url, opts);
        this.__log = { script: new URL(url, location.href).pathname, posted: [], received: [] };
        window.__workers.push(this.__log);
        this.addEventListener('message', (e) => this.__log.received.push({ type: e.data?.type, bytes: arrayBytes(e.data) }));
      }
      postMessage(m, ...rest) {
        this.__log.posted.push(m?.type);
        return super.postMessage(m, ...rest);
      }
    };
  };
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en`, { init });
  await page.selectOption('#cost [data-control="liveWorkers"]', '1'); // a pool of one worker
  await page.click('#cost [data-action="run"]');
  assert.equal(await page.isDisabled('#cost [data-action="run"]'), true);
  // the run's settings wait while it runs
  for (const c of ['liveHeads', 'liveMaxN', 'liveWorkers', 'liveCausal'])
    assert.equal(await page.isDisabled(`#cost [data-control="${c}"]`), true, c);
  // Progress: at least one kernel has reported (the small sizes take milliseconds).
  await page.waitForFunction(() => document.querySelector('#cost-progress').value > 0, null);
  await page.waitForFunction(() => document.querySelectorAll('#cost [data-table="live"] tbody tr').length > 0);
  assert.match(await page.textContent('#cost .live-status'), /Running n = [\d,]+, (plain|tiled) kernel \(heads: 8, workers: 1\)/);
  // The main thread is left free: every kernel the run has measured so far was asked of the
  // one worker of the pool (cost-run.js), which also drew the inputs; the page posted nothing
  // else (what it sends holds no n x d buffer: new-user.test.mjs).
  const asked = await page.evaluate(() => ({
    workers: window.__workers.filter((w) => w.posted.length).map((w) => ({ script: w.script.replace(/^.*\//, ''), types: [...new Set(w.posted)].sort() })),
    kernels: window.__workers.flatMap((w) => w.posted).filter((t) => t === 'heads').length,
    rows: document.querySelectorAll('#cost [data-table="live"] tbody tr').length,
  }));
  assert.deepEqual(asked.workers, [{ script: 'cost-run.js', types: ['draw', 'heads'] }]);
  assert.ok(asked.kernels >= asked.rows, `each measured row is a kernel the worker was asked to run (${asked.kernels} asked, ${asked.rows} rows)`);
  // Only summaries come back (timings, memory, a checksum per head): no message from a worker
  // carries an array, so the h outputs of n x 64 (64 MB a call at n = 32K) never reach the
  // page's thread, where receiving and collecting them held frames up for up to a second.
  const received = await page.evaluate(() => window.__workers.flatMap((w) => w.received));
  const results = received.filter((m) => m.type === 'result');
  assert.ok(results.length >= asked.rows, `${results.length} results received`);
  assert.deepEqual(received.filter((m) => m.bytes > 0), [], 'messages from the workers that carry arrays');
  await page.click('#cost [data-action="cancel"]');
  assert.match(await page.textContent('#cost .live-status'), /Cancelled/);
  assert.equal(await page.isDisabled('#cost [data-action="run"]'), false);
  assert.equal(await page.isDisabled('#cost [data-control="liveHeads"]'), false);
  const rows = await page.$$eval('#cost [data-table="live"] tbody tr', (r) => r.length);
  await afterTimers(page, 500);
  assert.equal(await page.$$eval('#cost [data-table="live"] tbody tr', (r) => r.length), rows, 'nothing arrives after cancel');
  // The time plot keeps the run's axis after cancel: n from 256 to the largest n planned
  // (32K), the same ticks as the memory plot beside it, not just the sizes measured so far.
  const xTicks = (plot) => page.$$eval(`#cost [data-plot="${plot}"] .axis text[text-anchor="middle"]:not(.axis-label)`, (ts) => ts.map((t) => t.textContent));
  const timeTicks = await xTicks('live-time');
  assert.equal(timeTicks[0], '256');
  assert.equal(timeTicks.at(-1), '32K', timeTicks.join(' '));
  assert.deepEqual(timeTicks, await xTicks('live-memory'));
  // every measured time is drawn, a lone point too (a dot: a line needs two)
  const drawn = await page.$$eval('#cost [data-plot="live-time"] path, #cost [data-plot="live-time"] circle', (ns) => ns.length);
  assert.ok(drawn >= 2, `${drawn} curves or dots`);
  // The measured memory: the plain kernel needs more than the tiled one at the same n.
  const first = await page.$$eval('#cost [data-table="live"] tbody tr:first-child td', (td) => td.map((t) => t.textContent));
  assert.match(first[1], /B/);
  // A measurement is not part of the permalink: the address holds no live results.
  assert.doesNotMatch(decodeURIComponent(page.url()), /live[^M C]/);
  assert.ok(page.url().length < 400, `the link is ${page.url().length} characters long`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a short live run finishes; screenshots at desktop and phone width; Korean by default', async () => {
  // when each worker is stopped, and what the chapter said then
  const init = () => {
    window.__stops = [];
    const stop = Worker.prototype.terminate;
    Worker.prototype.terminate = function () {
      window.__stops.push({ at: performance.now(), said: document.querySelector('#cost .live-status')?.textContent ?? '' });
      return stop.call(this);
    };
  };
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost`, { width: 1280, height: 900, init });
  assert.match(await page.textContent('#cost h2'), /어텐션/);
  await page.selectOption('#cost [data-control="liveMaxN"]', '4096');
  await page.selectOption('#cost [data-control="liveHeads"]', '2');
  await page.selectOption('#cost [data-control="liveWorkers"]', '2'); // the two heads on two workers
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => /끝났습니다/.test(document.querySelector('#cost .live-status').textContent), null);
  assert.match(await page.textContent('#cost .live-status'), /head 2개, 워커 2개/);
  assert.match(await page.textContent('#cost [data-table="live"] caption'), /워커 2개/);
  assert.equal(await page.$$eval('#cost [data-table="live"] tbody tr', (r) => r.length), 5); // 256 ... 4096
  assert.equal(await page.$eval('#cost-progress', (p) => p.value), 1);
  // the workers are stopped (their memory freed) after the result is on the page, one at a time
  await page.waitForFunction(() => window.__stops.length === 2, null);
  const stops = await page.evaluate(() => window.__stops);
  assert.ok(stops.every((x) => /끝났습니다/.test(x.said)), JSON.stringify(stops));
  assert.ok(stops[1].at > stops[0].at, JSON.stringify(stops));
  await (await page.$('#cost')).screenshot({ path: join(shots, 'cost-desktop.png') });
  await page.setViewportSize({ width: 360, height: 780 });
  await (await page.$('#cost')).screenshot({ path: join(shots, 'cost-phone.png') });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than a 360px phone`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the pool in the browser: 1 and 2 real workers give the same bits; errors reach the caller and the pool keeps working', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en`);
  const r = await page.evaluate(async () => {
    const { createPool } = await import('/pool-src/pool.js');
    const attn = await (await import('/attn.mjs')).default({ training: false });
    const url = new URL('/cost-run.js', location.href);
    const inputs = () => ['Q', 'K', 'V'].map((_, j) => Array.from({ length: 5 }, (__, h) => attn.random({ rows: 300, cols: 64, seed: 1 + 3 * h + j })));
    const outs = {};
    const out = {};
    for (const size of [1, 2]) {
      const pool = createPool({ url, size });
      const [Q, K, V] = inputs();
      const res = await pool.attention({ Q, K, V, kernel: 'tiled', causal: true });
      out[`detached${size}`] = Q[0].data.byteLength;
      out[`workers${size}`] = res.workers;
      outs[size] = res.heads.map((h) => Array.from(new Uint32Array(h.output.data.buffer)));
      // an error in a worker: the core's message, then the pool still works
      const [q, k, v] = inputs();
      v[3] = { rows: 300, cols: 64, data: new Float32Array(5) };
      out[`error${size}`] = await pool.attention({ Q: q, K: k, V: v }).then(() => 'no error', (e) => `${e.name}: ${e.message}`);
      const again = await pool.attention({ ...Object.fromEntries(['Q', 'K', 'V'].map((n, i) => [n, inputs()[i]])), kernel: 'tiled', causal: true });
      out[`again${size}`] = again.heads.every((h, i) => Array.from(new Uint32Array(h.output.data.buffer)).every((x, j) => x === outs[size][i][j]));
      pool.terminate();
    }
    out.same = outs[1].every((o, i) => o.length === 300 * 64 && o.every((x, j) => x === outs[2][i][j]));
    // one head without the causal mask on 2 workers: its query rows split, the same bits
    {
      const pool = createPool({ url, size: 2 });
      let [[q], [k], [v]] = inputs();
      const want = [false, true].map((causal) => attn.flashAttention(q, k, v, { causal }).data);
      out.rows = [];
      for (const causal of [false, true]) {
        const res = await pool.attention({ Q: [q], K: [k], V: [v], kernel: 'tiled', causal });
        out.rows.push([res.workers, res.split, res.heads[0].output.data.every((x, j) => Object.is(x, want[+causal][j])), res.timing.length]);
        [q] = res.Q; [k] = res.K; [v] = res.V; // they come back
      }
      pool.terminate();
    }
    // what one core computes on this page, head by head
    const [Q, K, V] = inputs();
    out.asCore = Q.every((q, i) => Array.from(new Uint32Array(attn.flashAttention(q, K[i], V[i], { causal: true }).data.buffer)).every((x, j) => x === outs[2][i][j]));
    // a worker that cannot start (its script is missing)
    const broken = createPool({ url: new URL('/no-such-worker.js', location.href), size: 2 });
    out.broken = await broken.ready().then(() => 'ready', (e) => e.message);
    broken.terminate();
    return out;
  });
  assert.equal(r.same, true, '1 and 2 workers differ');
  assert.equal(r.asCore, true, 'the pool differs from the page\'s own core');
  assert.deepEqual(r.rows, [[2, 'rows', true, 2], [1, 'heads', true, 1]]);
  assert.deepEqual([r.workers1, r.workers2, r.detached1, r.detached2], [1, 2, 0, 0]);
  for (const size of [1, 2]) {
    assert.match(r[`error${size}`], /^RangeError: head 3: /);
    assert.equal(r[`again${size}`], true);
  }
  assert.match(r.broken, /attention pool: worker \d could not start|attention pool: worker \d stopped/);
  assert.deepEqual(errors.filter((e) => !/no-such-worker/.test(e)), []);
  await page.close();
});

// A stand-in for the workers' script (cost-run.js): the pool's protocol with made-up work,
// no core. Each call sleeps in proportion to n² (the last one, n = 32,768 tiled on one
// worker, ~3 s, one head after another); the plain kernel does not fit from n = 32,768 on.
// Progress messages only when the call asks for them (pool.js onProgress).
const FAKE_WORKER = `
const clock = () => performance.timeOrigin + performance.now();
self.postMessage({ type: 'ready', simd: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
self.onmessage = async ({ data: m }) => {
  const start = clock();
  if (m.type === 'draw') return self.postMessage({ type: 'result', id: m.id, heads: [], at: [start, clock()] });
  if (m.type !== 'heads') return;
  const n = m.rows;
  if (m.kernel === 'plain' && n >= 32768) return self.postMessage({ type: 'error', id: m.id, message: 'the n x n matrix does not fit', name: 'RangeError', kind: 'SizeError' });
  const heads = [];
  for (let i = 0; i < m.heads.length; i++) {
    await sleep((m.kernel === 'plain' ? 1 : 1.3) * 1.8e-6 * n * n / m.heads.length);
    heads.push({ output: null, sum: 0, ms: 1, workBytes: m.kernel === 'plain' ? 4 * n * n : 4 * 64 * n * 4 });
    if (m.progress) self.postMessage({ type: 'progress', id: m.id, done: i + 1, of: m.heads.length });
  }
  self.postMessage({ type: 'result', id: m.id, heads, at: [start, clock()] });
};`;

// Issue 26, a newcomer's try: the default run's last call took ~30 s with the bar still at
// 40 %, and "plain no longer fits" was written across the tiled line. The bar now moves as
// each head is done and a line counts the seconds; the label crosses no line of its plot.
test('live run: a long call shows that it moves (the bar per head, the seconds); the "no longer fits" label crosses no line (1280, 390 px)', async () => {
  for (const width of [1280, 390]) {
    const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en`, { width });
    await page.route('**/cost-run.js', (r) => r.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_WORKER }));
    await page.selectOption('#cost [data-control="liveWorkers"]', '1'); // the heads one after another
    // every frame: the status line, the bar, the line under it
    await page.evaluate(() => {
      window.__samples = [];
      const tick = () => {
        const status = document.querySelector('#cost .live-status').textContent;
        const clock = document.querySelector('#cost .live-clock');
        window.__samples.push([status, document.querySelector('#cost progress').value, clock && !clock.hidden ? clock.textContent : '']);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.click('#cost [data-action="run"]');
    await page.waitForFunction(() => /^(Done|The run stopped)/.test(document.querySelector('#cost .live-status').textContent), null);
    assert.match(await page.textContent('#cost .live-status'), /^Done .*The plain kernel no longer fit at n = 32,768\./);
    const last = (await page.evaluate(() => window.__samples)).filter(([s]) => /^Running n = 32,768, tiled kernel/.test(s));
    const bar = [...new Set(last.map((x) => x[1]))];
    assert.ok(bar.length >= 6, `${width}: the bar moves during the last call (8 heads): ${bar.join(', ')}`);
    assert.ok(bar.every((v, i) => i === 0 || v > bar[i - 1]), `the bar only moves forward: ${bar.join(', ')}`);
    // ... over the whole run too, where one size or kernel ends and the next begins
    const whole = (await page.evaluate(() => window.__samples)).filter(([st]) => /^Running/.test(st)).map((x) => x[1]);
    const back = whole.findIndex((v, i) => i > 0 && v < whole[i - 1]);
    assert.equal(back, -1, `${width}: the bar steps back at sample ${back}: ${whole.slice(Math.max(0, back - 3), back + 2).join(', ')}`);
    assert.ok(last.some(([, , c]) => /^\d+% of the planned work done; this size and kernel: [1-9]\d* s so far\.$/.test(c)), `${width}: the seconds are counted: ${[...new Set(last.map((x) => x[2]))].join(' | ')}`);
    assert.equal(await page.isHidden('#cost .live-clock'), true, 'the line goes when the run is done');
    // the label: no point of any line of the plot (series, trend) inside its box
    const hits = await page.$eval('#cost [data-plot="live-time"] svg', (svg) => {
      const label = svg.querySelector('text.mark-label');
      const b = label.getBBox();
      const out = [];
      for (const p of svg.querySelectorAll('path[stroke]')) {
        if (p.getAttribute('fill') !== 'none' || p.closest('.axis, [class*="axis"]')) continue;
        const len = p.getTotalLength();
        for (let t = 0; t <= len; t += 1) {
          const q = p.getPointAtLength(t);
          if (q.x > b.x - 1 && q.x < b.x + b.width + 1 && q.y > b.y - 1 && q.y < b.y + b.height + 1) {
            out.push(`${p.getAttribute('stroke')} at ${Math.round(q.x)},${Math.round(q.y)}`);
            break;
          }
        }
      }
      return { text: label.textContent, out };
    });
    assert.equal(hits.text, 'plain no longer fits');
    assert.deepEqual(hits.out, [], `${width}: the label crosses a line`);
    await page.screenshot({ path: join(shots, `cost-live-fake-${width}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('live run: a link whose largest n or heads is not offered selects the nearest offered value and says so', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en&cost=liveMaxN:524288;liveHeads:3`);
  const status = () => page.textContent('#cost .live-status');
  // the selects show what Run will do, not a blank (nearest on a log scale: 3 heads -> 4)
  assert.equal(await page.inputValue('#cost [data-control="liveMaxN"]'), '32768');
  assert.equal(await page.inputValue('#cost [data-control="liveHeads"]'), '4');
  assert.match(await status(), /This link asks for largest n = 524,288, heads h = 3, which is not offered here, so the nearest offered value is selected: largest n = 32,768, heads h = 4\. Press Run/);
  // the link now carries what is selected
  await page.waitForFunction(() => !/524288/.test(location.href), null);
  // in Korean too
  await page.click('#lang-toggle');
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  assert.match(await status(), /이 링크는 최대 n = 524,288, head 수 h = 3을\(를\) 요청하지만.*최대 n = 32,768, head 수 h = 4/);
  await page.click('#lang-toggle');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  // a pick ends the note; the run uses what the selects show
  await page.selectOption('#cost [data-control="liveMaxN"]', '4096');
  assert.match(await status(), /^Not started yet\./);
  await page.selectOption('#cost [data-control="liveHeads"]', '1');
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => /^Done/.test(document.querySelector('#cost .live-status').textContent), null);
  assert.equal(await page.$$eval('#cost [data-table="live"] tbody tr', (r) => r.length), 5);
  assert.equal(await page.isVisible('#cost [data-table="live"]'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('live run: a worker that fails reaches the chapter as a message; the next run works', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?embed=cost&lang=en`);
  await page.selectOption('#cost [data-control="liveMaxN"]', '4096');
  await page.selectOption('#cost [data-control="liveHeads"]', '1');
  await page.route('**/cost-run.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => /The run stopped/.test(document.querySelector('#cost .live-status').textContent), null);
  // (in the page's words, not the pool's)
  assert.match(await page.textContent('#cost .live-status'), /^The run stopped: worker \d stopped: its script \(cost-run\.js\) did not load, or it crashed/);
  const said = await page.textContent('#cost .live-status');
  assert.match(said, /\(cost-run\.js\)/, `the script that did not load is named: ${said}`);
  assert.equal(await page.isDisabled('#cost [data-action="run"]'), false);
  await page.unroute('**/cost-run.js');
  await page.click('#cost [data-action="run"]');
  await page.waitForFunction(() => /^Done/.test(document.querySelector('#cost .live-status').textContent), null);
  // one head, no causal mask: its query rows are split over the workers, by default one
  // fewer than the cores (the page keeps one), at least one
  const cores = await page.evaluate(() => Math.min(16, navigator.hardwareConcurrency || 1));
  assert.equal(await page.$eval('#cost [data-control="liveWorkers"]', (s) => s.options.length), cores, 'every core count offered');
  assert.match(await page.textContent('#cost .live-status'), new RegExp(`Done \\(heads: 1, workers: ${Math.max(1, cores - 1)}\\)`));
  assert.equal(await page.$$eval('#cost [data-table="live"] tbody tr', (r) => r.length), 5);
  assert.deepEqual(errors.filter((e) => !/cost-run\.js|404/.test(e)), []);
  await page.close();
});

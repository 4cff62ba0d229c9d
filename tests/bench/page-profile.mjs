// Where the time of an edit goes (a tool for working on the render path; not part of
// make bench-page): opens one chapter alone, makes N edits of one kind as bench-page
// does, with the Chrome DevTools Protocol's CPU profiler and a timeline trace running,
// and prints the functions with the most self time and the renderer's phases (script,
// style, layout, paint) summed over the edits.
//   node tests/bench/page-profile.mjs <chapter> [cell|toggle|slider|select|number] [--edits 20]
//        [--full] (the chapter inside the full page) [--all] (with --full: every chapter mounted
//        first, scrolled through in order, as by the end of bench-page's full-page run)
//        [--lang] (profile language switches instead) [--timeline] (the first edits step by step)
//        [--css '<rules>'] (a style sheet added first: try a CSS change without a build)
//        [--dist <dir>] (serve another build than web/dist: an A/B against a saved copy)
//        [--invalidations] (which nodes' style and layout each edit invalidates, and why)
// Besides times (which move with the machine's load) it prints counts that do not: DOM
// mutation records, style recalcs and layouts per edit, and the thread CPU time of each phase.
import { writeFile, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium } from '../../web/scripts/browser.mjs';
import { editProbe, openChapter } from './page-probes.mjs';

const [id = 'core-attention', kind = 'cell'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const EDITS = Number(arg('edits', 20));
const FULL = process.argv.includes('--full');
const ALL = FULL && process.argv.includes('--all');
const LANG = process.argv.includes('--lang');

const server = await startServer({ port: 0, ...(arg('dist', null) && { dir: resolve(arg('dist')) }) });
const browser = await launchChromium();
try {
  const { context, page } = await openChapter(browser, server.url, id, { alone: !FULL });
  if (ALL) {
    const all = await page.$$eval('#toc a[href^="#"]', (as) => as.map((a) => a.getAttribute('href').slice(1)));
    for (const c of all) {
      await page.evaluate((i) => document.getElementById(i).scrollIntoView(), c);
      await page.waitForFunction((i) => window.__boot.filled(document.getElementById(i)), c, { timeout: 60000 });
    }
    await page.evaluate((i) => document.getElementById(i).scrollIntoView(), id);
  }
  // --css '<rules>': a style sheet added to the page first (to try a CSS change without a build)
  if (arg('css', null)) await page.addStyleTag({ content: arg('css') });
  await page.waitForTimeout(1500);
  await page.evaluate(editProbe);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  const INVAL = process.argv.includes('--invalidations');
  await cdp.send('Tracing.start', { categories: `devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing${INVAL ? ',disabled-by-default-devtools.timeline.invalidationTracking' : ''}${process.argv.includes('--forced') ? ',disabled-by-default-devtools.timeline.stack' : ''}`, transferMode: 'ReportEvents' });
  await cdp.send('Profiler.start');
  const samples = LANG
    ? await page.evaluate(async (n) => { const out = []; for (let k = 0; k < n; k++) out.push(await window.__bench.lang(200)); return out; }, Math.min(EDITS, 6))
    : await page.evaluate(([i, k, n]) => window.__bench.edits(i, k, n, 100), [id, kind, EDITS]);
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Tracing.end');
  await traced;
  await mkdir('build/bench', { recursive: true });
  await writeFile(`build/bench/profile-${id}-${LANG ? 'lang' : kind}.cpuprofile`, JSON.stringify(profile));

  // Only what happened inside an edit: from its input event to the end of its last frame
  // (the probe's user-timing marks; the CPU profile and the trace share a clock).
  const marks = events.filter((e) => e.name === 'bench-edit-start' || e.name === 'bench-edit-end').sort((a, b) => a.ts - b.ts);
  const windows = [];
  for (let k = 0; k < marks.length; k++) if (marks[k].name === 'bench-edit-start' && marks[k + 1]?.name === 'bench-edit-end') windows.push([marks[k].ts, marks[k + 1].ts]);
  const inside = (e) => !windows.length || windows.some(([a, b]) => e.ts >= a && e.ts <= b);

  // Self time per function, inside the edits.
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  let ts = profile.startTime;
  profile.samples.forEach((nid, k) => {
    ts += dt[k] ?? 0;
    if (!inside({ ts })) return;
    const n = byId.get(nid);
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`.trim();
    self.set(name, (self.get(name) ?? 0) + (dt[k + 1] ?? dt[k] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const per = Math.max(1, windows.length);
  const muts = samples.map((x) => x.mutations ?? 0);
  console.log(`${id} ${LANG ? 'language switch' : kind}: ${ms.length} edits, median ${ms[Math.floor(ms.length / 2)].toFixed(1)} ms, max ${ms.at(-1).toFixed(1)} ms; DOM mutation records per edit ${(muts.reduce((a, b) => a + b, 0) / Math.max(1, muts.length)).toFixed(1)}, frames per edit ${(samples.reduce((a, x) => a + x.frames, 0) / Math.max(1, samples.length)).toFixed(2)}`);
  console.log('\nself time inside the edits (CPU profile, ms per edit; idle excluded):');
  for (const [name, t] of [...self].filter(([n]) => !n.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${(t / per).toFixed(2).padStart(8)}  ${name}`);
  console.log(`${((total - (self.get('(idle)') ?? 0)) / per).toFixed(2).padStart(8)}  total busy`);

  // Renderer phases from the trace (main thread, complete events).
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const phases = new Map();
  const WANT = ['FunctionCall', 'EventDispatch', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'ParseHTML', 'HitTest', 'ScheduleStyleRecalculation', 'InvalidateLayout', 'RunMicrotasks', 'MajorGC', 'MinorGC', 'V8.GC_SCAVENGER'];
  for (const e of events) {
    if (main && (e.pid !== main.pid || e.tid !== main.tid)) continue;
    if (e.ph !== 'X' || !WANT.includes(e.name) || !inside(e)) continue;
    const v = phases.get(e.name) ?? { ms: 0, cpu: 0, n: 0 };
    v.ms += (e.dur ?? 0) / 1000;
    v.cpu += (e.tdur ?? 0) / 1000; // the thread's CPU time: less moved by other jobs' load than dur
    v.n++;
    phases.set(e.name, v);
  }
  // Forced layouts: Layout / UpdateLayoutTree with a JS stack (during script).
  let forced = 0;
  for (const e of events) if ((e.name === 'Layout' || e.name === 'UpdateLayoutTree') && e.args?.beginData?.stackTrace?.length) forced++;
  console.log(`\nrenderer main thread inside the ${windows.length} edits (trace, ms per edit, wall and [thread CPU]; nested events overlap):`);
  for (const [name, v] of [...phases].sort((a, b) => b[1].ms - a[1].ms)) console.log(`${(v.ms / per).toFixed(2).padStart(8)} [${(v.cpu / per).toFixed(2).padStart(6)}]  ${name} (${v.n}×)`);
  console.log(`forced (synchronous) style/layout from script: ${forced}`);
  if (process.argv.includes('--paint')) {
    const paints = events.filter((e) => e.name === 'Paint' && e.ph === 'X' && inside(e));
    const byNode = new Map();
    for (const e of paints) {
      const k = JSON.stringify(e.args?.data ?? {}).slice(0, 160);
      byNode.set(k, (byNode.get(k) ?? 0) + 1);
    }
    console.log([...byNode].sort((a, b) => b[1] - a[1]).slice(0, 12));
  }
  if (process.argv.includes('--timeline')) {
    // Each of the first edits, step by step: the main thread's script, style, layout and
    // paint from the input event on (ms from the event; > 0.3 ms).
    const SHOW = ['FunctionCall', 'EventDispatch', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Commit', 'MinorGC', 'MajorGC'];
    for (const [a, b] of windows.slice(0, 4)) {
      const rows = events.filter((e) => e.ph === 'X' && SHOW.includes(e.name) && e.ts >= a && e.ts <= b && (!main || (e.pid === main.pid && e.tid === main.tid)) && e.dur > 300)
        .sort((x, y) => x.ts - y.ts)
        .map((e) => `${((e.ts - a) / 1000).toFixed(1)}+${(e.dur / 1000).toFixed(1)} ${e.name}${e.args?.data?.url ? ` ${e.args.data.url.split('/').pop()}:${e.args.data.lineNumber}` : ''}${e.args?.data?.type ? ` ${e.args.data.type}` : ''}`);
      console.log(`\nedit of ${((b - a) / 1000).toFixed(1)} ms:\n  ${rows.join('\n  ')}`);
    }
  }
  if (INVAL) {
    // What each edit invalidated: style (with the reason) and layout, by node, summed.
    // The node's block: the nearest figure, paragraph, heading or control bar (its class and
    // test id), found by the node's backend id once the edits are done.
    await cdp.send('DOM.getDocument', { depth: 0 });
    const owners = new Map();
    const ownerOf = async (nodeId) => {
      if (!nodeId) return '';
      if (!owners.has(nodeId)) {
        let o = '(gone)';
        try {
          const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: nodeId });
          const r = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, returnByValue: true, functionDeclaration: `function () {
            const e = this.nodeType === 1 ? this : this.parentElement;
            const b = e && e.closest('figure, p, h3, h4, li, .controls, .worked, .sat-row, label, details, section');
            if (!b) { const path = []; for (let x = this; x && path.length < 6; x = x.parentNode) path.push(x.nodeName + (x.className && typeof x.className === 'string' ? '.' + x.className.split(' ')[0] : '')); return '- ' + path.join('<'); }
            const cls = typeof b.className === 'string' ? b.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
            return b.tagName.toLowerCase() + (cls ? '.' + cls : '') + (b.dataset.plot || b.dataset.grid || b.dataset.testid || b.dataset.key ? '[' + (b.dataset.plot || b.dataset.grid || b.dataset.testid || b.dataset.key) + ']' : '') + (b.hidden ? ' hidden' : '');
          }` });
          o = r.result.value;
        } catch { /* the node is gone */ }
        owners.set(nodeId, o);
      }
      return owners.get(nodeId);
    };
    const by = new Map();
    for (const e of events) {
      if (!inside(e) || !/InvalidationTracking$/.test(e.name)) continue;
      const d = e.args?.data ?? {};
      const k = `${e.name.replace('InvalidationTracking', '')} ${d.reason ?? d.invalidationSet?.[0]?.selectors?.join(',') ?? ''} in ${await ownerOf(d.nodeId)}`.trim().slice(0, 160);
      by.set(k, (by.get(k) ?? 0) + 1);
    }
    console.log(`\ninvalidations per edit (kind, reason, node), top 40:`);
    for (const [k, n] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(n / per).toFixed(1).padStart(8)}  ${k}`);
  }
  if (process.argv.includes('--forced')) {
    // Style and layout run inside an event's script (forced by a read after a write): where.
    const disp = events.filter((x) => x.name === 'EventDispatch' && x.ph === 'X' && inside(x) && (!main || (x.pid === main.pid && x.tid === main.tid)));
    const within = (e) => disp.some((d) => e.ts >= d.ts && e.ts + (e.dur ?? 0) <= d.ts + d.dur);
    const by = new Map();
    for (const e of events) {
      if (!(e.name === 'UpdateLayoutTree' || e.name === 'Layout') || e.ph !== 'X' || !within(e)) continue;
      const st = e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace ?? [];
      const k = `${e.name} ${st.slice(0, 4).map((f) => `${f.functionName || '?'}@${(f.url || '').split('/').pop()}:${f.lineNumber}`).join(' < ') || '(no stack)'}`;
      const v = by.get(k) ?? { n: 0, ms: 0 };
      v.n++;
      v.ms += (e.tdur ?? e.dur ?? 0) / 1000;
      by.set(k, v);
    }
    console.log('\nstyle and layout inside event handlers (CPU ms per edit, count):');
    for (const [k, v] of [...by].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(`${(v.ms / per).toFixed(2).padStart(8)} ${String(v.n).padStart(4)}×  ${k}`);
  }
  if (process.argv.includes('--layouts')) {
    // Each layout of the first edits: its time, dirty objects and roots (the nodes laid out
    // from), to find what makes a layout large.
    console.log('\nlayouts of the first edits (ms wall [thread CPU], dirty/total objects, roots):');
    for (const e of events.filter((x) => x.name === 'Layout' && x.ph === 'X' && inside(x) && (!main || (x.pid === main.pid && x.tid === main.tid))).slice(0, 12)) {
      const roots = e.args?.endData?.layoutRoots ?? [];
      console.log(`  ${(e.dur / 1000).toFixed(2)} [${((e.tdur ?? 0) / 1000).toFixed(2)}] ${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects} ${e.args?.beginData?.stackTrace ? 'forced ' : ''}${roots.length} roots: ${roots.slice(0, 3).map((r) => r.nodeId).join(',')}`);
    }
  }
  const lays = events.filter((e) => e.name === 'Layout' && e.ph === 'X' && inside(e) && e.args?.beginData);
  const avg = (f) => (lays.length ? (lays.reduce((a, e) => a + (f(e) ?? 0), 0) / lays.length).toFixed(0) : '–');
  console.log(`layouts: ${lays.length}, objects per layout: dirty ${avg((e) => e.args.beginData.dirtyObjects)}, total ${avg((e) => e.args.beginData.totalObjects)}`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}

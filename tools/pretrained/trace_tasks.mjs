// The page thread's long tasks in a Chromium trace (CDP Tracing, as playwright's
// browser.startTracing writes it), each with what ran inside it: the time of every kind of
// event directly under the task (script by function and file, style, layout, paint, message
// deserialisation, garbage collection…). make bench-model --trace uses it; by hand:
//   node tools/pretrained/trace_tasks.mjs trace.json [min ms]
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'toplevel',
  'disabled-by-default-v8.gc', 'blink.user_timing', 'loading'];

// [{start, ms, cpuMs, parts: [[name, ms]]}] of the renderer main threads' tasks of at least
// `minMs` (wall time; cpuMs is the thread's CPU time in it, the trace's tdur: on a loaded
// machine a task's wall time is mostly the time its thread waited for a core, its CPU time
// what the page asked of it).
export async function pageTasks(path, minMs = 50) {
  const raw = JSON.parse(await readFile(path, 'utf8'));
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const main = new Set();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') main.add(`${e.pid}:${e.tid}`);
  const onMain = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur != null).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const t0 = Math.min(...onMain.map((e) => e.ts));
  // (a task's RunTask and ThreadControllerImpl::RunTask nest: the outer one only)
  const tasks = [];
  for (const e of onMain) {
    if (!/RunTask$/.test(e.name) || e.dur < minMs * 1000) continue;
    const last = tasks.at(-1);
    if (last && e.ts >= last.ts && e.ts + e.dur <= last.ts + last.dur) continue;
    tasks.push(e);
  }
  const label = (e) => {
    const d = e.args?.data ?? {};
    if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.callFunction')
      return `${e.name} ${d.functionName || ''} ${String(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''}`.trim();
    if (e.name === 'EventDispatch' || e.name === 'TimerFire') return `${e.name} ${d.type ?? d.timerId ?? ''}`;
    return e.name;
  };
  return tasks.map((t) => {
    // the events nested directly in the task (the outermost ones inside it)
    const parts = new Map();
    let end = -Infinity;
    for (const e of onMain) {
      if (e === t || e.ts < t.ts || e.ts + e.dur > t.ts + t.dur) continue;
      if (e.ts < end) continue; // inside an outer one already counted
      if (/RunTask$/.test(e.name)) continue;
      end = e.ts + e.dur;
      const k = label(e);
      parts.set(k, (parts.get(k) ?? 0) + e.dur / 1000);
      // one level further for the big ones: what the script or the update spent its time on
      const inner = new Map();
      let iend = -Infinity;
      for (const x of onMain) {
        if (x === e || x.ts < e.ts || x.ts + x.dur > e.ts + e.dur || x.ts < iend) continue;
        iend = x.ts + x.dur;
        const ik = `  ${k} > ${label(x)}`;
        inner.set(ik, (inner.get(ik) ?? 0) + x.dur / 1000);
      }
      if (e.dur >= 20000) for (const [ik, ms] of inner) if (ms >= 10) parts.set(ik, (parts.get(ik) ?? 0) + ms);
    }
    return { start: Math.round((t.ts - t0) / 1000), ms: Math.round(t.dur / 1000), cpuMs: Math.round((t.tdur ?? 0) / 1000), parts: [...parts].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => [k, Math.round(v)]) };
  });
}

export const describeTasks = (tasks) => (tasks.length ? tasks.map((t) => `page-thread task at ${t.start} ms: ${t.ms} ms (${t.cpuMs} ms of CPU)\n${t.parts.map(([k, v]) => `    ${v} ms  ${k}`).join('\n')}`).join('\n')
  : 'no page-thread task of 50 ms or more in the trace');

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(describeTasks(await pageTasks(process.argv[2], Number(process.argv[3] ?? 50))));

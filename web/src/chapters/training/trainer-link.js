// The training chapter's line to its trainer (web/src/workers/trainer.js): the worker's
// lifecycle and the messages that wait for it.
//
//   const link = trainerLink({
//     spawn: () => new Worker(new URL('./training-worker.js', import.meta.url), { type: 'module' }),
//     inPage: (post) => createTrainer({ ready: ..., post }),
//     onMessage: (m) => ...,        // every message of the trainer but 'ready'
//     onError: (message) => ...,    // the worker failed after it had come up
//   });
//   link.send({ type: 'configure', config });   // at any time, also before start()
//   link.startNear(section);                    // starts when the section comes near the screen
//
// The trainer runs in a Web Worker, started when the chapter comes near the screen (a page
// that is only read never spins it up). Where no worker can start (an engine without module
// workers, a widget loaded from a blob: URL), or the worker fails before it said 'ready'
// (its script or its core did not load), the same trainer runs on the page (in 40 ms
// chunks: slower to react, but the chapter still works), and gets every message sent so far
// in order. Messages sent before 'ready' are posted to the worker and also kept (the
// backlog) until it answers, for that replay.
export function trainerLink({ spawn, inPage: makeInPage, onMessage, onError }) {
  let worker = null;
  let ready = false; // the trainer said it has loaded the core
  let inPage = null; // the trainer running on the page, when no worker could start
  const backlog = []; // messages sent before 'ready'

  function receive(m) {
    if (m.type === 'ready') {
      ready = true;
      backlog.length = 0;
    } else onMessage(m);
  }
  function send(msg) {
    if (inPage) return inPage.receive(msg);
    if (!ready) backlog.push(msg); // replayed if the worker never comes up
    worker?.postMessage(msg);
  }
  function runInPage() {
    worker?.terminate();
    worker = null;
    // (posted a task later, as a worker's message would arrive)
    inPage = makeInPage((m) => setTimeout(() => receive(m), 0));
    for (const msg of backlog.splice(0)) inPage.receive(msg);
  }
  function start() {
    if (worker || inPage) return;
    try {
      worker = spawn(); // (throws where there is no Worker)
    } catch {
      runInPage();
      return;
    }
    worker.onerror = (e) => {
      e.preventDefault();
      if (!ready) runInPage(); // the worker never came up: train on the page instead
      else onError(e.message ?? 'worker error');
    };
    worker.onmessage = (e) => receive(e.data);
    for (const msg of backlog) worker.postMessage(msg);
  }
  function startNear(el, margin = '600px 0px') {
    if (typeof IntersectionObserver !== 'function') return start();
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((en) => en.isIntersecting)) {
        seen.disconnect();
        start();
      }
    }, { rootMargin: margin });
    seen.observe(el);
  }
  return {
    send,
    start,
    startNear,
    /** A Web Worker runs the trainer (not the page, and not yet nothing). */
    get inWorker() {
      return !!worker && !inPage;
    },
  };
}

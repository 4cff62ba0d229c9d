// The real-models chapter's page-thread work spread over frames (docs/real-models.md, "The
// page thread"): GPT-2 small's 144 maps and its 144-row role table are built, painted and
// labelled a few at a time, at most FRAME_BUDGET units of work in one frame, so that no frame
// of the page waits for all of them. The jobs share one budget in the order they were added
// (head-grids.js's grids, written besides the budget; head-map.js's maps; role-table.js's rows):
//
//   const frames = framePump({ ready: () => !!info });
//   frames.add({ step(budget) { ...; return budget - used; }, pending: () => bool });
//   frames.later();   // a frame is asked for (once however often it is asked before it runs)
//
// A frame runs every job's step with what the jobs before it left of the budget, then asks
// for another while any job still has work. Nothing runs while ready() is false.
export const FRAME_BUDGET = 32;

export function framePump({ ready = () => true, budget = FRAME_BUDGET, frame = (f) => requestAnimationFrame(f) } = {}) {
  const jobs = [];
  let asked = 0;
  function later() {
    if (!asked) asked = frame(step);
  }
  function step() {
    asked = 0;
    if (!ready()) return;
    let left = budget;
    for (const job of jobs) left = job.step(left);
    if (jobs.some((job) => job.pending())) later();
  }
  return { add: (job) => jobs.push(job), later };
}

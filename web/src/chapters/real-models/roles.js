// The real-models chapter's head roles in words: the roles in the table's order, a head's
// score of each, why a head has its role (roleReason: the core's rule, heads.hpp and
// pretrained.hpp) and the words for it, the roles' sentence and thresholds, the count line
// and the table's rows. No DOM; tests/web/real-models-roles.test.mjs.
//
//   const words = roleWords(tr, { f2, f3 });   // tr: the chapter's texts; f2, f3: the page's numbers
export const ROLE_ORDER = ['previous-token', 'first-token', 'duplicate-token', 'local', 'induction', ''];
// a head's score of each role (the worker's roles: its scores and, once, the thresholds)
export const FIELD = { 'previous-token': 'previousToken', 'first-token': 'firstToken', 'duplicate-token': 'duplicateToken', local: 'local', induction: 'induction' };

// Why a head has its role, as the core names it (heads.hpp's rule, pretrained.hpp): its role's
// score and threshold, or for a head with none the score nearest its threshold (largest
// score ÷ threshold) — {role, score, threshold} or {role: '', nearest, score, threshold}.
export function roleReason(head, thresholds) {
  if (head.role) return { role: head.role, score: head[FIELD[head.role]], threshold: thresholds[FIELD[head.role]] };
  let best = null;
  for (const r of ROLE_ORDER.slice(0, -1)) {
    const score = head[FIELD[r]], th = thresholds[FIELD[r]];
    if (!Number.isFinite(score) || !(th > 0)) continue;
    if (!best || score / th > best.score / best.threshold) best = { role: '', nearest: r, score, threshold: th };
  }
  return best ?? { role: '', nearest: null };
}

export function roleWords(tr, { f2, f3 }) {
  const name = (r) => tr(`role_${r || 'none'}`);
  // a head's role with the score that earned it, or the score nearest a threshold
  const why = (x, thresholds) => {
    const w = roleReason(x, thresholds);
    if (w.role) return tr('roleReached', { role: name(w.role), score: f2(w.score), threshold: f2(w.threshold) });
    if (!w.nearest) return name('');
    return tr('roleMissed', { none: name(''), role: name(w.nearest), score: f2(w.score), threshold: f2(w.threshold) });
  };
  // The roles' sentence and thresholds: the numbers of the roles R on screen, or before they
  // are measured the ones the worker said it will use when the model loaded (info.roles: the
  // thresholds are the core's constants, the random sequences' length the model's).
  const bodyVars = (R, info) => (R ? { repeat: R.repeatLength, sequences: R.sequences }
    : { repeat: info?.roles?.repeat ?? '…', sequences: info?.roles?.sequences ?? '…' });
  const thresholdVars = (R, info) => {
    const th = R?.thresholds ?? info?.roles?.thresholds;
    return th ? { prev: f2(th.previousToken), first: f2(th.firstToken), dup: f2(th.duplicateToken), local: f2(th.local), induction: f2(th.induction) }
      : { prev: '…', first: '…', dup: '…', local: '…', induction: '…' };
  };
  // The count line and the table's rows ([x, head's name, role, five scores, Δ loss]) of the
  // roles R of a model of H heads a layer; abl: the ablation of the same sentence, or null.
  function table(R, H, { headName, abl }) {
    const all = R.layers.flatMap((L, l) => L.map((x, h) => ({ ...x, x: l * H + h })));
    const count = (r) => all.filter((x) => (x.role || '') === r).length;
    // (only the roles measured on this sentence: a role whose score no head has is not
    // counted as 0 heads, it was not looked for)
    const measured = (r) => all.some((x) => x[FIELD[r]] != null);
    const byRole = ROLE_ORDER.slice(0, -1).filter(measured).map((r) => `${name(r)} ${count(r)}`).join(', ');
    // (a sentence too short for its own scores: induction and duplicate-token only, and why)
    const short = R.short ? ` ${tr('rolesShort', { n: R.short.n, min: R.short.min })}` : '';
    const line = tr('rolesCount', { total: all.length, byRole, none: R.unnamed }) + short;
    all.sort((a, b) => ROLE_ORDER.indexOf(a.role || '') - ROLE_ORDER.indexOf(b.role || '') || a.x - b.x);
    const signed = (v) => (v >= 0 ? `+${f3(v)}` : f3(v));
    const sc = (v) => (v == null ? '—' : f2(v)); // (null: not measured on this sentence)
    const rows = all.map((x) => [x.x, headName(x.x), why(x, R.thresholds), sc(x.previousToken), sc(x.firstToken), sc(x.duplicateToken),
      sc(x.local), sc(x.induction), abl ? signed(abl.delta[x.x]) : '…']);
    return { line, rows };
  }
  return { name, why, bodyVars, thresholdVars, table };
}

// The rule that names a head's role from its four scores, as the core applies it
// (core/include/attn/head_roles.hpp, RoleOptions and name_roles): a role is reached when its score
// reaches its threshold, and a head's role is the reached one with the largest
// score / threshold; none reached, no nameable role (''). The page shows the thresholds
// beside the scores; tests/web/trained-heads-roles.test.mjs checks that these are the
// core's own (head_roles.hpp) and that the rule gives the core's roles in results.json.
export const ROLES = ['previous-token', 'first-token', 'local', 'induction'];
export const THRESHOLDS = { 'previous-token': 0.4, 'first-token': 0.5, local: 0.7, induction: 0.3 };
const FIELD = { 'previous-token': 'previousToken', 'first-token': 'firstToken', local: 'local', induction: 'induction' };

// A head's score for a role (a head: {previousToken, firstToken, local, induction}).
export const scoreOf = (head, role) => head[FIELD[role]];

// Why a head has its role: {role, score, threshold} of its role, or of the score nearest its
// threshold (largest score / threshold) when none is reached (role '', nearest: that role).
export function roleReason(head) {
  let best = null;
  for (const r of ROLES) {
    const score = scoreOf(head, r);
    if (!Number.isFinite(score)) continue;
    const ratio = score / THRESHOLDS[r];
    if (!best || ratio > best.ratio) best = { role: r, score, threshold: THRESHOLDS[r], ratio };
  }
  if (!best) return { role: '', nearest: null };
  return best.ratio >= 1 ? { role: best.role, score: best.score, threshold: best.threshold }
    : { role: '', nearest: best.role, score: best.score, threshold: best.threshold };
}

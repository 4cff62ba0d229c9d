// The signature table (one row per function of the public API that is one call of the
// module) and the generic wrapper that makes a function of each row.

import { named } from './checks.mjs';

// ---- the functions that are one binding each ---------------------------------------------------
//
// name: its parameters, 'label: kind' or 'label: kind = default' (JSON). The label names the
// argument in error messages; the kind checks it (see checks() above). The raw function of
// the same name is bound in wasm/<header>.cpp; adding a function is one line here, one line
// there and its entry in attn.d.ts.
export const SIGNATURES = {
  // linalg.hpp
  matmul: ['A: matrix', 'B: matrix'],
  matmulBt: ['A: matrix', 'B: matrix'],
  transpose: ['A: matrix'],
  // attention.hpp
  scores: ['Q: matrix', 'K: matrix'],
  scale: ['S: matrix', 'factor: number'],
  causalMask: ['Tq: count', 'Tk: count'],
  addMask: ['S: matrix', 'mask: matrix'],
  softmax: ['S: matrix', 'options: axis'],
  weightedSum: ['P: matrix', 'V: matrix'],
  attention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: attentionOptions'],
  attentionOutput: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: maskOptions'],
  // flash.hpp
  flashAttention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: flashOptions'],
  // dropout.hpp
  dropout: ['P: matrix', 'options: rateAndSeed'],
  // multihead.hpp
  splitHeads: ['X: matrix', 'heads: positive'],
  concatHeads: ['list: matrices'],
  multiHeadAttention: ['X: matrix', 'options: multiHeadOptions'],
  // positional.hpp
  positionalEncoding: ['T: count', 'd: positive'],
  sinusoidAngles: ['T: count', 'd: positive'],
  // cost.hpp
  cost: ['input: costInput'],
  // random.hpp
  random: ['options: randomOptions'],
  // memory.hpp
  heapBytes: [],
  resetPeakMemory: [],
  profileAttention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: profileOptions'],
  // examples.hpp
  example: ['example name: string'],
  // reductions.hpp
  rowSums: ['M: matrix'],
  colSums: ['M: matrix'],
  rowMax: ['M: matrix'],
  rowArgmax: ['M: matrix'],
  rowDots: ['A: matrix', 'B: matrix'],
  rowNorms: ['M: matrix'],
  normalizeRows: ['M: matrix', 'norm: nonNegative = 1'],
  normalizeWeights: ['W: matrix'],
  difference: ['A: matrix', 'B: matrix'],
  add: ['A: matrix', 'B: matrix'],
  maxAbsDiff: ['A: matrix', 'B: matrix'],
  diagonal: ['M: matrix'],
  permuteRows: ['M: matrix', 'perm: indices'],
  columnRange: ['M: matrix'],
  // statistics.hpp
  moments: ['M: matrix'],
  histogram: ['M: matrix', 'histogram options: histogramOptions'],
  // geometry.hpp
  dotGeometry: ['a: matrix', 'b: matrix'],
  convexHull: ['points: matrix'],
  hullDistance: ['p: matrix', 'points: matrix'],
  diagonalCheck: ['S: matrix', 'diagonalCheck options: relTol'],
  // attention.hpp: the softmax one intermediate at a time
  softmaxParts: ['S: matrix', 'softmaxParts options: axis'],
  // grad.hpp
  softmaxJacobianDiag: ['P: matrix'],
  // score_scale.hpp
  scalingEffect: ['S: matrix', 'factor: positiveNumber'],
  scoreScale: ['dk: positive'],
  sampleDotProducts: ['sampleDotProducts options: sampleOptions'],
  // grad.hpp
  softmaxJacobian: ['p: matrix'],
  // recurrent.hpp: the recurrent state h_t = r h_{t-1} + (1 - r) x_t
  recurrentScan: ['X: matrix', 'retention: number'],
  // constructed_heads.hpp
  tokenFeatures: ['flags: indices'],
  constructedHead: ['kind: string', 'T: positive', 'strength: number = 4'],
  // attribution.hpp: views of a text model's attention (the trained-heads chapter)
  groupByCharacter: ['P: matrix', 'group: indices'],
  normWeights: ['P: matrix', 'valueNorm: numbers'],
  weightNormDistance: ['P: matrix', 'N: matrix'],
  // model.hpp
  task: ['task name: string'],
  liveModels: [],
};

// The one generic wrapper: a public function from its row of SIGNATURES.
export function binding(raw, name, params, kinds) {
  const fn = raw[name];
  if (typeof fn !== 'function') throw new Error(`attn.mjs: the module binds no ${name}`);
  const ps = params.map((p) => {
    const m = /^(.*?):\s*(\w+)(?:\s*=\s*(.+))?$/.exec(p);
    if (!m || !kinds[m[2]]) throw new Error(`attn.mjs: bad signature '${p}' of ${name}`);
    return { label: m[1], check: kinds[m[2]], fallback: m[3] === undefined ? undefined : JSON.parse(m[3]) };
  });
  const arg = (p, v) => p.check(v === undefined ? p.fallback : v, p.label);
  const [p0, p1, p2, p3] = ps;
  let f;
  if (ps.some((p) => p.check.spreads)) {
    f = (...args) => {
      const out = [];
      ps.forEach((p, i) => (p.check.spreads ? out.push(...arg(p, args[i])) : out.push(arg(p, args[i]))));
      return fn(...out);
    };
  } else {
    // One arrow per arity, so a call builds no argument array (the page calls attention()
    // on every edit).
    f = [() => fn(),
      (a) => fn(arg(p0, a)),
      (a, b) => fn(arg(p0, a), arg(p1, b)),
      (a, b, c) => fn(arg(p0, a), arg(p1, b), arg(p2, c)),
      (a, b, c, d) => fn(arg(p0, a), arg(p1, b), arg(p2, c), arg(p3, d))][ps.length];
  }
  if (!f) throw new Error(`attn.mjs: ${name} takes more parameters than binding() handles`);
  return named(name, f, ps.length);
}


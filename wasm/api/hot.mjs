// The public functions a chapter calls on every edit, written out: attention,
// attentionOutput, flashAttention, scores and softmax. Each makes exactly the checks of its
// row of SIGNATURES (the same kinds from checks.mjs, in the same order, with the same
// messages) and calls the boundary's hot transfer of the same name (boundary.mjs). Written
// once per function so that each call site sees one shape and one target: the generic
// binding() and named() are shared by every function of the API, and their calls run
// megamorphic. docs/benchmarks.md, "Small calls on Embind", has what it saves.

import { renamed } from './checks.mjs';

// raw: connect()'s functions; kinds, checkMatrix: from checks().
export function hotApi(raw, kinds, checkMatrix) {
  const { scores: rawScores, softmax: rawSoftmax, attention: rawAttention } = raw;
  const { attentionOutput: rawOutput, flashAttention: rawFlash } = raw;
  const { axis, attentionOptions, maskOptions, flashOptions } = kinds;
  return {
    // scores: ['Q: matrix', 'K: matrix']
    scores(Q, K) {
      try {
        const q = checkMatrix(Q, 'Q'), k = checkMatrix(K, 'K');
        return rawScores(q, k);
      } catch (e) {
        throw renamed(e, 'scores');
      }
    },
    // softmax: ['S: matrix', 'options: axis']
    softmax(S, options) {
      try {
        const s = checkMatrix(S, 'S'), a = axis(options, 'options');
        return rawSoftmax(s, a);
      } catch (e) {
        throw renamed(e, 'softmax');
      }
    },
    // attention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: attentionOptions']
    attention(Q, K, V, options) {
      try {
        const q = checkMatrix(Q, 'Q'), k = checkMatrix(K, 'K'), v = checkMatrix(V, 'V');
        return rawAttention(q, k, v, attentionOptions(options, 'options'));
      } catch (e) {
        throw renamed(e, 'attention');
      }
    },
    // attentionOutput: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: maskOptions']
    attentionOutput(Q, K, V, options) {
      try {
        const q = checkMatrix(Q, 'Q'), k = checkMatrix(K, 'K'), v = checkMatrix(V, 'V');
        return rawOutput(q, k, v, maskOptions(options, 'options'));
      } catch (e) {
        throw renamed(e, 'attentionOutput');
      }
    },
    // flashAttention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: flashOptions']
    // (attn.mjs adds its `out` option around it)
    flashAttention(Q, K, V, options) {
      try {
        const q = checkMatrix(Q, 'Q'), k = checkMatrix(K, 'K'), v = checkMatrix(V, 'V');
        return rawFlash(q, k, v, flashOptions(options, 'options'));
      } catch (e) {
        throw renamed(e, 'flashAttention');
      }
    },
  };
}

// Chapter "Why one head is not enough": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead', class: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },
  { p: 'construction', vars: 'dims', class: 'note construction' },

  { h3: 'inputTitle' },
  { figure: 'sentence' }, // the cat ate the fish / the fish ate the cat
  { p: 'inputBody', vars: 'dims', example: 'inputEdited' },
  { figure: 'inputs' }, // strength, reset, X, and the weights folded away

  { h3: 'compareTitle' },
  { p: 'compareBody', vars: 'dims' },
  { figure: 'heads' }, // P with one head beside P_1, P_2 with two
  { p: ['weightsVerdict', 'weightsVerdictUntied'], choose: 'verdict', vars: 'verdict', class: 'check', data: { check: 'weights' } },

  { h3: 'outputTitle' },
  { p: 'outputBody', example: 'edited' },
  { figure: 'outputs' }, // Y with one head and with two
  { p: ['swapVerdict', 'swapBoth', 'swapNeither'], choose: 'swap', vars: 'swap', class: 'check', data: { check: 'swap' } },
  { p: 'projectionNote' },
  { p: 'tryIt', class: 'try', example: 'edited' },
  { p: 'summary', class: 'summary' },
];

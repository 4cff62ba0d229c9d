// Chapter "Core Attention": its prose blocks and figures in reading order (kit/narrative.js).
// The words are in ko.js/en.js; the figures are built by index.js. The five step panels are
// containers named here; the stepper (figure 'steps') shows them as tabs.
export default [
  { h2: 'title' },
  { p: 'lead', vars: 'dims', class: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },

  { h3: 'inputsTitle' },
  { p: 'inputsBody', vars: 'dims' },
  { figure: 'controls' }, // the causal toggle and reset
  { p: 'editHint', common: true, class: 'hint' },
  { figure: 'inputs' }, // Q, K, V

  // the multi-head flow
  { h3: 'flowTitle' },
  { p: 'flowBody', vars: 'dims' },
  { figure: 'flow' }, // per head: Q_h, K_h, V_h → O_h
  { p: 'concatBody', vars: 'dims' },
  { figure: 'concat' }, // H = [O_1 | O_2]

  // one head, step by step
  { h3: 'stepsTitle', vars: 'stepsTitle', id: 'core-attention-steps' },
  { figure: 'headPicker' },
  { div: [
    { p: 'scoresBody', vars: 'scoresBody' },
    { figure: 'scores' }, // Q_h, K_h, S
    { p: 'scoresTry', vars: 'dims', class: 'hint' },
    { figure: 'dot' }, // one dot product worked
    { figure: 'code1' },
  ], name: 'scoresPanel' },
  { div: [
    { p: 'scaleBody', vars: 'scaleBody' },
    { figure: 'scale' }, // S → S/√d_h
    { figure: 'code2' },
  ], name: 'scalePanel' },
  { div: [
    { p: ['maskBodyOn', 'maskBodyOff'], choose: 'maskBody', vars: 'dims' },
    { figure: 'mask' }, // S/√d_h + M
    { figure: 'code3' },
  ], name: 'maskPanel' },
  { div: [
    { p: 'softmaxBody', vars: 'dims' },
    { figure: 'softmax' }, // masked scores → P, its row sums
    { figure: 'softmaxWorked' }, // one row's softmax worked
    { figure: 'code4' },
  ], name: 'softmaxPanel' },
  { div: [
    { p: 'pvBody', vars: 'dims' },
    { figure: 'output' }, // P V_h = O_h
    { figure: 'outputWorked' }, // one output row worked
    { p: ['firstToken'], choose: 'firstToken', vars: 'dims', class: 'note' },
    { figure: 'code5' },
  ], name: 'outputPanel' },
  { figure: 'steps' }, // the stepper: the five panels above, one tab each
  { p: 'tryIt', vars: 'dims', class: 'try' },
  { p: 'summary', vars: 'dims', class: 'summary' },
];

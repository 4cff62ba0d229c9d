// Chapter "The weighted sum": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },

  // inputs
  { h3: 'inputsTitle' },
  { p: 'inputsBody' },
  { figure: 'inputs' }, // V, weights or scores, their sliders
  { figure: 'output' }, // α, its sum, o = αV, worked

  // the plot
  { h3: 'hullTitle' },
  { p: 'hullBody' },
  { figure: 'plot' },
  { p: 'dragHint', class: 'hint' },
  { ul: [
    { li: 'checkHull', vars: 'hull' },
    { li: 'checkRange', vars: 'range' },
  ], class: 'checks', data: { checks: 'weighted-sum' } },

  // exceptions
  { h3: 'exceptionsTitle' },
  { p: 'exceptionsBody' },
  { figure: 'dropout' }, // its switch, rate, new draw; the dropped weights and output
  { p: 'dropCheck', vars: 'drop', class: 'check-line', data: { check: 'dropout' }, name: 'dropCheck' },
  { p: 'maskedLine', vars: 'masked', class: 'check-line', data: { check: 'masked' } },
  { p: 'summary', class: 'summary' },
];

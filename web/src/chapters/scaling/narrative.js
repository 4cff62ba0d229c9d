// Chapter "Dot product and √d_k": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead', class: 'lead' },

  // geometry
  { h3: 'geoTitle' },
  { p: 'geoBody' },
  { figure: 'geoInputs' }, // q and k
  { div: [
    { figure: 'geoPlot' },
    { p: 'geoMath', vars: 'geoVars', class: 'worked-math', data: { out: 'geometry' } },
  ], class: 'geo' },
  { p: 'geoTry', class: 'try' },

  // the sampling experiment
  { h3: 'varTitle' },
  { p: 'varBody' },
  { figure: 'sampleControls' }, // d_k, seed, count, reset
  { figure: 'histograms' }, // q·k and q·k / √d_k
  { p: 'varStats', vars: 'statVars', class: 'summary', data: { out: 'variance' }, name: 'stats' },
  { p: ['varPending'], choose: 'pending', vars: 'pendingVars', class: 'note', data: { out: 'variance-pending' } },
  { h4: 'sweepTitle' },
  { figure: 'sweep' }, // the variance by d_k: plot and table
  { p: ['sweepPending'], choose: 'sweepPending', class: 'note', data: { out: 'sweep-pending' } },
  { p: 'sweepBody', class: 'summary' },

  // saturation
  { h3: 'satTitle' },
  { p: 'satBody', vars: 'sat', data: { out: 'saturation' } },
  { figure: 'satControls' }, // d_k again
  { figure: 'satInputs' }, // the scores s
  { figure: 'satRows' }, // softmax and p(1 − p) of s, s / √d_k, s / d_k
  { p: 'satRatio', vars: 'satVars', class: 'verdict', data: { out: 'ratio' } },
  { p: ['satRounding'], choose: 'rounding', vars: 'satVars', class: 'note', data: { out: 'rounding' } },
  { p: ['satDkUniform', 'satDkFlatter'], choose: 'overSquash', vars: 'dkVars', class: 'note', data: { out: 'over-squash' } },
  { p: 'satRank', class: 'summary' },
  { p: ['satPush'], choose: 'push', vars: 'pushVars', class: 'summary', data: { out: 'push' } },
];

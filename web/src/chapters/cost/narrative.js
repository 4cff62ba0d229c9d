// Chapter "The cost of n²": its prose blocks and figures in reading order (kit/narrative.js).
// The words are in ko.js/en.js; the figures (the tables' cells too) are built by index.js.
// Every placeholder is filled from the draw function's `vars` (vars: 'vars').
export default [
  { h2: 'title' },
  { p: 'lead', vars: 'vars', class: 'lead' },

  // 1. two matrix products: the complexity table
  { h3: 'productsTitle' },
  { p: 'productsBody', vars: 'vars' },
  { figure: 'sizes' }, // n, d_model, h
  // (the table's caption is a paragraph that names it: cost/index.js says why)
  { p: 'tableCaption', vars: 'vars', class: 'table-caption', id: 'cost-complexity-caption' },
  { figure: 'complexity' }, // the complexity table
  { p: 'growthBody', vars: 'vars', class: 'cost-growth' },

  // 2. n²·d against n·d²
  { h3: 'crossTitle' },
  { p: 'crossBody', vars: 'vars' },
  { figure: 'crossover' },

  // 3. memory of the attention matrix
  { h3: 'memTitle' },
  { p: 'memBody' },
  { figure: 'memory' }, // n, heads, layers, bytes; the figures they give
  { p: 'memTraining' },
  { p: 'memRemedies' },

  // 4. the live run
  { h3: 'liveTitle' },
  { p: 'liveBody', vars: 'vars' },
  { figure: 'live' }, // its settings, Run and Cancel, progress and status, plots, table
  { p: 'liveReading' },

  // 5. maximum path length
  { h3: 'pathTitle' },
  { p: 'pathBody', vars: 'vars' },
  { p: 'summary', class: 'summary' },
];

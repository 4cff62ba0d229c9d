// Chapter "Review": its prose blocks and figures in reading order (kit/narrative.js). The
// words are in ko.js/en.js; the figures (and the links to other chapters) are built by
// index.js.
export default [
  { h2: 'title' },
  // (alone, no other chapter is here to link to: the lead says nothing of links)
  { p: ['lead', 'leadAlone'], choose: 'lead' },

  // the lecture's three questions, each answered by a live figure and links
  { div: [
    { h3: 'q1' },
    { p: 'a1' },
    { figure: 'q1' }, // the d_k slider, raw and scaled scores and their softmax
    { p: 'a1check', vars: 'a1check', class: 'check-line', data: { check: 'q1' } },
    { figure: 'q1Links' },
  ], class: 'review-item', data: { question: 'q1' } },
  { div: [
    { h3: 'q2' },
    { p: 'a2' },
    { figure: 'q2' }, // q, K (editable), the scaled scores, α and its sum
    { p: 'a2check', vars: 'a2check', class: 'check-line', data: { check: 'q2' } },
    { figure: 'q2Links' },
  ], class: 'review-item', data: { question: 'q2' } },
  { div: [
    { h3: 'q3' },
    { p: 'a3' },
    { p: 'a3check', vars: 'a3check', class: 'check-line', data: { check: 'q3' } },
    { figure: 'q3Links' },
  ], class: 'review-item', data: { question: 'q3' } },

  // the lecture's summary, each point with links to the chapters that show it
  { h3: 'summaryTitle' },
  { p: 'summaryBody' },
  { ol: [
    { li: [{ span: 'p1' }, { figure: 'p1Links' }] },
    { li: [{ span: 'p2' }, { figure: 'p2Links' }] },
    { li: [{ span: 'p3' }, { figure: 'p3Links' }] },
    { li: [{ span: 'p4' }, { figure: 'p4Links' }] },
    { li: [{ span: 'p5' }, { figure: 'p5Links' }] },
    { li: [{ span: 'p6' }, { figure: 'p6Links' }] },
    { li: [{ span: 'p7' }, { figure: 'p7Links' }] },
  ], class: 'review-points' },
  { p: 'formulaLine', class: 'review-formula' },
  { h3: ['moreTitle'], choose: 'more' }, // (none alone: no other chapter on the page)
  { figure: 'moreLinks' },
];

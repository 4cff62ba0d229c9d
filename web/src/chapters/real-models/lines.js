// The real-models chapter's lines of prose: a line said (its template filled, set as prose)
// or hidden when there is nothing to say, a node shown or hidden (written only when it
// changes), and text from outside (file and tensor names, the learner's tokens) made safe
// for prose set as HTML with $TeX$; a big block that skips its layout and paint while far
// from the screen.
import { setProse, escapeHtml } from '../../kit/prose.js';

// Text from outside in prose set as HTML with $TeX$.
export const safe = (s) => escapeHtml(String(s ?? '')).replace(/\$/g, '&#36;');
// A token as the page shows it: a space, a line break and a tab made visible.
export const shownToken = (t) => String(t).replace(/ /g, '␣').replace(/\n/g, '↵').replace(/\t/g, '⇥');

// A line said, or hidden (template null).
export const say = (node, template, vars) => {
  node.hidden = !template;
  setProse(node, template ?? '', vars ?? {});
};
export const show = (node, on) => {
  if (node.hidden !== !on) node.hidden = !on;
};

// The big blocks skip their layout and paint while far from the screen (a sentence's two
// T × T grids are ~2,000 elements, GPT-2 small's maps 300; not its role table: role-table.js).
export const offscreenCheap = (node, height) => Object.assign(node.style, { contentVisibility: 'auto', containIntrinsicSize: `auto ${height}` });

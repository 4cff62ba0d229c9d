// Where a plot mark's label goes (web/src/components/plot.js placeLabel): on no line.
import test from 'node:test';
import assert from 'node:assert/strict';
import { placeLabel } from '../../web/src/components/plot.js';

// The cost chapter's live run as it ended (1280 px, issue 26): "plain no longer fits" marks
// the last tiled point, in the plot's top right corner, where the tiled line and the trend
// meet it from the lower left. The near places all cross a line: the label goes further out.
test('placeLabel: a mark in the corner where two lines meet gets a place on no line', () => {
  const tiled = [[313.143, 115.673], [377.429, 81.922], [441.714, 47.043], [506, 12]];
  const trend = [[56, 258], [506, 12]];
  const plain = [[313.143, 116.406], [377.429, 88.68], [441.714, 53.709]];
  const area = [56, 12, 506, 258];
  const p = placeLabel([506, 12], 112, [plain, tiled, trend, [[506, 12]]], [], area);
  assert.equal(p.cost, 0, JSON.stringify(p));
  assert.ok(p.box[0] >= area[0] && p.box[2] <= area[2] && p.box[1] >= area[1] - 2 && p.box[3] <= area[3], JSON.stringify(p.box));
  assert.ok(Math.hypot(Math.max(0, p.box[0] - 506, 506 - p.box[2]), Math.max(0, p.box[1] - 12, 12 - p.box[3])) < 160, 'near its mark');
  // a free place beside the point is still the first one tried (above right)
  assert.deepEqual(placeLabel([200, 150], 60, [], [], area), { cost: 0, x: 208, y: 142, anchor: 'start', box: [208, 131, 268, 145] });
});

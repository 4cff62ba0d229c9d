// components/weight-map.js: a head's weights as one pixel each, in the weights' colour.
import test from 'node:test';
import assert from 'node:assert/strict';
import { weightColours, weightMapPainter } from '../../web/src/components/weight-map.js';

// A canvas stand-in that keeps what was put on it.
function fakeCanvas() {
  const c = { width: 300, height: 150, put: null };
  c.getContext = () => ({
    createImageData: (w, h) => ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }),
    putImageData: (img) => { c.put = img; },
  });
  return c;
}

test('weightColours: rgb bytes per hundredth, cached; not a number is transparent', () => {
  let calls = 0;
  const rgba = weightColours((v) => { calls++; return `rgb(${Math.round(v * 100)}, 2, 3)`; });
  assert.deepEqual(rgba(0.5), [50, 2, 3, 255]);
  assert.deepEqual(rgba(0.501), [50, 2, 3, 255]); // the same hundredth
  assert.equal(calls, 1);
  assert.deepEqual(rgba(NaN), [0, 0, 0, 0]);
  assert.deepEqual(rgba(Infinity), [0, 0, 0, 0]);
});

test('weightMapPainter: a T × T canvas, the weights read from offset, row by row', () => {
  const paint = weightMapPainter(weightColours((v) => `rgb(${Math.round(v * 100)}, 0, 0)`));
  const c = fakeCanvas();
  const data = Float32Array.of(9, 9, 0.1, 0.2, 0.3, NaN, 9);
  paint(c, data, 2, 2);
  assert.equal(c.width, 2);
  assert.equal(c.height, 2);
  assert.deepEqual([...c.put.data], [10, 0, 0, 255, 20, 0, 0, 255, 30, 0, 0, 255, 0, 0, 0, 0]);
});

// A head's attention weights as a small picture: one pixel per weight, in the weights'
// colour (colors.js weightScale) rounded to a hundredth, written as the bytes of one image
// (a fillRect per pixel, its colour parsed each time, was most of a redraw of 16 maps).
// Used by the trained-heads and real-models chapters' maps.
//
//   const paint = weightMapPainter();
//   paint(canvas, weights, offset, T);   // the T × T weights from data[offset]; canvas T × T px
import { weightScale } from './colors.js';

// A weight's colour as RGBA bytes, cached per hundredth; a weight that is not a number stays
// transparent. (The scale gives "rgb(r, g, b)".)
export function weightColours(scale = weightScale()) {
  const colour = new Map(); // hundredths -> [r, g, b, 255]
  return (p) => {
    const key = Math.round(p * 100);
    let c = colour.get(key);
    if (!c) {
      const x = Number.isFinite(p) ? String(scale(key / 100)).match(/^rgb\((\d+), (\d+), (\d+)\)$/) : null;
      c = x ? [+x[1], +x[2], +x[3], 255] : [0, 0, 0, 0];
      colour.set(key, c);
    }
    return c;
  };
}

// paint(canvas, data, offset, T): draws the T × T weights stored row by row from data[offset]
// on the canvas, resized to T × T pixels (CSS scales it up).
export function weightMapPainter(rgba = weightColours()) {
  return (canvas, data, offset, T) => {
    if (canvas.width !== T) canvas.width = canvas.height = T;
    const g = canvas.getContext('2d');
    const img = g.createImageData(T, T);
    for (let q = 0; q < T * T; q++) img.data.set(rgba(data[offset + q]), 4 * q);
    g.putImageData(img, 0, 0);
  };
}

// Small read-only helpers on {rows, cols, data} matrices returned by the core.
// They only index and copy; every number is computed by the core.
export const at = (m, i, j) => m.data[i * m.cols + j];
export const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
export const colOf = (m, j) => Array.from({ length: m.rows }, (_, i) => m.data[i * m.cols + j]);

// A copy of m with entry (i, j) replaced: how an edited cell enters the state.
export function withEntry(m, i, j, value) {
  const data = Float32Array.from(m.data);
  data[i * m.cols + j] = value;
  return { rows: m.rows, cols: m.cols, data };
}

// Types of the public JS API (wasm/attn.mjs). Shapes are written rows x cols.
// A Matrix is row-major: entry (i, j) is data[i * cols + j].

export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** A matrix as accepted on input: data may also be a Float64Array or number[]. */
export interface MatrixLike {
  rows: number;
  cols: number;
  data: Float32Array | Float64Array | number[];
}

export interface DropoutOptions {
  /** Probability of dropping a weight, in [0, 1). */
  rate?: number;
  /** Non-negative safe integer; the same seed gives the same mask. */
  seed?: number;
  /** Dropout applies only when true (training); evaluation is the identity. */
  training?: boolean;
}

export interface AttentionOptions {
  /** Hide key j from query i when j > i (top-left aligned when T_q != T_k). */
  causal?: boolean;
  /** Factor applied to the scores; default 1/sqrt(d_k). Must be finite. */
  scale?: number;
  /** Additive T_q x T_k mask (0 keeps, -Infinity hides), applied with the causal mask. */
  mask?: MatrixLike;
  dropout?: DropoutOptions;
}

/** Every intermediate of one attention call (Vaswani et al. 2017, eq. 1). */
export interface Trace {
  /** The factor applied to the scores. */
  scale: number;
  /** S = Q Kᵀ, T_q x T_k. */
  scores: Matrix;
  /** S * scale. */
  scaled: Matrix;
  /** scaled + masks; -Infinity where hidden. */
  masked: Matrix;
  /** P = softmax over rows; a fully masked row is all zeros. */
  weights: Matrix;
  /** P after dropout (equal to weights in evaluation mode). */
  dropped: Matrix;
  /** O = dropped · V, T_q x d_v. */
  output: Matrix;
}

export interface MultiHeadOptions {
  /** d_model x D */
  Wq: MatrixLike;
  /** d_model x D */
  Wk: MatrixLike;
  /** d_model x D_v */
  Wv: MatrixLike;
  /** D_v x d_out */
  Wo: MatrixLike;
  /** Number of heads; must divide D and D_v. Head i owns columns [i*D/h, (i+1)*D/h). */
  heads: number;
  causal?: boolean;
  /** Head i uses seed + i. */
  dropout?: DropoutOptions;
}

export interface MultiHeadTrace {
  q: Matrix;
  k: Matrix;
  v: Matrix;
  heads: Trace[];
  concat: Matrix;
  output: Matrix;
}

export interface CostInput {
  n: number;
  dModel: number;
  heads?: number;
  layers?: number;
  bytesPerElement?: number;
}

/** The cost model of one self-attention layer (see core/include/attn/cost.hpp). */
export interface Cost {
  dHead: number;
  flopsProjections: number;
  flopsScores: number;
  flopsWeightedSum: number;
  flopsAttention: number;
  flopsLayer: number;
  flopsTotal: number;
  attentionEntries: number;
  bytesPerMatrix: number;
  bytesPerLayer: number;
  bytesTotal: number;
  flopsRecurrent: number;
  crossoverN: number;
  pathLengthAttention: number;
  pathLengthRecurrent: number;
  sequentialStepsAttention: number;
  sequentialStepsRecurrent: number;
}

export interface CoreAttentionExample {
  tokens: number;
  dModel: number;
  heads: number;
  Q: Matrix;
  K: Matrix;
  V: Matrix;
}

/** Statistics of every entry, accumulated in double (analysis.hpp). */
export interface Moments {
  count: number;
  sum: number;
  mean: number;
  /** Population variance: Σ (x − mean)² / count. */
  variance: number;
  std: number;
  min: number;
  max: number;
}

export interface Histogram {
  lo: number;
  hi: number;
  /** bins + 1 edges; bin k is [edges[k], edges[k+1]), the last bin also takes hi. */
  edges: number[];
  counts: number[];
  below: number;
  above: number;
  nonFinite: number;
}

/** q·k two ways: Σ q_i k_i and |q||k|cos θ. cos and degrees are NaN when a norm is 0. */
export interface DotGeometry {
  dot: number;
  normA: number;
  normB: number;
  cos: number;
  degrees: number;
}

/** Per row of a square S (n x 1 each): S_ii, max over j ≠ i, their difference, 1 when S_ii ≥ the rest. */
export interface DiagonalCheck {
  diagonal: Matrix;
  offMax: Matrix;
  margin: Matrix;
  holds: Matrix;
}

/** The stable softmax step by step; max/sums are r x 1 (rows) or 1 x c (cols). */
export interface SoftmaxParts {
  max: Matrix;
  /** S − max (a fully masked row stays −∞). */
  shifted: Matrix;
  /** e^(S − max): what the core exponentiates. */
  exp: Matrix;
  sums: Matrix;
  /** e^S itself, as computed by hand; +Infinity where it overflows float. */
  expRaw: Matrix;
  sumsRaw: Matrix;
  /** Identical to softmax(S, {axis}). */
  weights: Matrix;
}

/** Softmax and its gradient p(1 − p) before and after multiplying the scores by factor. */
export interface ScalingEffect {
  factor: number;
  scaled: Matrix;
  weights: Matrix;
  weightsScaled: Matrix;
  grad: Matrix;
  gradScaled: Matrix;
  /** r x 1: column of each row's largest score. */
  top: Matrix;
  gradTop: Matrix;
  gradTopScaled: Matrix;
  /** r x 1: gradTopScaled / gradTop, computed in double. */
  ratio: Matrix;
}

export interface ScoreScale {
  dk: number;
  /** √d_k (double): also the standard deviation of q·k for unit-variance entries. */
  sqrtDk: number;
  /** 1/√d_k as attention() applies it (float). */
  factor: number;
}

/** count pairs q, k with d_k independent N(0, 1) entries, their dot products and statistics. */
export interface DotProductSample {
  dk: number;
  count: number;
  seed: number;
  /** count x 1: q·k */
  dots: Matrix;
  /** count x 1: q·k / √d_k */
  scaled: Matrix;
  raw: Moments;
  normalized: Moments;
  /** d_k */
  expectedVariance: number;
}

/**
 * Errors: TypeError for arguments of the wrong type; RangeError (with the core's
 * message, naming both shapes for a mismatch) for wrong shapes, sizes or values.
 * The module keeps working after any error. Every returned Matrix is a fresh copy.
 */
export interface Attention {
  /** The instruction set the core was built for, e.g. "wasm-simd128". */
  readonly simd: string;
  /** Current size of the module's memory in bytes. */
  heapBytes(): number;
  /** A rows x cols matrix, zero-filled or copied from data (length rows*cols). */
  matrix(rows: number, cols: number, data?: ArrayLike<number>): Matrix;
  /** (m x k)(k x n) -> m x n */
  matmul(A: MatrixLike, B: MatrixLike): Matrix;
  /** (m x k)(n x k)ᵀ -> m x n */
  matmulBt(A: MatrixLike, B: MatrixLike): Matrix;
  transpose(A: MatrixLike): Matrix;
  /** S = Q Kᵀ: (T_q x d_k)(T_k x d_k)ᵀ -> T_q x T_k */
  scores(Q: MatrixLike, K: MatrixLike): Matrix;
  /** S * factor (factor must be finite) */
  scale(S: MatrixLike, factor: number): Matrix;
  /** T_q x T_k: 0 where j <= i, -Infinity where j > i */
  causalMask(Tq: number, Tk: number): Matrix;
  /** S + M, same shapes */
  addMask(S: MatrixLike, M: MatrixLike): Matrix;
  /** Row-wise (attention) or column-wise (the wrong-axis demo) softmax, max-subtracted. */
  softmax(S: MatrixLike, options?: { axis?: 'rows' | 'cols' }): Matrix;
  /** O = P V: (T_q x T_k)(T_k x d_v) -> T_q x d_v; zero weights take nothing from V. */
  weightedSum(P: MatrixLike, V: MatrixLike): Matrix;
  /** Inverted dropout: kept entries scaled by 1/(1 - rate), dropped entries exactly 0. */
  dropout(P: MatrixLike, options?: { rate?: number; seed?: number }): Matrix;
  /** softmax(Q Kᵀ * scale + M) V with every intermediate. */
  attention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: AttentionOptions): Trace;
  /** T x D -> heads matrices of T x D/heads (contiguous column blocks). */
  splitHeads(X: MatrixLike, heads: number): Matrix[];
  /** heads matrices of T x d_h -> T x (sum of widths) */
  concatHeads(list: MatrixLike[]): Matrix;
  /** Concat(head_1..head_h) W_O with head_i = Attention(X W_Q, X W_K, X W_V)[block i]. */
  multiHeadAttention(X: MatrixLike, options: MultiHeadOptions): MultiHeadTrace;
  /** Sinusoidal encoding, T x d (Vaswani et al. 2017, section 3.5); odd d allowed. */
  positionalEncoding(T: number, d: number): Matrix;
  cost(input: CostInput): Cost;
  /** A seeded random matrix, identical natively and in wasm (SplitMix64 counter hash). */
  random(options: { rows: number; cols: number; seed?: number; distribution?: 'normal' | 'uniform'; mean?: number; std?: number; lo?: number; hi?: number }): Matrix;
  /** The documents' worked examples as inputs. */
  example(name: 'core-attention'): CoreAttentionExample;
  // ---- analysis helpers (core/include/attn/analysis.hpp) ----
  /** r x c -> r x 1 */
  rowSums(M: MatrixLike): Matrix;
  /** r x c -> 1 x c */
  colSums(M: MatrixLike): Matrix;
  /** r x c -> r x 1 (−Infinity for an empty row) */
  rowMax(M: MatrixLike): Matrix;
  /** a_i · b_i: (r x c, r x c) -> r x 1 */
  rowDots(A: MatrixLike, B: MatrixLike): Matrix;
  /** ‖m_i‖₂: r x c -> r x 1 */
  rowNorms(M: MatrixLike): Matrix;
  /** Each row scaled to length norm (default 1); a zero row stays zero. */
  normalizeRows(M: MatrixLike, norm?: number): Matrix;
  /** A − B, same shapes. */
  difference(A: MatrixLike, B: MatrixLike): Matrix;
  /** r x c -> min(r, c) x 1 */
  diagonal(M: MatrixLike): Matrix;
  moments(M: MatrixLike): Moments;
  histogram(M: MatrixLike, options: { bins?: number; lo: number; hi: number }): Histogram;
  /** a, b: 1 x d */
  dotGeometry(a: MatrixLike, b: MatrixLike): DotGeometry;
  /** S: n x n (e.g. X Xᵀ); ties count as holding; relTol (default 1e-6) absorbs float rounding. */
  diagonalCheck(S: MatrixLike, options?: { relTol?: number }): DiagonalCheck;
  softmaxParts(S: MatrixLike, options?: { axis?: 'rows' | 'cols' }): SoftmaxParts;
  /** P ⊙ (1 − P): ∂p_i/∂s_i. */
  softmaxJacobianDiag(P: MatrixLike): Matrix;
  /** p: 1 x n -> n x n, J_ij = p_i (δ_ij − p_j). */
  softmaxJacobian(p: MatrixLike): Matrix;
  /** factor > 0, finite (e.g. 1/√d_k). */
  scalingEffect(S: MatrixLike, factor: number): ScalingEffect;
  scoreScale(dk: number): ScoreScale;
  /** Seeded (seed < 2^52), deterministic; dk x count at most 2^28. */
  sampleDotProducts(options: { dk: number; count?: number; seed?: number }): DotProductSample;
}

export interface CreateOptions {
  /** The wasm bytes (otherwise fetched next to attn.mjs, or read from disk in Node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createAttention(options?: CreateOptions): Promise<Attention>;
export { createAttention };

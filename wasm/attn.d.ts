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
  /** The tiled kernel's tile edge, for bytesTiledLayer (default 128). */
  tile?: number;
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
  /** n²·d and n·d²: the per-layer complexity terms without constants (equal at n = d). */
  orderAttention: number;
  orderRecurrent: number;
  /** QKᵀ + PV FLOPs for 2n tokens, and a whole layer's (with projections). */
  flopsAttentionAt2n: number;
  flopsLayerAt2n: number;
  /** flopsAttentionAt2n / flopsAttention (4) and the same for a layer (below 4). */
  attentionGrowth: number;
  layerGrowth: number;
  /** (f(2n) − f(n)) / f(n) for QKᵀ + PV: the second n tokens cost 3x the first. */
  secondHalfRatio: number;
  /** Q, K, V and O of one layer. */
  bytesQkvo: number;
  /** bytesQkvo + every head's n x n matrix. */
  bytesPlainLayer: number;
  /** bytesQkvo + one tile of scores per head: O(n·d). */
  bytesTiledLayer: number;
}

export interface FlashOptions {
  /** Hide key j from query i when j > i; tiles entirely above the diagonal are skipped. */
  causal?: boolean;
  /** Factor applied to the scores; default 1/sqrt(d_k). */
  scale?: number;
  /** Additive T_q x T_k mask (0 keeps, -Infinity hides); fully masked tiles are skipped. */
  mask?: MatrixLike;
  /** Query rows per block and keys per tile, 1..1024 (default 128). */
  tile?: number;
}

export interface MemoryStats {
  /** Bytes the core holds now (every matrix and kernel buffer). */
  currentBytes: number;
  /** The most it held since the last resetPeakMemory(). */
  peakBytes: number;
}

export interface AttentionProfile {
  kernel: 'plain' | 'tiled';
  /** Wall time of the kernel alone, in ms (no copies across the JS boundary). */
  ms: number;
  /** Core memory the kernel needed on top of its inputs (its output included), in bytes. */
  workBytes: number;
  outputRows: number;
  outputCols: number;
}

export interface CoreAttentionExample {
  tokens: number;
  dModel: number;
  heads: number;
  Q: Matrix;
  K: Matrix;
  V: Matrix;
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
  /**
   * softmax(Q Kᵀ · scale + M) V by tiles with an online softmax (Dao et al. 2022): the
   * T_q x T_k matrix is never allocated (memory O(T·d)). Equal to attention().output up
   * to rounding; a fully masked row is zero; a key masked with -Infinity never counts.
   */
  flashAttention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: FlashOptions): Matrix;
  /** attention(...).output computed the plain way, with one T_q x T_k buffer and no trace. */
  attentionOutput(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: { causal?: boolean; scale?: number; mask?: MatrixLike }): Matrix;
  /** The core's own memory: what it holds now and its peak since resetPeakMemory(). */
  memoryStats(): MemoryStats;
  /** Sets the peak to the current size and returns the stats. */
  resetPeakMemory(): MemoryStats;
  /** Runs one kernel ('plain' or 'tiled') and measures its time and memory (the cost chapter's live run). */
  profileAttention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: { kernel?: 'plain' | 'tiled'; causal?: boolean; tile?: number }): AttentionProfile;
  /** A seeded random matrix, identical natively and in wasm (SplitMix64 counter hash). */
  random(options: { rows: number; cols: number; seed?: number; distribution?: 'normal' | 'uniform'; mean?: number; std?: number; lo?: number; hi?: number }): Matrix;
  /** The documents' worked examples as inputs. */
  example(name: 'core-attention'): CoreAttentionExample;
}

export interface CreateOptions {
  /** The wasm bytes (otherwise fetched next to attn.mjs, or read from disk in Node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createAttention(options?: CreateOptions): Promise<Attention>;
export { createAttention };

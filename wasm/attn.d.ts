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

/** One non-finite input entry: where a NaN or an infinity entered. */
export interface NonFiniteEntry {
  /** "Q", "K", "V" or "mask" (multi-head: "X", "W_Q", "W_K", "W_V", "W_O"). */
  input: string;
  row: number;
  col: number;
  /** NaN, Infinity or -Infinity. */
  value: number;
}

/**
 * Where NaN or ±Infinity entered a computation (core/include/attn/attention.hpp,
 * "Numerics"). -Infinity in a mask, and in the scores, is a mask and is not counted.
 */
export interface NonFiniteReport {
  /** Non-finite input entries in total. */
  count: number;
  /** The first 16 of them, inputs in argument order, row-major. */
  entries: NonFiniteEntry[];
  /** Stages holding a NaN or ±Infinity, in computation order; the first is where it appeared. */
  stages: string[];
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
  /** Where a NaN or an infinity entered, if anywhere. */
  nonFinite: NonFiniteReport;
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
  /** Non-finite entries of X and the weights; stages "q", "k", "v", "concat", "output". */
  nonFinite: NonFiniteReport;
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
  /** layers · heads: attention matrices one input sequence produces (BERT-base: 144). */
  attentionMatrices: number;
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
  /** Query rows per block and keys per tile, 1..1024 (default: 128 rows x 512 keys in the SIMD cores, 128 x 128 in the scalar one). */
  tile?: number;
  /**
   * Where to write the T_q x d_v output (row-major): a Float32Array of exactly T_q·d_v
   * values, returned as the result's `data` (no fresh array per call). It may share memory
   * with Q, K or V (they are copied in first). TypeError if not a Float32Array, RangeError
   * (ShapeError) on a wrong length.
   */
  out?: Float32Array;
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

export interface WeightedSumExample {
  /** 3 x 2: the Values of 나는, 사과를, 먹었다 */
  V: Matrix;
  /** 1 x 3: the weights of 먹었다 */
  weights: Matrix;
}

export interface PermutationExample {
  /** 3 x 4: rows dog/개, man/사람, bites/물었다 */
  embeddings: Matrix;
  Wq: Matrix;
  Wk: Matrix;
  Wv: Matrix;
}

/** Six 3-dimensional inputs (illustrative) for attention without trainable weights. */
export interface NoWeightsExample {
  X: Matrix;
}

/** The same six inputs and projections W_Q, W_K, W_V (3 x 2, illustrative). */
export interface ProjectionsExample {
  X: Matrix;
  Wq: Matrix;
  Wk: Matrix;
  Wv: Matrix;
}

export type HeadKind = 'previous' | 'self' | 'first' | 'verb-object' | 'pronoun-noun';

export interface ReadingSentence {
  lang: 'ko' | 'en';
  /** 'a': the pronoun refers to the animate noun; 'b': it does not. */
  id: string;
  tokens: string[];
  /** Bit sets per token: verb = 1, object = 2, pronoun = 4, animate = 8. */
  flags: number[];
  /** Index of the pronoun and of the word it refers to. */
  pronoun: number;
  referent: number;
}

export interface ReadingHeadsExample {
  heads: HeadKind[];
  features: string[];
  sentences: ReadingSentence[];
}

/** The core-attention example continued: X (3 x 8) with X·W_Q, X·W_K, X·W_V equal to its Q, K, V; W_O 8 x 8. */
export interface MultiHeadExample {
  tokens: number;
  dModel: number;
  heads: number;
  X: Matrix;
  Wq: Matrix;
  Wk: Matrix;
  Wv: Matrix;
  Wo: Matrix;
}

/** Subject – object – verb tokens (d_model = 6) where one head splits and two heads focus. */
export interface OneHeadExample {
  verb: number;
  subject: number;
  object: number;
  X: Matrix;
  /** The same sentence with subject and object swapped ("the fish ate the cat"). */
  Xswapped: Matrix;
  Wq: Matrix;
  Wk: Matrix;
  Wv: Matrix;
  Wo: Matrix;
}

/** A toy task of the training chapter (core/include/attn/model.hpp). */
export interface TaskInfo {
  /** 'previous-token' | 'two-relations' | 'sort' */
  name: string;
  vocabIn: number;
  vocabOut: number;
  /** Tokens per training sequence. */
  seqLen: number;
  /** Lengths accepted by probe(). */
  minLen: number;
  maxLen: number;
  /** sort: the separator's token id; otherwise -1. */
  separator: number;
  /** The fixed probe sequence the chapter shows while training. */
  probe: number[];
  /** The offsets o the answer at i is read from (tokens at i − o): [1] for previous-token,
   *  [1, 3] for two-relations, [] for sort (found by content, not position). */
  offsets: number[];
  /** One label per input token id, e.g. "0".."9", "|". */
  tokenLabels: string[];
  /** One label per class, e.g. "47" for two-relations. */
  outputLabels: string[];
  /** The parts a task's loss is reported by (Evaluation.parts): induction ['first', 'repeated']; [] otherwise. */
  parts: string[];
}

export interface ModelConfig {
  /** Default 'previous-token'. */
  task?: 'previous-token' | 'two-relations' | 'sort' | 'induction';
  /** Non-negative safe integer; names the initial weights, the batches and the dropout masks. Default 1. */
  seed?: number;
  /** Default 1; must divide dModel unless dV is set. */
  heads?: number;
  /** 1..4, default 1. */
  layers?: number;
  /** Default 32. */
  dModel?: number;
  /** Per-head width of Q and K, default 64. */
  dK?: number;
  /** Per-head width of V; 0 (default) means dModel / heads. */
  dV?: number;
  /** Hidden width of the optional MLP block; 0 (default) means none. */
  mlpHidden?: number;
  /** Add the sinusoidal positional encoding. Default true. */
  positional?: boolean;
  /** Multiply the scores by 1/sqrt(dK). Default true. */
  scale?: boolean;
  /** Attention dropout while training, in [0, 1). Default 0. */
  dropout?: number;
  /** Adam learning rate, in (0, 10]. Default 0.01. */
  lr?: number;
  /** Sequences per step, 1..1024. Default 32. */
  batch?: number;
  /** Held-out sequences for evaluate(), 1..4096. Default 256. */
  evalSize?: number;
}

export interface TrainResult {
  /** Steps done so far. */
  step: number;
  /** Per step: mean cross-entropy of the training batch (before the update). */
  loss: Float32Array;
  /** Per step: the training batch's accuracy. */
  accuracy: Float32Array;
  /** Per step: ‖∂L/∂Z‖, the gradient at the softmax inputs, over every head, layer and sequence. */
  gradLogits: Float32Array;
  /** Per step: ‖∂L/∂S‖ with S = QKᵀ (= scale · gradLogits). */
  gradScores: Float32Array;
}

export interface Evaluation {
  step: number;
  /** Mean cross-entropy over the scored positions of the held-out set. */
  loss: number;
  /** Fraction of scored positions predicted right. */
  accuracy: number;
  /** Fraction of sequences with every scored position right. */
  sequenceAccuracy: number;
  positions: number;
  sequences: number;
  /** Per part of the task (TaskInfo.parts; induction: [first, repeated]); empty for a task without. */
  parts: { loss: number; accuracy: number; positions: number }[];
}

export interface ModelProbe {
  step: number;
  /** The sequence run (for sort, five digits are completed by the model itself). */
  tokens: number[];
  /** The task's answer per position; -1 where nothing is scored. */
  targets: number[];
  /** The part (index into TaskInfo.parts) of each position, -1 where nothing is scored; empty for a task without parts. */
  parts: number[];
  /** The model's argmax per position. */
  predictions: number[];
  /** T x vocabOut, softmax of the logits. */
  probabilities: Matrix;
  /** Per layer: every head's T x T weights (rows = queries), how saturated each head is, and
   *  offsetWeight[h][o] = the mean over rows i >= max(o, r) of weights[h](i, i - o), o = 0..T-1,
   *  r = the task's largest offset (rows where every position the answer needs exists): the
   *  weight head h puts on the token o places back. */
  layers: { heads: Matrix[]; logitStd: number[]; meanMaxWeight: number[]; offsetWeight: number[][] }[];
}

/**
 * A model living inside the module, driven through this plain object (no Embind object
 * crosses the boundary). Call dispose() when done; a forgotten handle is freed when it is
 * garbage-collected.
 */
export interface ModelHandle {
  readonly id: number;
  /** The resolved configuration (every field filled in). */
  readonly config: Required<ModelConfig>;
  readonly task: TaskInfo;
  /** Number of trainable parameters. */
  readonly parameters: number;
  /** Runs `steps` (default 1, at most MAX_TRAIN_STEPS = 100000) Adam steps on fresh
   *  training batches. RangeError "train: ..." past the limit. */
  train(steps?: number): TrainResult;
  /** Loss and accuracy on the task's held-out sequences (evaluation mode, no dropout). */
  evaluate(): Evaluation;
  /** Every head's weights and the predictions on one sequence of token ids (task.minLen to
   *  task.maxLen of them, each 0..task.vocabIn-1; RangeError "probe: ..." otherwise,
   *  TypeError for a non-number). */
  probe(tokens: ArrayLike<number>): ModelProbe;
  /** Every head's role scores (head_roles.hpp: the same scores and thresholds as the text
   *  model's heads()) on the first `sequences` (default 64, 1..4096) held-out sequences of
   *  the task; the induction score counts the rows whose token occurred before (the
   *  induction task's repeated half). RangeError "heads: ..." outside the range. */
  heads(sequences?: number): ModelHeads;
  /** Frees the model; later calls throw. Safe to call twice. */
  dispose(): void;
  readonly disposed: boolean;
}

/** A task model's heads, measured on its held-out sequences. */
export interface ModelHeads {
  /** Layer-major, as TextHead without the ablation. */
  heads: Omit<TextHead, 'ablated'>[];
  /** Query rows the pattern scores average over, and those the induction score averages over (0: none). */
  rows: number;
  inductionRows: number;
  sequences: number;
}

/** A loaded text model's configuration (the file's header). */
export interface TextModelConfig {
  readonly kind: 'text';
  vocab: number;
  maxLen: number;
  dModel: number;
  heads: number;
  dK: number;
  dV: number;
  layers: number;
  mlpHidden: number;
  layerNorm: boolean;
}

/** The text model on [<s>, the text's first maxLen − 1 tokens] (T tokens). */
export interface TextProbe {
  /** T token ids; tokens[0] is <s> (id 1). */
  tokens: number[];
  /** T: the index into `chars` of each token's character (−1 for <s>); a Hangul
   *  syllable's two or three jamo share one index. */
  charIndex: number[];
  /** The characters the kept tokens come from, as typed (UTF-8 code points). */
  chars: string[];
  /** [layer]: heads[h] is head h's T x T weights (rows = queries, causal);
   *  valueNorm[h][j] = ‖v_j W_O^h‖ (attention × value norm: weight times it, Kobayashi et al. 2020). */
  layers: { heads: Matrix[]; valueNorm: number[][] }[];
  /** T: the id predicted next at each position. */
  predictions: number[];
  /** T x T attention rollout (Abnar & Zuidema 2020): ½ mean-over-heads P + ½ I, multiplied over layers. */
  rollout: Matrix;
  /** Tokens of the text left out past maxLen − 1. */
  truncated: number;
}

/** A loss on a text: every token predicted once from the tokens before it in its window. */
export interface TextEvaluation {
  /** Σ −ln p over the tokens. */
  nats: number;
  tokens: number;
  chars: number;
  /** nats per token. */
  loss: number;
  /** nats / ln 2 / characters. */
  bitsPerChar: number;
}

/** One head's measured role scores on a text (head_roles.hpp) and the loss with it zeroed. */
export interface TextHead {
  /** From 0. */
  layer: number;
  head: number;
  /** Mean weight on i − 1 (rows i ≥ 4). */
  previousToken: number;
  /** Mean weight on the first token (<s>): an attention sink. */
  firstToken: number;
  /** Mean weight on i − 3 .. i. */
  local: number;
  /** Mean weight from a repeated random token to the one after its first occurrence (Olsson et al. 2022). */
  induction: number;
  /** 'previous-token' | 'first-token' | 'local' | 'induction', or '' for no nameable role. */
  role: string;
  ablated: TextEvaluation;
}

/** loadModel's handle: the same shape of handle as createModel's (probe, dispose). */
export interface TextModelHandle {
  readonly id: number;
  readonly config: TextModelConfig;
  readonly parameters: number;
  /** Display label of each id: <unk>, <s>, then the symbols (jamo as compatibility jamo, ␣, ⏎). */
  readonly symbols: readonly string[];
  /** TypeError for a non-string, SizeError past 1 MiB of UTF-8, RangeError for an empty text.
   *  options.off: a head (layer·heads + head, 0-based) whose output is zeroed before W_O, as in
   *  heads()'s ablation, so later layers' weights show the model without it (the head's own
   *  weights are unchanged); -1 (the default) for none; RangeError outside -1..layers·heads − 1. */
  probe(text: string, options?: { off?: number }): TextProbe;
  evaluate(text: string): TextEvaluation;
  heads(text: string): TextHead[];
  dispose(): void;
  readonly disposed: boolean;
}

/** Statistics of every entry, accumulated in double (statistics.hpp). */
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

/**
 * count pairs q, k with d_k independent N(0, 1) entries, their dot products and statistics:
 * pairs first .. first + count − 1 of the seed's draw (first = 0 unless asked).
 */
export interface DotProductSample {
  dk: number;
  count: number;
  first: number;
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
 * The API createAttention() resolves to. Errors: TypeError for arguments of the wrong type;
 * RangeError (with the core's message, naming both shapes for a mismatch) for wrong shapes,
 * sizes or values. Every error has `kind`: 'TypeError', 'ShapeError', 'ValueError' or
 * 'SizeError'. The module keeps working after any error. Every returned Matrix is a fresh copy.
 * Grouped by the core header each function binds (core/include/attn/<header>.hpp,
 * wasm/<header>.cpp); tests/wasm/types.test.mjs keeps this list equal to the module's
 * (names, arity and the fields of result objects).
 */
export interface Attention {
  // ---- the module and matrices (matrix.hpp, memory.hpp) ----
  /** The build that runs: "wasm-simd128", or "scalar" where WebAssembly SIMD is missing. */
  readonly simd: string;
  /** A rows x cols matrix, zero-filled or copied from data (length rows*cols). */
  matrix(rows: number, cols: number, data?: ArrayLike<number>): Matrix;
  /** Current size of the module's memory in bytes. */
  heapBytes(): number;
  /** The heap's size, bytes malloc'd now and results the boundary still holds (0 between calls; leak checks), and the
   *  core's own memory: what it holds now and its peak since resetPeakMemory(). */
  memoryStats(): MemoryStats & { heapBytes: number; mallocBytes: number; handles: number };
  /** Sets the peak to the current size and returns the stats. */
  resetPeakMemory(): MemoryStats;
  /** Runs one kernel ('plain' or 'tiled') and measures its time and memory (the cost chapter's live run). */
  profileAttention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: { kernel?: 'plain' | 'tiled'; causal?: boolean; tile?: number }): AttentionProfile;

  // ---- linalg.hpp ----
  /** (m x k)(k x n) -> m x n */
  matmul(A: MatrixLike, B: MatrixLike): Matrix;
  /** (m x k)(n x k)ᵀ -> m x n */
  matmulBt(A: MatrixLike, B: MatrixLike): Matrix;
  /** m x n -> n x m */
  transpose(A: MatrixLike): Matrix;

  // ---- attention.hpp: the stages and the plain variants ----
  /** S = Q Kᵀ: (T_q x d_k)(T_k x d_k)ᵀ -> T_q x T_k */
  scores(Q: MatrixLike, K: MatrixLike): Matrix;
  /** S * factor (factor must be finite) */
  scale(S: MatrixLike, factor: number): Matrix;
  /** T_q x T_k: 0 where j <= i, -Infinity where j > i */
  causalMask(Tq: number, Tk: number): Matrix;
  /** S + M, same shapes; where M is -Infinity the result is -Infinity whatever S holds */
  addMask(S: MatrixLike, M: MatrixLike): Matrix;
  /** Row-wise (attention) or column-wise (the wrong-axis demo) softmax, max-subtracted. */
  softmax(S: MatrixLike, options?: { axis?: 'rows' | 'cols' }): Matrix;
  /** O = P V: (T_q x T_k)(T_k x d_v) -> T_q x d_v; zero weights take nothing from V. */
  weightedSum(P: MatrixLike, V: MatrixLike): Matrix;
  /** softmax(Q Kᵀ * scale + M) V with every intermediate. */
  attention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: AttentionOptions): Trace;
  /** attention(...).output computed the plain way, with one T_q x T_k buffer and no trace. */
  attentionOutput(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: { causal?: boolean; scale?: number; mask?: MatrixLike }): Matrix;

  // ---- flash.hpp ----
  /**
   * softmax(Q Kᵀ · scale + M) V by tiles with an online softmax (Dao et al. 2022): the
   * T_q x T_k matrix is never allocated (memory O(T·d)). Equal to attention().output up
   * to rounding; a fully masked row is zero; a key masked with -Infinity never counts.
   */
  flashAttention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: FlashOptions): Matrix;

  // ---- dropout.hpp ----
  /** Inverted dropout: kept entries scaled by 1/(1 - rate), dropped entries exactly 0. */
  dropout(P: MatrixLike, options?: { rate?: number; seed?: number }): Matrix;

  // ---- multihead.hpp ----
  /** T x D -> heads matrices of T x D/heads (contiguous column blocks). */
  splitHeads(X: MatrixLike, heads: number): Matrix[];
  /** heads matrices of T x d_h -> T x (sum of widths) */
  concatHeads(list: MatrixLike[]): Matrix;
  /** Concat(head_1..head_h) W_O with head_i = Attention(X W_Q, X W_K, X W_V)[block i]. */
  multiHeadAttention(X: MatrixLike, options: MultiHeadOptions): MultiHeadTrace;

  // ---- positional.hpp ----
  /** Sinusoidal encoding, T x d (Vaswani et al. 2017, section 3.5); odd d allowed. */
  positionalEncoding(T: number, d: number): Matrix;
  /** T x d: pos / 10000^(2i/d), the argument of sin/cos in positionalEncoding(T, d). */
  sinusoidAngles(T: number, d: number): Matrix;

  // ---- cost.hpp ----
  cost(input: CostInput): Cost;

  // ---- random.hpp ----
  /**
   * A seeded random matrix, identical natively and in wasm (SplitMix64 counter hash).
   * 'normal' (default): N(mean, std²), always finite. 'uniform': in [lo, hi) after rounding
   * to float32 (lo = hi gives lo).
   */
  random(options: { rows: number; cols: number; seed?: number; distribution?: 'normal' | 'uniform'; mean?: number; std?: number; lo?: number; hi?: number }): Matrix;

  // ---- examples.hpp: the documents' worked examples as inputs ----
  example(name: 'core-attention'): CoreAttentionExample;
  example(name: 'weighted-sum'): WeightedSumExample;
  example(name: 'permutation'): PermutationExample;
  example(name: 'reading-heads'): ReadingHeadsExample;
  example(name: 'no-weights'): NoWeightsExample;
  example(name: 'projections' | 'causal-dropout'): ProjectionsExample;
  example(name: 'multi-head'): MultiHeadExample;
  example(name: 'one-head'): OneHeadExample;

  // ---- reductions.hpp, statistics.hpp, geometry.hpp, score_scale.hpp; attribution.hpp (groupByCharacter, normWeights, weightNormDistance); softmaxParts: attention.hpp; softmaxJacobianDiag: grad.hpp ----
  /** r x c -> r x 1: each row's sum (1 for every row of softmax weights). */
  rowSums(M: MatrixLike): Matrix;
  /** r x c -> 1 x c: each column's sum (in [0, r] for softmax weights; they add up to r). */
  colSums(M: MatrixLike): Matrix;
  /** r x c -> r x 1 (−Infinity for an empty row) */
  rowMax(M: MatrixLike): Matrix;
  /** r x c -> r x 1: index of each row's largest entry (first on ties). */
  rowArgmax(M: MatrixLike): Matrix;
  /** a_i · b_i: (r x c, r x c) -> r x 1 */
  rowDots(A: MatrixLike, B: MatrixLike): Matrix;
  /** ‖m_i‖₂: r x c -> r x 1 */
  rowNorms(M: MatrixLike): Matrix;
  /** Each row scaled to length norm (default 1); a zero row stays zero. */
  normalizeRows(M: MatrixLike, norm?: number): Matrix;
  /** Each row divided by its sum; entries must be finite and >= 0, row sums > 0. */
  normalizeWeights(W: MatrixLike): Matrix;
  /**
   * A T x T token matrix as a C x C character matrix (core: group_by_character in attribution.hpp):
   * group[t] is token t's character, 0..C−1, starting at 0 and going up by at most 1; column c
   * sums the weights on c's tokens, row c is the row of c's last token. ShapeError when
   * group.length ≠ T, ValueError for ids that skip or go down.
   */
  groupByCharacter(P: MatrixLike, group: number[]): Matrix;
  /** T x T: P(i, j) · valueNorm[j] (attention × value norm, Kobayashi et al. 2020); valueNorm has T entries. */
  normWeights(P: MatrixLike, valueNorm: number[]): Matrix;
  /**
   * Mean over rows (those with any weight) of ½ Σ_j |P(i, j) − N(i, j) / Σ_k N(i, k)|: how far the
   * weights P are from the normalised norm view N (normWeights), 0 (the same) .. 1 (disjoint).
   */
  weightNormDistance(P: MatrixLike, N: MatrixLike): number;
  /** A − B, same shapes. */
  difference(A: MatrixLike, B: MatrixLike): Matrix;
  /** A + B, same shapes. */
  add(A: MatrixLike, B: MatrixLike): Matrix;
  /** max |A - B| over all entries (NaN if either has a NaN; 0 for empty matrices). */
  maxAbsDiff(A: MatrixLike, B: MatrixLike): number;
  /** r x c -> min(r, c) x 1 */
  diagonal(M: MatrixLike): Matrix;
  /** Row i of the result is row perm[i] of M; perm must be a permutation of 0..rows-1. */
  permuteRows(M: MatrixLike, perm: number[]): Matrix;
  /** Per-column minimum and maximum, each 1 x c. */
  columnRange(M: MatrixLike): { min: Matrix; max: Matrix };
  moments(M: MatrixLike): Moments;
  histogram(M: MatrixLike, options: { bins?: number; lo: number; hi: number }): Histogram;
  /** a, b: 1 x d */
  dotGeometry(a: MatrixLike, b: MatrixLike): DotGeometry;
  /** Indices of the convex hull's vertices of n x 2 points, counter-clockwise. */
  convexHull(points: MatrixLike): number[];
  /** Distance from the 1 x 2 point p to the convex hull of n x 2 points (0 inside). */
  hullDistance(p: MatrixLike, points: MatrixLike): number;
  /** S: n x n (e.g. X Xᵀ); ties count as holding; relTol (default 1e-6) absorbs float rounding. */
  diagonalCheck(S: MatrixLike, options?: { relTol?: number }): DiagonalCheck;
  softmaxParts(S: MatrixLike, options?: { axis?: 'rows' | 'cols' }): SoftmaxParts;
  /** P ⊙ (1 − P): ∂p_i/∂s_i. */
  softmaxJacobianDiag(P: MatrixLike): Matrix;
  /** factor > 0, finite (e.g. 1/√d_k). */
  scalingEffect(S: MatrixLike, factor: number): ScalingEffect;
  scoreScale(dk: number): ScoreScale;
  /**
   * Seeded (seed < 2^52), deterministic; dk x count at most 2^28. first: the sample is pairs
   * first .. first + count − 1 of the draw of first + count (those rows bit for bit, without
   * drawing the ones before), so that a long draw can be made in pieces.
   */
  sampleDotProducts(options: { dk: number; count?: number; seed?: number; first?: number }): DotProductSample;

  // ---- grad.hpp ----
  /** p: 1 x n -> n x n, J_ij = p_i (δ_ij − p_j). */
  softmaxJacobian(p: MatrixLike): Matrix;

  // ---- recurrent.hpp ----
  /** T x d: h_t = r h_{t-1} + (1 - r) x_t, h_{-1} = 0, 0 <= r < 1 (a toy recurrent state). */
  recurrentScan(X: MatrixLike, retention: number): Matrix;

  // ---- constructed_heads.hpp ----
  /** T flag sets -> T x (4 + T): [verb, object, pronoun, animate | one-hot position]. */
  tokenFeatures(flags: number[]): Matrix;
  /** Hand-set (4 + T) x (4 + T) W_Q, W_K producing one head pattern (default strength 4). */
  constructedHead(kind: HeadKind, T: number, strength?: number): { Wq: Matrix; Wk: Matrix };

  // ---- model.hpp: live training ----
  /** A toy task of the training chapter. */
  task(name: 'previous-token' | 'two-relations' | 'sort' | 'induction'): TaskInfo;
  /** A tiny Transformer and its Adam optimiser (core/include/attn/model.hpp), seeded.
   *  Throws an Error on a core loaded with {training: false}. */
  createModel(config?: ModelConfig): ModelHandle;
  /** How many models are alive in the module (for leak checks). */
  liveModels(): number;

  // ---- text_model.hpp: the project's trained text model ----
  /** The model file's bytes (models/text-model/model.bin; format in docs/text-model.md).
   *  TypeError unless a Uint8Array or ArrayBuffer; SizeError past 16 MiB; RangeError
   *  "loadModel: model file: ..." for a damaged, truncated or foreign file; an Error on a core
   *  loaded with {training: false} (the text model rides with the trainer). */
  loadModel(bytes: Uint8Array | ArrayBuffer): TextModelHandle;
}

/** createModel's defaults. */
export const MODEL_DEFAULTS: Readonly<Required<ModelConfig>>;

export interface CreateOptions {
  /** 'auto' (default): SIMD128 when the engine has it, else the scalar build; with training: false the
   *  relaxed-SIMD build first, where the engine has relaxed SIMD (Chromium), and the SIMD128 one where that
   *  file cannot be loaded. 'relaxed' (the matrix products
   *  multiply-add with f32x4.relaxed_madd; fails without relaxed SIMD), true (SIMD128) or false (scalar)
   *  forces one. */
  simd?: 'auto' | 'relaxed' | boolean;
  /** true (default), or false: the SIMD core without the trainer (attn-core-lite.wasm, a quarter
   *  smaller); createModel() then throws, everything else is the same. No effect on the scalar build. */
  training?: boolean;
  /** The wasm bytes (otherwise fetched next to attn.mjs, or read from disk in Node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

/** A core that did not load (its file missing, a 404 page in its place, a damaged copy): what
 *  createAttention rejects with. file: the .wasm's name (null for a caller's wasmBinary); the
 *  message names it and says why; cause: the Emscripten loader's own error. */
export interface CoreLoadError extends Error {
  file: string | null;
}

export default function createAttention(options?: CreateOptions): Promise<Attention>;
/** True when this engine runs WebAssembly SIMD128 (what createAttention's 'auto' checks). */
export function simdSupported(): boolean;
/** True when this engine runs WebAssembly relaxed SIMD (Chromium; Node 20 with --experimental-wasm-relaxed-simd). */
export function relaxedSimdSupported(): boolean;
/** The largest matrix the core allocates, in elements (attn::kMaxElements = 2^28). */
export const MAX_ELEMENTS: number;
/** The most steps one model.train() call runs (100000). */
export const MAX_TRAIN_STEPS: number;
export { createAttention };

// The layout of a GPT-2 checkpoint's model.safetensors (Radford et al. 2019; Hugging Face's
// `gpt2`): tensor names, shapes and order as the published file has them, and the file's
// header. For checkpoints with random weights written by tools and tests (bench_page.mjs: a
// GPT-2-small-shaped file streamed to disk; the real-models chapter's test: a small one in
// memory); what fills the tensors is the caller's.
//
//   const tensors = gpt2Tensors({ layers, d, vocab, positions, buffers });
//       // [[name, shape, init]], init: 'normal' (weights), 'zeros', 'ones' (LayerNorm gains),
//       // 'causal' (the attn.bias buffer, a lower-triangular [1, 1, P, P] of ones)
//   const { prefix, offsets, dataBytes } = safetensorsHeader(tensors);
//       // prefix: the 8-byte little-endian header length and the JSON header (padded with
//       // spaces to a multiple of 8); offsets: name -> [begin, end) in bytes after the prefix

// Every tensor is F32. `buffers`: the attn.bias buffers that `transformers` saves with GPT-2
// (the loader must ignore them).
export function gpt2Tensors({ layers, d, vocab, positions, buffers = false }) {
  const out = [];
  for (let l = 0; l < layers; l++) {
    const h = `h.${l}.`;
    if (buffers) out.push([`${h}attn.bias`, [1, 1, positions, positions], 'causal']);
    out.push([`${h}attn.c_attn.bias`, [3 * d], 'zeros'], [`${h}attn.c_attn.weight`, [d, 3 * d], 'normal'],
      [`${h}attn.c_proj.bias`, [d], 'zeros'], [`${h}attn.c_proj.weight`, [d, d], 'normal'],
      [`${h}ln_1.bias`, [d], 'zeros'], [`${h}ln_1.weight`, [d], 'ones'],
      [`${h}ln_2.bias`, [d], 'zeros'], [`${h}ln_2.weight`, [d], 'ones'],
      [`${h}mlp.c_fc.bias`, [4 * d], 'zeros'], [`${h}mlp.c_fc.weight`, [d, 4 * d], 'normal'],
      [`${h}mlp.c_proj.bias`, [d], 'zeros'], [`${h}mlp.c_proj.weight`, [4 * d, d], 'normal']);
  }
  out.push(['ln_f.bias', [d], 'zeros'], ['ln_f.weight', [d], 'ones'],
    ['wpe.weight', [positions, d], 'normal'], ['wte.weight', [vocab, d], 'normal']);
  return out;
}

export function safetensorsHeader(tensors, metadata = { format: 'pt' }) {
  const header = metadata ? { __metadata__: metadata } : {};
  const offsets = new Map();
  let at = 0;
  for (const [name, shape] of tensors) {
    const bytes = shape.reduce((a, b) => a * b, 1) * 4;
    header[name] = { dtype: 'F32', shape, data_offsets: [at, at + bytes] };
    offsets.set(name, [at, at + bytes]);
    at += bytes;
  }
  let text = JSON.stringify(header);
  while (text.length % 8) text += ' ';
  const json = Buffer.from(text);
  const n = Buffer.alloc(8);
  n.writeBigUInt64LE(BigInt(json.length));
  return { prefix: Buffer.concat([n, json]), offsets, dataBytes: at };
}

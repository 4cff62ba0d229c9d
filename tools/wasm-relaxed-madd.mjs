// Rewrites the relaxed-SIMD proposal's pre-standard f32x4 multiply-add (0xFD 0xAF 0x01,
// "f32x4.fma", what clang 14's __builtin_wasm_fma_f32x4 emits) to the standard
// f32x4.relaxed_madd (0xFD 0x85 0x02: the same length, so nothing else moves) in a linked
// WebAssembly module. Engines with relaxed SIMD (V8 >= 11.4, Chromium; Node 20 behind
// --experimental-wasm-relaxed-simd) accept only the standard opcode.
//
//   node tools/wasm-relaxed-madd.mjs module.wasm [--allow-none]   rewrites in place
//
// Every function body of the code section is decoded instruction by instruction (MVP,
// sign extension, saturating truncation, bulk memory, reference types, SIMD128, the
// legacy exception-handling ops of -fwasm-exceptions, relaxed SIMD), so the three bytes
// are rewritten only where they are an instruction, never inside an immediate
// (i32.const 22525 is 41 FD AF 01). An opcode it does not know, another pre-standard
// relaxed-SIMD op (it would have no standard equivalent here), or a body that does not end
// where its size says stops it with an error: the build fails rather than ship a module
// it cannot vouch for. With no instruction rewritten it fails too (the relaxed build lost
// its multiply-add), unless --allow-none.
//
// Opcodes: WebAssembly core spec 2.0 §5.4 and the relaxed-SIMD proposal's Overview.md;
// the pre-standard numbers are LLVM 14's WebAssemblyInstrSIMD.td.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const PRESTANDARD_MADD = 0xaf; // 0xFD 0xAF 0x01 as a LEB128 u32 (0xAF)
export const STANDARD_MADD = 0x105; // 0xFD 0x85 0x02

// LLVM 14's other pre-standard relaxed-SIMD opcodes (swizzle, trunc, fms, f64x2 fma,
// laneselect, min, max): none has a same-length standard twin this tool maps.
const PRESTANDARD_OTHER = new Set([0xa2, 0xa5, 0xa6, 0xc5, 0xc6, 0xb0, 0xcf, 0xd0, 0xb2, 0xb3, 0xd2, 0xd3, 0xb4, 0xb5, 0xd4, 0xd5]);

class Reader {
  constructor(bytes, pos, end) {
    this.b = bytes;
    this.pos = pos;
    this.end = end;
  }
  byte() {
    if (this.pos >= this.end) throw new Error(`unexpected end at byte ${this.pos}`);
    return this.b[this.pos++];
  }
  u32() {
    let result = 0, shift = 0, byte;
    do {
      byte = this.byte();
      if (shift === 28 && byte > 0x0f) throw new Error(`u32 LEB128 too long at byte ${this.pos - 1}`);
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return result;
  }
  sleb(maxBytes) {
    for (let i = 0; i < maxBytes; i++) if (!(this.byte() & 0x80)) return;
    throw new Error(`signed LEB128 too long at byte ${this.pos}`);
  }
  skip(n) {
    if (this.pos + n > this.end) throw new Error(`unexpected end at byte ${this.pos}`);
    this.pos += n;
  }
  memarg() {
    this.u32(); // alignment
    this.u32(); // offset
  }
  blocktype() {
    const b = this.b[this.pos];
    if (b === 0x40 || (b >= 0x6f && b <= 0x7f)) this.pos++; // empty or a value type
    else this.sleb(5); // s33 type index
  }
}

// Decodes one instruction at r.pos (its opcode already read as `op`); returns the SIMD
// sub-opcode for 0xFD instructions (else -1).
function instruction(r, op) {
  if (op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x19 || op === 0x1a || op === 0x1b) return -1;
  if (op >= 0x02 && op <= 0x04) return r.blocktype(), -1; // block loop if
  if (op === 0x06) return r.blocktype(), -1; // try
  if (op >= 0x07 && op <= 0x09) return r.u32(), -1; // catch tag, throw tag, rethrow depth
  if (op === 0x0c || op === 0x0d || op === 0x18) return r.u32(), -1; // br, br_if, delegate
  if (op === 0x0e) { // br_table
    const n = r.u32();
    for (let i = 0; i <= n; i++) r.u32();
    return -1;
  }
  if (op === 0x10) return r.u32(), -1; // call
  if (op === 0x11) return r.u32(), r.u32(), -1; // call_indirect type table
  if (op === 0x1c) { // select t*
    const n = r.u32();
    r.skip(n);
    return -1;
  }
  if (op >= 0x20 && op <= 0x26) return r.u32(), -1; // local.*, global.*, table.get/set
  if (op >= 0x28 && op <= 0x3e) return r.memarg(), -1; // loads and stores
  if (op === 0x3f || op === 0x40) return r.byte(), -1; // memory.size/grow 0x00
  if (op === 0x41) return r.sleb(5), -1; // i32.const
  if (op === 0x42) return r.sleb(10), -1; // i64.const
  if (op === 0x43) return r.skip(4), -1; // f32.const
  if (op === 0x44) return r.skip(8), -1; // f64.const
  if (op >= 0x45 && op <= 0xc4) return -1; // numeric, sign extension
  if (op === 0xd0) return r.byte(), -1; // ref.null t
  if (op === 0xd1) return -1; // ref.is_null
  if (op === 0xd2) return r.u32(), -1; // ref.func
  if (op === 0xfc) {
    const sub = r.u32();
    if (sub <= 7) return -1; // trunc_sat
    if (sub === 8) return r.u32(), r.byte(), -1; // memory.init
    if (sub === 9 || sub === 13 || (sub >= 15 && sub <= 17)) return r.u32(), -1; // data.drop elem.drop table.grow/size/fill
    if (sub === 10) return r.byte(), r.byte(), -1; // memory.copy
    if (sub === 11) return r.byte(), -1; // memory.fill
    if (sub === 12 || sub === 14) return r.u32(), r.u32(), -1; // table.init table.copy
    throw new Error(`unknown opcode 0xFC ${sub}`);
  }
  if (op === 0xfd) {
    const sub = r.u32();
    if (sub <= 11 || sub === 92 || sub === 93) r.memarg(); // v128 loads/stores, load_zero
    else if (sub === 12 || sub === 13) r.skip(16); // v128.const, i8x16.shuffle
    else if (sub >= 21 && sub <= 34) r.byte(); // extract/replace_lane
    else if (sub >= 84 && sub <= 91) r.memarg(), r.byte(); // load/store_lane
    else if (sub === PRESTANDARD_MADD) { /* rewritten by the caller */ }
    else if (PRESTANDARD_OTHER.has(sub)) throw new Error(`pre-standard relaxed-SIMD opcode 0xFD ${sub} has no mapping`);
    else if (sub > 0xff && !(sub >= 0x100 && sub <= 0x113)) throw new Error(`unknown opcode 0xFD ${sub}`);
    return sub;
  }
  throw new Error(`unknown opcode 0x${op.toString(16).padStart(2, '0')}`);
}

/**
 * Rewrites every pre-standard f32x4 multiply-add instruction of a module's code section.
 * bytes: Uint8Array of a whole module (changed in place). Returns {count}: how many were
 * rewritten. Throws on a malformed module or an instruction it does not know.
 */
export function rewriteRelaxedMadd(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d)
    throw new Error('not a WebAssembly module');
  let count = 0;
  const top = new Reader(bytes, 8, bytes.length);
  while (top.pos < bytes.length) {
    const id = top.byte();
    const size = top.u32();
    const start = top.pos;
    if (id === 10) {
      const r = new Reader(bytes, start, start + size);
      const n = r.u32();
      for (let f = 0; f < n; f++) {
        const bodySize = r.u32();
        const end = r.pos + bodySize;
        const body = new Reader(bytes, r.pos, end);
        const groups = body.u32();
        for (let g = 0; g < groups; g++) body.u32(), body.byte();
        while (body.pos < end) {
          const at = body.pos;
          const sub = instruction(body, body.byte());
          if (sub === PRESTANDARD_MADD) {
            if (body.pos - at !== 3) throw new Error(`f32x4.fma at byte ${at} is not encoded in 3 bytes`);
            bytes[at + 1] = 0x85;
            bytes[at + 2] = 0x02;
            count++;
          }
        }
        if (bytes[end - 1] !== 0x0b) throw new Error(`function ${f} does not end with end`);
        r.pos = end;
      }
      if (r.pos !== start + size) throw new Error('the code section is longer than its functions');
    }
    top.pos = start + size;
  }
  return { count };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node tools/wasm-relaxed-madd.mjs module.wasm [--allow-none]');
    process.exit(2);
  }
  try {
    const bytes = new Uint8Array(await readFile(file));
    const { count } = rewriteRelaxedMadd(bytes);
    if (count === 0 && !process.argv.includes('--allow-none'))
      throw new Error('no pre-standard f32x4.fma found: the relaxed build has no multiply-add to rewrite');
    await writeFile(file, bytes);
    console.log(`${file}: ${count} f32x4.fma (0xFD 0xAF 0x01) rewritten to f32x4.relaxed_madd (0xFD 0x85 0x02)`);
  } catch (e) {
    console.error(`wasm-relaxed-madd: ${file}: ${e.message}`);
    process.exit(1);
  }
}

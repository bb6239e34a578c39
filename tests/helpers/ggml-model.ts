import { writeFile } from "node:fs/promises";

/**
 * Writes a whisper.cpp ggml model file with the real tensor layout (every tensor whisper.cpp's
 * loader expects, by name and shape, in its legacy `ggml` container) and random weights. It loads
 * and runs like a real model and costs real compute; its text is garbage by design — it exists to
 * test the plumbing around whisper-cli without the (unavailable) real weights.
 */
export interface RandomWhisperModelOptions {
  /** n_audio_state = n_text_state (real tiny: 384) */
  state?: number;
  heads?: number;
  audioLayers?: number;
  textLayers?: number;
  /** 51865 = multilingual vocabulary (language tokens, so `-l zh` works) */
  vocab?: number;
  seed?: number;
}

const GGML_MAGIC = 0x67676d6c;
const N_AUDIO_CTX = 1500; // 30 s window: 3000 mel frames, conv stride 2
const N_TEXT_CTX = 448;
const N_MELS = 80;
const N_FFT_BINS = 201; // 400-point FFT
/** Regular text tokens of the multilingual vocabulary (ids 0..50256); whisper.cpp names the rest. */
const TEXT_TOKENS = 50257;

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32 → [0, 1)
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);
/** IEEE 754 binary16 of a small float (round to nearest; no NaN/Inf needed here). */
function toHalf(value: number): number {
  f32Scratch[0] = value;
  const x = u32Scratch[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  const mant = x & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const m = (mant | 0x800000) >> (1 - exp);
    return sign | ((m + 0x1000) >> 13);
  }
  if (exp >= 31) return sign | 0x7bff;
  return sign | ((exp << 10) + ((mant + 0x1000) >> 13));
}

export async function writeRandomWhisperModel(file: string, options: RandomWhisperModelOptions = {}): Promise<number> {
  const state = options.state ?? 64;
  const heads = options.heads ?? 2;
  const audioLayers = options.audioLayers ?? 1;
  const textLayers = options.textLayers ?? 1;
  const vocab = options.vocab ?? 51865;
  const random = rng(options.seed ?? 1234);
  const gauss = () => {
    const u = Math.max(1e-12, random());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const parts: Buffer[] = [];
  const i32 = (...values: number[]) => {
    const b = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => {
      b.writeInt32LE(v, i * 4);
    });
    parts.push(b);
  };
  const f32 = (values: Float32Array) => parts.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));

  // header + hparams; ftype 1 = matrices and convolutions in F16 (ggml's im2col wants F16), the rest F32
  const header = Buffer.alloc(4);
  header.writeUInt32LE(GGML_MAGIC, 0);
  parts.push(header);
  i32(vocab, N_AUDIO_CTX, state, heads, audioLayers, N_TEXT_CTX, state, heads, textLayers, N_MELS, 1);

  // mel filterbank: triangular filters on the mel scale over 0..8 kHz (the shape of the real one)
  i32(N_MELS, N_FFT_BINS);
  const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
  const hz = (m: number) => 700 * (10 ** (m / 2595) - 1);
  const edges = Array.from({ length: N_MELS + 2 }, (_, i) => hz((mel(8000) * i) / (N_MELS + 1)));
  const filters = new Float32Array(N_MELS * N_FFT_BINS);
  for (let m = 0; m < N_MELS; m++) {
    for (let k = 0; k < N_FFT_BINS; k++) {
      const f = (k * 8000) / (N_FFT_BINS - 1);
      const up = (f - edges[m]!) / (edges[m + 1]! - edges[m]!);
      const down = (edges[m + 2]! - f) / (edges[m + 2]! - edges[m + 1]!);
      filters[m * N_FFT_BINS + k] = Math.max(0, Math.min(up, down)) * (2 / (edges[m + 2]! - edges[m]!));
    }
  }
  f32(filters);

  // vocabulary: id 220 is " " as in GPT-2 (whisper.cpp looks it up), 1000..2999 are CJK characters,
  // the rest short pseudo-words (specials are named by whisper.cpp itself)
  const letters = "abcdefghijklmnopqrstuvwxyz";
  i32(TEXT_TOKENS);
  for (let id = 0; id < TEXT_TOKENS; id++) {
    let word: string;
    if (id === 220) word = " ";
    else if (id >= 1000 && id < 3000) word = String.fromCodePoint(0x4e00 + id - 1000);
    else {
      word = id % 3 === 0 ? " " : "";
      let n = id + 1;
      while (n > 0) {
        word += letters[n % 26];
        n = Math.floor(n / 26);
      }
    }
    const bytes = Buffer.from(word, "utf8");
    const len = Buffer.alloc(4);
    len.writeUInt32LE(bytes.length, 0);
    parts.push(len, bytes);
  }

  // tensors in whisper.cpp's naming and shapes (ne[0] first)
  const tensor = (name: string, ne: number[], fill: "rand" | "ones" | "zeros" = "rand", scale = 0.1) => {
    // whisper.cpp makes weight matrices (2-d, not positional embeddings) and conv kernels F16.
    const half = (ne.length === 2 && !name.includes("positional") && !name.endsWith(".bias")) || ne.length === 3;
    i32(ne.length, Buffer.byteLength(name), half ? 1 : 0, ...ne);
    parts.push(Buffer.from(name, "utf8"));
    const n = ne.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    if (fill === "ones") data.fill(1);
    else if (fill === "rand") for (let i = 0; i < n; i++) data[i] = gauss() * scale;
    if (!half) f32(data);
    else {
      const h = Buffer.alloc(n * 2);
      for (let i = 0; i < n; i++) h.writeUInt16LE(toHalf(data[i]!), i * 2);
      parts.push(h);
    }
  };
  const block = (prefix: string, cross: boolean) => {
    tensor(`${prefix}.mlp_ln.weight`, [state], "ones");
    tensor(`${prefix}.mlp_ln.bias`, [state], "zeros");
    tensor(`${prefix}.mlp.0.weight`, [state, 4 * state]);
    tensor(`${prefix}.mlp.0.bias`, [4 * state], "zeros");
    tensor(`${prefix}.mlp.2.weight`, [4 * state, state]);
    tensor(`${prefix}.mlp.2.bias`, [state], "zeros");
    for (const attn of cross ? ["attn", "cross_attn"] : ["attn"]) {
      tensor(`${prefix}.${attn}_ln.weight`, [state], "ones");
      tensor(`${prefix}.${attn}_ln.bias`, [state], "zeros");
      tensor(`${prefix}.${attn}.query.weight`, [state, state]);
      tensor(`${prefix}.${attn}.query.bias`, [state], "zeros");
      tensor(`${prefix}.${attn}.key.weight`, [state, state]);
      tensor(`${prefix}.${attn}.value.weight`, [state, state]);
      tensor(`${prefix}.${attn}.value.bias`, [state], "zeros");
      tensor(`${prefix}.${attn}.out.weight`, [state, state]);
      tensor(`${prefix}.${attn}.out.bias`, [state], "zeros");
    }
  };

  tensor("encoder.positional_embedding", [state, N_AUDIO_CTX]);
  tensor("encoder.conv1.weight", [3, N_MELS, state]);
  tensor("encoder.conv1.bias", [1, state], "zeros");
  tensor("encoder.conv2.weight", [3, state, state]);
  tensor("encoder.conv2.bias", [1, state], "zeros");
  tensor("encoder.ln_post.weight", [state], "ones");
  tensor("encoder.ln_post.bias", [state], "zeros");
  for (let i = 0; i < audioLayers; i++) block(`encoder.blocks.${i}`, false);
  tensor("decoder.positional_embedding", [state, N_TEXT_CTX]);
  tensor("decoder.token_embedding.weight", [state, vocab], "rand", 0.5);
  tensor("decoder.ln.weight", [state], "ones");
  tensor("decoder.ln.bias", [state], "zeros");
  for (let i = 0; i < textLayers; i++) block(`decoder.blocks.${i}`, true);

  const out = Buffer.concat(parts);
  await writeFile(file, out);
  return out.length;
}

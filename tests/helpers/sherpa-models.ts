import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DataType, GraphBuilder } from "./onnx-writer.ts";

/**
 * SenseVoice- and Paraformer-shaped models for sherpa-onnx, written by the tests: the real inputs,
 * outputs and metadata (as sherpa-onnx's loaders read them: offline-sense-voice-model.cc,
 * offline-paraformer-model.cc), with hand-set weights so what they "hear" is known. The product's
 * real engine (apps/worker/src/engines/asr/sherpa.ts) then runs on them: feature extraction, LFR and
 * CMVN, the CTC / Paraformer decoders, token tables, language tags, timestamps.
 */

/** LFR: 7 fbank frames of 80 stacked, every 6th frame (60 ms a model frame), as in the real models. */
const LFR_WINDOW = 7;
const LFR_SHIFT = 6;
const FEATURES = 80 * LFR_WINDOW;
/** The logit of the token a frame says; every other token gets 0. */
const SURE = 20;

/** SenseVoice's special tokens, in its own order of ids (the language ids are what `lang_*` name). */
const SENSE_VOICE_SPECIALS = [
  "<blank>",
  "<s>",
  "</s>",
  "<|zh|>",
  "<|en|>",
  "<|yue|>",
  "<|ja|>",
  "<|ko|>",
  "<|nospeech|>",
  "<|NEUTRAL|>",
  "<|Speech|>",
  "<|withitn|>",
  "<|woitn|>",
] as const;
const special = (token: (typeof SENSE_VOICE_SPECIALS)[number]) => SENSE_VOICE_SPECIALS.indexOf(token);

/** CMVN that leaves features as they are (SenseVoice's real tables shift and scale them). */
function identityCmvn() {
  return { neg_mean: Array(FEATURES).fill(0).join(","), inv_stddev: Array(FEATURES).fill(1).join(",") };
}

function tokensFile(tokens: readonly string[]): string {
  return `${tokens.map((t, id) => `${t} ${id}`).join("\n")}\n`;
}

export interface SenseVoiceModelOptions {
  /** the language the model names when asked for 'auto' */
  heard: "zh" | "en";
  /**
   * What every utterance says: SentencePiece pieces, "▁" starting a word (sherpa turns it into a
   * space), at model frames 0, 2, 4… of the utterance (0, 120, 240… ms): at most 8.
   */
  pieces: string[];
  /** leave these metadata keys out (a broken export) */
  omit?: string[];
}

/**
 * A SenseVoice-shaped model: inputs `x` (N,T,560) float, `x_length` (N) int32, `language` (N) int32,
 * `text_norm` (N) int32; output `logits` (N,T+4,V). Its first four frames say the language (the one
 * asked for, or `heard` for 'auto'), NEUTRAL, Speech and the text-norm token asked for; then the
 * pieces, one every other frame with blanks between (CTC), then blanks to the end of the utterance.
 */
export async function writeSenseVoiceModel(dir: string, options: SenseVoiceModelOptions) {
  if (options.pieces.length > 8) throw new Error("at most 8 pieces");
  const tokens = [...SENSE_VOICE_SPECIALS, ...new Set(options.pieces)];
  const V = tokens.length;
  const g = new GraphBuilder();
  const x = g.input("x", DataType.FLOAT, ["N", "T", FEATURES]);
  g.input("x_length", DataType.INT32, ["N"]);
  const language = g.input("language", DataType.INT32, ["N"]);
  const textNorm = g.input("text_norm", DataType.INT32, ["N"]);

  const int64 = (values: number[]) => g.constant(DataType.INT64, [values.length], values);
  const shape = g.op("Shape", [x]);
  const N = g.op("Slice", [shape, int64([0]), int64([1])]);
  const T = g.op("Slice", [shape, int64([1]), int64([2])]);
  const vocab = int64([V]);
  const depth = g.constant(DataType.INT32, [], [V]);
  const onOff = g.constant(DataType.FLOAT, [2], [0, SURE]);
  const oneHot = (ids: number[]) => {
    const rows = new Float32Array(ids.length * V);
    ids.forEach((id, i) => {
      rows[i * V + id] = SURE;
    });
    return rows;
  };

  // frame 0: the language token; 'auto' (0) → the heard language, a named language → itself
  const langTable = Array.from({ length: 16 }, (_, id) => (id === 0 ? special(`<|${options.heard}|>`) : id));
  const langToken = g.op("Gather", [g.constant(DataType.INT32, [16], langTable), language]);
  const lang = g.op("Unsqueeze", [g.op("OneHot", [langToken, depth, onOff], { axis: -1 }), int64([1])]);
  // frames 1–2: emotion and event
  const fixed = g.constant(DataType.FLOAT, [1, 2, V], oneHot([special("<|NEUTRAL|>"), special("<|Speech|>")]));
  const emotionEvent = g.op("Expand", [fixed, g.op("Concat", [N, int64([2]), vocab], { axis: 0 })]);
  // frame 3: the text-norm token asked for (with_itn / without_itn are its ids)
  const itn = g.op("Unsqueeze", [g.op("OneHot", [textNorm, depth, onOff], { axis: -1 }), int64([1])]);

  // frames 4…: the pieces with blanks between, then blanks; exactly T frames
  const pattern = options.pieces.flatMap((p) => [tokens.indexOf(p), 0]);
  const patternRows = g.constant(DataType.FLOAT, [pattern.length, V], oneHot(pattern));
  const blankRows = g.op("Expand", [
    g.constant(DataType.FLOAT, [1, V], oneHot([0])),
    g.op("Concat", [T, vocab], { axis: 0 }),
  ]);
  const text = g.op("Slice", [g.op("Concat", [patternRows, blankRows], { axis: 0 }), int64([0]), T, int64([0])]);
  const textN = g.op("Expand", [g.op("Unsqueeze", [text, int64([0])]), g.op("Concat", [N, T, vocab], { axis: 0 })]);

  g.op("Concat", [lang, emotionEvent, itn, textN], { axis: 1 }, "logits");
  g.output("logits", DataType.FLOAT, ["N", "T4", V]);

  const metadata: Record<string, string | number> = {
    model_type: "sense_voice_ctc",
    comment: "SenseVoice-shaped test model with hand-set weights (yuelu tests)",
    vocab_size: V,
    blank_id: 0,
    lfr_window_size: LFR_WINDOW,
    lfr_window_shift: LFR_SHIFT,
    normalize_samples: 0,
    with_itn: special("<|withitn|>"),
    without_itn: special("<|woitn|>"),
    lang_auto: 0,
    lang_zh: special("<|zh|>"),
    lang_en: special("<|en|>"),
    lang_yue: special("<|yue|>"),
    lang_ja: special("<|ja|>"),
    lang_ko: special("<|ko|>"),
    ...identityCmvn(),
  };
  for (const key of options.omit ?? []) delete metadata[key];
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "model.int8.onnx"), g.model(metadata));
  await writeFile(path.join(dir, "tokens.txt"), tokensFile(tokens));
  return { dir, tokens };
}

export interface ParaformerModelOptions {
  /** what every utterance says: characters, and ASCII words ("hello@@" continues into the next piece) */
  tokens: string[];
  omit?: string[];
}

/**
 * A Paraformer-shaped model: inputs `speech` (N,T,560) float, `speech_lengths` (N) int32; outputs
 * `logits` (N,U,V) and `token_num` (N) int32. Its U positions say the tokens, then `</s>` (where
 * sherpa's greedy decoder stops).
 */
export async function writeParaformerModel(dir: string, options: ParaformerModelOptions) {
  const tokens = ["<blank>", "<s>", "</s>", ...new Set(options.tokens)];
  const V = tokens.length;
  const g = new GraphBuilder();
  const speech = g.input("speech", DataType.FLOAT, ["N", "T", FEATURES]);
  g.input("speech_lengths", DataType.INT32, ["N"]);
  const int64 = (values: number[]) => g.constant(DataType.INT64, [values.length], values);
  const N = g.op("Slice", [g.op("Shape", [speech]), int64([0]), int64([1])]);

  const said = [...options.tokens.map((t) => tokens.indexOf(t)), tokens.indexOf("</s>")];
  const rows = new Float32Array(said.length * V);
  said.forEach((id, i) => {
    rows[i * V + id] = SURE;
  });
  const U = said.length;
  const logits = g.constant(DataType.FLOAT, [1, U, V], rows);
  g.op("Expand", [logits, g.op("Concat", [N, int64([U, V])], { axis: 0 })], {}, "logits");
  const count = g.constant(DataType.INT32, [1], [options.tokens.length]);
  g.op("Expand", [count, N], {}, "token_num");
  g.output("logits", DataType.FLOAT, ["N", U, V]);
  g.output("token_num", DataType.INT32, ["N"]);

  const metadata: Record<string, string | number> = {
    model_type: "paraformer",
    comment: "Paraformer-shaped test model with hand-set weights (yuelu tests)",
    vocab_size: V,
    lfr_window_size: LFR_WINDOW,
    lfr_window_shift: LFR_SHIFT,
    ...identityCmvn(),
  };
  for (const key of options.omit ?? []) delete metadata[key];
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "model.int8.onnx"), g.model(metadata));
  await writeFile(path.join(dir, "tokens.txt"), tokensFile(tokens));
  return { dir, tokens };
}

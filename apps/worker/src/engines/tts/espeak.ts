import { execFileSync } from "node:child_process";
import os from "node:os";
import { type FoundTool, installHint, tool } from "@yuelu/runtime";
import { parseWav } from "../../audio/speech-audio.ts";
import { speakWasm, type WasmVoice, wasmKnowsVoice } from "./espeak-wasm.ts";
import { mapLimit, runProgram } from "./programs.ts";
import {
  type PcmAudio,
  type SynthesisOptions,
  type SynthesisResult,
  type TtsEngine,
  TtsEngineUnavailableError,
  type TtsLanguage,
  type TtsProblemReport,
} from "./types.ts";

/**
 * espeak-ng: Mandarin (`cmn`) and English, offline, ~0.03 s a sentence — the program
 * (`apt-get install espeak-ng`, or ESPEAK_NG_BIN) where there is one, else the same synthesiser compiled
 * to WebAssembly from npm (espeak-wasm.ts), so a machine with only Node speaks too.
 * Robotic but intelligible; its variants (m1–m7, f1–f5, klatt, whisper…), rate and pitch make the
 * library's offline voices sound distinct. Library params: `{voice, variant, rate, pitch, wordGap}`.
 */

export interface EspeakParams {
  /** espeak-ng voice: 'cmn' (Mandarin), 'en-us', 'en-gb'… (default per language) */
  voice?: string;
  /** a variant of espeak-ng-data/voices/!v: 'm3', 'f2', 'klatt', 'whisper'… */
  variant?: string;
  /** words per minute at speed 1 (espeak's default 175) */
  rate?: number;
  /** 0–99 (espeak's default 50) */
  pitch?: number;
  /** extra pause between words, in units of 10 ms at the default speed */
  wordGap?: number;
}

const DEFAULT_VOICE: Record<TtsLanguage, string> = { zh: "cmn", en: "en-us" };
/**
 * Voice names that are a language rather than a voice file. Given "en-gb+f2", the program (1.51) finds the
 * language and drops the "+f2" variant: Emma, a young woman's voice, spoke as the plain British man's voice
 * (its output byte for byte that of "-v en": 135 Hz against 259 Hz with the variant). British English's
 * file is "en" (gmw/en), which is also the only name the WebAssembly build knows for it.
 */
const VOICE_FILE: Record<string, string> = { "en-gb": "en" };
/** espeak's pitch scale: about 6 steps a semitone around its middle. */
const STEPS_PER_SEMITONE = 6;

/** Answers per program and voice; a negative one is asked again after a minute (the package may be installed meanwhile). */
const voiceChecks = new Map<string, { ok: boolean; at: number }>();

/** Whether espeak-ng at `program` knows `voice` (asked once per program and voice). */
function knowsVoice(program: string, voice: string): boolean {
  const key = `${program}\u0000${voice}`;
  const cached = voiceChecks.get(key);
  if (cached && (cached.ok || Date.now() - cached.at < 60_000)) return cached.ok;
  let known: boolean;
  try {
    const out = execFileSync(program, [`--voices=${voice}`], { encoding: "utf8", timeout: 5000 });
    known = out.split("\n").some((line) => line.trim().split(/\s+/)[1]?.toLowerCase() === voice.toLowerCase());
  } catch {
    known = false;
  }
  voiceChecks.set(key, { ok: known, at: Date.now() });
  return known;
}

/** The espeak-ng this worker uses: the operator's program, the system's, or the WebAssembly build. */
export function espeakTool(configured: string | undefined): FoundTool | undefined {
  return tool("espeak-ng", configured);
}

/** Why espeak-ng cannot speak `language` here (no program, no voice data), or undefined. */
export function espeakMissing(configured: string | undefined, language: TtsLanguage): TtsProblemReport | undefined {
  const found = espeakTool(configured);
  if (!found)
    return { problem: "espeak-missing", detail: `espeak-ng was not found: ${installHint("espeak-ng", configured)}` };
  const voice = DEFAULT_VOICE[language];
  // The WebAssembly build carries its voice data; its voices are checked when a job loads it.
  if (found.kind === "program" && !knowsVoice(found.path, voice)) {
    return {
      problem: "espeak-voice-missing",
      detail: `espeak-ng at ${found.path} has no '${voice}' voice: apt-get install espeak-ng-data`,
    };
  }
  return undefined;
}

const clamp = (v: number, min: number, max: number) => Math.max(min, Math.min(max, v));

/** The espeak-ng arguments for a voice at a speed and pitch, and the semitones it applied. */
export function espeakArguments(
  params: EspeakParams,
  options: Pick<SynthesisOptions, "language" | "speed" | "pitch">,
): { args: string[]; pitchApplied: number; wasm: WasmVoice } {
  const named =
    typeof params.voice === "string" && /^[\w-]{1,40}$/.test(params.voice)
      ? params.voice
      : DEFAULT_VOICE[options.language];
  const voice = VOICE_FILE[named.toLowerCase()] ?? named;
  const variant = typeof params.variant === "string" && /^[\w-]{1,40}$/.test(params.variant) ? params.variant : "";
  const rate = Math.round(clamp((Number(params.rate) || 170) * options.speed, 80, 450));
  const base = clamp(Number.isFinite(Number(params.pitch)) ? Number(params.pitch) : 50, 0, 99);
  const pitch = Math.round(clamp(base + options.pitch * STEPS_PER_SEMITONE, 0, 99));
  const args = ["-v", variant ? `${voice}+${variant}` : voice, "-s", String(rate), "-p", String(pitch)];
  if (Number(params.wordGap) > 0) args.push("-g", String(Math.round(clamp(Number(params.wordGap), 0, 50))));
  return {
    args: [...args, "-b", "1", "--stdout"],
    pitchApplied: (pitch - base) / STEPS_PER_SEMITONE,
    wasm: { voice: variant ? `${voice}+${variant}` : voice, rate, pitch },
  };
}

export class EspeakEngine implements TtsEngine {
  readonly name = "espeak-ng" as const;
  readonly languages = ["zh", "en"] as const;
  readonly pitchAndPaceNative = true;

  /** `configured`: ESPEAK_NG_BIN (unset: espeak-ng on PATH, else the WebAssembly build) */
  constructor(private readonly options: { configured?: string | undefined; concurrency?: number }) {}

  async ready(language: TtsLanguage): Promise<void> {
    const missing = espeakMissing(this.options.configured, language);
    if (missing) throw new TtsEngineUnavailableError(this.name, missing.detail, missing.problem);
    const found = espeakTool(this.options.configured);
    if (found?.kind === "wasm" && !(await wasmKnowsVoice(DEFAULT_VOICE[language]))) {
      throw new TtsEngineUnavailableError(
        this.name,
        `eSpeak NG (WebAssembly) did not load or has no '${DEFAULT_VOICE[language]}' voice`,
        "espeak-voice-missing",
      );
    }
  }

  async synthesize(texts: readonly string[], options: SynthesisOptions): Promise<SynthesisResult> {
    await this.ready(options.language);
    const found = espeakTool(this.options.configured)!;
    const { args, pitchApplied, wasm } = espeakArguments(options.params as EspeakParams, options);
    let done = 0;
    const speak = (text: string) =>
      found.kind === "wasm"
        ? speakWasm(text, wasm, options.signal)
        : this.speak(found.path, args, text, options.signal);
    // The program: one short process per sentence, as many at once as there are cores (each ~30 ms).
    // The WebAssembly build: one instance, sentence after sentence.
    const lanes = found.kind === "wasm" ? 1 : (this.options.concurrency ?? os.availableParallelism());
    const pieces = await mapLimit(
      texts,
      lanes,
      async (text): Promise<PcmAudio> => {
        const audio = text.trim() ? await speak(text) : empty();
        options.onProgress?.(++done);
        return audio;
      },
      options.signal,
    );
    return { pieces, pitchApplied };
  }

  private async speak(program: string, args: string[], text: string, signal?: AbortSignal): Promise<PcmAudio> {
    // The text goes in on stdin: never an argument (a leading '-' would read as an option).
    const { stdout } = await runProgram(program, args, { input: text, signal, timeoutMs: 60_000 });
    const audio = parseWav(stdout);
    if (!audio) throw new Error(`espeak-ng answered ${stdout.length} bytes that are not a WAV file`);
    return audio;
  }
}

function empty(): PcmAudio {
  return { sampleRate: 22_050, samples: new Int16Array(0) };
}

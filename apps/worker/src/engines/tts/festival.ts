import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { installHint, tool } from "@yuelu/runtime";
import { parseWav } from "../../audio/speech-audio.ts";
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
 * festival with the HTS voice (`apt-get install festival festvox-us-slt-hts`): clearer English than
 * espeak-ng, offline. English only (it cannot read Chinese). One festival process loads the voice
 * (~0.25 s) and speaks a batch of sentences, each into its own WAV; the batches run side by side, one
 * per core. Library params: `{voice, rate, pitch, formant}` — HTS has one native control, the rate;
 * `pitch` (semitones) is shifted afterwards, keeping the formants ('preserved', a natural timbre) or
 * moving them with it ('shifted': a deeper or brighter voice from the same model).
 */

export interface FestivalParams {
  /** a festival voice (default cmu_us_slt_arctic_hts) */
  voice?: string;
  /** speaking rate at speed 1 (1 = the voice's own) */
  rate?: number;
  /** the voice's own pitch shift in semitones */
  pitch?: number;
  formant?: "preserved" | "shifted";
}

const DEFAULT_VOICE = "cmu_us_slt_arctic_hts";

/** Answers per program and voice; a negative one is asked again after a minute (the package may be installed meanwhile). */
const voiceChecks = new Map<string, { ok: boolean; at: number }>();

function voiceName(params: FestivalParams): string {
  return typeof params.voice === "string" && /^[a-z0-9_]{1,60}$/.test(params.voice) ? params.voice : DEFAULT_VOICE;
}

/** Whether festival at `program` can load `voice` (tried once per program and voice: ~0.3 s). */
function loadsVoice(program: string, voice: string): boolean {
  const key = `${program}\u0000${voice}`;
  const cached = voiceChecks.get(key);
  if (cached && (cached.ok || Date.now() - cached.at < 60_000)) return cached.ok;
  let ok: boolean;
  try {
    const out = execFileSync(program, ["--batch", `(begin (voice_${voice}) (format t "voice-ok\\n"))`], {
      encoding: "utf8",
      timeout: 20_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    ok = out.includes("voice-ok");
  } catch {
    ok = false;
  }
  voiceChecks.set(key, { ok, at: Date.now() });
  return ok;
}

/** Why festival cannot speak `language` with `voice` here, or undefined. */
export function festivalMissing(
  configured: string | undefined,
  language: TtsLanguage,
  voice = DEFAULT_VOICE,
): TtsProblemReport | undefined {
  if (language !== "en") {
    return { problem: "english-only", detail: "festival speaks English only: set TTS_ENGINE_ZH=espeak-ng" };
  }
  const found = tool("festival", configured);
  if (!found) {
    return { problem: "festival-missing", detail: `festival was not found: ${installHint("festival", configured)}` };
  }
  if (!loadsVoice(found.path, voice)) {
    return {
      problem: "festival-voice-missing",
      detail: `festival at ${found.path} cannot load voice_${voice}: apt-get install festvox-us-slt-hts`,
    };
  }
  return undefined;
}

/**
 * A sentence as festival may read it inside a Scheme string: ASCII letters (accents dropped),
 * typographic quotes as apostrophes, and never a '"' or '\' (which would end the string).
 */
export function festivalText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[‘’`´]/g, "'")
    .replace(/[“”"«»\\]/g, " ")
    .replace(/[—–]/g, ", ")
    .replace(/…/g, "...")
    .replace(/[^\x20-\x7e]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export class FestivalEngine implements TtsEngine {
  readonly name = "festival" as const;
  readonly languages = ["en"] as const;

  /** `configured`: FESTIVAL_BIN (unset: festival on PATH) */
  constructor(private readonly options: { configured?: string | undefined; concurrency?: number }) {}

  async ready(language: TtsLanguage, voice = DEFAULT_VOICE): Promise<void> {
    const missing = festivalMissing(this.options.configured, language, voice);
    if (missing) throw new TtsEngineUnavailableError(this.name, missing.detail, missing.problem);
  }

  async synthesize(texts: readonly string[], options: SynthesisOptions): Promise<SynthesisResult> {
    const params = options.params as FestivalParams;
    const voice = voiceName(params);
    await this.ready(options.language, voice);
    const program = tool("festival", this.options.configured)!.path;
    const rate = Math.max(0.3, Math.min(3, (Number(params.rate) || 1) * options.speed));
    const dir = await mkdtemp(path.join(os.tmpdir(), "yuelu-festival-"));
    try {
      const indices = texts.map((_, i) => i).filter((i) => festivalText(texts[i]!) !== "");
      // Contiguous batches, one per core: each process pays the voice load once.
      const lanes = Math.max(1, Math.min(this.options.concurrency ?? os.availableParallelism(), indices.length));
      const size = Math.ceil(indices.length / lanes);
      const batches = Array.from({ length: lanes }, (_, b) => indices.slice(b * size, (b + 1) * size)).filter(
        (b) => b.length > 0,
      );
      let done = texts.length - indices.length;
      if (done) options.onProgress?.(done);
      await mapLimit(
        batches,
        batches.length,
        async (batch, b) => {
          const script = [
            `(voice_${voice})`,
            `(set! hts_engine_params (append hts_engine_params (list (list "-r" ${rate.toFixed(3)}))))`,
            ...batch.map(
              (i) =>
                `(unwind-protect (begin (utt.save.wave (utt.synth (Utterance Text "${festivalText(texts[i]!)}")) "${path.join(dir, `${i}.wav`)}" 'riff) (format t "done ${i}\\n")) (format t "failed ${i}\\n"))`,
            ),
          ].join("\n");
          const file = path.join(dir, `batch-${b}.scm`);
          await writeFile(file, script);
          let partial = "";
          const { stdout } = await runProgram(program, ["--batch", file], {
            signal: options.signal,
            timeoutMs: 60_000 + batch.length * 30_000,
            onStdout: (chunk) => {
              const lines = (partial + chunk.toString()).split("\n");
              partial = lines.pop() ?? "";
              for (const line of lines) if (/^(done|failed) \d+$/.test(line)) options.onProgress?.(++done);
            },
          });
          const failed = /failed (\d+)/.exec(stdout.toString());
          if (failed) throw new Error(`festival could not speak sentence ${failed[1]}: "${texts[Number(failed[1])]}"`);
        },
        options.signal,
      );
      const pieces = await Promise.all(
        texts.map(async (_, i): Promise<PcmAudio> => {
          if (!indices.includes(i)) return { sampleRate: 32_000, samples: new Int16Array(0) };
          const audio = parseWav(await readFile(path.join(dir, `${i}.wav`)));
          if (!audio) throw new Error(`festival wrote sentence ${i} in a form that is not a WAV file`);
          return audio;
        }),
      );
      const voicePitch = Number(params.pitch) || 0;
      return { pieces, pitchApplied: 0, voicePitch, keepFormants: params.formant !== "shifted" };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

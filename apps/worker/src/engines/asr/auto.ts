import { loadAudio } from "../../audio/pcm.ts";
import { detectSpeech } from "../../audio/vad.ts";
import {
  type AsrEngine,
  AsrEngineUnavailableError,
  type AsrLanguage,
  type AsrResult,
  type AudioInput,
  type TranscribeOptions,
} from "./types.ts";

/**
 * 'auto': first find out which language is spoken — with an engine that really identifies languages
 * (SenseVoice, a multilingual whisper model, or an OpenAI-compatible server) — then hand the speech
 * to the engine configured for that language. When the language cannot be told, or its engine is
 * not ready, the task is refused (failed and refunded, with the reason) — speech is never given to
 * an engine that cannot understand it (a Mandarin clip to the English-only Moonshine would come
 * back as invented English).
 */
export interface AutoLanguageOptions {
  /** the engine that identifies the language (throws AsrEngineUnavailableError when none is ready) */
  identifier: () => AsrEngine;
  /** the engine configured for a language */
  engineFor: (language: "zh" | "en") => AsrEngine;
}

/** Share of the progress bar spent on identifying the language. */
const IDENTIFY_SHARE = 0.05;

export class AutoLanguageEngine implements AsrEngine {
  readonly name = "auto";

  constructor(private readonly options: AutoLanguageOptions) {}

  async ready(): Promise<void> {
    await this.options.identifier().ready?.("auto");
  }

  async transcribe(audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    const identifier = this.options.identifier();
    await identifier.ready?.("auto");
    if (!identifier.identifyLanguage) {
      // an engine that identifies as it transcribes (an OpenAI-compatible server): one pass
      return identifier.transcribe(audio, { ...options, language: "auto" });
    }
    const pcm = await loadAudio(audio, options.signal);
    const regions = options.regions ?? detectSpeech(pcm);
    if (regions.length === 0) return { segments: [] };
    const heard = normalise(await identifier.identifyLanguage(pcm, { regions, signal: options.signal }));
    options.onProgress?.(IDENTIFY_SHARE);
    if (!heard) {
      throw new AsrEngineUnavailableError(
        identifier.name,
        "auto: the language could not be identified from the speech",
        "no-language-id",
      );
    }
    const rest = {
      ...options,
      regions,
      onProgress: (f: number) => options.onProgress?.(IDENTIFY_SHARE + f * (1 - IDENTIFY_SHARE)),
    };
    if (heard !== "zh" && heard !== "en") {
      // another language (Japanese, Korean…): only the identifier, a multilingual model, understands it
      return identifier.transcribe(pcm, { ...rest, language: "auto" });
    }
    const engine = this.options.engineFor(heard);
    await engine.ready?.(heard);
    const result = await engine.transcribe(pcm, { ...rest, language: heard });
    return { ...result, language: result.language ?? heard };
  }
}

function normalise(language: string | undefined): AsrLanguage | string | undefined {
  const l = language?.toLowerCase();
  if (!l) return undefined;
  if (l.startsWith("zh") || l === "yue" || l === "chinese" || l === "cmn") return "zh";
  if (l.startsWith("en") || l === "english") return "en";
  return l;
}

import { decodeSpeech } from "../../audio/speech-audio.ts";
import { postForAudio } from "./openai.ts";
import { mapLimit } from "./programs.ts";
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
 * A GPT-SoVITS server (its api_v2.py, or anything speaking the same shape): it clones the voice of a
 * reference clip. `POST {url}/tts` with `{text, text_lang, ref_audio_path, prompt_text, prompt_lang,
 * speed_factor, media_type: "wav", streaming_mode: false}` per sentence, one at a time (such servers
 * run one synthesis per GPU). Library params `{refAudio, promptText, promptLang}` name the reference
 * as the server sees it; absent, GPTSOVITS_REF_AUDIO / GPTSOVITS_PROMPT_TEXT / GPTSOVITS_PROMPT_LANG.
 */

export interface GptSovitsParams {
  refAudio?: string;
  promptText?: string;
  promptLang?: string;
}

export interface GptSovitsOptions {
  url?: string;
  refAudio?: string;
  promptText?: string;
  promptLang: string;
  concurrency?: number;
  timeoutMs?: number;
}

interface Reference {
  refAudio?: string;
  promptText?: string;
  promptLang: string;
}

function referenceOf(params: GptSovitsParams, options: GptSovitsOptions): Reference {
  return {
    refAudio: typeof params.refAudio === "string" && params.refAudio ? params.refAudio : options.refAudio,
    promptText: typeof params.promptText === "string" && params.promptText ? params.promptText : options.promptText,
    promptLang: typeof params.promptLang === "string" && params.promptLang ? params.promptLang : options.promptLang,
  };
}

/** Why the GPT-SoVITS engine cannot speak with `params` here (no server, no reference clip), or undefined. */
export function gptSovitsMissing(
  options: GptSovitsOptions,
  params: GptSovitsParams = {},
): TtsProblemReport | undefined {
  if (!options.url) {
    return { problem: "gptsovits-missing", detail: "no GPT-SoVITS server is configured: set GPTSOVITS_URL" };
  }
  const ref = referenceOf(params, options);
  if (!ref.refAudio || !ref.promptText) {
    return {
      problem: "gptsovits-reference-missing",
      detail:
        "the GPT-SoVITS voice has no reference clip: set GPTSOVITS_REF_AUDIO and GPTSOVITS_PROMPT_TEXT (or the voice's params)",
    };
  }
  return undefined;
}

export class GptSovitsEngine implements TtsEngine {
  readonly name = "gpt-sovits" as const;
  readonly languages = ["zh", "en"] as const;

  constructor(private readonly options: GptSovitsOptions) {}

  endpoint(): string {
    return `${(this.options.url ?? "").replace(/\/+$/, "")}/tts`;
  }

  async ready(_language: TtsLanguage, params: GptSovitsParams = {}): Promise<void> {
    const missing = gptSovitsMissing(this.options, params);
    if (missing) throw new TtsEngineUnavailableError(this.name, missing.detail, missing.problem);
  }

  async synthesize(texts: readonly string[], options: SynthesisOptions): Promise<SynthesisResult> {
    const params = options.params as GptSovitsParams;
    await this.ready(options.language, params);
    const ref = referenceOf(params, this.options);
    let done = 0;
    const pieces = await mapLimit(
      texts,
      this.options.concurrency ?? 1,
      async (text): Promise<PcmAudio> => {
        const audio = text.trim()
          ? await decodeSpeech(
              await postForAudio(
                this.name,
                this.endpoint(),
                {
                  text,
                  text_lang: options.language,
                  ref_audio_path: ref.refAudio,
                  prompt_text: ref.promptText,
                  prompt_lang: ref.promptLang,
                  speed_factor: Math.max(0.5, Math.min(2, options.speed)),
                  text_split_method: "cut0",
                  media_type: "wav",
                  streaming_mode: false,
                },
                { signal: options.signal, timeoutMs: this.options.timeoutMs ?? 180_000 },
              ),
              32_000,
              options.signal,
            )
          : { sampleRate: 32_000, samples: new Int16Array(0) };
        options.onProgress?.(++done);
        return audio;
      },
      options.signal,
    );
    return { pieces, pitchApplied: 0 };
  }
}

import { decodeSpeech } from "../../audio/speech-audio.ts";
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
 * An OpenAI-compatible speech server (OpenAI, or the self-hosted neural TTS servers that speak its
 * API: Kokoro-FastAPI, openedai-speech, LocalAI…): `POST {url}/v1/audio/speech` with
 * `{model, input, voice, speed, response_format: "wav"}` per sentence, a few at once. Library
 * params: `{voice, model?}`. Pitch is not part of the API: the pipeline shifts it afterwards.
 */

export interface OpenAiTtsParams {
  voice?: string;
  model?: string;
}

export interface OpenAiTtsOptions {
  /** base URL (a trailing /v1 is tolerated) */
  url?: string;
  key?: string;
  model: string;
  /** requests at once */
  concurrency?: number;
  timeoutMs?: number;
}

export function openAiTtsMissing(url: string | undefined): TtsProblemReport | undefined {
  return url
    ? undefined
    : { problem: "openai-missing", detail: "no OpenAI-compatible speech server is configured: set OPENAI_TTS_URL" };
}

/** What a failed HTTP call to a speech server means: a configuration problem (not retried) or a passing one. */
export function httpFailure(engine: string, endpoint: string, status: number, body: string): Error {
  if (status === 401 || status === 403 || status === 404) {
    return new TtsEngineUnavailableError(
      engine,
      `the speech server at ${endpoint} answered HTTP ${status}: check its URL and key (${body.slice(0, 200)})`,
      "server-refused",
    );
  }
  return new Error(`the speech server at ${endpoint} answered HTTP ${status}: ${body.slice(0, 300)}`);
}

/** POSTs JSON and answers the body's bytes, mapping failures as httpFailure does. */
export async function postForAudio(
  engine: string,
  endpoint: string,
  body: unknown,
  options: { key?: string; signal?: AbortSignal; timeoutMs: number },
): Promise<Buffer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    options.signal?.throwIfAborted();
    const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
    throw new Error(`the speech server at ${endpoint} could not be reached: ${why}`);
  }
  const data = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw httpFailure(engine, endpoint, res.status, data.toString("utf8"));
  if (data.length === 0) throw new Error(`the speech server at ${endpoint} answered no audio`);
  return data;
}

export class OpenAiTtsEngine implements TtsEngine {
  readonly name = "openai-compatible" as const;
  readonly languages = ["zh", "en"] as const;

  constructor(private readonly options: OpenAiTtsOptions) {}

  endpoint(): string {
    const base = (this.options.url ?? "").replace(/\/+$/, "").replace(/\/v1$/, "");
    return `${base}/v1/audio/speech`;
  }

  async ready(_language: TtsLanguage): Promise<void> {
    const missing = openAiTtsMissing(this.options.url);
    if (missing) throw new TtsEngineUnavailableError(this.name, missing.detail, missing.problem);
  }

  async synthesize(texts: readonly string[], options: SynthesisOptions): Promise<SynthesisResult> {
    await this.ready(options.language);
    const params = options.params as OpenAiTtsParams;
    let done = 0;
    const pieces = await mapLimit(
      texts,
      this.options.concurrency ?? 3,
      async (text): Promise<PcmAudio> => {
        const audio = text.trim()
          ? await decodeSpeech(
              await postForAudio(
                this.name,
                this.endpoint(),
                {
                  model: typeof params.model === "string" ? params.model : this.options.model,
                  input: text,
                  voice: typeof params.voice === "string" ? params.voice : "alloy",
                  speed: Math.max(0.25, Math.min(4, options.speed)),
                  response_format: "wav",
                },
                { key: this.options.key, signal: options.signal, timeoutMs: this.options.timeoutMs ?? 120_000 },
              ),
              24_000,
              options.signal,
            )
          : { sampleRate: 24_000, samples: new Int16Array(0) };
        options.onProgress?.(++done);
        return audio;
      },
      options.signal,
    );
    return { pieces, pitchApplied: 0 };
  }
}

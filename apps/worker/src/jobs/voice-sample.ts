import { Readable } from "node:stream";
import { TTS_PITCH, TTS_SPEED, TTS_VOLUME } from "@yuelu/contracts";
import { type DomainContext, findVoice, sampleKey } from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import type { TtsEngineResolver } from "../engines/tts/factory.ts";
import { renderSpeech } from "../speech/render-speech.ts";

export interface VoiceSampleContext {
  domain: Pick<DomainContext, "db">;
  files: FileStore;
  tts: TtsEngineResolver;
}

export type VoiceSampleOutcome =
  | { status: "done" | "cached"; key: string; durationMs?: number }
  | { status: "skipped"; reason: string };

/**
 * A library voice's try_listen sample: its sampleText in its own voice (speed, pitch and volume at
 * their defaults), as MP3, stored under a key made from a hash of its parameters (domain sampleKey) —
 * made once; a voice whose parameters change gets a new key, so a new sample.
 */
export async function generateVoiceSample(promptId: number, ctx: VoiceSampleContext): Promise<VoiceSampleOutcome> {
  const voice = await findVoice(ctx.domain.db, promptId);
  if (!voice) return { status: "skipped", reason: `voice ${promptId} is not in the library` };
  const key = sampleKey(voice);
  if ((await ctx.files.size(key)) !== null) return { status: "cached", key };
  const engine = ctx.tts(voice.engine);
  await engine.ready(voice.language);
  const rendered = await renderSpeech(
    engine,
    {
      text: voice.sampleText,
      language: voice.language,
      params: voice.params,
      speed: TTS_SPEED.default,
      pitch: TTS_PITCH.default,
      volume: TTS_VOLUME.default,
      format: "mp3",
    },
    { signal: AbortSignal.timeout(120_000) },
  );
  await ctx.files.put(key, Readable.from([rendered.data]));
  return { status: "done", key, durationMs: rendered.durationMs };
}

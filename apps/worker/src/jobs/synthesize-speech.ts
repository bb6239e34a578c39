import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { StatusCode, type TtsFailure, ttsFailureReason, ZVoiceProfile } from "@yuelu/contracts";
import {
  claimTtsTask,
  completeTtsTask,
  type DomainContext,
  reportTtsProgress,
  type TtsTaskFailure,
  ttsRunLimitMs,
} from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import { SpeechAudioError } from "../audio/speech-audio.ts";
import type { TtsEngineResolver } from "../engines/tts/factory.ts";
import { type PcmAudio, type TtsEngine, TtsEngineUnavailableError } from "../engines/tts/types.ts";
import { PermanentVoiceError } from "../engines/voice/errors.ts";
import { matchVoice, nativeMatch, scaleFrequencies } from "../engines/voice/match.ts";
import { cloneTtsEngine, type RemoteVoiceConfig, storedReference } from "../engines/voice/remote.ts";
import { NothingToSayError, renderSpeech, SilentSpeechError } from "../speech/render-speech.ts";

export interface SynthesizeContext {
  /** the business rules' context: every change of the task's state goes through them */
  domain: Pick<DomainContext, "db" | "clock" | "events" | "config">;
  files: FileStore;
  /** picks the engine of the task's voice (the product passes configuredTtsEngines(config)) */
  tts: TtsEngineResolver;
  /** the configured voice engines: a task in a cloned voice is spoken by VOICE_CLONE_URL */
  remote?: RemoteVoiceConfig;
  log?: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** least time between two progress writes (ms) */
  progressEveryMs?: number;
  /** the longest one attempt may run (default: ttsRunLimitMs of the task, less a margin) */
  timeoutMs?: number;
}

export type SynthesizeOutcome =
  | { status: "done"; outputKey: string; durationMs: number; fileSize: number; stages: Record<string, number> }
  | { status: "skipped"; reason: string };

/** A failure another attempt cannot fix (nothing to say, silence from the engine): fail now. */
export class PermanentSynthesisError extends Error {
  constructor(
    readonly reason: TtsFailure,
    message: string,
  ) {
    super(message);
    this.name = "PermanentSynthesisError";
  }
}

/** The task left status 1 while we worked (deleted, failed by housekeeping): stop quietly. */
export class TtsTaskGoneError extends Error {
  constructor(taskId: number) {
    super(`tts task ${taskId} is no longer running`);
    this.name = "TtsTaskGoneError";
  }
}

/** Where a task's audio is stored: under its user, with a random part so a retry never reuses a name. */
export function ttsOutputKey(userId: number, taskId: number, format: string): string {
  return `tts/${userId}/${taskId}-${randomBytes(6).toString("hex")}.${format}`;
}

/**
 * The synthesis job: claim the task (3 → 1), render the text (render-speech.ts) with progress
 * mirrored on the task, store the file, then status 2 with the file in one transaction (which also
 * counts the daily 'tts' task). Throws on failure; the caller (the BullMQ processor) decides
 * between a retry and `failTtsTask`. An attempt never outlives its time limit: its engines are
 * aborted (child processes killed, requests cancelled).
 */
export async function synthesizeSpeech(taskId: number, ctx: SynthesizeContext): Promise<SynthesizeOutcome> {
  const task = await claimTtsTask(ctx.domain, taskId);
  if (!task) return { status: "skipped", reason: "the task is not waiting for synthesis (done, failed or deleted)" };

  const timeout = AbortSignal.timeout(ctx.timeoutMs ?? Math.max(60_000, ttsRunLimitMs(task.chars) - 5 * 60_000));
  const abort = new AbortController();
  const signal = AbortSignal.any([timeout, abort.signal]);
  let last = 0;
  let lastWrite = 0;
  let pending: Promise<void> = Promise.resolve();
  const every = ctx.progressEveryMs ?? 500;
  const report = (fraction: number, force = false) => {
    const value = Math.max(0, Math.min(99, Math.floor(fraction * 100)));
    if (value <= last || (!force && Date.now() - lastWrite < every)) return;
    last = value;
    lastWrite = Date.now();
    pending = pending
      .then(async () => {
        if (!(await reportTtsProgress(ctx.domain, taskId, value))) abort.abort(new TtsTaskGoneError(taskId));
      })
      // A progress write that fails (a database hiccup) must not stop the synthesis; the next one tries again.
      .catch((error) => ctx.log?.error({ err: error, taskId }, "could not write synthesis progress"));
  };

  const mine = await personalVoice(ctx, task.userVoiceId, task.engine);
  const engine = mine?.engine ?? ctx.tts(task.engine);
  await engine.ready(task.language);
  const started = Date.now();
  let rendered: Awaited<ReturnType<typeof renderSpeech>>;
  try {
    const request = { ...task, pitch: task.pitch + (mine?.pitch ?? 0), speed: task.speed * (mine?.speed ?? 1) };
    const transform = mine?.transform;
    rendered = await renderSpeech(engine, request, { signal, onProgress: (f) => report(f), transform });
  } catch (error) {
    await pending;
    if (abort.signal.aborted) throw new TtsTaskGoneError(taskId);
    if (timeout.aborted) throw new PermanentSynthesisError("timeout", `the synthesis took longer than its limit`);
    throw error;
  }
  report(0.95, true);
  await pending;
  if (abort.signal.aborted) throw new TtsTaskGoneError(taskId);

  const outputKey = ttsOutputKey(task.userId, taskId, task.format);
  const { size } = await ctx.files.put(outputKey, Readable.from([rendered.data]));
  const output = { outputKey, fileSize: size, durationMs: rendered.durationMs };
  if (!(await completeTtsTask(ctx.domain, taskId, output))) {
    await ctx.files.delete(outputKey);
    throw new TtsTaskGoneError(taskId);
  }
  ctx.log?.info(
    {
      taskId,
      engine: engine.name,
      chars: task.chars,
      pieces: rendered.pieces,
      audioSeconds: rendered.durationMs / 1000,
      wallSeconds: (Date.now() - started) / 1000,
      ...rendered.stages,
    },
    "synthesis done",
  );
  return { status: "done", ...output, stages: rendered.stages };
}

/**
 * Whether another attempt cannot help: the engine is missing, the text has nothing to say (or the engine
 * answered it with silence), ffmpeg is absent, a configured voice server refused the request (4xx).
 */
export function isPermanentSynthesisFailure(error: unknown): boolean {
  return (
    error instanceof TtsEngineUnavailableError ||
    error instanceof PermanentVoiceError ||
    error instanceof PermanentSynthesisError ||
    error instanceof NothingToSayError ||
    error instanceof SilentSpeechError ||
    (error instanceof SpeechAudioError && error.ffmpegMissing)
  );
}

/** What a final failure is stored with: the code, the reason users are told, the details for operators. */
export function synthesisFailureOf(error: unknown): TtsTaskFailure {
  const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 480);
  if (error instanceof TtsEngineUnavailableError) {
    return {
      code: StatusCode.EngineUnavailable,
      reason: ttsFailureReason("engine-unavailable", error.problem),
      detail,
    };
  }
  if (error instanceof SpeechAudioError && error.ffmpegMissing) {
    return {
      code: StatusCode.EngineUnavailable,
      reason: ttsFailureReason("engine-unavailable", "ffmpeg-missing"),
      detail,
    };
  }
  if (error instanceof NothingToSayError) {
    return { code: StatusCode.SynthesisFailed, reason: ttsFailureReason("nothing-to-say"), detail };
  }
  if (error instanceof PermanentSynthesisError) {
    return { code: StatusCode.SynthesisFailed, reason: ttsFailureReason(error.reason), detail };
  }
  if (error instanceof SilentSpeechError) {
    return { code: StatusCode.SynthesisFailed, reason: ttsFailureReason("error"), detail };
  }
  return { code: StatusCode.SynthesisFailed, reason: ttsFailureReason("error"), detail };
}

/**
 * A task spoken in one of the user's voices. A matched voice: the library voice's speech moved toward
 * the voice's profile (docs/voice.md "What 'my voice' is here") — by the engine's own pitch and pace
 * (`pitch` semitones more, `speed` times faster) and a resampling where the engine has them (eSpeak:
 * match.ts nativeMatch), else by Rubber Band. A cloned voice: the clone server speaks it with the voice's
 * sample as reference (docs/voice.md "Configured engines"). Undefined for a library voice; a voice deleted
 * since the task was queued leaves the library voice as it is.
 */
async function personalVoice(
  ctx: SynthesizeContext,
  userVoiceId: number | null,
  baseEngine: string,
): Promise<
  { engine?: TtsEngine; pitch?: number; speed?: number; transform?: (track: PcmAudio) => Promise<PcmAudio> } | undefined
> {
  if (userVoiceId === null) return undefined;
  const voice = await ctx.domain.db.userVoice.findUnique({ where: { id: userVoiceId } });
  if (voice?.method === "clone") {
    const remote = ctx.remote ?? {};
    // without a clone server the engine's ready() refuses (70001): the sample is not worth decoding
    const reference = remote.VOICE_CLONE_URL ? await storedReference(ctx.files, voice.sourceKey) : Buffer.alloc(0);
    return { engine: cloneTtsEngine(remote, reference) };
  }
  const target = ZVoiceProfile.safeParse(voice?.profile);
  const base = ZVoiceProfile.safeParse(voice?.baseProfile);
  if (!target.success || !base.success) return undefined;
  const change = (move: (floats: Float32Array, rate: number) => Float32Array | Promise<Float32Array>) => {
    return async (track: PcmAudio): Promise<PcmAudio> => {
      const floats = Float32Array.from(track.samples, (v) => v / 32768);
      const moved = await move(floats, track.sampleRate);
      const samples = Int16Array.from(moved, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
      return { sampleRate: track.sampleRate, samples };
    };
  };
  if (ctx.tts(baseEngine).pitchAndPaceNative) {
    const plan = nativeMatch(base.data, target.data);
    return {
      pitch: plan.semitones,
      speed: plan.speed,
      transform: change((floats, rate) => scaleFrequencies(floats, rate, plan.formantScale)),
    };
  }
  return { transform: change((floats, rate) => matchVoice(floats, rate, base.data, target.data)) };
}

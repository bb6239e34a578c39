import { tmpdir } from "node:os";
import {
  failureReason,
  MEDIA_LENGTH_TOLERANCE_SECONDS,
  type PartialSegment,
  type Segment,
  StatusCode,
  speakerLabel,
  type TranscriptionFailure,
  wrongLanguageReason,
} from "@yuelu/contracts";
import {
  claimTask,
  completeTask,
  type DomainContext,
  knownVoices,
  reportTaskProgress,
  saveTaskCheckpoint,
  type TaskFailure,
} from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import { AudioDecodeError, decodeToPcm, type Pcm } from "../audio/pcm.ts";
import { energyProfile } from "../audio/vad.ts";
import type { AsrEngineResolver } from "../engines/asr/factory.ts";
import { type AsrEngine, AsrEngineUnavailableError, type AsrLanguage, type AsrSegment } from "../engines/asr/types.ts";
import { BackgroundVoicePrints } from "../speech/background-voice-prints.ts";
import { diarize, type VoicePrints } from "../speech/diarize.ts";
import { type Hearing, hear } from "../speech/hear.ts";
import { followKnownVoices } from "../speech/known-speakers.ts";
import { englishEvidence, guardLanguage, judgeEnglish, WrongLanguageError } from "../speech/language-check.ts";
import { punctuate } from "../speech/punctuate.ts";
import { mfccGaussEmbedder, type SpeakerEmbedder, speakerVoices } from "../speech/speaker-prints.ts";
import { storedWords, timeSegmentWords } from "../speech/word-times.ts";
import {
  CHECKPOINT_VERSION,
  type CheckpointBasis,
  previewOf,
  regionsDigest,
  resumePoint,
  type TranscriptionCheckpoint,
} from "./checkpoint.ts";

export interface TranscribeContext {
  /** the business rules' context: every change of the task's state goes through them */
  domain: Pick<DomainContext, "db" | "clock" | "events" | "config">;
  files: FileStore;
  /** picks the ASR engine for a language (the product passes configuredAsrEngines(config)) */
  asr: AsrEngineResolver;
  log?: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** least time between two progress writes (ms) */
  progressEveryMs?: number;
  /** when the job was queued (epoch ms): the log says how long it waited */
  queuedAt?: number;
  /**
   * recording (ms) recognised between two checkpoints (default 60 s; 0: one engine call, no
   * checkpoints): a cut attempt's successor recognises only what came after the last one
   */
  checkpointEveryMs?: number;
  /** how speakers' voiceprints are made (speech/speaker-prints.ts; default: MFCC statistics) */
  speakers?: SpeakerEmbedder;
  /**
   * where the decoded recording is kept while it is transcribed (audio/spool.ts: read window by window, not
   * held in memory — 346 MB for 3 hours); default: the system's temporary folder
   */
  spoolDir?: string;
}

/** Default recording per checkpoint: ~3–15 s of work for the local engines on two cores. */
export const CHECKPOINT_EVERY_MS = 60_000;

export type TranscribeOutcome =
  | {
      status: "done";
      segments: number;
      speakers: number;
      language: string;
      seconds: number;
      /** the ASR engine that recognised it (yuelu_transcribed_audio_seconds_total, docs/metrics.md) */
      engine: string;
      /** wall time per stage (decodeMs, frontEndMs, asrMs, diarizeMs, saveMs) */
      stages: Record<string, number>;
    }
  | { status: "skipped"; reason: string };

/** A failure that another attempt cannot fix (missing file): fail now instead of retrying. */
export class PermanentTranscriptionError extends Error {
  constructor(
    readonly reason: TranscriptionFailure,
    message: string,
  ) {
    super(message);
    this.name = "PermanentTranscriptionError";
  }
}

/** The task left status 1 while we worked (failed by housekeeping, record deleted): stop quietly. */
export class TaskGoneError extends Error {
  constructor(taskId: number) {
    super(`transcription task ${taskId} is no longer transcribing`);
    this.name = "TaskGoneError";
  }
}

/** Progress bands of the pipeline (0–100). */
const P = { decoded: 8, segmented: 10, recognised: 88, diarized: 96 } as const;

/**
 * The transcription job: decode → 16 kHz mono → front end → energy VAD → ASR engine → speakers → punctuation →
 * transcript row + status 2 in one transaction. Status 1 and progress are mirrored on the task and
 * its record while it runs. Throws on failure; the caller (the BullMQ processor) decides between a
 * retry and `failTranscription`.
 */
export async function transcribe(taskId: number, ctx: TranscribeContext): Promise<TranscribeOutcome> {
  const decoded: Pcm[] = [];
  try {
    return await transcribeTask(taskId, ctx, decoded);
  } finally {
    // the spooled recording's file (the voice-print thread has ended by now)
    for (const pcm of decoded) pcm.close?.();
  }
}

/** The job itself; `decoded` gets the recording once it is decoded (the caller closes it). */
async function transcribeTask(taskId: number, ctx: TranscribeContext, decoded: Pcm[]): Promise<TranscribeOutcome> {
  const begun = Date.now();
  const task = await claimTask(ctx.domain, taskId);
  if (!task)
    return { status: "skipped", reason: "the task is not waiting for transcription (done, failed or deleted)" };

  const abort = new AbortController();
  let lastWrite = 0;
  let lastValue = 0;
  const every = ctx.progressEveryMs ?? 1500;
  const progress = async (value: number, force = false) => {
    const v = Math.max(0, Math.min(99, Math.floor(value)));
    if (v <= lastValue && !force) return;
    if (!force && Date.now() - lastWrite < every) return;
    lastWrite = Date.now();
    lastValue = Math.max(lastValue, v);
    if (!(await reportTaskProgress(ctx.domain, task, lastValue))) {
      abort.abort(new TaskGoneError(taskId));
      throw new TaskGoneError(taskId);
    }
  };
  // Engine callbacks are synchronous: chain their writes and surface the first failure.
  let pending: Promise<void> = Promise.resolve();
  let callbackError: unknown;
  const report = (value: number) => {
    pending = pending
      .then(() => progress(value))
      .catch((error) => {
        callbackError ??= error;
      });
  };
  const checkpoint = async (value: number) => {
    await pending;
    if (callbackError) throw callbackError;
    await progress(value, true);
  };

  const language = (["zh", "en", "auto"].includes(task.language) ? task.language : "auto") as AsrLanguage;
  const engine = ctx.asr(language);
  await engine.ready?.(language);

  const size = await ctx.files.size(task.storageKey);
  if (size === null) {
    throw new PermanentTranscriptionError(
      "file-missing",
      `the audio file of record ${task.fileId} is missing from storage`,
    );
  }
  const { hotWords } = task;

  // 1. decode to 16 kHz mono (streamed from ffmpeg)
  const started = Date.now();
  const stages: Record<string, number> = {};
  let mark = started;
  const stage = (name: string) => {
    stages[name] = Date.now() - mark;
    mark = Date.now();
  };
  // ffmpeg reads a local file (some containers need seeking): the file itself on disk, a temporary
  // copy from S3 that is removed as soon as the PCM is decoded — into a spool file, read window by window.
  // Only what was charged is heard: the record's length was measured by this same decode at upload, and
  // the decode stops a little past it whatever the file's header claims (records/probe.ts).
  const pcm = await ctx.files.withLocalCopy(task.storageKey, (file) =>
    decodeToPcm(file, {
      expectedSeconds: task.timeLen || undefined,
      ...(task.timeLen > 0 ? { maxSeconds: task.timeLen + MEDIA_LENGTH_TOLERANCE_SECONDS } : {}),
      onProgress: (f) => report(f * P.decoded),
      signal: abort.signal,
      spoolDir: ctx.spoolDir ?? tmpdir(),
    }),
  );
  decoded.push(pcm);
  if (pcm.cut) {
    ctx.log?.info(
      { taskId, fileId: task.fileId, charged: task.timeLen },
      "the file decodes longer than the length charged for it: only the charged length is transcribed",
    );
  }
  await checkpoint(P.decoded);
  stage("decodeMs");

  // 2–3. the front end (measure; clean noisy audio, level quiet speech), speech regions in what the
  // engine will hear, recognition (twice for a cleaned recording: speech/hear.ts), with the speakers'
  // voice prints computed on another thread — from the recording itself — as segments come in
  const profile = energyProfile(pcm);
  const voices = task.speakerCount === 1 ? null : new BackgroundVoicePrints(pcm, profile);
  let hearing: Hearing;
  let segments: AsrSegment[];
  let features: VoicePrints | undefined;
  // Checkpoints: what this attempt has recognised is stored after each batch; what an earlier attempt
  // stored (same file, audio, engine, model, language, hot words and regions) is not recognised again.
  const basisOf = (regions: string): CheckpointBasis => ({
    storageKey: task.storageKey,
    size,
    samples: pcm.length,
    engine: engine.name,
    model: engine.model ?? "",
    language,
    hotWords,
    regions,
  });
  const everyMs = ctx.checkpointEveryMs ?? CHECKPOINT_EVERY_MS;
  let basis: CheckpointBasis | undefined;
  // the checkpoints' preview, punctuated once per segment: batches only ever add segments at the end
  const preview = { segments: [] as PartialSegment[], of: 0, language: "" };
  const previewFor = (soFar: readonly AsrSegment[], heard: string | undefined) => {
    const shownIn = normaliseLanguage(heard) ?? language;
    if (shownIn !== preview.language || soFar.length < preview.of) Object.assign(preview, { segments: [], of: 0 });
    preview.segments.push(...previewOf(soFar.slice(preview.of), shownIn));
    Object.assign(preview, { of: soFar.length, language: shownIn });
    return preview.segments;
  };
  try {
    hearing = await hear(
      engine,
      pcm,
      profile,
      {
        language,
        hotWords,
        signal: abort.signal,
        onProgress: (f) => report(P.segmented + f * (P.recognised - P.segmented)),
        onSegment: voices ? (s) => s.text.trim() !== "" && voices.add(s) : undefined,
      },
      {},
      everyMs > 0
        ? {
            batchMs: everyMs,
            resume: (regions) => {
              basis = basisOf(regionsDigest(regions));
              const point = resumePoint(task.checkpoint, basis, regions);
              if (!point) return null;
              const { segments, regionsDone, offsetMs, language: heard } = point.checkpoint;
              ctx.log?.info(
                { taskId, attempt: task.attempt, fromAttempt: point.checkpoint.attempt, offsetMs, regionsDone },
                "transcription resumed from its checkpoint",
              );
              return { segments, regionsDone, language: heard };
            },
            onBatch: async ({ segments: soFar, regionsDone, offsetMs, language: heard }) => {
              // English asked and the first minute already sounds like another language: stop here, not hours later
              if (language === "en") earlyLanguageCheck(soFar);
              const checkpoint: TranscriptionCheckpoint = {
                v: CHECKPOINT_VERSION,
                basis: basis as CheckpointBasis,
                offsetMs,
                regionsDone,
                segments: soFar,
                preview: previewFor(soFar, heard),
                ...(heard ? { language: heard } : {}),
                attempt: task.attempt,
                savedAt: new Date().toISOString(),
              };
              if (!(await saveTaskCheckpoint(ctx.domain, { id: taskId, attempt: task.attempt }, checkpoint))) {
                abort.abort(new TaskGoneError(taskId));
                throw new TaskGoneError(taskId);
              }
            },
            // "auto": the first batch identifies the language, the rest go to that language's engine
            engineFor:
              language === "auto"
                ? (heard) => (heard === "zh" || heard === "en" ? ctx.asr(heard) : undefined)
                : undefined,
          }
        : {},
    );
    await checkpoint(P.recognised);
    stage("asrMs");
    // (the front end's share of that stage, on its own)
    stages.frontEndMs = hearing.frontEndMs;
    stages.asrMs = (stages.asrMs ?? 0) - hearing.frontEndMs;
    segments = hearing.result.segments.filter((s) => s.text.trim() !== "");
    // never another language's speech saved as a transcript (speech/language-check.ts): failed and refunded
    if (language !== "auto") {
      await guardLanguage(
        { expected: language, english: englishEngine(ctx), canRecognise: (l) => canRecognise(ctx, l) },
        { segments, language: hearing.result.language },
        { audio: hearing.heard, regions: hearing.regions, signal: abort.signal },
      );
    }
    features = await voices?.collect(segments);
  } finally {
    await voices?.close();
  }
  const result = hearing.result;
  const transcriptLanguage = normaliseLanguage(result.language) ?? (language === "auto" ? "auto" : language);

  // 4. speakers (clustering the voice prints)
  const dia = await diarize(pcm, segments, { speakerCount: task.speakerCount, profile, features });
  // with the count estimated, the voices the user named tell speakers apart too (an unknown voice merged with a
  // known one is left apart from it: speech/known-speakers.ts); a count the user gave is kept as it is
  const embedder = ctx.speakers ?? mfccGaussEmbedder;
  if (!task.speakerCount && segments.length > 1) {
    const people = await knownVoices(ctx.domain.db, task.userId, embedder.model);
    dia.speakers = followKnownVoices(pcm, segments, dia.speakers, profile, embedder, people);
    dia.count = new Set(dia.speakers).size;
  }
  // each speaker's voiceprint, comparable across recordings (docs/people.md): kept and matched by the domain
  const speakerPrints = speakerVoices(pcm, segments, dia.speakers, profile, embedder);
  await checkpoint(P.diarized);
  stage("diarizeMs");

  // 5. every word's times (measured from the audio: speech/word-times.ts), punctuation and the stored shape
  const timed = await timeSegmentWords(segments, pcm, transcriptLanguage, abort.signal);
  const stored: Segment[] = segments.map((s, i) => {
    const segment: Segment = {
      spkName: speakerLabel(dia.speakers[i] ?? 0, transcriptLanguage),
      startTime: Math.round(s.startMs),
      endTime: Math.round(s.endMs),
      text: punctuate(s.text, transcriptLanguage),
      speaker: dia.speakers[i] ?? 0,
    };
    const words = storedWords(timed[i], segment.text, segment);
    if (words) segment.words = words;
    return segment;
  });

  // 6. transcript + status 2, together
  await pending;
  const audioReport = hearing.report;
  if (
    !(await completeTask(ctx.domain, taskId, {
      segments: stored,
      language: transcriptLanguage,
      audioReport,
      voices: speakerPrints,
    }))
  ) {
    throw new TaskGoneError(taskId);
  }
  stage("saveMs");
  ctx.log?.info(
    {
      taskId,
      fileId: task.fileId,
      engine: engine.name,
      seconds: pcm.length / 16_000,
      // speech recognised by this attempt, and taken from an earlier attempt's checkpoint
      recognised: hearing.recognised,
      wallSeconds: (Date.now() - started) / 1000,
      ...(ctx.queuedAt ? { waitedMs: begun - ctx.queuedAt } : {}),
      // claiming the task, the engine ready, the file found
      prepareMs: started - begun,
      ...stages,
      segments: stored.length,
      speakers: dia.count,
      frontEnd: {
        ...hearing.report.facts,
        denoised: hearing.report.denoised,
        dereverberated: hearing.report.dereverberated,
        gainDb: hearing.report.gainDb,
        twoHearings: hearing.twoHearings,
      },
    },
    "transcription done",
  );
  return {
    status: "done",
    segments: stored.length,
    speakers: dia.count,
    language: transcriptLanguage,
    seconds: pcm.length / 16_000,
    engine: engine.name,
    stages,
  };
}

function normaliseLanguage(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const l = language.toLowerCase();
  if (l.startsWith("zh") || l === "chinese" || l === "yue") return "zh";
  if (l.startsWith("en") || l === "english") return "en";
  return l;
}

/** The English engine when one is ready (its confidence tells English speech apart), else undefined. */
function englishEngine(ctx: TranscribeContext): AsrEngine | undefined {
  try {
    return ctx.asr("en");
  } catch {
    return undefined;
  }
}

/** Whether `language` can be recognised here now (its engine is ready): a refusal may then suggest it. */
async function canRecognise(ctx: TranscribeContext, language: "zh" | "en"): Promise<boolean> {
  try {
    const engine = ctx.asr(language);
    await engine.ready?.(language);
    return true;
  } catch {
    return false;
  }
}

/**
 * After the first batch of a long English recording: a clear verdict that it is not English stops the
 * task at once (the full guard runs at the end, with every segment).
 */
function earlyLanguageCheck(soFar: readonly AsrSegment[]): void {
  const evidence = englishEvidence(soFar);
  const verdict = evidence ? judgeEnglish(evidence) : undefined;
  if (verdict?.english === "no") throw new WrongLanguageError(verdict.heard, "en", false, evidence);
}

/** What a final failure is stored with: the code, the reason users are told, the details for operators. */
export function failureOf(error: unknown): TaskFailure {
  const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 480);
  if (error instanceof WrongLanguageError) {
    return {
      code: StatusCode.TranscriptionFailed,
      reason: wrongLanguageReason(error.heard, error.expected, error.canSwitch),
      detail,
    };
  }
  if (error instanceof AsrEngineUnavailableError) {
    return { code: StatusCode.EngineUnavailable, reason: failureReason("engine-unavailable", error.problem), detail };
  }
  if (error instanceof PermanentTranscriptionError) {
    return { code: StatusCode.TranscriptionFailed, reason: failureReason(error.reason), detail };
  }
  if (error instanceof AudioDecodeError) {
    return { code: StatusCode.TranscriptionFailed, reason: failureReason("unreadable-audio"), detail };
  }
  return { code: StatusCode.TranscriptionFailed, reason: failureReason("error"), detail };
}

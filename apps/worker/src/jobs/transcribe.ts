import { FileStatus, StatusCode } from "@yuelu/contracts";
import { type Db, refundTranscriptionTask } from "@yuelu/db";
import type { FileStore } from "@yuelu/runtime";
import { decodeToPcm } from "../audio/pcm.ts";
import { detectSpeech, energyProfile } from "../audio/vad.ts";
import type { AsrEngineResolver } from "../engines/asr/factory.ts";
import { AsrEngineUnavailableError, type AsrLanguage, type AsrSegment } from "../engines/asr/types.ts";
import { BackgroundVoicePrints } from "../speech/background-voice-prints.ts";
import { diarize, type VoicePrints } from "../speech/diarize.ts";
import { punctuate } from "../speech/punctuate.ts";

export interface TranscribeContext {
  db: Db;
  files: FileStore;
  /** picks the ASR engine for a language (the product passes configuredAsrEngines(config)) */
  asr: AsrEngineResolver;
  log?: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** least time between two progress writes (ms) */
  progressEveryMs?: number;
}

/** asrResult segment as stored (records-api.md: `{spkName, startTime, endTime, text, words?}`, ms). */
export interface StoredSegment {
  spkName: string;
  startTime: number;
  endTime: number;
  text: string;
  words?: { text: string; startTime: number; endTime: number }[];
}

export type TranscribeOutcome =
  | {
      status: "done";
      segments: number;
      speakers: number;
      language: string;
      seconds: number;
      /** wall time per stage (decodeMs, vadMs, asrMs, diarizeMs, saveMs) */
      stages: Record<string, number>;
    }
  | { status: "skipped"; reason: string };

/** A failure that another attempt cannot fix (missing file): fail now instead of retrying. */
export class PermanentTranscriptionError extends Error {
  constructor(
    message: string,
    readonly code: number = StatusCode.TranscriptionFailed,
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

export const speakerLabel = (index: number, language: string) =>
  language === "zh" ? `说话人${index + 1}` : `Speaker ${index + 1}`;

/**
 * The transcription job: decode → 16 kHz mono → energy VAD → ASR engine → speakers → punctuation →
 * transcript row + status 2 in one transaction. Status 1 and progress are mirrored on the task and
 * its record while it runs. Throws on failure; the caller (the BullMQ processor) decides between a
 * retry and `failTranscription`.
 */
export async function transcribe(taskId: number, ctx: TranscribeContext): Promise<TranscribeOutcome> {
  const { db } = ctx;
  const task = await db.transcriptionTask.findUnique({ where: { id: taskId }, include: { record: true } });
  if (!task) return { status: "skipped", reason: "task not found (its record was deleted)" };
  if (task.status === FileStatus.Complete) return { status: "skipped", reason: "already complete" };
  if (task.status === FileStatus.Failed) return { status: "skipped", reason: "task already failed" };

  const claimed = await db.$transaction(async (tx) => {
    const c = await tx.transcriptionTask.updateMany({
      where: { id: taskId, status: { in: [FileStatus.InQueue, FileStatus.Transcribing] } },
      data: { status: FileStatus.Transcribing, progress: 0, startedAt: new Date(), attempts: { increment: 1 } },
    });
    if (c.count === 1) {
      await tx.audioRecord.update({
        where: { fileId: task.fileId },
        data: { fileStatus: FileStatus.Transcribing, progress: 0 },
      });
    }
    return c.count === 1;
  });
  if (!claimed) return { status: "skipped", reason: "task is not waiting for transcription" };

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
    const [t] = await db.$transaction([
      db.transcriptionTask.updateMany({
        where: { id: taskId, status: FileStatus.Transcribing },
        data: { progress: lastValue },
      }),
      db.audioRecord.updateMany({
        where: { fileId: task.fileId, fileStatus: FileStatus.Transcribing },
        data: { progress: lastValue },
      }),
    ]);
    if (t.count === 0) {
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

  const size = await ctx.files.size(task.record.storageKey);
  if (size === null) {
    throw new PermanentTranscriptionError(`the audio file of record ${task.fileId} is missing from storage`);
  }
  const hotWords = (await db.hotWord.findMany({ where: { userId: task.userId }, select: { word: true } })).map(
    (h) => h.word,
  );

  // 1. decode to 16 kHz mono (streamed from ffmpeg)
  const started = Date.now();
  const stages: Record<string, number> = {};
  let mark = started;
  const stage = (name: string) => {
    stages[name] = Date.now() - mark;
    mark = Date.now();
  };
  const pcm = await decodeToPcm(ctx.files.localPath(task.record.storageKey), {
    expectedSeconds: task.record.timeLen || undefined,
    onProgress: (f) => report(f * P.decoded),
    signal: abort.signal,
  });
  await checkpoint(P.decoded);
  stage("decodeMs");

  // 2. speech regions (energy VAD)
  const profile = energyProfile(pcm);
  const regions = detectSpeech(pcm, {}, profile);
  await checkpoint(P.segmented);
  stage("vadMs");

  // 3. recognition, with the speakers' voice prints computed on another thread as segments come in
  const voices = task.speakerCount === 1 || regions.length === 0 ? null : new BackgroundVoicePrints(pcm, profile);
  let result: { segments: AsrSegment[]; language?: string };
  let segments: AsrSegment[];
  let features: VoicePrints | undefined;
  try {
    result =
      regions.length === 0
        ? { segments: [] as AsrSegment[], language: undefined }
        : await engine.transcribe(pcm.samples, {
            language,
            hotWords,
            regions,
            signal: abort.signal,
            onProgress: (f) => report(P.segmented + f * (P.recognised - P.segmented)),
            onSegment: voices ? (s) => s.text.trim() !== "" && voices.add(s) : undefined,
          });
    await checkpoint(P.recognised);
    stage("asrMs");
    segments = result.segments.filter((s) => s.text.trim() !== "");
    features = await voices?.collect(segments);
  } finally {
    await voices?.close();
  }
  const transcriptLanguage = normaliseLanguage(result.language) ?? (language === "auto" ? "auto" : language);

  // 4. speakers (clustering the voice prints)
  const dia = await diarize(pcm, segments, { speakerCount: task.speakerCount, profile, features });
  await checkpoint(P.diarized);
  stage("diarizeMs");

  // 5. punctuation and the stored shape
  const labelLanguage = transcriptLanguage === "zh" ? "zh" : "en";
  const stored: StoredSegment[] = segments.map((s, i) => ({
    spkName: speakerLabel(dia.speakers[i] ?? 0, labelLanguage),
    startTime: Math.round(s.startMs),
    endTime: Math.round(s.endMs),
    text: punctuate(s.text, transcriptLanguage),
    ...(s.words?.length
      ? {
          words: s.words.map((w) => ({
            text: w.text,
            startTime: Math.round(w.startMs),
            endTime: Math.round(w.endMs),
          })),
        }
      : {}),
  }));

  // 6. transcript + status 2, together
  await pending;
  await db.$transaction(async (tx) => {
    const done = await tx.transcriptionTask.updateMany({
      where: { id: taskId, status: FileStatus.Transcribing },
      data: { status: FileStatus.Complete, progress: 100, finishedAt: new Date(), errorCode: null, errorMessage: null },
    });
    if (done.count === 0) throw new TaskGoneError(taskId);
    await tx.transcript.upsert({
      where: { fileId: task.fileId },
      create: { fileId: task.fileId, asrResult: stored as object[], language: transcriptLanguage },
      update: { asrResult: stored as object[], language: transcriptLanguage, abstracts: "" },
    });
    await tx.audioRecord.update({
      where: { fileId: task.fileId },
      data: { fileStatus: FileStatus.Complete, progress: 100 },
    });
  });
  stage("saveMs");
  ctx.log?.info(
    {
      taskId,
      fileId: task.fileId,
      engine: engine.name,
      seconds: pcm.length / 16_000,
      wallSeconds: (Date.now() - started) / 1000,
      ...stages,
      segments: stored.length,
      speakers: dia.count,
    },
    "transcription done",
  );
  return {
    status: "done",
    segments: stored.length,
    speakers: dia.count,
    language: transcriptLanguage,
    seconds: pcm.length / 16_000,
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

/** The code and human message a final failure is stored with. */
export function failureOf(error: unknown): { code: number; message: string } {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 480);
  if (error instanceof AsrEngineUnavailableError) {
    return { code: StatusCode.EngineUnavailable, message: `No speech recognition engine is installed: ${text}` };
  }
  if (error instanceof PermanentTranscriptionError)
    return { code: error.code, message: `Transcription failed: ${text}` };
  return { code: StatusCode.TranscriptionFailed, message: `Transcription failed: ${text}` };
}

/**
 * A task's final failure: task and record status -1 with the code and message, then the refund
 * (exactly once). Only a task still in queue/transcribing changes; returns whether this call failed it.
 */
export async function failTranscription(
  db: Db,
  taskId: number,
  failure: { code: number; message: string },
): Promise<boolean> {
  const { failed, status } = await db.$transaction(async (tx) => {
    const task = await tx.transcriptionTask.findUnique({ where: { id: taskId }, select: { fileId: true } });
    if (!task) return { failed: false, status: null };
    const c = await tx.transcriptionTask.updateMany({
      where: { id: taskId, status: { in: [FileStatus.InQueue, FileStatus.Transcribing] } },
      data: {
        status: FileStatus.Failed,
        progress: 0,
        errorCode: failure.code,
        errorMessage: failure.message.slice(0, 500),
        finishedAt: new Date(),
      },
    });
    if (c.count === 1) {
      await tx.audioRecord.updateMany({
        where: { fileId: task.fileId, fileStatus: { in: [FileStatus.InQueue, FileStatus.Transcribing] } },
        data: { fileStatus: FileStatus.Failed, progress: 0 },
      });
      return { failed: true, status: FileStatus.Failed as number };
    }
    const now = await tx.transcriptionTask.findUnique({ where: { id: taskId }, select: { status: true } });
    return { failed: false, status: now?.status ?? null };
  });
  // Refund a failed task (also one another path failed first: the refund happens at most once);
  // never one that completed meanwhile.
  if (status === FileStatus.Failed) await refundTranscriptionTask(db, taskId);
  return failed;
}

/** Between attempts: back to "in queue" (task and record) with progress 0. */
export async function requeueTranscription(db: Db, taskId: number): Promise<void> {
  await db.$transaction(async (tx) => {
    const task = await tx.transcriptionTask.findUnique({ where: { id: taskId }, select: { fileId: true } });
    if (!task) return;
    const c = await tx.transcriptionTask.updateMany({
      where: { id: taskId, status: FileStatus.Transcribing },
      data: { status: FileStatus.InQueue, progress: 0 },
    });
    if (c.count === 1) {
      await tx.audioRecord.updateMany({
        where: { fileId: task.fileId, fileStatus: FileStatus.Transcribing },
        data: { fileStatus: FileStatus.InQueue, progress: 0 },
      });
    }
  });
}

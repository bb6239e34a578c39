import {
  JOBS,
  type Lang,
  type MyVoice,
  StatusCode,
  toEpochSeconds,
  type VoiceProfileView,
  type VoiceWork,
  voiceFailureText,
  ZVoiceProfile,
} from "@yuelu/contracts";
import type { Db, UserVoiceModel as UserVoice, VoiceWorkModel } from "@yuelu/db";
import {
  AppError,
  type DomainContext,
  failVoiceTask,
  type LibraryVoice,
  readyMyVoice,
  VOICE_FAILURE_CODE,
  type VoiceTaskKind,
} from "@yuelu/domain";
import { type Config, enqueue, type FileStore, findSoundfont, liveWorkers, type QueueBackend } from "@yuelu/runtime";
import { contentDisposition, downloadName } from "../../lib/content-disposition.ts";
import { myVoiceFileUrl, voiceWorkUrl } from "../../lib/file-urls.ts";
import { type Download, type RangeRequest, serveStored } from "../../lib/stored-file.ts";
import { defaultVoiceOf, listedVoice, myVoiceLibrary } from "../tts/service.ts";

/** The voice pages (docs/voice.md): the parts that are HTTP's, the queue's or the file store's. */

type Deps = { db: Db; config: Config; files: FileStore; queues: QueueBackend };

/**
 * Adds the task's job (the job table's `voice` row; a voice's carries the sample it is trained on); when
 * that fails the task fails at once (its unit given back) and the call answers 99999.
 */
export async function enqueueVoiceTask(
  deps: Deps & { domain: DomainContext },
  kind: VoiceTaskKind,
  id: number,
  sourceKey?: string,
): Promise<void> {
  try {
    await enqueue(deps.queues, JOBS.voice, { kind, id }, { version: sourceKey });
  } catch (error) {
    await failVoiceTask(deps.domain, kind, id, {
      code: VOICE_FAILURE_CODE[kind],
      reason: "failed",
      detail: `could not add the job: ${(error as Error).message}`,
    });
    throw new AppError(StatusCode.SystemError);
  }
}

/** Which voice a work or a speech uses, as stored on the task. */
export interface ChosenVoice {
  /** the library voice that speaks (a voice of mine: its base; a cloned voice: the language's default) */
  library: LibraryVoice;
  userVoiceId: number | null;
  name: string;
  nameEn: string;
}

/**
 * The voice of a request: one of the caller's ready voices (myVoiceId), a library voice (promptId),
 * or the install's default for `language`. Another user's voice answers 20003, like a missing one.
 */
export async function chooseVoice(
  deps: Deps,
  userId: number,
  choice: { promptId?: number | undefined; myVoiceId?: number | undefined },
  language: "zh" | "en",
): Promise<ChosenVoice> {
  if (choice.myVoiceId !== undefined) {
    const mine = await readyMyVoice(deps.db, userId, choice.myVoiceId);
    const library = await myVoiceLibrary(deps, mine);
    return { library, userVoiceId: mine.id, name: mine.name, nameEn: mine.name };
  }
  const library =
    choice.promptId !== undefined ? await listedVoice(deps, choice.promptId) : await defaultVoiceOf(deps, language);
  return { library, userVoiceId: null, name: library.name, nameEn: library.nameEn };
}

function profileOf(value: unknown): VoiceProfileView | null {
  const parsed = ZVoiceProfile.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function failureOf(row: { status: number; errorCode: number | null; errorReason: string | null }, lang: Lang) {
  if (row.status !== -1 || row.errorCode === null) return {};
  return { errorCode: row.errorCode, errorMsg: voiceFailureText(row.errorReason ?? "failed", lang) };
}

const version = (row: { updatedAt: Date }) => row.updatedAt.getTime().toString(36);

export function myVoiceView(row: UserVoice, lang: Lang, baseVoice?: { name: string; nameEn: string } | null): MyVoice {
  const ready = row.status === 2 && !!row.previewKey;
  return {
    voiceId: row.id,
    name: row.name,
    language: row.language === "en" ? "en" : "zh",
    method: row.method === "clone" ? "clone" : "match",
    status: row.status,
    progress: row.progress,
    sampleSeconds: Math.round(row.sampleSeconds * 10) / 10,
    baseVoiceName: baseVoice ? (lang === "en" ? baseVoice.nameEn || baseVoice.name : baseVoice.name) : "",
    profile: profileOf(row.profile),
    previewUrl: ready ? myVoiceFileUrl("preview", row.id, version(row)) : "",
    sampleUrl: myVoiceFileUrl("sample", row.id, version(row)),
    createTime: toEpochSeconds(row.createdAt),
    updateTime: toEpochSeconds(row.updatedAt),
    ...failureOf(row, lang),
  };
}

/** Views of several voices with their base voices' names (one query). */
export async function myVoiceViews(db: Db, rows: UserVoice[], lang: Lang): Promise<MyVoice[]> {
  const ids = [...new Set(rows.map((r) => r.basePromptId).filter((id): id is number => id !== null))];
  const bases = ids.length
    ? await db.voiceLibraryItem.findMany({
        where: { promptId: { in: ids } },
        select: { promptId: true, name: true, nameEn: true },
      })
    : [];
  return rows.map((row) =>
    myVoiceView(
      row,
      lang,
      bases.find((b) => b.promptId === row.basePromptId),
    ),
  );
}

interface SingSettings {
  lyrics?: string;
  keyShift?: number;
  tempo?: number;
  semitones?: number;
  bpm?: number;
  melody?: { midi: number; start: number; duration: number }[];
  syllables?: string[];
}

export function workView(row: VoiceWorkModel, lang: Lang): VoiceWork {
  const settings = (row.settings ?? {}) as SingSettings;
  const done = row.status === 2 && !!row.outputKey;
  const file = (part: "result" | "original", inline: boolean) => voiceWorkUrl(row.id, part, inline);
  const melody = settings.melody ?? [];
  const syllables = settings.syllables ?? [];
  return {
    workId: row.id,
    kind: row.kind === "convert" ? "convert" : "sing",
    title: row.title,
    voiceName: lang === "en" ? row.voiceNameEn || row.voiceName : row.voiceName,
    status: row.status,
    progress: row.progress,
    durationMs: row.durationMs ?? 0,
    notes: melody.map((n, i) => ({ ...n, syllable: syllables[i] ?? "" })),
    bpm: settings.bpm ?? 0,
    lyrics: settings.lyrics ?? "",
    keyShift: settings.keyShift ?? 0,
    tempo: settings.tempo ?? 1,
    semitones: settings.semitones ?? 0,
    audioUrl: done ? file("result", true) : "",
    downloadUrl: done ? file("result", false) : "",
    originalUrl: row.kind === "convert" && row.inputKey ? file("original", true) : "",
    createTime: toEpochSeconds(row.createdAt),
    updateTime: toEpochSeconds(row.updatedAt),
    ...failureOf(row, lang),
  };
}

export function progressItem(
  row: { id: number; status: number; progress: number; errorCode: number | null; errorReason: string | null },
  lang: Lang,
) {
  return { id: row.id, status: row.status, progress: row.progress, ...failureOf(row, lang) };
}

/** What this install can do now (docs/voice.md "Configured engines"): the API reads the worker's settings. */
export async function capabilities(deps: Pick<Deps, "db" | "config">) {
  const workers = await liveWorkers(deps.db);
  const { VOICE_CLONE_URL, VOICE_SEPARATE_URL, VOICE_CONVERT_URL } = deps.config;
  return {
    myVoiceMethod: VOICE_CLONE_URL ? ("clone" as const) : ("match" as const),
    separator: VOICE_SEPARATE_URL ? ("remote" as const) : ("centre" as const),
    converter: VOICE_CONVERT_URL ? ("remote" as const) : ("dsp" as const),
    accompaniment: findSoundfont(deps.config.VOICE_SOUNDFONT) ? ("soundfont" as const) : ("synth" as const),
    available: workers.length > 0,
  };
}

export function serveVoiceFile(
  files: FileStore,
  key: string | null,
  request: RangeRequest,
  file: { name: string; etag: string; inline: boolean },
): Promise<Download> {
  if (!key) throw new AppError(StatusCode.FileNotFound);
  const ext = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  const type =
    ext === "mp3"
      ? "audio/mpeg"
      : ext === "wav"
        ? "audio/wav"
        : ext === "webm"
          ? "audio/webm"
          : "application/octet-stream";
  return serveStored(files, key, request, {
    "content-type": type,
    "content-disposition": contentDisposition(downloadName(file.name, ext, "voice"), file.inline),
    "cache-control": "private, max-age=0, must-revalidate",
    etag: `"${file.etag}"`,
  });
}

/** Removes files a deleted or replaced voice or work left behind; a failure is logged, never the user's. */
export async function removeFiles(
  files: FileStore,
  keys: string[],
  log: { error(obj: unknown, msg?: string): void },
): Promise<void> {
  for (const key of keys) {
    await files.delete(key).catch((err: unknown) => log.error({ err, key }, "could not remove a voice file"));
  }
}

import {
  JOBS,
  type Lang,
  type SelectOptions,
  type SoundList,
  type SoundListQuery,
  StatusCode,
  type TryListen,
  TTS_ENGINES,
  TTS_FORMATS,
  TTS_LANGUAGES,
  TTS_MAX_CHARS,
  TTS_PITCH,
  TTS_SPEED,
  TTS_VOLUME,
  type TtsLanguage,
  type TtsProgressItem,
  type TtsTask,
  type TtsWork,
  toEpochSeconds,
  ttsFailureMessage,
  ttsProblemMessage,
  VOICE_AGE_GROUPS,
  VOICE_GENDERS,
  VOICE_STYLES,
  type VoiceItem,
  voiceFilterLabel,
} from "@yuelu/contracts";
import type { Db, TtsTaskModel, UserVoiceModel } from "@yuelu/db";
import {
  AppError,
  type EnqueueSynthesis,
  findVoice,
  type LibraryVoice,
  libraryVoices,
  ownTtsTask,
  ownTtsTasks,
  readyMyVoice,
  sampleKey,
  sampleVersion,
} from "@yuelu/domain";
import { type Config, enqueue, type FileStore, liveWorkers, type QueueBackend } from "@yuelu/runtime";
import { contentDisposition, downloadName } from "../../lib/content-disposition.ts";
import { ttsWorkUrl, voiceSampleUrl } from "../../lib/file-urls.ts";
import { type Download, type RangeRequest, serveStored } from "../../lib/stored-file.ts";
import { type Availability, availabilityOf, defaultVoices, engineUnavailable, listedEngines } from "./engines.ts";

/** Text to speech and the voice library (docs/tts.md): the parts that are HTTP's, the queue's or the file store's. */

/** How long try_listen waits for a worker to make a sample it does not have yet. */
export const SAMPLE_WAIT_MS = 25_000;

type ServiceDeps = { db: Db; config: Config; files: FileStore; queues: QueueBackend };

/** The queue producer: adds the task's job (the job table's `tts` row). */
export function ttsQueue(queues: QueueBackend): EnqueueSynthesis {
  return async (taskId) => {
    await enqueue(queues, JOBS.tts, { taskId });
  };
}

// ───────────────────────────── the voice library ─────────────────────────────

export const sampleUrlOf = (voice: LibraryVoice) => voiceSampleUrl(voice.promptId, sampleVersion(voice));

function voiceItem(
  voice: LibraryVoice,
  lang: Lang,
  extra: { audioUrl: string; availability: Availability; isDefault: boolean },
): VoiceItem {
  const label = (value: string) => voiceFilterLabel(value, lang);
  return {
    promptId: voice.promptId,
    name: lang === "en" ? voice.nameEn : voice.name,
    nameZh: voice.name,
    nameEn: voice.nameEn,
    language: voice.language,
    gender: voice.gender,
    ageGroup: voice.ageGroup,
    style: voice.style,
    engine: voice.engine,
    labels: {
      language: label(voice.language),
      gender: label(voice.gender),
      ageGroup: label(voice.ageGroup),
      style: label(voice.style),
      engine: label(voice.engine),
    },
    sampleText: voice.sampleText,
    audioUrl: extra.audioUrl,
    playing: false,
    available: extra.availability.available,
    ...(extra.availability.available ? {} : { missing: ttsProblemMessage(extra.availability.problem, lang) }),
    isDefault: extra.isDefault,
  };
}

/** Voices this install lists (configured engines), filtered; known values only (others match nothing). */
async function listed(deps: Pick<ServiceDeps, "db" | "config">, query: Partial<SoundListQuery> = {}) {
  return libraryVoices(deps.db, {
    language: query.language,
    gender: query.gender,
    ageGroup: query.ageGroup,
    style: query.style,
    engine: query.engine,
    keyword: query.keyword,
    engines: listedEngines(deps.config),
  });
}

/**
 * Sample keys known to be stored. A sample's key is made from its parameters' hash, so once stored it
 * never changes: remembering that (per process) spares the voice list a file-store lookup per voice —
 * a HEAD request each when the files are on S3.
 */
const storedSamples = new WeakMap<FileStore, Set<string>>();
const STORED_SAMPLES_MAX = 5000;

async function sampleStored(files: FileStore, key: string): Promise<boolean> {
  let known = storedSamples.get(files);
  if (known?.has(key)) return true;
  if ((await files.size(key)) === null) return false;
  if (!known || known.size >= STORED_SAMPLES_MAX) {
    known = new Set();
    storedSamples.set(files, known);
  }
  known.add(key);
  return true;
}

/** get_sound_list: a page of the listed voices matching the filters, `{total, list}`. */
export async function soundList(deps: ServiceDeps, query: SoundListQuery, lang: Lang): Promise<SoundList> {
  const [voices, all, workers] = await Promise.all([listed(deps, query), listed(deps), liveWorkers(deps.db)]);
  const defaults = defaultVoices(all, deps.config, workers);
  const page = voices.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
  const list = await Promise.all(
    page.map(async (voice) => {
      const cached = await sampleStored(deps.files, sampleKey(voice));
      return voiceItem(voice, lang, {
        audioUrl: cached ? sampleUrlOf(voice) : "",
        availability: availabilityOf(workers, voice.engine, voice.language),
        isDefault: defaults[voice.language]?.promptId === voice.promptId,
      });
    }),
  );
  return { total: voices.length, list };
}

/** select_options: the filter values the listed voices have, the default voices, and start_tts's limits. */
export async function selectOptions(deps: ServiceDeps, lang: Lang): Promise<SelectOptions> {
  const [voices, workers] = await Promise.all([listed(deps), liveWorkers(deps.db)]);
  const options = (values: readonly string[], key: keyof LibraryVoice) =>
    values
      .filter((value) => voices.some((v) => v[key] === value))
      .map((value) => ({ value, label: voiceFilterLabel(value, lang) }));
  const defaults = defaultVoices(voices, deps.config, workers);
  return {
    languages: options(TTS_LANGUAGES, "language"),
    genders: options(VOICE_GENDERS, "gender"),
    ageGroups: options(VOICE_AGE_GROUPS, "ageGroup"),
    styles: options(VOICE_STYLES, "style"),
    engines: options(TTS_ENGINES, "engine"),
    defaults: { zh: defaults.zh?.promptId ?? null, en: defaults.en?.promptId ?? null },
    limits: {
      maxChars: TTS_MAX_CHARS,
      speed: { ...TTS_SPEED },
      pitch: { ...TTS_PITCH },
      volume: { ...TTS_VOLUME },
      formats: [...TTS_FORMATS],
    },
  };
}

/** A voice this install lists, or 10002 naming `promptId`. */
export async function listedVoice(deps: Pick<ServiceDeps, "db" | "config">, promptId: number): Promise<LibraryVoice> {
  const voice = await findVoice(deps.db, promptId);
  if (!voice || !listedEngines(deps.config).includes(voice.engine)) throw AppError.invalid("promptId", "no such voice");
  return voice;
}

/** Han characters make up this share of the letters: Chinese text. */
export function looksChinese(text: string): boolean {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return han > 0 && han >= letters * 0.2;
}

/**
 * The voice start_tts speaks with: the one asked for, else the default voice of the text's language
 * (Chinese when it holds Han characters). An English voice cannot read Chinese text (10002).
 */
export async function voiceFor(deps: ServiceDeps, promptId: number | undefined, text: string): Promise<LibraryVoice> {
  const chinese = looksChinese(text);
  let voice: LibraryVoice | undefined;
  if (promptId !== undefined) voice = await listedVoice(deps, promptId);
  else {
    const [voices, workers] = await Promise.all([listed(deps), liveWorkers(deps.db)]);
    voice = defaultVoices(voices, deps.config, workers)[chinese ? "zh" : "en"];
  }
  if (!voice) throw AppError.invalid("promptId", "is required");
  if (voice.language === "en" && chinese) {
    throw AppError.invalid("promptId", "this voice speaks English only: choose a Chinese voice for Chinese text");
  }
  return voice;
}

/**
 * Refuses at once (70001, naming what to install) when running workers report the voice's engine
 * as not installed and none can speak with it. With no worker at all the task is queued, as
 * transcriptions are: a worker that starts later picks it up.
 */
export async function assertSpeakable(deps: Pick<ServiceDeps, "db">, voice: LibraryVoice, lang: Lang) {
  const workers = await liveWorkers(deps.db);
  if (!workers.some((w) => w.ttsEngines.length > 0)) return;
  const availability = availabilityOf(workers, voice.engine, voice.language);
  if (!availability.available) throw engineUnavailable(availability.problem, lang);
}

/** The error a failed voice-sample job stands for (its failedReason is a ttsFailureReason). */
function sampleFailure(reason: string | undefined, lang: Lang): AppError {
  const [kind, problem] = (reason ?? "error").split("/");
  if (kind === "engine-unavailable" && problem) return engineUnavailable(problem, lang);
  return new AppError(StatusCode.SynthesisFailed, {
    detail: ttsFailureMessage(reason ?? "error", lang, { refunded: false }),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * try_listen: the voice's sample, made once by a worker (job "voice-sample") and kept in the file
 * store under a key made from its parameters' hash. Waits up to SAMPLE_WAIT_MS for a new one; a
 * failure says why (70001 engine not installed, 40002 otherwise); a voice no worker can speak now is
 * refused at once (70001), as is any new sample while no worker runs.
 */
export async function tryListen(deps: ServiceDeps, promptId: number, lang: Lang): Promise<TryListen> {
  const voice = await listedVoice(deps, promptId);
  const key = sampleKey(voice);
  const answer = { promptId, audioUrl: sampleUrlOf(voice), sampleText: voice.sampleText };
  if (await sampleStored(deps.files, key)) return answer;
  const availability = availabilityOf(await liveWorkers(deps.db), voice.engine, voice.language);
  if (!availability.available) throw engineUnavailable(availability.problem, lang);

  const queue = deps.queues.queue(JOBS.ttsSample.queue);
  const version = sampleVersion(voice);
  const jobId = JOBS.ttsSample.jobId({ promptId }, version);
  const previous = await queue.getJob(jobId);
  // A sample that failed before is tried again (the engine may have been installed since).
  if (previous && (await previous.getState()) === "failed") await previous.remove().catch(() => {});
  await enqueue(deps.queues, JOBS.ttsSample, { promptId }, { version });
  const deadline = Date.now() + SAMPLE_WAIT_MS;
  for (let round = 0; Date.now() < deadline; round++) {
    await sleep(round < 20 ? 50 : 150);
    if (await sampleStored(deps.files, key)) return answer;
    if (round % 4 === 3) {
      const job = await queue.getJob(jobId);
      if (job && (await job.getState()) === "failed") throw sampleFailure(job.failedReason, lang);
    }
  }
  throw new AppError(StatusCode.SynthesisFailed, {
    detail: lang === "zh" ? "试听音频生成超时，请稍后再试" : "the sample is taking too long: please try again shortly",
  });
}

/** The sample's audio (public: it is the catalogue's), whole or one byte range; 20003 until it exists. */
export async function openSample(
  deps: ServiceDeps,
  query: { promptId: number; v?: string },
  request: RangeRequest,
): Promise<Download> {
  const voice = await listedVoice(deps, query.promptId);
  const version = sampleVersion(voice);
  return serveStored(deps.files, sampleKey(voice), request, {
    "content-type": "audio/mpeg",
    "content-disposition": contentDisposition(`${voice.nameEn || voice.name}.mp3`, true),
    // The versioned address never changes content; an unversioned one must be asked again.
    "cache-control": query.v === version ? "public, max-age=31536000, immutable" : "no-cache",
    etag: `"${voice.promptId}-${version}"`,
  });
}

// ───────────────────────────── my works ─────────────────────────────

export const ttsAudioUrlOf = (taskId: number) => ttsWorkUrl(taskId, true);
export const ttsDownloadUrlOf = (taskId: number) => ttsWorkUrl(taskId, false);

const DONE = 2;
const FAILED = -1;

function failureOf(task: TtsTaskModel, lang: Lang): { errorCode?: number; errorMsg?: string } {
  if (task.status !== FAILED || !task.errorCode) return {};
  return {
    errorCode: task.errorCode,
    errorMsg: ttsFailureMessage(task.errorReason, lang, { refunded: task.refundedAt !== null }),
  };
}

/** A work as 'my works' lists it. */
export function workView(task: TtsTaskModel, lang: Lang): TtsWork {
  const done = task.status === DONE && task.outputKey !== null;
  return {
    taskId: task.id,
    title: task.title,
    textPreview: [...task.text].slice(0, 100).join(""),
    chars: task.chars,
    language: task.language === "en" ? "en" : "zh",
    promptId: task.promptId,
    voiceName: lang === "en" && task.voiceNameEn ? task.voiceNameEn : task.voiceName,
    engine: task.engine,
    speed: task.speed,
    pitch: task.pitch,
    volume: task.volume,
    format: task.format === "wav" ? "wav" : "mp3",
    status: task.status,
    progress: task.status === DONE ? 100 : Math.max(0, Math.min(100, task.progress)),
    durationMs: task.durationMs ?? 0,
    fileSize: task.fileSize ?? 0,
    audioUrl: done ? ttsAudioUrlOf(task.id) : "",
    downloadUrl: done ? ttsDownloadUrlOf(task.id) : "",
    createTime: toEpochSeconds(task.createdAt),
    updateTime: toEpochSeconds(task.updatedAt),
    ...failureOf(task, lang),
  };
}

/** One work with its whole text. */
export function taskView(task: TtsTaskModel, lang: Lang): TtsTask {
  return { ...workView(task, lang), text: task.text };
}

/** get_progress: one row per id, in the order asked; an unknown or foreign id answers status -10. */
export async function ttsProgress(db: Db, userId: number, taskIds: number[], lang: Lang): Promise<TtsProgressItem[]> {
  const tasks = await ownTtsTasks(db, userId, taskIds);
  return taskIds.map((taskId) => {
    const task = tasks.find((t) => t.id === taskId);
    if (!task) return { taskId, status: -10, progress: 0, durationMs: 0, audioUrl: "", downloadUrl: "" };
    const view = workView(task, lang);
    return {
      taskId,
      status: view.status,
      progress: view.progress,
      durationMs: view.durationMs,
      audioUrl: view.audioUrl,
      downloadUrl: view.downloadUrl,
      ...(view.errorCode ? { errorCode: view.errorCode, errorMsg: view.errorMsg } : {}),
    };
  });
}

/** A work's audio, whole or one byte range, inline (to play) or as an attachment named after it; 20003 until it is done. */
export async function openWork(
  deps: Pick<ServiceDeps, "db" | "files">,
  userId: number,
  query: { taskId: number; inline: boolean },
  request: RangeRequest,
): Promise<Download> {
  const task = await ownTtsTask(deps.db, userId, query.taskId);
  if (task.status !== DONE || !task.outputKey) throw new AppError(StatusCode.FileNotFound);
  return serveStored(deps.files, task.outputKey, request, {
    "content-type": task.format === "wav" ? "audio/wav" : "audio/mpeg",
    "content-disposition": contentDisposition(downloadName(task.title, task.format), query.inline),
    "cache-control": "private, max-age=0, must-revalidate",
    etag: `"tts-${task.id}-${task.fileSize ?? 0}"`,
  });
}

/** The voice the install speaks `language` with when none is chosen (the voice pages use it too). */
export async function defaultVoiceOf(deps: ServiceDeps, language: TtsLanguage): Promise<LibraryVoice> {
  const [voices, workers] = await Promise.all([listed(deps), liveWorkers(deps.db)]);
  const voice = defaultVoices(voices, deps.config, workers)[language];
  if (!voice) throw AppError.invalid("promptId", "is required");
  return voice;
}

/**
 * The library voice stored on a task spoken or sung in a voice of mine. A matched voice: its base (the
 * worker moves it toward the voice). A cloned voice has no base (the clone server speaks it): the
 * install's default voice of its language keeps the task's voice columns filled, and VOICE_CLONE_URL
 * must still be set (docs/voice.md "Configured engines").
 */
export async function myVoiceLibrary(deps: ServiceDeps, mine: UserVoiceModel, field = "myVoiceId") {
  if (mine.method === "clone") {
    if (!deps.config.VOICE_CLONE_URL) {
      throw AppError.invalid(field, "the voice is a clone and no clone engine is configured any more: train it again");
    }
    return defaultVoiceOf(deps, mine.language === "en" ? "en" : "zh");
  }
  const voice = mine.basePromptId ? await findVoice(deps.db, mine.basePromptId) : null;
  if (!voice) throw AppError.invalid(field, "the voice's base voice is no longer available: train it again");
  return voice;
}

/**
 * start_tts with one of the caller's ready voices (myVoiceLibrary says which library voice the task
 * stores). Another user's voice answers 20003; one not ready, 10002.
 */
export async function myVoiceFor(deps: ServiceDeps, userId: number, myVoiceId: number, text: string) {
  const mine = await readyMyVoice(deps.db, userId, myVoiceId);
  const voice = await myVoiceLibrary(deps, mine);
  if (voice.language === "en" && looksChinese(text)) {
    throw AppError.invalid("myVoiceId", "this voice speaks English only: choose a Chinese voice for Chinese text");
  }
  return { voice, userVoice: { id: mine.id, name: mine.name } };
}

import type { Readable } from "node:stream";
import {
  httpStatusOfCode,
  type Lang,
  OPENAI_SPEECH_ALIASES,
  type SpeechBody,
  StatusCode,
  statusMessage,
  TTS_ENGINES,
  ttsCharCount,
} from "@yuelu/contracts";
import type { TtsTaskModel } from "@yuelu/db";
import { AppError, type LibraryVoice, ownTtsTask, requestSynthesis, ttsRunLimitMs } from "@yuelu/domain";
import type { FastifyRequest } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { assertSpeakable, openWork, workView } from "../tts/service.ts";
import type { OpenAiDeps } from "./deps.ts";
import { AfterWorkMade, OpenAiFailure } from "./errors.ts";
import { speakingVoice } from "./speech-voice.ts";
import { isConverted, SPEECH_CONTENT_TYPES, transcode } from "./transcode.ts";

/** A task may wait this long in the queue before its own run limit starts counting. */
const QUEUE_ALLOWANCE_MS = 5 * 60_000;
const DONE = 2;
const FAILED = -1;

export interface SpeechAnswer {
  status: number;
  headers: Record<string, string>;
  body: Readable | Buffer | null;
}

/** `model`: OpenAI's names leave the engine to the voice; an engine's own name must be the voice's. */
function checkModel(model: string, voice: LibraryVoice) {
  if ((OPENAI_SPEECH_ALIASES as readonly string[]).includes(model)) return;
  if (!(TTS_ENGINES as readonly string[]).includes(model)) {
    throw new OpenAiFailure(
      404,
      StatusCode.InvalidParams,
      `The model '${model}' does not exist here: use tts-1 or one of GET /v1/models.`,
      "model",
    );
  }
  if (voice.engine !== model) throw AppError.invalid("model", `this voice is spoken by ${voice.engine}`);
}

const keptWork = (taskId: number): Record<Lang, string> => ({
  zh: `该作品已保存在“我的作品”中（taskId ${taskId}）。`,
  en: `The work stays in your account's works (taskId ${taskId}).`,
});

async function waitForWork(deps: OpenAiDeps, userId: number, taskId: number, chars: number, signal: AbortSignal) {
  const task = await deps.waits.until(
    `tts:${taskId}`,
    async () => {
      const current = await ownTtsTask(deps.db, userId, taskId);
      return current.status === DONE || current.status === FAILED ? current : undefined;
    },
    { timeoutMs: QUEUE_ALLOWANCE_MS + ttsRunLimitMs(chars), signal },
  );
  if (signal.aborted) throw new Error("the client left");
  if (!task) throw new OpenAiFailure(504, 504, "The speech is taking longer than this request may wait; it goes on.");
  return task;
}

function failureOf(task: TtsTaskModel, lang: Lang): OpenAiFailure {
  const view = workView(task, lang);
  const code = view.errorCode ?? StatusCode.SynthesisFailed;
  return new OpenAiFailure(httpStatusOfCode(code), code, view.errorMsg ?? statusMessage(code, lang));
}

/** The finished work's audio: the stored file as it is, or converted for opus, flac, aac and pcm. */
async function audioOf(deps: OpenAiDeps, userId: number, task: TtsTaskModel, body: SpeechBody): Promise<SpeechAnswer> {
  const format = body.response_format;
  if (!isConverted(format)) {
    return openWork(deps, userId, { taskId: task.id, inline: true }, {});
  }
  if (!task.outputKey) throw new AppError(StatusCode.FileNotFound);
  const audio = await deps.files.withLocalCopy(task.outputKey, (file) =>
    transcode(file, format, deps.config.FFMPEG_PATH),
  );
  return {
    status: 200,
    headers: { "content-type": SPEECH_CONTENT_TYPES[format], "content-length": String(audio.length) },
    body: audio,
  };
}

/**
 * POST /v1/audio/speech: a text-to-speech work in the user's account (their works list shows it),
 * charged against the TTS quota exactly as start_tts is, then its audio. mp3 and wav are made by the
 * pipeline; opus, flac, aac and pcm are converted from its wav.
 */
export async function synthesizeSpeech(
  deps: OpenAiDeps,
  request: FastifyRequest,
  body: SpeechBody,
  signal: AbortSignal,
): Promise<SpeechAnswer> {
  const lang = requestLang(request);
  const userId = userIdOf(request);
  const { voice, userVoice } = await speakingVoice(deps, userId, body.voice, body.input);
  checkModel(body.model, voice);
  await assertSpeakable(deps, voice, lang);
  const format = isConverted(body.response_format) ? "wav" : body.response_format;
  const settings = { speed: body.speed, pitch: 0, volume: 1, format } as const;
  const taskId = await requestSynthesis(
    deps.domain,
    userId,
    { text: body.input, voice, ...settings, ...(userVoice ? { userVoice } : {}) },
    deps.enqueueSynthesis,
  );
  try {
    const task = await waitForWork(deps, userId, taskId, ttsCharCount(body.input), signal);
    if (task.status === FAILED) throw failureOf(task, lang);
    return await audioOf(deps, userId, task, body);
  } catch (error) {
    throw new AfterWorkMade(error as Error, keptWork(taskId));
  }
}

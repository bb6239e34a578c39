import { createHash } from "node:crypto";
import path from "node:path";
import {
  FileStatus,
  httpStatusOfCode,
  type Lang,
  StatusCode,
  statusMessage,
  type UploadResult,
} from "@yuelu/contracts";
import { AppError, countTaskEvent, requestTranscriptions } from "@yuelu/domain";
import type { FastifyRequest } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { progressOf } from "../dictation/service.ts";
import { mediaTools } from "../records/probe.ts";
import { receiveUpload } from "../records/upload.ts";
import { forReader, ownedTranscript } from "../transcript/service.ts";
import type { OpenAiDeps } from "./deps.ts";
import { AfterWorkMade, OpenAiFailure } from "./errors.ts";
import { heldFormRequest } from "./held-form.ts";
import { type RenderedTranscript, renderTranscript } from "./transcript-formats.ts";
import { asFormField, planTranscription, type TranscriptionPlan } from "./transcription-plan.ts";

/** Time allowed for a transcription beyond the queue: 10 minutes, plus twice the recording's length. */
const WAIT_BASE_MS = 10 * 60_000;
const WAIT_PER_AUDIO_SECOND_MS = 2000;

/**
 * `Idempotency-Key` (sent by the client, any text) as the upload's retry-safe uploadId: a retried
 * request answers the record the first one made, and is not charged again (docs/integrators.md).
 */
function uploadIdOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  if (typeof key !== "string" || key.trim() === "" || key.length > 200) return undefined;
  return `oai-${createHash("sha256").update(key).digest("base64url").slice(0, 40)}`;
}

const keptRecord = (fileId: number): Record<Lang, string> => ({
  zh: `录音已保存在您的账户中（fileId ${fileId}），可在网页版查看。`,
  en: `The recording stays in your account (fileId ${fileId}) and shows in the web app.`,
});

/**
 * The upload, exactly as the web app's (records/upload.ts: streamed, checked, ≤ 1 GiB, ≤ 5 h, a
 * record in the user's library); the form is checked before the file is kept (heldFormRequest).
 */
async function upload(deps: OpenAiDeps, request: FastifyRequest, lang: Lang) {
  let plan: TranscriptionPlan | undefined;
  // The form's refusal as it was: the upload service only passes its own error kind (AppError) on.
  let refusal: unknown;
  const form = heldFormRequest(request, async (fields) => {
    try {
      plan = await planTranscription(deps, fields, lang);
    } catch (error) {
      refusal = error;
      throw error instanceof AppError ? error : new AppError(StatusCode.SystemError);
    }
  });
  let uploaded: UploadResult;
  try {
    uploaded = await receiveUpload(
      {
        db: deps.db,
        domain: deps.domain,
        files: deps.files,
        log: request.log,
        lang,
        tools: mediaTools(deps.config),
        tmpDir: path.join(deps.config.dataDir, "tmp"),
      },
      userIdOf(request),
      form,
      { menuId: null, uploadId: uploadIdOf(request) },
    );
  } catch (error) {
    throw refusal ?? error;
  }
  if (refusal) throw refusal;
  if (!plan) throw new Error("the transcription form was not read");
  return { uploaded, plan };
}

/** Charges and queues the transcription as the web app's dictation call does; a refusal keeps the record. */
async function requestOne(deps: OpenAiDeps, userId: number, fileId: number, plan: TranscriptionPlan) {
  const outcomes = await requestTranscriptions(deps.domain, userId, [fileId], plan.param, deps.enqueueTranscription)
    // more hot words than a user may keep: named as the form field that brought them
    .catch((error: unknown) => Promise.reject(asFormField(error, "prompt")));
  const outcome = outcomes[0];
  if (!outcome || outcome.code !== StatusCode.Success) throw new AppError(outcome?.code ?? StatusCode.SystemError);
  return outcome.taskId;
}

/** Waits for the transcript (long-poll on the event bus and the record's state); a failure says why. */
async function waitForTranscript(
  deps: OpenAiDeps,
  userId: number,
  uploaded: UploadResult,
  taskId: number | null,
  signal: AbortSignal,
  lang: Lang,
) {
  const row = await deps.waits.until(
    `transcription:${taskId}`,
    async () => {
      const [progress] = await progressOf(deps.db, userId, [uploaded.fileId], lang);
      const open = progress?.fileStatus === FileStatus.InQueue || progress?.fileStatus === FileStatus.Transcribing;
      return progress && !open ? progress : undefined;
    },
    { timeoutMs: WAIT_BASE_MS + uploaded.timeLen * WAIT_PER_AUDIO_SECOND_MS, signal },
  );
  if (signal.aborted) throw new Error("the client left");
  if (!row) {
    const message =
      lang === "zh"
        ? "转写仍在进行，完成后可在账户中查看。"
        : "The transcription is taking longer than this request may wait; it goes on.";
    throw new OpenAiFailure(504, 504, message);
  }
  if (row.fileStatus === FileStatus.NotFound) throw new AppError(StatusCode.RecordNotFound);
  if (row.fileStatus !== FileStatus.Complete) {
    const code = row.errorCode ?? StatusCode.TranscriptionFailed;
    const message = row.errorMsg ?? statusMessage(code, lang);
    // speech in another language than the one asked (or heard) for is the file's fault, not the server's:
    // 422 on the file, which OpenAI's clients do not retry
    if (row.taskId && (await failedForLanguage(deps.db, row.taskId)))
      throw new OpenAiFailure(422, code, message, "file");
    throw new OpenAiFailure(httpStatusOfCode(code), code, message);
  }
}

/** Whether a failed task failed because its speech was not in the language its engine hears (issue 41). */
async function failedForLanguage(db: OpenAiDeps["db"], taskId: number): Promise<boolean> {
  const task = await db.transcriptionTask.findUnique({ where: { id: taskId }, select: { errorReason: true } });
  return task?.errorReason?.startsWith("wrong-language/") ?? false;
}

/**
 * POST /v1/audio/transcriptions: the upload becomes a record of the user's (seen in the web app),
 * transcribed and charged as the web app's upload + dictation are, then answered in the asked format.
 * A client that leaves does not stop it: the record stays and the work goes on.
 */
export async function transcribeUpload(
  deps: OpenAiDeps,
  request: FastifyRequest,
  signal: AbortSignal,
): Promise<RenderedTranscript> {
  const lang = requestLang(request);
  const userId = userIdOf(request);
  const { uploaded, plan } = await upload(deps, request, lang);
  // the 'first upload' challenge, as the web upload counts it; it must not cost the user the upload
  await countTaskEvent(deps.domain, userId, "upload").catch((err: unknown) =>
    request.log.error({ err }, "could not count the upload task"),
  );
  try {
    // a retried request (same Idempotency-Key) whose record is already transcribed is answered again, free
    if (uploaded.fileStatus !== FileStatus.Complete) {
      const taskId = await requestOne(deps, userId, uploaded.fileId, plan);
      await waitForTranscript(deps, userId, uploaded, taskId, signal, lang);
    }
    const transcript = forReader(await ownedTranscript(deps.db, userId, uploaded.fileId), lang);
    return renderTranscript(transcript, plan);
  } catch (error) {
    throw new AfterWorkMade(error as Error, keptRecord(uploaded.fileId));
  }
}

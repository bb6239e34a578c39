import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  type DictationTask,
  envelopeOf,
  MAX_SPEAKERS,
  MAX_TRANSCRIBE_SECONDS,
  ok,
  StatusCode,
  statusMessage,
  ZDictationBatchBody,
  ZDictationBody,
  ZDictationConfiguration,
  ZDictationProgressItem,
  ZDictationProgressQuery,
  ZDictationResult,
} from "@yuelu/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { sendEnvelope } from "../../plugins/errors.ts";
import { engineAvailability } from "./engines.ts";
import {
  dailyLimitOf,
  enqueueTranscription,
  type FileOutcome,
  failUnqueuedTask,
  mergeHotWords,
  parseDictationParam,
  progressOf,
  transcribeFile,
} from "./service.ts";

const tags = ["dictation"];

const LANGUAGE_LABELS = {
  zh: { zh: "中文", en: "Chinese" },
  en: { zh: "英文", en: "English" },
  auto: { zh: "自动识别", en: "Auto-detect" },
} as const;

/** dictation routes (docs/records-api.md "Transcription"). */
export default async function dictationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.deps;

  /** Every file in turn, each in its own transaction; jobs are added after each commit. */
  async function transcribe(req: FastifyRequest, fileIds: number[], rawParam: unknown): Promise<DictationTask[]> {
    const queues = app.deps.queues;
    if (!queues) throw new AppError(StatusCode.SystemError);
    const param = parseDictationParam(rawParam);
    const userId = userIdOf(req);
    if (param.hotWords?.length) await mergeHotWords(db, userId, param.hotWords);
    const now = new Date();
    const dailyLimit = await dailyLimitOf(db, config, userId, now);
    const lang = requestLang(req);
    const tasks: DictationTask[] = [];
    for (const fileId of fileIds) {
      let outcome: FileOutcome = await transcribeFile({ db, config, userId, param, dailyLimit, now }, fileId);
      if (outcome.enqueue && outcome.taskId !== null) {
        try {
          await enqueueTranscription(queues, outcome.taskId);
        } catch (err) {
          req.log.error({ err, taskId: outcome.taskId }, "could not queue a transcription job");
          if (outcome.created) {
            await failUnqueuedTask(db, outcome.taskId, fileId);
            outcome = { ...outcome, code: StatusCode.SystemError, fileStatus: -1 };
          }
        }
      }
      const { taskId, fileStatus, code } = outcome;
      tasks.push(
        code === StatusCode.Success
          ? { fileId, taskId, fileStatus, code }
          : { fileId, taskId, fileStatus, code, message: statusMessage(code, lang) },
      );
    }
    return tasks;
  }

  app.post(
    "/api/v2/dictation/audio/dictation",
    { schema: { tags, body: ZDictationBody, response: { 200: envelopeOf(ZDictationResult) } } },
    async (req) => {
      const tasks = await transcribe(req, [req.body.fileId], req.body.dictationParam);
      const refused = tasks.find((t) => t.code !== StatusCode.Success);
      // A single file's refusal is the envelope's code (the SPA toasts it).
      if (refused) throw new AppError(refused.code as StatusCode);
      return ok({ tasks });
    },
  );

  app.post(
    "/api/v2/dictation/audio/dictation_batch",
    { schema: { tags, body: ZDictationBatchBody, response: { 200: envelopeOf(ZDictationResult) } } },
    async (req, reply) => {
      const tasks = await transcribe(req, req.body.fileIds, req.body.dictationParam);
      // Some files queued: success, each refused file carrying its code. None queued: the envelope
      // carries the first refusal's code (what the SPA shows) and data still lists every file.
      const refused = tasks.find((t) => t.code !== StatusCode.Success);
      if (refused && tasks.every((t) => t.code !== StatusCode.Success)) {
        return refusedBatch(reply, refused.code, statusMessage(refused.code, requestLang(req)), tasks);
      }
      return ok({ tasks });
    },
  );

  for (const method of ["GET", "POST"] as const) {
    app.route({
      method,
      url: "/api/v1/dictation/progress/get_progress",
      schema: {
        tags,
        ...(method === "GET" ? { querystring: ZDictationProgressQuery } : { body: ZDictationProgressQuery }),
        response: { 200: envelopeOf(z.array(ZDictationProgressItem)) },
      },
      handler: async (req) => {
        const q = (method === "GET" ? req.query : req.body) as z.infer<typeof ZDictationProgressQuery>;
        const fileIds = [...new Set([...(q.fileIds ?? []), ...(q.fileId ?? [])])];
        const lang = requestLang(req);
        // A stored code's message without placeholders (e.g. 70001's {detail}): the worker's own text comes first.
        const messageOf = (code: number) => statusMessage(code, lang).replace(/\s*[:：]?\s*\{\w+\}/g, "");
        return ok(await progressOf(db, userIdOf(req), fileIds, messageOf));
      },
    });
  }

  app.get(
    "/api/v1/dictation/configuration",
    { schema: { tags, response: { 200: envelopeOf(ZDictationConfiguration) } } },
    async (req) => {
      const lang = requestLang(req);
      const engines = await engineAvailability(config);
      return ok({
        languages: engines.map((e) => ({
          value: e.language,
          label: LANGUAGE_LABELS[e.language][lang],
          available: e.available,
          engine: e.engine,
          ...(e.available || !e.missing ? {} : { missing: e.missing }),
        })),
        maxSpeakers: MAX_SPEAKERS,
        maxSeconds: MAX_TRANSCRIBE_SECONDS,
      });
    },
  );
}

function refusedBatch(reply: FastifyReply, code: number, message: string, tasks: DictationTask[]) {
  return sendEnvelope(reply, 200, code, message, { tasks });
}

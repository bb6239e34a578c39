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
  ZDictationPartial,
  ZDictationPartialQuery,
  ZDictationProgressItem,
  ZDictationProgressQuery,
  ZDictationResult,
} from "@yuelu/contracts";
import { AppError, partialTranscript, requestTranscriptions } from "@yuelu/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { sendEnvelope } from "../../plugins/errors.ts";
import { engineRefusal, engineStates } from "./engines.ts";
import { parseDictationParam, progressOf, transcriptionQueue } from "./service.ts";

const tags = ["dictation"];

/** dictation routes (docs/records-api.md "Transcription"). */
export default async function dictationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  const enqueue = transcriptionQueue(app.deps.queues);

  /** Each file charged and queued on its own (domain: requestTranscriptions); refusals carry their message. */
  async function transcribe(req: FastifyRequest, fileIds: number[], rawParam: unknown): Promise<DictationTask[]> {
    const param = parseDictationParam(rawParam);
    const lang = requestLang(req);
    // Before anything is charged or queued: is an engine for this language ready on the workers?
    const refusal = await engineRefusal(db, param.language, lang);
    if (refusal) throw new AppError(StatusCode.EngineUnavailable, { detail: refusal });
    const outcomes = await requestTranscriptions(app.domain, userIdOf(req), fileIds, param, enqueue);
    return outcomes.map((o) => (o.code === StatusCode.Success ? o : { ...o, message: statusMessage(o.code, lang) }));
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
        return ok(await progressOf(db, userIdOf(req), fileIds, requestLang(req)));
      },
    });
  }

  // The text recognised so far while the record transcribes (docs/records-api.md): the owner's only, 30001 otherwise.
  app.get(
    "/api/v1/dictation/partial",
    { schema: { tags, querystring: ZDictationPartialQuery, response: { 200: envelopeOf(ZDictationPartial) } } },
    async (req) => ok(await partialTranscript(db, userIdOf(req), req.query.fileId)),
  );

  app.get(
    "/api/v1/dictation/configuration",
    { schema: { tags, response: { 200: envelopeOf(ZDictationConfiguration) } } },
    async (req) =>
      ok({
        ...(await engineStates(db, requestLang(req))),
        maxSpeakers: MAX_SPEAKERS,
        maxSeconds: MAX_TRANSCRIBE_SECONDS,
      }),
  );
}

function refusedBatch(reply: FastifyReply, code: number, message: string, tasks: DictationTask[]) {
  return sendEnvelope(reply, 200, code, message, { tasks });
}

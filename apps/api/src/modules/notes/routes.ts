import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  ZAskBody,
  ZAskResult,
  ZCancelNoteBody,
  ZChapters,
  ZCreateNoteBody,
  ZLlmStatus,
  ZNotesOfRecord,
  ZNoteTask,
  ZNoteTaskQuery,
  ZTranscriptFileQuery,
} from "@yuelu/contracts";
import {
  cancelNoteTask,
  findPassages,
  llmBudget,
  notesOfRecord,
  noteTaskView,
  offlineActionItems,
  offlineChapters,
  ownNoteTask,
} from "@yuelu/domain";
import { probeLlm } from "@yuelu/runtime";
import type { FastifyInstance } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { ownedTranscript } from "../transcript/service.ts";
import { forReaderSegments, llmChapters, startNoteTask } from "./service.ts";

const tags = ["notes"];

/**
 * AI notes made from a transcript (issue 24, docs/notes.md). What a model makes is a task on the notes queue
 * (never made inside a request); what is made offline (chapters, to-dos, passages) is cheap, computed when
 * asked, and always matches the transcript as edited.
 */
export default async function notesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, queues } = app.deps;
  const deps = { queues, domain: app.domain };

  app.get(
    "/text/chapters",
    { schema: { tags, querystring: ZTranscriptFileQuery, response: { 200: envelopeOf(ZChapters) } } },
    async (req) => {
      const userId = userIdOf(req);
      const t = await ownedTranscript(db, userId, req.query.fileId);
      const written = await llmChapters(db, userId, t.fileId, t.segments);
      return ok(written ?? { source: "offline" as const, chapters: offlineChapters(t.segments) });
    },
  );

  app.get(
    "/text/notes",
    { schema: { tags, querystring: ZTranscriptFileQuery, response: { 200: envelopeOf(ZNotesOfRecord) } } },
    async (req) => {
      const userId = userIdOf(req);
      const lang = requestLang(req);
      const { rows, hash, segments } = await notesOfRecord(db, userId, req.query.fileId);
      const [llm, budget] = await Promise.all([probeLlm(config), llmBudget(app.domain, userId)]);
      return ok({
        llm,
        budget,
        notes: rows.map((row) => noteTaskView(row, lang, hash)),
        offline: { todos: offlineActionItems(forReaderSegments(segments, lang)) },
      });
    },
  );

  app.get("/text/notes/engine", { schema: { tags, response: { 200: envelopeOf(ZLlmStatus) } } }, async () =>
    ok(await probeLlm(config)),
  );

  app.post(
    "/text/notes",
    { schema: { tags, body: ZCreateNoteBody, response: { 200: envelopeOf(ZNoteTask) } } },
    async (req) => {
      const body = req.body;
      const task = await startNoteTask(deps, userIdOf(req), {
        kind: body.kind,
        fileId: body.fileId,
        target: body.kind === "translation" ? body.target : "",
        requestId: body.requestId,
      });
      return ok(noteTaskView(task, requestLang(req)));
    },
  );

  app.get(
    "/text/notes/task",
    { schema: { tags, querystring: ZNoteTaskQuery, response: { 200: envelopeOf(ZNoteTask) } } },
    async (req) => ok(noteTaskView(await ownNoteTask(db, userIdOf(req), req.query.taskId), requestLang(req))),
  );

  app.post(
    "/text/notes/cancel",
    { schema: { tags, body: ZCancelNoteBody, response: { 200: envelopeOf(ZNoteTask) } } },
    async (req) => ok(noteTaskView(await cancelNoteTask(app.domain, userIdOf(req), req.body.taskId), requestLang(req))),
  );

  app.post(
    "/text/ask",
    { schema: { tags, body: ZAskBody, response: { 200: envelopeOf(ZAskResult) } } },
    async (req) => {
      const userId = userIdOf(req);
      const lang = requestLang(req);
      const { question, fileId, requestId } = req.body;
      const passages = (await findPassages(db, userId, question, { fileId })).map((p) => ({
        ...p,
        speaker: forReaderSegments([{ spkName: p.speaker }], lang)[0]!.spkName,
      }));
      // Nothing found: nothing to cite, so no tokens are spent on an answer.
      if (!config.LLM_URL || passages.length === 0) return ok({ mode: "passages" as const, passages, task: null });
      const task = await startNoteTask(deps, userId, {
        kind: "answer",
        fileId: fileId ?? null,
        question,
        passages,
        requestId,
      });
      return ok({ mode: "passages" as const, passages, task: noteTaskView(task, lang) });
    },
  );
}

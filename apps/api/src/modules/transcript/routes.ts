import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  ZHotWords,
  ZHotWordsPutBody,
  ZTextDetail,
  ZTextQuery,
  ZTranscriptAbstractsBody,
  ZTranscriptAbstractsResult,
  ZTranscriptExportQuery,
  ZUpdateParaBody,
  ZUpdateParaResult,
  ZUpdateTextBody,
  ZUpdateTextResult,
} from "@yuelu/contracts";
import { countTaskEvent, noteTaskView, saveAbstracts, segmentsHash, summarize } from "@yuelu/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { contentDisposition } from "../../lib/content-disposition.ts";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { exportTodos, startNoteTask, translatedLines } from "../notes/service.ts";
import {
  baseName,
  type CueLanguage,
  type DocMeta,
  MIME,
  summaryDocx,
  summarySuffix,
  toDocx,
  toSrt,
  toTxt,
  toVtt,
} from "./exports.ts";
import {
  editParagraph,
  forReader,
  hotWordsOf,
  type OwnedTranscript,
  ownedTranscript,
  ownedTranscriptText,
  replaceHotWords,
  replaceSegments,
  textDetail,
} from "./service.ts";

const tags = ["transcript"];
/** Whole transcripts travel in update_text: up to 20 000 segments, larger than the default 1 MiB body. */
const TRANSCRIPT_BODY_LIMIT = 32 * 1024 * 1024;

type ExportQuery = z.infer<typeof ZTranscriptExportQuery>;

/** transcript routes (docs/records-api.md "Transcript"). */
export default async function transcriptRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config, queues } = app.deps;

  const detailRoute = {
    schema: { tags, querystring: ZTextQuery, response: { 200: envelopeOf(ZTextDetail) } },
  };
  for (const url of ["/api/v2/audio/text/get_text", "/text/get_text"]) {
    app.get(url, detailRoute, async (req) =>
      ok(
        req.query.withWords
          ? textDetail(forReader(await ownedTranscript(db, userIdOf(req), req.query.fileId), requestLang(req)), true)
          : textDetail(forReader(await ownedTranscriptText(db, userIdOf(req), req.query.fileId), requestLang(req))),
      ),
    );
  }

  for (const url of ["/api/v1/audio/text/update_text", "/text/update_text"]) {
    for (const method of ["PATCH", "POST", "PUT"] as const) {
      app.route({
        method,
        url,
        bodyLimit: TRANSCRIPT_BODY_LIMIT,
        schema: { tags, body: ZUpdateTextBody, response: { 200: envelopeOf(ZUpdateTextResult) } },
        handler: async (req) =>
          ok(await replaceSegments(app.domain, userIdOf(req), req.body.fileId, req.body.asrResult, req.body.version)),
      });
    }
  }

  app.post(
    "/text/update_para",
    { schema: { tags, body: ZUpdateParaBody, response: { 200: envelopeOf(ZUpdateParaResult) } } },
    async (req) => {
      const { fileId, ...edit } = req.body;
      return ok(await editParagraph(app.domain, userIdOf(req), fileId, edit, requestLang(req)));
    },
  );

  app.get("/api/v1/hotWords", { schema: { tags, response: { 200: envelopeOf(ZHotWords) } } }, async (req) =>
    ok({ hotWords: await hotWordsOf(db, userIdOf(req)) }),
  );
  for (const method of ["PUT", "POST"] as const) {
    app.route({
      method,
      url: "/api/v1/hotWords",
      schema: { tags, body: ZHotWordsPutBody, response: { 200: envelopeOf(ZHotWords) } },
      handler: async (req) => ok({ hotWords: await replaceHotWords(db, userIdOf(req), req.body.hotWords) }),
    });
  }

  // Given abstracts are saved. Without: offline the extractive summary is made and saved at once; with an
  // LLM configured a summary task is started instead (docs/notes.md), which writes the abstracts when done —
  // the answer carries the current abstracts and the task to follow.
  app.post(
    "/text/update_abstracts",
    { schema: { tags, body: ZTranscriptAbstractsBody, response: { 200: envelopeOf(ZTranscriptAbstractsResult) } } },
    async (req) => {
      const userId = userIdOf(req);
      const { fileId, requestId } = req.body;
      let abstracts = req.body.abstracts;
      if (abstracts === undefined) {
        const t = await ownedTranscript(db, userId, fileId);
        // (an empty transcript has nothing to send: its summary is the empty one, as offline)
        if (config.LLM_URL && t.segments.some((s) => s.text.trim() !== "")) {
          const task = await startNoteTask({ queues, domain: app.domain }, userId, {
            kind: "summary",
            fileId,
            requestId,
          });
          return ok({ abstracts: t.abstracts, task: noteTaskView(task, requestLang(req), segmentsHash(t.segments)) });
        }
        abstracts = summarize(t.segments.map((s) => s.text));
      }
      await saveAbstracts(app.domain, userId, fileId, abstracts);
      return ok({ abstracts });
    },
  );

  // /text/generate_url makes a share link: modules/share/routes.ts

  // ── files ──
  const metaOf = (req: FastifyRequest, t: OwnedTranscript, title = baseName(t.fileName)): DocMeta => ({
    title,
    timeLen: t.timeLen,
    updatedAt: t.updatedAt,
    timeZone: config.BUSINESS_TZ,
    lang: requestLang(req),
  });

  /** Loads the caller's transcript, builds the file, counts the daily 'export' task, sends it. */
  function exportRoute(
    urls: string[],
    build: (
      req: FastifyRequest,
      t: OwnedTranscript,
      q: ExportQuery,
    ) => Promise<{ body: string | Buffer; name: string; type: string }>,
  ) {
    for (const url of urls) {
      for (const method of ["GET", "POST"] as const) {
        app.route({
          method,
          url,
          schema: {
            tags,
            ...(method === "GET" ? { querystring: ZTranscriptExportQuery } : { body: ZTranscriptExportQuery }),
          },
          handler: async (req: FastifyRequest, reply: FastifyReply) => {
            const q = (method === "GET" ? req.query : req.body) as ExportQuery;
            const userId = userIdOf(req);
            const t = forReader(await ownedTranscript(db, userId, q.fileId), requestLang(req));
            const file = await build(req, t, q);
            // The daily task "export a transcript"; a failure here must not cost the user the download.
            await countTaskEvent(app.domain, userId, "export").catch((err: unknown) =>
              req.log.error({ err }, "could not count the export task"),
            );
            return reply
              .header("content-type", file.type)
              .header("content-disposition", contentDisposition(file.name))
              .header("cache-control", "no-store")
              .send(file.body);
          },
        });
      }
    }
  }

  /** The translation the SRT/VTT cues carry, when one is asked for (10002 naming `translation` when none exists). */
  async function cueLanguage(
    req: FastifyRequest,
    t: OwnedTranscript,
    q: ExportQuery,
  ): Promise<CueLanguage | undefined> {
    if (!q.translation) return undefined;
    const translated = await translatedLines(db, userIdOf(req), t.fileId, q.translation, t.segments);
    return { translated, bilingual: q.bilingual };
  }
  const todosOf = (req: FastifyRequest, t: OwnedTranscript) => exportTodos(db, userIdOf(req), t.fileId, t.segments);

  exportRoute(["/api/v3/audio/text/export_txt"], async (req, t, q) => ({
    body: toTxt(t.segments, q, { items: await todosOf(req, t), lang: requestLang(req) }),
    name: `${baseName(t.fileName)}.txt`,
    type: MIME.txt,
  }));
  exportRoute(["/api/v3/audio/text/export_word", "/text/rich_export_word"], async (req, t, q) => ({
    body: await toDocx(metaOf(req, t), t.segments, t.abstracts, q, await todosOf(req, t)),
    name: `${baseName(t.fileName)}.docx`,
    type: MIME.docx,
  }));
  exportRoute(["/api/v3/audio/text/export_srt"], async (req, t, q) => ({
    body: toSrt(t.segments, q, await cueLanguage(req, t, q)),
    name: `${baseName(t.fileName)}.srt`,
    type: MIME.srt,
  }));
  exportRoute(["/api/v3/audio/text/export_vtt"], async (req, t, q) => ({
    body: toVtt(t.segments, q, await cueLanguage(req, t, q)),
    name: `${baseName(t.fileName)}.vtt`,
    type: MIME.vtt,
  }));
  // The stored summary; without one, a summary made now (not stored: a download changes nothing).
  exportRoute(["/text/abstracts_export_word"], async (req, t) => {
    const lang = requestLang(req);
    const title = `${baseName(t.fileName)}${summarySuffix(lang)}`;
    const abstracts = t.abstracts.trim() ? t.abstracts : summarize(t.segments.map((s) => s.text));
    return {
      body: await summaryDocx(metaOf(req, t, title), abstracts, await todosOf(req, t)),
      name: `${title}.docx`,
      type: MIME.docx,
    };
  });
}

import path from "node:path";
import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  type BatchDownloadQuery,
  envelopeOf,
  ok,
  ZAudioRecord,
  ZBatchDownloadQuery,
  ZCheckAudio,
  ZDeleteRecordBody,
  ZDownloadQuery,
  ZFileIdQuery,
  ZFileIdsBody,
  ZFileIdsResult,
  ZFileInfo,
  ZMenuCreateBody,
  ZMenuDeleteBody,
  ZMenuDeleted,
  ZMenuItem,
  ZMenuUpdateBody,
  ZMoveBatchBody,
  ZMoveBody,
  ZMoveResult,
  ZPageQuery,
  ZRecordListQuery,
  ZRecordPage,
  ZRecyclePage,
  ZRenameBody,
  ZUntranscribedAudio,
  ZUploadQuery,
  ZUploadResult,
} from "@yuelu/contracts";
import { countTaskEvent, deleteRecordsForever } from "@yuelu/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { FILE_ROUTES } from "../../lib/file-urls.ts";
import { requestLang } from "../../lib/lang.ts";
import { rangeRequestOf, sendDownload } from "../../lib/stored-file.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { sendEnvelope } from "../../plugins/errors.ts";
import { openDownload, openZip } from "./download.ts";
import { mediaTools } from "./probe.ts";
import * as records from "./service.ts";
import tusRoutes from "./tus.ts";
import { announcesOversizedBody, receiveUpload, UploadRefused } from "./upload.ts";

const tags = ["records"];

/** Upload and library calls of docs/records-api.md; every one needs sign-in (voice-yuelu.ts). */
export default async function recordsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, files } = app.deps;

  // ── upload ──

  app.post(
    "/api/v1/audio/upload",
    {
      // a body announced over 1 GiB is refused unread by the route itself (20004, announcesOversizedBody)
      config: { multipartFiles: true },
      schema: {
        tags,
        consumes: ["multipart/form-data"],
        body: ZUploadQuery,
        response: { 200: envelopeOf(ZUploadResult) },
      },
    },
    async (req, reply) => {
      try {
        if (announcesOversizedBody(req)) throw new UploadRefused("too_large");
        const uploaded = await receiveUpload(
          {
            db,
            domain: app.domain,
            files,
            log: req.log,
            lang: requestLang(req),
            tools: mediaTools(app.deps.config),
            tmpDir: path.join(app.deps.config.dataDir, "tmp"),
          },
          userIdOf(req),
          req,
          req.body,
        );
        // the 'first upload' challenge; a failure here must not cost the user the upload
        await countTaskEvent(app.domain, userIdOf(req), "upload").catch((err: unknown) =>
          req.log.error({ err }, "could not count the upload task"),
        );
        return ok(uploaded);
      } catch (error) {
        if (!(error instanceof UploadRefused)) throw error;
        req.log.info({ reason: error.refusal }, "upload refused");
        // do not read the rest of a body that cannot be kept
        if (error.refusal === "too_large" || error.refusal === "storage_full") reply.header("connection", "close");
        return sendEnvelope(reply, error.httpStatus, error.code, error.explain(requestLang(req)));
      }
    },
  );

  // resumable uploads (tus 1.0.0): POST /api/v1/audio/uploads and the upload URLs it makes
  await app.register(tusRoutes);

  // ── lists ──

  app.get(
    "/api/v3/audio/all_list",
    { schema: { tags, querystring: ZRecordListQuery, response: { 200: envelopeOf(ZRecordPage) } } },
    async (req) => ok(await records.listRecords(db, userIdOf(req), req.query, "all")),
  );

  app.get(
    "/api/v3/audio/list",
    { schema: { tags, querystring: ZRecordListQuery, response: { 200: envelopeOf(ZRecordPage) } } },
    async (req) => ok(await records.listRecords(db, userIdOf(req), req.query, "folder")),
  );

  app.get(
    "/api/v2/audio/no_transfer_list",
    { schema: { tags, response: { 200: envelopeOf(z.array(ZUntranscribedAudio)) } } },
    async (req) => ok(await records.untranscribed(db, userIdOf(req))),
  );

  app.get(
    "/api/v3/audio/recycle_list",
    { schema: { tags, querystring: ZPageQuery, response: { 200: envelopeOf(ZRecyclePage) } } },
    async (req) => ok(await records.recycleList(db, userIdOf(req), req.query)),
  );

  // ── folders ──

  app.post(
    "/api/v2/menu/create",
    { schema: { tags, body: ZMenuCreateBody, response: { 200: envelopeOf(ZMenuItem) } } },
    async (req) => ok(await records.createMenu(db, userIdOf(req), req.body.menuName)),
  );

  app.post(
    "/api/v2/menu/update",
    { schema: { tags, body: ZMenuUpdateBody, response: { 200: envelopeOf(ZMenuItem) } } },
    async (req) => ok(await records.updateMenu(db, userIdOf(req), req.body.menuId, req.body.menuName)),
  );

  app.post(
    "/api/v2/menu/delete",
    { schema: { tags, body: ZMenuDeleteBody, response: { 200: envelopeOf(ZMenuDeleted) } } },
    async (req) => ok(await records.deleteMenu(db, userIdOf(req), req.body.menuId)),
  );

  // ── moving, bin, restore, delete, rename ──

  app.post(
    "/api/v2/audio/move",
    { schema: { tags, body: ZMoveBody, response: { 200: envelopeOf(ZMoveResult) } } },
    async (req) => ok(await records.moveRecords(db, userIdOf(req), [req.body.fileId], req.body.menuId)),
  );

  app.post(
    "/api/v2/audio/move_batch",
    { schema: { tags, body: ZMoveBatchBody, response: { 200: envelopeOf(ZMoveResult) } } },
    async (req) => ok(await records.moveRecords(db, userIdOf(req), req.body.fileIds, req.body.menuId)),
  );

  app.post(
    "/api/v1/audio/record/delete_record",
    { schema: { tags, body: ZDeleteRecordBody, response: { 200: envelopeOf(ZFileIdsResult) } } },
    async (req) => ok(await records.binRecords(db, userIdOf(req), [req.body.fileId])),
  );

  app.post(
    "/api/v1/audio/record/delete_batch",
    { schema: { tags, body: ZFileIdsBody, response: { 200: envelopeOf(ZFileIdsResult) } } },
    async (req) => ok(await records.binRecords(db, userIdOf(req), req.body.fileIds)),
  );

  app.post(
    "/api/v1/audio/record/restore",
    { schema: { tags, body: ZFileIdsBody, response: { 200: envelopeOf(ZFileIdsResult) } } },
    async (req) => ok(await records.restoreRecords(db, userIdOf(req), req.body.fileIds)),
  );

  app.post(
    "/api/v1/audio/record/delete_forever",
    { schema: { tags, body: ZFileIdsBody, response: { 200: envelopeOf(ZFileIdsResult) } } },
    async (req) =>
      ok(
        await deleteRecordsForever(app.domain, userIdOf(req), req.body.fileIds, (err, storageKey) =>
          req.log.error({ err, storageKey }, "could not remove a deleted record's file"),
        ),
      ),
  );

  app.post(
    "/api/v1/audio/record/update_record",
    { schema: { tags, body: ZRenameBody, response: { 200: envelopeOf(ZAudioRecord) } } },
    async (req) => ok(await records.renameRecord(app.domain, userIdOf(req), req.body.fileId, req.body.fileName)),
  );

  // ── one record ──

  app.get(
    "/api/v3/audio/record/get_record_by_id",
    { schema: { tags, querystring: ZFileIdQuery, response: { 200: envelopeOf(ZAudioRecord) } } },
    async (req) => ok(await records.getRecord(db, userIdOf(req), req.query.fileId)),
  );

  app.get(
    "/api/v1/audio/check_audio",
    { schema: { tags, querystring: ZFileIdQuery, response: { 200: envelopeOf(ZCheckAudio) } } },
    async (req) => ok(await records.checkAudio(app.domain, userIdOf(req), req.query.fileId)),
  );

  app.get(
    "/api/v1/s/file/info",
    { schema: { tags, querystring: ZFileIdQuery, response: { 200: envelopeOf(ZFileInfo) } } },
    async (req) => ok(await records.fileInfo(db, userIdOf(req), req.query.fileId)),
  );

  // ── downloads (blobs) ──

  // HEAD answers the headers without opening the file (Fastify's automatic HEAD would read it whole).
  app.route({
    method: ["GET", "HEAD"],
    url: FILE_ROUTES.recordAudio,
    schema: { tags, querystring: ZDownloadQuery, produces: ["application/octet-stream"] },
    handler: async (req, reply) =>
      sendDownload(reply, await openDownload(db, files, userIdOf(req), req.query, rangeRequestOf(req))),
  });

  /** The zip of download/batch; with transcripts it counts as the daily 'export a transcript' task. */
  const batchZip = async (req: FastifyRequest, query: BatchDownloadQuery) => {
    const userId = userIdOf(req);
    const lang = requestLang(req);
    const zip = await openZip({ db, files, log: req.log, lang, timeZone: app.deps.config.BUSINESS_TZ }, userId, query);
    if (query.include !== "audio") {
      // a failure here must not cost the user the download
      await countTaskEvent(app.domain, userId, "export").catch((err: unknown) =>
        req.log.error({ err }, "could not count the export task"),
      );
    }
    return zip;
  };

  app.get(
    "/api/v1/audio/download/batch",
    // no automatic HEAD: it would build the whole zip to throw it away
    { exposeHeadRoute: false, schema: { tags, querystring: ZBatchDownloadQuery, produces: ["application/zip"] } },
    async (req, reply) => sendDownload(reply, await batchZip(req, req.query)),
  );

  app.post(
    "/api/v1/audio/download/batch",
    { schema: { tags, body: ZBatchDownloadQuery, produces: ["application/zip"] } },
    async (req, reply) => sendDownload(reply, await batchZip(req, req.body)),
  );
}

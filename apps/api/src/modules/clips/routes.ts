import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  JOBS,
  ok,
  StatusCode,
  ZClip,
  ZClipCaptionsQuery,
  ZClipCreateBody,
  ZClipDeleteBody,
  ZClipDeleted,
  ZClipFileQuery,
  ZClipList,
  ZClipListQuery,
} from "@yuelu/contracts";
import type { ClipModel as ClipModelRow } from "@yuelu/db";
import { AppError, type ClipUrls, clipView, createClip, deleteClip, listClips, ownClip } from "@yuelu/domain";
import { enqueue } from "@yuelu/runtime";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { contentDisposition } from "../../lib/content-disposition.ts";
import { rangeRequestOf, sendDownload, serveStored } from "../../lib/stored-file.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { MIME, toSrt, toVtt } from "../transcript/exports.ts";

const tags = ["clips"];
/** How long create (and a download of a clip still being cut) waits for the cut: a clip takes about a second. */
const CUT_WAIT_MS = 20_000;
const POLL_MS = 150;
const DONE = 2;
const FAILED = -1;

/** Where a clip's files are: PUBLIC_URL when the operator set one, else the origin the caller used. */
function urlsOf(request: FastifyRequest, publicUrl: string | undefined): ClipUrls {
  const origin = (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
  const base = `${origin}/voice_yuelu/api/v1/clips`;
  return {
    file: (id) => `${base}/file?clipId=${id}`,
    audio: (id) => `${base}/audio?clipId=${id}`,
    captions: (id) => `${base}/captions?clipId=${id}`,
  };
}

/** A name for a clip's download: its title (or "clip"), the extension of its file. */
function fileName(row: ClipModelRow, ext: string): string {
  const title = row.title.replace(/[\\/:*?"<>|\r\n]+/g, " ").trim() || `clip-${row.id}`;
  return `${title.slice(0, 80)}.${ext}`;
}

/**
 * Clips (docs/clips.md, issue 45): create (the cut runs as a job on the clips queue; the answer waits up to
 * 20 s for it, so a client usually gets a clip it can download at once), list, delete, and the clip's file,
 * audio and captions for its owner (the public link is a share link: POST /api/v1/share/create with clipId).
 */
export default async function clipRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, queues, files, config } = app.deps;
  const domain = app.domain;

  /** The caller's clip once its cut has ended (done or failed), or as it is after `ms`. */
  async function settled(userId: number, clipId: number, ms: number, signal?: AbortSignal): Promise<ClipModelRow> {
    const deadline = Date.now() + ms;
    for (;;) {
      const row = await ownClip(db, userId, clipId);
      if (row.status === DONE || row.status === FAILED || Date.now() >= deadline || signal?.aborted) return row;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  app.post(
    "/api/v1/clips/create",
    { schema: { tags, body: ZClipCreateBody, response: { 200: envelopeOf(ZClip) } } },
    async (req) => {
      const userId = userIdOf(req);
      const row = await createClip(domain, userId, req.body);
      await enqueue(queues, JOBS.clip, { clipId: row.id });
      const abort = new AbortController();
      req.raw.once("close", () => abort.abort());
      return ok(clipView(await settled(userId, row.id, CUT_WAIT_MS, abort.signal), urlsOf(req, config.PUBLIC_URL)));
    },
  );

  app.get(
    "/api/v1/clips/list",
    { schema: { tags, querystring: ZClipListQuery, response: { 200: envelopeOf(ZClipList) } } },
    async (req) => {
      const rows = await listClips(db, userIdOf(req), req.query.fileId);
      const urls = urlsOf(req, config.PUBLIC_URL);
      return ok({ total: rows.length, list: rows.map((row) => clipView(row, urls)) });
    },
  );

  app.post(
    "/api/v1/clips/delete",
    { schema: { tags, body: ZClipDeleteBody, response: { 200: envelopeOf(ZClipDeleted) } } },
    async (req) => ok(await deleteClip(domain, userIdOf(req), req.body.clipId)),
  );

  /** The clip's file or its audio, with byte ranges; a clip still being cut is waited for; 20003 when it has none. */
  async function serveClip(req: FastifyRequest, reply: FastifyReply, which: "file" | "audio") {
    const { clipId } = req.query as { clipId: number };
    const row = await settled(userIdOf(req), clipId, CUT_WAIT_MS);
    const key = which === "file" ? row.storageKey : row.audioKey;
    if (row.status !== DONE || !key) throw new AppError(StatusCode.FileNotFound);
    const video = which === "file" && row.kind === "video";
    const download = await serveStored(files, key, rangeRequestOf(req), {
      "content-type": video ? "video/mp4" : "audio/mp4",
      "content-disposition": contentDisposition(fileName(row, video ? "mp4" : "m4a"), true),
      "cache-control": "private, no-store",
    });
    return sendDownload(reply, download);
  }
  app.get("/api/v1/clips/file", { schema: { tags, querystring: ZClipFileQuery } }, (req, reply) =>
    serveClip(req, reply, "file"),
  );
  app.get("/api/v1/clips/audio", { schema: { tags, querystring: ZClipFileQuery } }, (req, reply) =>
    serveClip(req, reply, "audio"),
  );

  /** Its own captions: the record's words within the clip, times from the clip's start. */
  app.get("/api/v1/clips/captions", { schema: { tags, querystring: ZClipCaptionsQuery } }, async (req, reply) => {
    const row = await ownClip(db, userIdOf(req), req.query.clipId);
    const view = clipView(row, urlsOf(req, config.PUBLIC_URL));
    const vtt = req.query.format === "vtt";
    const body = vtt
      ? toVtt(view.segments, { withSpeaker: true, words: req.query.words })
      : toSrt(view.segments, { withSpeaker: true });
    return reply
      .type(vtt ? MIME.vtt : MIME.srt)
      .header("content-disposition", contentDisposition(fileName(row, vtt ? "vtt" : "srt")))
      .send(body);
  });
}

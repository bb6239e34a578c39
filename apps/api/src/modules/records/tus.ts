import { Readable } from "node:stream";
import { Server } from "@tus/server";
import { ERRORS, type Upload } from "@tus/utils";
import { type Lang, MAX_UPLOAD_BYTES, ok, StatusCode, statusMessage, ZUploadQuery } from "@yuelu/contracts";
import { AppError, assertOwnFolder, countTaskEvent, releaseStorage, uploadExtension } from "@yuelu/domain";
import { openUploadArea, type UploadArea } from "@yuelu/runtime";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { assertCanProbe, type MediaTools, mediaTools } from "./probe.ts";
import { finishUpload, receiptOf, type TusCall } from "./tus-finish.ts";
import { RedisLocker } from "./tus-locker.ts";
import { CheckedUploadStore } from "./tus-store.ts";
import { holdUpload, type StorageContext, UploadRefused } from "./upload.ts";

/** The tus creation endpoint (issue 31); an upload's URL is this plus its id. */
export const TUS_PATH = "/voice_yuelu/api/v1/audio/uploads";
const TUS_VERSION = "1.0.0";
/** An upload's id in its URL: 32 hex digits (the area may keep it under a folder prefix). */
const URL_ID = /^[0-9a-f]{32}$/;

/**
 * Resumable uploads over tus 1.0.0 (@tus/server): creation (+ with upload, + defer length),
 * termination and expiration. Every call but OPTIONS needs a session (401 without one); an upload's URL answers
 * its owner only (404 to anyone else, as for an id that never existed). The checks of the one-request
 * upload run as early as the bytes allow: the name's extension, the announced length (≤ 1 GiB) and
 * the folder at creation, the content's signature on the first bytes, ffprobe (readable, audio,
 * ≤ 5 h) when the last byte lands — which creates the record and answers the usual envelope as the
 * body of that last PATCH. State lives in the upload area (disk or bucket), never in this process; the
 * upload's lock lives in Redis when there is one (tus-locker.ts).
 */
export default async function tusRoutes(app: FastifyInstance) {
  const { db, files, config } = app.deps;
  const area = openUploadArea(config, files);
  const calls = new WeakMap<Request, TusCall>();
  const callOf = (req: Request) => {
    const call = calls.get(req);
    if (!call) throw new Error("a tus hook ran outside a request of this route");
    return call;
  };

  // With Redis (several API nodes), an upload's lock is shared by all of them; alone, @tus/server's in-process one.
  const { redis, redisPrefix } = app.deps;
  const locker = redis ? new RedisLocker(redis, redisPrefix ?? "yuelu") : undefined;
  if (locker) {
    await locker.start();
    app.addHook("onClose", () => locker.close());
  }

  const server = new Server({
    path: TUS_PATH,
    datastore: new CheckedUploadStore(area),
    ...(locker ? { locker } : {}),
    maxSize: MAX_UPLOAD_BYTES,
    // same-origin only (the SPA): no CORS headers for other sites' pages
    allowedOrigins: [],
    namingFunction: () => area.newId(),
    // Relative URLs: the same upload continues through any API node, proxy or host name.
    generateUrl: (_req, { path, id }) => `${path}/${id.slice(area.idPrefix.length)}`,
    // The id the route checked the owner of, never one @tus/server reads again from the whole URL (whose
    // query could name another upload: `…/uploads/<mine>?x=/<theirs>`).
    getFileIdFromRequest: (req) => callOf(req).uploadId,
    async onUploadCreate(req, upload) {
      const call = callOf(req);
      const metadata = await checkCreation({ domain: app.domain, tools: mediaTools(config) }, call, upload);
      // counted against the user's storage from now on: at its announced length, or (a recording uploaded
      // while it is made: length deferred) at what its creation carries, then grown by each PATCH below
      await holdFor(call, upload.id, upload.size ?? call.bytesComing ?? 0);
      return { metadata };
    },
    async onUploadFinish(req, upload) {
      const call = callOf(req);
      const result = await finishUpload(
        { area, db, domain: app.domain, files, tools: mediaTools(config) },
        call,
        upload,
      );
      // its record counts now (finishUpload releases the hold on a refusal too)
      call.finished = upload.id;
      await countTaskEvent(app.domain, call.userId, "upload").catch((err: unknown) =>
        call.log.error({ err }, "could not count the upload task"),
      );
      // creation-with-upload keeps 201 (the client needs its Location); a PATCH answers 200 with a body
      return {
        status_code: call.method === "POST" ? 201 : 200,
        headers: { "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify(ok(result)),
      };
    },
    onResponseError(req, error) {
      const call = calls.get(req);
      if (!call) return undefined;
      return envelopeOfError(error, call);
    },
  });

  // tus bodies are read by @tus/server itself, as they stream in
  app.addContentTypeParser("application/offset+octet-stream", (_request, _payload, done) => done(null));

  const handle = async (req: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
    reply.header("tus-resumable", TUS_VERSION);
    const lang = requestLang(req);
    const session = req.session;
    if (!session) return envelope(reply, 401, StatusCode.NotLoggedIn, lang);
    if (session.deleteRequestedAt) return envelope(reply, 403, StatusCode.UserDeleted, lang);
    const call: TusCall = { userId: session.userId, lang, method: req.method, log: req.log };

    if (req.params.id !== undefined) {
      if (!URL_ID.test(req.params.id)) return envelope(reply, 404, StatusCode.RecordNotFound, lang);
      // One id, taken once: the owner check below and @tus/server's action both read call.uploadId.
      const id = area.idPrefix + req.params.id;
      call.uploadId = id;
      const found = await uploadOf(area, id);
      if (found === null && req.method === "HEAD") {
        // Finished and recorded (the answer to its last PATCH may have been lost): say so, with the record.
        const receipt = await receiptOf(db, session.userId, id);
        if (receipt) return reply.code(200).headers(receipt).header("cache-control", "no-store").send();
      }
      if (found?.owner !== session.userId) return envelope(reply, 404, StatusCode.RecordNotFound, lang);
      if (req.method === "PATCH" && found.size === undefined) {
        // A length still deferred: the hold grows to what this PATCH may bring (or the length it declares).
        const declared = Number(req.headers["upload-length"]);
        const coming = Number(req.headers["content-length"]);
        const upTo = declared > 0 ? declared : found.offset + (coming >= 0 ? coming : MAX_UPLOAD_BYTES);
        try {
          await holdFor(call, id, Math.min(upTo, MAX_UPLOAD_BYTES));
        } catch (error) {
          if (!(error instanceof UploadRefused)) throw error;
          const answer = envelopeOfError(error, call);
          return reply
            .code(answer?.status_code ?? 402)
            .type("application/json; charset=utf-8")
            .send(answer?.body);
        }
      }
    } else if (req.method === "POST") {
      call.bytesComing = Number(req.headers["content-length"]) || 0;
    }

    return forward(req, reply, call);
  };

  /** Holds `bytes` of the caller's storage for the upload, until it ends (tus-finish.ts releases it). */
  const holdFor = (call: TusCall, id: string, bytes: number) =>
    holdUpload(app.domain, {
      id,
      userId: call.userId,
      bytes,
      expiresAt: new Date(app.domain.clock.now().getTime() + area.expiryMs),
    });

  /** Hands the request to @tus/server and its answer back to the client. */
  const forward = async (req: FastifyRequest, reply: FastifyReply, call: TusCall) => {
    const request = webRequest(req);
    calls.set(request, call);
    const answer = await server.handleWeb(request);
    const body = await answer.text();
    if (call.finished) {
      // the record holds its own copy: what the area kept of the upload goes
      await area.discard(call.finished).catch((err) => req.log.error({ err }, "could not remove a finished upload"));
    }
    if (req.method === "DELETE" && answer.status === 204 && call.uploadId) {
      // terminated by its owner: it no longer takes any of their storage
      await releaseStorage(db, call.uploadId).catch((err) =>
        req.log.error({ err }, "could not release a storage hold"),
      );
    }
    reply.code(answer.status);
    answer.headers.forEach((value, name) => {
      if (name !== "content-length") reply.header(name, value);
    });
    // our envelopes (the last PATCH's record, refusals) are JSON; tus's own protocol answers are text
    if (body.startsWith("{")) reply.type("application/json; charset=utf-8");
    return reply.send(body === "" ? undefined : body);
  };

  const options = { config: { auth: "public" as const }, schema: { tags: ["records"], hide: true } };
  app.post("/api/v1/audio/uploads", options, handle);
  app.route({ method: ["HEAD", "PATCH", "DELETE"], url: "/api/v1/audio/uploads/:id", ...options, handler: handle });
  app.route({
    method: "OPTIONS",
    url: "/api/v1/audio/uploads",
    ...options,
    // discovery (what the server speaks) is no secret: answered without a session
    handler: (req, reply) =>
      forward(req, reply, { userId: 0, lang: requestLang(req), method: "OPTIONS", log: req.log }),
  });
}

/**
 * An upload in the area: the owner written into its metadata at creation, its length (undefined while
 * deferred) and offset; null when the area has no such upload.
 */
async function uploadOf(
  area: UploadArea,
  id: string,
): Promise<{ owner: number | null; size: number | undefined; offset: number } | null> {
  try {
    const upload = await area.store.getUpload(id);
    const owner = Number(upload.metadata?.owner);
    return { owner: Number.isInteger(owner) ? owner : null, size: upload.size, offset: upload.offset };
  } catch (error) {
    if (error === ERRORS.FILE_NOT_FOUND || error === ERRORS.FILE_NO_LONGER_EXISTS) return null;
    throw error;
  }
}

interface CreationDeps {
  domain: StorageContext;
  tools: MediaTools;
}

/**
 * POST: what can be refused before any byte arrives — no ffprobe on this server (70001), a name
 * without an accepted extension, an empty file, another user's folder (30001). Answers the metadata
 * to store: the client's, with the owner set by the server (a client's own `owner` is ignored).
 */
async function checkCreation(deps: CreationDeps, call: TusCall, upload: Upload): Promise<Upload["metadata"]> {
  assertCanProbe(call.lang, deps.tools);
  const { owner: _ignored, ...metadata } = upload.metadata ?? {};
  if (!uploadExtension(metadata.filename ?? "")) throw new UploadRefused("extension");
  if (upload.size === 0) throw new UploadRefused("empty");
  if (metadata.menuId) {
    const parsed = ZUploadQuery.safeParse({ menuId: metadata.menuId });
    if (!parsed.success) throw AppError.invalid("menuId", parsed.error.issues[0]?.message);
    if (parsed.data.menuId !== null) await assertOwnFolder(deps.domain.db, call.userId, parsed.data.menuId);
  }
  return { ...metadata, owner: String(call.userId) };
}

/** A refusal or failure as the envelope (in the user's language) with an HTTP status tus clients act on. */
function envelopeOfError(error: Error | { status_code: number; body: string }, call: TusCall) {
  const body = (code: number, message: string) =>
    JSON.stringify({ status_code: code, status_msg: message, data: null });
  if (error instanceof UploadRefused) {
    return { status_code: REFUSAL_STATUS[error.refusal] ?? 422, body: body(error.code, error.explain(call.lang)) };
  }
  if (error instanceof AppError) {
    const status = error.code === StatusCode.RecordNotFound ? 404 : error.httpStatus === 200 ? 400 : error.httpStatus;
    return { status_code: status, body: body(error.code, statusMessage(error.code, call.lang, error.params)) };
  }
  if ("status_code" in error && error.status_code === 413) {
    const refused = new UploadRefused("too_large");
    return { status_code: 413, body: body(refused.code, refused.explain(call.lang)) };
  }
  if (!("status_code" in error)) call.log.error({ err: error }, "resumable upload failed");
  return undefined;
}

/** 415 for what is not audio or video, 413 for too large, 402 for a full storage; the rest are 422. */
const REFUSAL_STATUS: Partial<Record<UploadRefused["refusal"], number>> = {
  extension: 415,
  content: 415,
  too_large: 413,
  storage_full: 402,
};

function envelope(reply: FastifyReply, http: number, code: number, lang: Lang) {
  return reply
    .code(http)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify({ status_code: code, status_msg: statusMessage(code, lang), data: null }));
}

/**
 * The Fastify request as the Fetch API request @tus/server handles; its body streams, never buffered.
 * Its URL is the route's own path (the creation path, or an upload's path with the id the route
 * matched), without the client's query: nothing the library reads from it can differ from what was checked.
 */
function webRequest(req: FastifyRequest): Request {
  const { id } = req.params as { id?: string };
  const own = id === undefined ? TUS_PATH : `${TUS_PATH}/${id}`;
  const url = `http://${req.headers.host ?? "localhost"}${own}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = req.method === "POST" || req.method === "PATCH";
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req.raw) as unknown as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

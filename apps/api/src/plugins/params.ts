import formbody from "@fastify/formbody";
import { findNul, MAX_UPLOAD_BYTES, NUL_REASON } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import multipart from "../lib/multipart.ts";
import { routeConfig } from "../lib/route-config.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** the route reads multipart files itself (streamed uploads); every other route takes no files */
    multipartFiles?: boolean;
  }
}

/** Every body but an upload's: JSON, url-encoded and multipart alike (Fastify's bodyLimit covers the first two). */
export const BODY_LIMIT = 1024 * 1024;

/**
 * Every call takes its parameters from the query string, a JSON body, or an url-encoded or
 * multipart body, whichever the client sends (the original SPA mixes them). Before validation the
 * query is merged under the body, so a route declares one `body` schema for POST/PUT/DELETE.
 *
 * Only upload routes (config.multipartFiles) accept files; any other multipart body is read as
 * fields only, at most 1 MiB, and a file part in it is refused. No string anywhere in the input may
 * hold a NUL character (contracts/text.ts): it is refused here, before any route, for every field.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(formbody, { bodyLimit: BODY_LIMIT });
    await app.register(multipart, {
      // Upload routes pass their own limits to request.file(); these guard everything else.
      limits: { fieldSize: BODY_LIMIT, fields: 50, files: 0, parts: 60, fileSize: MAX_UPLOAD_BYTES, headerPairs: 200 },
    });

    // synchronous for a GET (every page load's calls, bench/README.md); a body may need an await
    app.addHook("preValidation", (request, reply, done) => {
      try {
        rejectNul("query", request.query);
        rejectNul("params", request.params);
      } catch (error) {
        return done(error as Error);
      }
      if (request.method === "GET" || request.method === "HEAD") return done();
      mergeBody(request, reply).then(() => done(), done);
    });
  },
  { name: "params" },
);

/** A request's fields: its multipart fields or JSON/form body, with the query's underneath. */
async function mergeBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  let body = request.body;
  if (request.isMultipart() && !routeConfig(request).multipartFiles) {
    body = await multipartFields(request, reply);
  }
  if (body !== undefined && body !== null && (typeof body !== "object" || Array.isArray(body))) {
    throw AppError.invalid("body", "must be an object");
  }
  rejectNul("body", body);
  const query = (request.query ?? {}) as Record<string, unknown>;
  request.body = { ...query, ...((body as Record<string, unknown> | null | undefined) ?? {}) };
}

function rejectNul(where: string, value: unknown) {
  // (most GETs have no query and no path parameters: nothing to walk)
  if (isEmptyObject(value)) return;
  const field = findNul(value);
  if (field !== undefined) throw AppError.invalid(field === "body" ? where : field, NUL_REASON);
}

function isEmptyObject(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  for (const _ in value) return false;
  return true;
}

/** 413, answered at once: the connection closes instead of reading the rest of the body. */
function tooLarge(reply: FastifyReply): Error {
  reply.header("connection", "close");
  return Object.assign(new Error("request body too large"), { code: "FST_ERR_CTP_BODY_TOO_LARGE", statusCode: 413 });
}

/**
 * The fields of a multipart body on a route that takes no files: at most BODY_LIMIT bytes in all
 * (refused unread when the request announces more; a chunked body that grows past it has its
 * connection cut), no file parts (10002), no truncated field (413).
 */
async function multipartFields(request: FastifyRequest, reply: FastifyReply): Promise<Record<string, unknown>> {
  const announced = Number(request.headers["content-length"]);
  if (Number.isFinite(announced) && announced > BODY_LIMIT) throw tooLarge(reply);
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > BODY_LIMIT) request.raw.destroy(tooLarge(reply));
  };
  request.raw.on("data", count);
  const fields: Record<string, unknown> = {};
  try {
    for await (const part of request.parts({ limits: { files: 0 } })) {
      if (part.type === "file") throw AppError.invalid("file", "this call takes no files");
      if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge(reply);
      fields[part.fieldname] = part.value;
    }
  } finally {
    request.raw.off("data", count);
  }
  return fields;
}

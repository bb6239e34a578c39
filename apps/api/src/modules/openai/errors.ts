import { httpStatusOfCode, type Lang, type OpenAiError, StatusCode } from "@yuelu/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { failureOf } from "../../plugins/errors.ts";
import { UploadRefused } from "../records/upload.ts";

/**
 * /v1 answers failures in OpenAI's shape `{error: {message, type, param, code}}` with real HTTP
 * statuses; `code` is the Yuelu status code (the /voice_yuelu catalogue) as a string, and the status
 * comes from the catalogue's HTTP map (contracts/http-status.ts).
 */

/** A failure already worded for /v1 (a task that failed, a wait that ran out, a missing key). */
export class OpenAiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = "OpenAiFailure";
  }
}

/**
 * A failure after the request's record or work was made: it stays in the user's account, and the
 * message says where. The answer tells OpenAI's clients not to retry (`x-should-retry: false`, which
 * they obey): a retry would upload, and charge, once more.
 */
export class AfterWorkMade extends Error {
  constructor(
    readonly failure: Error,
    readonly kept: Record<Lang, string>,
  ) {
    super(failure.message);
    this.name = "AfterWorkMade";
  }
}

interface Described {
  status: number;
  code: number;
  message: string;
  param: string | null;
  retryAfter?: number;
}

function describe(thrown: Error, request: FastifyRequest): Described {
  if (thrown instanceof OpenAiFailure) {
    return { status: thrown.status, code: thrown.code, message: thrown.message, param: thrown.param };
  }
  if (thrown instanceof UploadRefused) {
    const status =
      thrown.httpStatus === 413 ? 413 : thrown.refusal === "storage_full" ? httpStatusOfCode(thrown.code) : 400;
    return { status, code: thrown.code, message: thrown.explain(requestLang(request)), param: "file" };
  }
  const failure = failureOf(thrown, request);
  // The envelope keeps HTTP 200 for business refusals; here they take the catalogue's status.
  const status = failure.http === 200 ? httpStatusOfCode(failure.code) : failure.http;
  return {
    status,
    code: failure.code,
    message: failure.message,
    param: failure.param ?? null,
    ...(failure.retryAfter ? { retryAfter: failure.retryAfter } : {}),
  };
}

/** OpenAI's `type` for a status (its clients pick their exception class by the status itself). */
function typeOf(status: number, code: number): string {
  if (status === 401) return "authentication_error";
  if (status === 402) return "insufficient_quota";
  if (status === 403) return "permission_error";
  if (status === 429) return code === StatusCode.TooManyRequests ? "rate_limit_error" : "insufficient_quota";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/** The scope's error handler: every /v1 failure, in OpenAI's shape. */
export function sendOpenAiError(thrown: Error, request: FastifyRequest, reply: FastifyReply) {
  if (reply.raw.destroyed) {
    // The client left while we waited: nobody reads an answer. Its record or work stays and goes on.
    request.log.info({ reason: thrown.message }, "the client left before the answer");
    return reply.hijack();
  }
  const made = thrown instanceof AfterWorkMade ? thrown : undefined;
  const found = describe(made?.failure ?? thrown, request);
  const message = made ? `${found.message} ${made.kept[requestLang(request)]}` : found.message;
  const body: OpenAiError = {
    error: { message, type: typeOf(found.status, found.code), param: found.param, code: String(found.code) },
  };
  if (found.status === 401) reply.header("www-authenticate", 'Bearer realm="yuelu"');
  if (found.retryAfter) reply.header("retry-after", String(found.retryAfter));
  // A retry helps only when nothing was made and the server was briefly busy or rate-limited.
  const retryable = !made && (found.retryAfter !== undefined || found.code === StatusCode.TooManyRequests);
  if (!retryable) reply.header("x-should-retry", "false");
  return reply.code(found.status).type("application/json; charset=utf-8").send(JSON.stringify(body));
}

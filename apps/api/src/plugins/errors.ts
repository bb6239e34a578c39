import { hasZodFastifySchemaValidationErrors } from "@fastify/type-provider-zod";
import {
  describeIssue,
  fillTemplate,
  httpStatusMessages,
  type IssueLike,
  invalidField,
  type Lang,
  StatusCode,
  statusMessage,
  translateReason,
} from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { requestLang } from "../lib/lang.ts";
import { backendUnavailable } from "../lib/unavailable.ts";

/** 503 while PostgreSQL or Redis cannot be reached (a restart, a failover): the client tries again. */
const BUSY: Record<Lang, string> = {
  zh: "服务暂时不可用，请稍后再试",
  en: "The service is briefly unavailable. Please try again in a moment.",
};

/**
 * The one place failures become responses: every error, from validation to a crash, leaves as
 * the `{status_code, status_msg, data}` envelope in the request's language, never a stack trace.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((thrown: Error, request, reply) => {
      const failure = failureOf(thrown, request);
      // a browser page that was rate-limited gets a readable page (never for a business refusal)
      if (failure.http === 429 && !(thrown instanceof AppError) && wantsPage(request)) {
        return sendPage(reply, 429, TOO_MANY_PAGE[requestLang(request)]);
      }
      if (failure.retryAfter) reply.header("retry-after", String(failure.retryAfter));
      return sendEnvelope(reply, failure.http, failure.code, failure.message);
    });

    app.setNotFoundHandler((request, reply) => {
      const lang = requestLang(request);
      const message = fillTemplate(httpStatusMessages[404]![lang], { url: request.url.split("?")[0] ?? "" });
      return sendEnvelope(reply, 404, 404, message);
    });
  },
  { name: "errors" },
);

/** What a failure means, whatever shape its answer takes: the envelope here, OpenAI's error under /v1. */
export interface Failure {
  /** the envelope's HTTP status: 200 for business refusals (the SPA reads status_code), else the real one */
  http: number;
  /** the catalogue code (or an HTTP status, for the framework's own errors) */
  code: number;
  /** in the request's language */
  message: string;
  /** the bad parameter of a 10002, as the client named it */
  param?: string;
  /** seconds after which a retry may succeed (a backing service briefly away) */
  retryAfter?: number;
}

/**
 * Classifies any failure — an AppError, a validation error, the framework's or the parsers' own, a
 * backing service away, a crash — logging what an operator must see; never a stack trace for the client.
 */
export function failureOf(thrown: Error, request: FastifyRequest): Failure {
  const lang = requestLang(request);
  if (thrown instanceof AppError) {
    return {
      http: thrown.httpStatus,
      code: thrown.code,
      message: appErrorMessage(thrown, lang),
      ...(thrown.field ? { param: thrown.field } : {}),
    };
  }
  const error = thrown as FastifyError;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const { param, field } = validationField(error.validation, error.validationContext, lang);
    return { http: 200, code: StatusCode.InvalidParams, message: invalidParams(field, lang), param };
  }
  const known = mapFastifyError(error);
  if (known) {
    if (known.http >= 400 && known.code !== StatusCode.InvalidParams) {
      request.log.info({ code: error.code, statusCode: error.statusCode }, "request refused");
    }
    return {
      http: known.http,
      code: known.code,
      message: known.message(lang),
      ...(known.param ? { param: known.param } : {}),
    };
  }
  if (backendUnavailable(error)) {
    request.log.warn({ err: error }, "a backing service is unavailable");
    return { http: 503, code: StatusCode.SystemError, message: BUSY[lang], retryAfter: 5 };
  }
  request.log.error({ err: error }, "unhandled error");
  return { http: 500, code: StatusCode.SystemError, message: statusMessage(StatusCode.SystemError, lang) };
}

/**
 * Fastify's `frameworkErrors` option: errors met before routing (a bad percent-escape in the path,
 * an unsupported media type in a route constraint…) answer the envelope too, not Fastify's own JSON.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const lang = requestLang(request);
  const known = mapFastifyError(error) ?? {
    http: 400,
    code: StatusCode.InvalidParams,
    message: (l: Lang) => invalidParams(invalidField("url", translateReason("invalid value", l), l), l),
  };
  return sendEnvelope(reply, known.http, known.code, known.message(lang));
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser cannot read (an unknown method, a
 * malformed request line, headers too large) never reaches a route. It still gets the envelope, in
 * the default language (nothing of the request can be trusted to say another), and the connection ends.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: import("node:net").Socket) {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const message = status === 431 ? "请求头过大" : httpStatusMessages[400]!.zh;
  const body = JSON.stringify({ status_code: status, status_msg: message, data: null });
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function sendEnvelope(reply: FastifyReply, http: number, code: number, message: string, data: unknown = null) {
  // Sent pre-serialised: a route's response schema describes its success data, not error envelopes.
  return reply
    .code(http)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify({ status_code: code, status_msg: message, data }));
}

/** A browser navigation (a page, not a fetch): it gets a readable page rather than JSON. */
function wantsPage(request: FastifyRequest): boolean {
  const mode = request.headers["sec-fetch-mode"];
  if (typeof mode === "string") return mode === "navigate";
  return (request.headers.accept ?? "").includes("text/html");
}

const TOO_MANY_PAGE: Record<Lang, string> = {
  zh: "<h1>请求过于频繁</h1><p>请稍等一分钟后刷新页面。</p>",
  en: "<h1>Too many requests</h1><p>Please wait a minute, then reload the page.</p>",
};

function sendPage(reply: FastifyReply, http: number, body: string) {
  return reply
    .code(http)
    .type("text/html; charset=utf-8")
    .header("retry-after", "60")
    .send(
      `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>悦录 Yuelu</title><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">${body}</body>`,
    );
}

function invalidParams(field: string, lang: Lang): string {
  return statusMessage(StatusCode.InvalidParams, lang, { field });
}

function appErrorMessage(error: AppError, lang: Lang): string {
  if (error.code === StatusCode.InvalidParams && error.field) {
    const reason = error.reason ? translateReason(error.reason, lang) : undefined;
    return invalidParams(invalidField(error.field, reason, lang), lang);
  }
  return statusMessage(error.code, lang, error.params);
}

interface ValidationIssue {
  instancePath?: string;
  params?: { issue?: IssueLike & { path?: PropertyKey[] } } & Record<string, unknown>;
  message?: string;
}

/**
 * The first bad field (`param`, as the client named it) and why, e.g. "phone (must be an 11-digit
 * mobile number)", in `lang` (`field`).
 */
function validationField(
  issues: ValidationIssue[],
  context: string | undefined,
  lang: Lang,
): { param: string; field: string } {
  const first = issues[0];
  const path = first?.params?.issue?.path ?? first?.instancePath?.split("/").filter(Boolean) ?? [];
  const param = path.length ? path.map(String).join(".") : (context ?? "body");
  const issue: IssueLike = first?.params?.issue ?? { message: first?.message };
  return { param, field: invalidField(param, describeIssue(issue, lang), lang) };
}

type KnownError = { http: number; code: number; message: (l: Lang) => string; param?: string };

/** Fastify's, the body parsers' and the multipart plugin's own errors, as spec codes. */
function mapFastifyError(error: FastifyError): KnownError | undefined {
  const invalid = (field: string, reason: string, http = 400): KnownError => ({
    http,
    code: StatusCode.InvalidParams,
    param: field,
    message: (l) => invalidParams(invalidField(field, translateReason(reason, l), l), l),
  });
  const tooLarge: KnownError = { http: 413, code: 413, message: (l) => httpStatusMessages[413]![l] };
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return invalid("body", "invalid JSON body");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return invalid("Content-Type", "invalid value", 415);
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    case "FST_REQ_FILE_TOO_LARGE":
    case "FST_PARTS_LIMIT":
      return tooLarge;
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return invalid("Content-Length", "invalid value");
    case "FST_FILES_LIMIT":
      return invalid("file", "this call takes no files");
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
    case "FST_FIELDS_LIMIT":
    case "FST_PROTO_VIOLATION":
    case "FST_NO_FORM_DATA":
    case "FST_INVALID_JSON_FIELD_ERROR":
    case "FST_MP_PREMATURE_CLOSE":
      return invalid("body", "invalid multipart body");
    case "FST_ERR_BAD_URL":
    case "FST_ERR_BAD_QUERYSTRING":
      return invalid("url", "invalid encoding in the address");
  }
  if (isMultipartParseError(error)) return invalid("body", "invalid multipart body");
  if (error.statusCode === 429) {
    return {
      http: 429,
      code: StatusCode.TooManyRequests,
      message: (l) => statusMessage(StatusCode.TooManyRequests, l),
    };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const status = error.statusCode;
    return {
      http: status,
      code: status === 400 ? StatusCode.InvalidParams : status,
      message: (l) => httpMessage(status, l),
    };
  }
  return undefined;
}

/** busboy's own parse failures (no boundary, a truncated or malformed body) reach us as plain Errors. */
function isMultipartParseError(error: Error): boolean {
  return /^(Multipart: Boundary not found|Unexpected end of|Malformed|Unsupported content type|Part terminated early)/i.test(
    error.message,
  );
}

function httpMessage(status: number, lang: Lang): string {
  const entry = httpStatusMessages[status];
  return entry ? fillTemplate(entry[lang], { url: "" }) : statusMessage(StatusCode.SystemError, lang);
}

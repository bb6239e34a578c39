import { hasZodFastifySchemaValidationErrors } from "@fastify/type-provider-zod";
import { fillTemplate, httpStatusMessages, type Lang, StatusCode, statusMessage } from "@yuelu/contracts";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../lib/app-error.ts";
import { requestLang } from "../lib/lang.ts";

/**
 * The one place failures become responses: every error, from validation to a crash, leaves as
 * the `{status_code, status_msg, data}` envelope in the request's language, never a stack trace.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((thrown: Error, request, reply) => {
      const lang = requestLang(request);
      if (thrown instanceof AppError) {
        const error = thrown;
        return sendEnvelope(reply, error.httpStatus, error.code, statusMessage(error.code, lang, error.params));
      }
      const error = thrown as FastifyError;
      if (hasZodFastifySchemaValidationErrors(error)) {
        const field = validationField(error.validation, error.validationContext);
        return sendEnvelope(
          reply,
          200,
          StatusCode.InvalidParams,
          statusMessage(StatusCode.InvalidParams, lang, { field }),
        );
      }
      const known = mapFastifyError(error);
      if (known) {
        return sendEnvelope(reply, known.http, known.code, known.message(lang));
      }
      request.log.error({ err: error }, "unhandled error");
      return sendEnvelope(reply, 500, StatusCode.SystemError, statusMessage(StatusCode.SystemError, lang));
    });

    app.setNotFoundHandler((request, reply) => {
      const lang = requestLang(request);
      const message = fillTemplate(httpStatusMessages[404]![lang], { url: request.url.split("?")[0] ?? "" });
      return sendEnvelope(reply, 404, 404, message);
    });
  },
  { name: "errors" },
);

export function sendEnvelope(reply: FastifyReply, http: number, code: number, message: string, data: unknown = null) {
  // Sent pre-serialised: a route's response schema describes its success data, not error envelopes.
  return reply
    .code(http)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify({ status_code: code, status_msg: message, data }));
}

interface ValidationIssue {
  instancePath?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } } & Record<string, unknown>;
  message?: string;
}

/** Names the first bad field, e.g. "phone (must be an 11-digit mobile number)". */
function validationField(issues: ValidationIssue[], context?: string): string {
  const first = issues[0];
  const path = first?.params?.issue?.path ?? first?.instancePath?.split("/").filter(Boolean) ?? [];
  const field = path.length ? path.map(String).join(".") : (context ?? "body");
  const reason = first?.params?.issue?.message ?? first?.message;
  return reason ? `${field} (${reason})` : field;
}

function mapFastifyError(
  error: FastifyError,
): { http: number; code: number; message: (l: Lang) => string } | undefined {
  const invalid = (field: string) => ({
    http: 400,
    code: StatusCode.InvalidParams,
    message: (l: Lang) => statusMessage(StatusCode.InvalidParams, l, { field }),
  });
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return invalid("body (invalid JSON)");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { ...invalid("Content-Type"), http: 415 };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    case "FST_REQ_FILE_TOO_LARGE":
      return { http: 413, code: 413, message: (l) => httpStatusMessages[413]![l] };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return invalid("Content-Length");
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
    case "FST_PARTS_LIMIT":
    case "FST_FILES_LIMIT":
    case "FST_FIELDS_LIMIT":
      return invalid("multipart body");
    case "FST_ERR_BAD_URL":
    case "FST_ERR_BAD_QUERYSTRING":
      return invalid("url");
  }
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

function httpMessage(status: number, lang: Lang): string {
  const entry = httpStatusMessages[status];
  return entry ? fillTemplate(entry[lang], { url: "" }) : statusMessage(StatusCode.SystemError, lang);
}

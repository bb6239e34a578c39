import { DEFAULT_LANG, type Lang, parseLang } from "@yuelu/contracts";
import type { FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    lang: Lang | null;
  }
}

/**
 * The request's language: `lang` query, then `lang` header, then `lang` cookie; zh by default.
 * Read once, before validation strips unknown query parameters such as `lang`.
 */
export function requestLang(request: FastifyRequest): Lang {
  request.lang ??= detectLang(request);
  return request.lang;
}

function detectLang(request: FastifyRequest): Lang {
  return askedLang(request) ?? DEFAULT_LANG;
}

/** The language the request names (`lang` query, header or cookie), if it names one. */
export function askedLang(request: FastifyRequest): Lang | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  return parseLang(query?.lang) ?? parseLang(request.headers.lang) ?? parseLang(request.cookies?.lang);
}

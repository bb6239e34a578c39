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
  const query = request.query as Record<string, unknown> | undefined;
  return parseLang(query?.lang) ?? parseLang(request.headers.lang) ?? parseLang(request.cookies?.lang) ?? DEFAULT_LANG;
}

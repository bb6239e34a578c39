import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  SHARE_DEFAULT_EXPIRE_DAYS,
  ZGenerateUrlQuery,
  ZShareCreateBody,
  ZShareLink,
  ZShareList,
  ZShareListQuery,
  ZShareRevokeBody,
  ZShareRevoked,
  ZTranscriptShareUrl,
} from "@yuelu/contracts";
import { createShareLink, defaultShareLink, listShareLinks, revokeShareLink, type ShareUrlOf } from "@yuelu/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";

const tags = ["share"];

/** A link's public address: PUBLIC_URL when the operator set one, else the origin the caller used. */
function urlOf(request: FastifyRequest, publicUrl: string | undefined): ShareUrlOf {
  const origin = (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
  return (token) => `${origin}/s/${token}`;
}

/** The owner's share links (docs/share.md); the public pages are in public.ts. */
export default async function shareRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;
  const publicUrl = app.deps.config.PUBLIC_URL;

  // The spec's client calls it with only fileId: the default link (7 days, audio, no password), reused
  // for a minute so a double click makes one link; any other field asks for a new link made to measure.
  // A GET that makes a link: `writes` refuses it from another site's page like a POST (plugins/security.ts),
  // or any page could publish a signed-in visitor's transcript with an <img> tag.
  app.get(
    "/text/generate_url",
    {
      config: { writes: true },
      schema: { tags, querystring: ZGenerateUrlQuery, response: { 200: envelopeOf(ZTranscriptShareUrl) } },
    },
    async (req) => {
      const { fileId, expireDays, password, withAudio } = req.query;
      const links = urlOf(req, publicUrl);
      const link =
        expireDays === undefined && password === undefined && withAudio === undefined
          ? await defaultShareLink(domain, userIdOf(req), fileId, links)
          : await createShareLink(
              domain,
              userIdOf(req),
              { fileId, expireDays: expireDays ?? SHARE_DEFAULT_EXPIRE_DAYS, password, withAudio: withAudio ?? true },
              links,
            );
      return ok({ url: link.url });
    },
  );

  app.post(
    "/api/v1/share/create",
    { schema: { tags, body: ZShareCreateBody, response: { 200: envelopeOf(ZShareLink) } } },
    async (req) => ok(await createShareLink(domain, userIdOf(req), req.body, urlOf(req, publicUrl))),
  );

  app.get(
    "/api/v1/share/list",
    { schema: { tags, querystring: ZShareListQuery, response: { 200: envelopeOf(ZShareList) } } },
    async (req) => ok({ list: await listShareLinks(domain, userIdOf(req), req.query.fileId, urlOf(req, publicUrl)) }),
  );

  app.post(
    "/api/v1/share/revoke",
    { schema: { tags, body: ZShareRevokeBody, response: { 200: envelopeOf(ZShareRevoked) } } },
    async (req) => ok(await revokeShareLink(domain, userIdOf(req), req.body.id)),
  );
}

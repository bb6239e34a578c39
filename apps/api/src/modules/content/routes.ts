import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, ok, ZActivity, ZBanner, ZGetLinkQuery, ZIndexLink, ZLimitedOffer } from "@yuelu/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requestLang } from "../../lib/lang.ts";
import * as content from "./service.ts";

const tags = ["content"];
const publicRoute = { auth: "public" as const };

export default async function contentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  app.get(
    "/banner/get_banner",
    { config: publicRoute, schema: { tags, response: { 200: envelopeOf(z.array(ZBanner)) } } },
    async () => ok(await content.banners(db)),
  );

  app.get(
    "/api/v1/index/link/get_link",
    {
      config: publicRoute,
      schema: { tags, querystring: ZGetLinkQuery, response: { 200: envelopeOf(z.array(ZIndexLink)) } },
    },
    async (req) => ok(await content.links(db, req.query.type, requestLang(req))),
  );

  app.get(
    "/api/v1/limit/time/get_limit",
    { config: publicRoute, schema: { tags, response: { 200: envelopeOf(ZLimitedOffer) } } },
    async (req) => ok(await content.limitedOffer(db, requestLang(req))),
  );

  app.get(
    "/api/v1/activity/list",
    { config: publicRoute, schema: { tags, response: { 200: envelopeOf(z.array(ZActivity)) } } },
    async (req) => ok(await content.activities(db, requestLang(req))),
  );
}

import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, ok, ZSearchQuery, ZSearchResult } from "@yuelu/contracts";
import { searchRecords } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";

const tags = ["search"];

/** Search over the caller's own records (docs/search.md): a session cookie or an API key. */
export default async function searchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;
  app.get(
    "/api/v1/search",
    { schema: { tags, querystring: ZSearchQuery, response: { 200: envelopeOf(ZSearchResult) } } },
    async (req) => ok(await searchRecords(db, userIdOf(req), req.query)),
  );
}

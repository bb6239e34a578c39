import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, ok, ZHelpDocument } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requestLang } from "../../lib/lang.ts";
import { helpDocument, helpTitles } from "./service.ts";

const tags = ["help"];
const ZHelpQuery = z.object({
  slug: z
    .string()
    .max(64)
    .regex(/^[a-z0-9-]+$/, "lowercase letters, digits and - only")
    .optional(),
  id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** Help documents (spec §7 Feedback and help): public, localized. */
export default async function helpRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  app.get(
    "/help_document/get_title",
    {
      config: { auth: "public" },
      schema: { tags, response: { 200: envelopeOf(z.array(ZHelpDocument.omit({ content: true }))) } },
    },
    async (req) => ok(await helpTitles(db, requestLang(req))),
  );

  app.get(
    "/help_document/get",
    {
      config: { auth: "public" },
      schema: { tags, querystring: ZHelpQuery, response: { 200: envelopeOf(ZHelpDocument) } },
    },
    async (req) => {
      if (req.query.slug === undefined && req.query.id === undefined) throw AppError.invalid("slug");
      return ok(await helpDocument(db, requestLang(req), req.query));
    },
  );
}

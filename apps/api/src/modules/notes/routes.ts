import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, ok, ZChapters, ZTranscriptFileQuery } from "@yuelu/contracts";
import { offlineChapters } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";
import { ownedTranscript } from "../transcript/service.ts";

const tags = ["notes"];

/**
 * AI notes made from a transcript (issue 24, docs/notes.md). Offline chapters are cheap (one pass over the
 * segments), so they are computed when asked and always match the transcript as edited.
 */
export default async function notesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  app.get(
    "/text/chapters",
    { schema: { tags, querystring: ZTranscriptFileQuery, response: { 200: envelopeOf(ZChapters) } } },
    async (req) => {
      const t = await ownedTranscript(db, userIdOf(req), req.query.fileId);
      return ok({ source: "offline" as const, chapters: offlineChapters(t.segments) });
    },
  );
}

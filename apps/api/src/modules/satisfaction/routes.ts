import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, ok, StatusCode, toEpochSeconds, ZSatisfactionBody, ZSatisfactionResult } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";

/** Ratings one address may send per hour (the page is open to anonymous visitors too). */
const RATINGS_PER_IP_HOUR = 20;

/**
 * POST /api/v1/satisfaction/add (docs/satisfaction.md): the /tranSatis page's rating, stored for
 * operators (table satisfaction_ratings). Signed-in users' ratings carry their id; a fileId is kept
 * only when it is the caller's record.
 */
export default async function satisfactionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, limiter } = app.deps;

  app.post(
    "/api/v1/satisfaction/add",
    {
      config: { auth: "public" },
      schema: { tags: ["satisfaction"], body: ZSatisfactionBody, response: { 200: envelopeOf(ZSatisfactionResult) } },
    },
    async (req) => {
      if (!(await limiter.hit(`satisfaction:ip:${req.ip}`, RATINGS_PER_IP_HOUR, 3600))) {
        throw new AppError(StatusCode.TooManyRequests, {}, 429);
      }
      const userId = req.session && !req.session.deleteRequestedAt ? req.session.userId : null;
      const { rating, comment = "", fileId } = req.body;
      const ownFile =
        userId !== null && fileId !== undefined
          ? await db.audioRecord.findFirst({ where: { fileId, userId }, select: { fileId: true } })
          : null;
      const row = await db.satisfactionRating.create({
        data: { userId, rating, comment, fileId: ownFile?.fileId ?? null },
      });
      return ok({ id: row.id, createTime: toEpochSeconds(row.createdAt) });
    },
  );
}

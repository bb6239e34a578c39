import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  adminPageOf,
  envelopeOf,
  ok,
  ZAdminGiftBatch,
  ZAdminGiftBatchCreate,
  ZAdminGiftBatchCreated,
  ZAdminGiftBatchDisable,
  ZAdminGiftBatchQuery,
  ZAdminGiftCode,
  ZAdminGiftCodeDisable,
  ZAdminGiftCodeParams,
  ZAdminGiftCodeQuery,
  ZAdminGiftDisabled,
  ZAdminGiftExportQuery,
  ZAdminGiftRedemption,
  ZAdminGiftRedemptionQuery,
} from "@yuelu/contracts";
import {
  createGiftBatch,
  disableGiftBatch,
  disableGiftCode,
  giftBatchCsv,
  giftBatches,
  giftCodes,
  giftRedemptions,
} from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { contentDisposition } from "../../lib/content-disposition.ts";
import { actorOf } from "./actor.ts";

const tags = ["admin: gift codes"];

/**
 * /voice_yuelu/admin/gift-codes: batches (create, list with usage, CSV, disable), codes (list,
 * redemptions, disable). docs/admin.md "Gift codes".
 */
export default async function adminGiftsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  app.get(
    "/admin/gift-codes/batches",
    {
      schema: { tags, querystring: ZAdminGiftBatchQuery, response: { 200: envelopeOf(adminPageOf(ZAdminGiftBatch)) } },
    },
    async (req) => ok(await giftBatches(domain, req.query)),
  );
  app.post(
    "/admin/gift-codes/batches",
    { schema: { tags, body: ZAdminGiftBatchCreate, response: { 200: envelopeOf(ZAdminGiftBatchCreated) } } },
    async (req) => ok(await createGiftBatch(domain, await actorOf(req), req.body)),
  );
  app.post(
    "/admin/gift-codes/batches/disable",
    { schema: { tags, body: ZAdminGiftBatchDisable, response: { 200: envelopeOf(ZAdminGiftDisabled) } } },
    async (req) => ok(await disableGiftBatch(domain, await actorOf(req), req.body.batch, req.body)),
  );
  // The one admin answer that is not the JSON envelope: the batch as a file (errors still are envelopes).
  app.get(
    "/admin/gift-codes/export",
    { exposeHeadRoute: false, schema: { tags, querystring: ZAdminGiftExportQuery, produces: ["text/csv"] } },
    async (req, reply) => {
      const csv = await giftBatchCsv(domain, await actorOf(req), req.query.batch);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", contentDisposition(`gift-codes-${req.query.batch}.csv`))
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff")
        .send(csv);
    },
  );

  app.get(
    "/admin/gift-codes",
    { schema: { tags, querystring: ZAdminGiftCodeQuery, response: { 200: envelopeOf(adminPageOf(ZAdminGiftCode)) } } },
    async (req) => ok(await giftCodes(domain, req.query)),
  );
  app.get(
    "/admin/gift-codes/:id/redemptions",
    {
      schema: {
        tags,
        params: ZAdminGiftCodeParams,
        querystring: ZAdminGiftRedemptionQuery,
        response: { 200: envelopeOf(adminPageOf(ZAdminGiftRedemption)) },
      },
    },
    async (req) => ok(await giftRedemptions(domain, req.params.id, req.query)),
  );
  app.post(
    "/admin/gift-codes/:id/disable",
    {
      schema: {
        tags,
        params: ZAdminGiftCodeParams,
        body: ZAdminGiftCodeDisable,
        response: { 200: envelopeOf(ZAdminGiftDisabled) },
      },
    },
    async (req) => ok(await disableGiftCode(domain, await actorOf(req), req.params.id, req.body)),
  );
}

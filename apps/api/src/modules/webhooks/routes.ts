import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  WEBHOOKS_MAX,
  ZWebhookCreateBody,
  ZWebhookCreated,
  ZWebhookDeleted,
  ZWebhookDeliveries,
  ZWebhookDeliveriesQuery,
  ZWebhookDelivery,
  ZWebhookEndpoint,
  ZWebhookIdBody,
  ZWebhookList,
  ZWebhookResendBody,
  ZWebhookSecret,
  ZWebhookUpdateBody,
} from "@yuelu/contracts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  resendWebhookDelivery,
  sendTestWebhook,
  updateWebhookEndpoint,
  type WebhookOwner,
  webhookDeliveries,
  webhookSecret,
} from "@yuelu/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";
import { spendManualSend } from "./send-limit.ts";

const tags = ["webhooks"];

const ownerOf = (req: FastifyRequest): WebhookOwner => ({ kind: "user", userId: userIdOf(req) });

/**
 * The user's webhook endpoints (docs/integrators.md "Webhooks"): with a cookie from the settings
 * page, or with `Authorization: Bearer <key>` from a script.
 */
export default async function webhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;
  const { limiter } = app.deps;

  app.post(
    "/api/v1/webhooks/create",
    { schema: { tags, body: ZWebhookCreateBody, response: { 200: envelopeOf(ZWebhookCreated) } } },
    async (req) => ok(await createWebhookEndpoint(domain, ownerOf(req), req.body)),
  );
  app.get("/api/v1/webhooks/list", { schema: { tags, response: { 200: envelopeOf(ZWebhookList) } } }, async (req) => {
    const list = await listWebhookEndpoints(domain, ownerOf(req));
    return ok({ total: list.length, limit: WEBHOOKS_MAX, list });
  });
  app.post(
    "/api/v1/webhooks/update",
    { schema: { tags, body: ZWebhookUpdateBody, response: { 200: envelopeOf(ZWebhookEndpoint) } } },
    async (req) => ok(await updateWebhookEndpoint(domain, ownerOf(req), req.body)),
  );
  app.post(
    "/api/v1/webhooks/delete",
    { schema: { tags, body: ZWebhookIdBody, response: { 200: envelopeOf(ZWebhookDeleted) } } },
    async (req) => ok(await deleteWebhookEndpoint(domain, ownerOf(req), req.body.id)),
  );
  app.post(
    "/api/v1/webhooks/secret",
    { schema: { tags, body: ZWebhookIdBody, response: { 200: envelopeOf(ZWebhookSecret) } } },
    async (req) => ok(await webhookSecret(domain, ownerOf(req), req.body.id)),
  );
  app.get(
    "/api/v1/webhooks/deliveries",
    { schema: { tags, querystring: ZWebhookDeliveriesQuery, response: { 200: envelopeOf(ZWebhookDeliveries) } } },
    async (req) => ok(await webhookDeliveries(domain, ownerOf(req), req.query)),
  );
  app.post(
    "/api/v1/webhooks/resend",
    { schema: { tags, body: ZWebhookResendBody, response: { 200: envelopeOf(ZWebhookDelivery) } } },
    async (req) => {
      await spendManualSend(limiter, userIdOf(req));
      return ok(await resendWebhookDelivery(domain, ownerOf(req), req.body.deliveryId));
    },
  );
  app.post(
    "/api/v1/webhooks/test",
    { schema: { tags, body: ZWebhookIdBody, response: { 200: envelopeOf(ZWebhookDelivery) } } },
    async (req) => {
      await spendManualSend(limiter, userIdOf(req));
      return ok(await sendTestWebhook(domain, ownerOf(req), req.body.id));
    },
  );
}

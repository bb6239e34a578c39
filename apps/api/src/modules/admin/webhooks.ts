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
import { spendManualSend } from "../webhooks/send-limit.ts";
import { actorOf } from "./actor.ts";

const tags = ["admin: webhooks"];

const operator = async (req: FastifyRequest): Promise<WebhookOwner> => ({
  kind: "operator",
  actor: await actorOf(req),
});

/**
 * /voice_yuelu/admin/webhooks: the operator-wide endpoints, which receive every user's events
 * (docs/integrators.md "Webhooks"). The same calls as a user's, each action audited.
 */
export default async function adminWebhooksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;
  const { limiter } = app.deps;

  app.get("/admin/webhooks", { schema: { tags, response: { 200: envelopeOf(ZWebhookList) } } }, async (req) => {
    const list = await listWebhookEndpoints(domain, await operator(req));
    return ok({ total: list.length, limit: WEBHOOKS_MAX, list });
  });
  app.post(
    "/admin/webhooks",
    { schema: { tags, body: ZWebhookCreateBody, response: { 200: envelopeOf(ZWebhookCreated) } } },
    async (req) => ok(await createWebhookEndpoint(domain, await operator(req), req.body)),
  );
  app.post(
    "/admin/webhooks/update",
    { schema: { tags, body: ZWebhookUpdateBody, response: { 200: envelopeOf(ZWebhookEndpoint) } } },
    async (req) => ok(await updateWebhookEndpoint(domain, await operator(req), req.body)),
  );
  app.post(
    "/admin/webhooks/delete",
    { schema: { tags, body: ZWebhookIdBody, response: { 200: envelopeOf(ZWebhookDeleted) } } },
    async (req) => ok(await deleteWebhookEndpoint(domain, await operator(req), req.body.id)),
  );
  app.post(
    "/admin/webhooks/secret",
    { schema: { tags, body: ZWebhookIdBody, response: { 200: envelopeOf(ZWebhookSecret) } } },
    async (req) => ok(await webhookSecret(domain, await operator(req), req.body.id)),
  );
  app.get(
    "/admin/webhooks/deliveries",
    { schema: { tags, querystring: ZWebhookDeliveriesQuery, response: { 200: envelopeOf(ZWebhookDeliveries) } } },
    async (req) => ok(await webhookDeliveries(domain, await operator(req), req.query)),
  );
  app.post(
    "/admin/webhooks/resend",
    { schema: { tags, body: ZWebhookResendBody, response: { 200: envelopeOf(ZWebhookDelivery) } } },
    async (req) => {
      await spendManualSend(limiter, userIdOf(req));
      return ok(await resendWebhookDelivery(domain, await operator(req), req.body.deliveryId));
    },
  );
  app.post(
    "/admin/webhooks/test",
    { schema: { tags, body: ZWebhookIdBody, response: { 200: envelopeOf(ZWebhookDelivery) } } },
    async (req) => {
      await spendManualSend(limiter, userIdOf(req));
      return ok(await sendTestWebhook(domain, await operator(req), req.body.id));
    },
  );
}

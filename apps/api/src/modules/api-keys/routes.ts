import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  API_KEYS_MAX,
  envelopeOf,
  ok,
  ZApiKeyCreateBody,
  ZApiKeyCreated,
  ZApiKeyList,
  ZApiKeyRevokeBody,
  ZApiKeyRevoked,
} from "@yuelu/contracts";
import { createApiKey, listApiKeys, revokeApiKey } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";

const tags = ["api keys"];
/** Key management needs the `keys` scope, which only a signed-in browser session holds. */
const config = { scope: "keys" } as const;

/**
 * The user's API keys (docs/integrators.md), exactly at these paths: other clients depend on them.
 * `Authorization: Bearer <key>` then acts as the user on every /voice_yuelu call and on /v1 — but these
 * three: they need the `keys` scope, which only a signed-in browser session holds, so a leaked key cannot
 * make itself a successor that outlives its revocation.
 */
export default async function apiKeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  app.post(
    "/api/v1/api_keys/create",
    { config, schema: { tags, body: ZApiKeyCreateBody, response: { 200: envelopeOf(ZApiKeyCreated) } } },
    async (req) => ok(await createApiKey(domain, userIdOf(req), req.body.name)),
  );

  app.get(
    "/api/v1/api_keys/list",
    { config, schema: { tags, response: { 200: envelopeOf(ZApiKeyList) } } },
    async (req) => {
      const list = await listApiKeys(domain, userIdOf(req));
      return ok({ total: list.length, limit: API_KEYS_MAX, list });
    },
  );

  app.post(
    "/api/v1/api_keys/revoke",
    { config, schema: { tags, body: ZApiKeyRevokeBody, response: { 200: envelopeOf(ZApiKeyRevoked) } } },
    async (req) => ok(await revokeApiKey(domain, userIdOf(req), req.body.id)),
  );
}

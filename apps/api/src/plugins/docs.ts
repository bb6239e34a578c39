import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "@fastify/type-provider-zod";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

const ADMIN_TAGS: [string, string][] = [
  ["audit", "who is calling, and the append-only log of every operator action."],
  ["catalogue", "membership plans, duration cards and shop goods, prices in fen."],
  ["gift codes", "batches, their codes and usage, CSV export, disabling."],
  ["messages", "broadcasts to everyone or one user, and how many read them."],
  ["help & feedback", "help documents (Markdown) and users' feedback with replies."],
  ["users", "search, a user's assets and records, grants with a reason, disabling."],
  ["orders", "filters, payment notifications, re-query, refund and revoke."],
  ["system", "engines and models, queues and failed jobs, storage, version, daily figures."],
];

/**
 * OpenAPI document at /voice_yuelu/docs/json, browsable at /voice_yuelu/docs (assets served
 * locally). Registered at the root so it sees every route, /account included.
 */
export default fp(
  async function docs(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        info: {
          title: "Yuelu /voice_yuelu API",
          description:
            "Every JSON response is `{status_code, status_msg, data}`; status_code 1 is success, others are the spec §8 codes. " +
            "Parameters may come in the query string, a JSON body, or an url-encoded/multipart body.",
          version: "0.1.0",
        },
        components: {
          securitySchemes: {
            sid: { type: "apiKey", in: "cookie", name: "sid" },
            bearer: { type: "http", scheme: "bearer", description: "an API key made at /api/v1/api_keys/create" },
          },
        },
        // The operator console's own section (docs/admin.md): every path under /voice_yuelu/admin/.
        tags: ADMIN_TAGS.map(([name, description]) => ({
          name: `admin: ${name}`,
          description: `Operator console — ${description} Needs the admin role: 10001 signed out, 10007 not an operator.`,
        })),
        // either a browser session or an API key (docs/integrators.md)
        security: [{ sid: [] }, { bearer: [] }],
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: "/voice_yuelu/docs",
      uiConfig: { docExpansion: "none", deepLinking: true },
    });
  },
  { name: "docs" },
);

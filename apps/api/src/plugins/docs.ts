import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "@fastify/type-provider-zod";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

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
          securitySchemes: { sid: { type: "apiKey", in: "cookie", name: "sid" } },
        },
        security: [{ sid: [] }],
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

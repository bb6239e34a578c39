import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Baseline security headers. Frames are allowed from this origin only: the SPA embeds the
 * account service's login page, nobody else may.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook("onSend", async (_request, reply) => {
      reply.header("x-content-type-options", "nosniff");
      reply.header("referrer-policy", "strict-origin-when-cross-origin");
      reply.header("x-frame-options", "SAMEORIGIN");
    });
  },
  { name: "security" },
);

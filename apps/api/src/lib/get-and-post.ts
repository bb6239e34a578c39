import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";

/**
 * A call the original SPA makes with GET and POST alike (spec §7: 'POST notify/get_list' beside
 * 'GET …'): one handler, its parameters from the query string (GET) or the body (POST, which the
 * params plugin merges with the query), validated by one schema.
 */
export function getAndPost<Input extends z.ZodType, Output extends z.ZodType>(
  app: FastifyInstance,
  route: { url: string; tags: string[]; input: Input; response: Output; config?: FastifyContextConfig },
  handler: (input: z.infer<Input>, request: FastifyRequest, reply: FastifyReply) => Promise<z.infer<Output>>,
): void {
  for (const method of ["GET", "POST"] as const) {
    app.route({
      method,
      url: route.url,
      config: route.config ?? {},
      schema: {
        tags: route.tags,
        ...(method === "GET" ? { querystring: route.input } : { body: route.input }),
        response: { 200: route.response },
      },
      // the response schema (serializerCompiler) checks the answer: the route's own typing is the schema's
      handler: (request, reply) =>
        handler((method === "GET" ? request.query : request.body) as z.infer<Input>, request, reply) as never,
    });
  }
}

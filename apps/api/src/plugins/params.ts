import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../lib/app-error.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** the route reads multipart files itself (streamed uploads); others get multipart fields as the body */
    multipartFiles?: boolean;
  }
}

/**
 * Every call takes its parameters from the query string, a JSON body, or an url-encoded or
 * multipart body, whichever the client sends (the original SPA mixes them). Before validation the
 * query is merged under the body, so a route declares one `body` schema for POST/PUT/DELETE.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(formbody, { bodyLimit: 1024 * 1024 });
    await app.register(multipart, {
      limits: { fieldSize: 1024 * 1024, fields: 50, files: 1, fileSize: 1_073_741_824, headerPairs: 200 },
    });

    app.addHook("preValidation", async (request) => {
      if (request.method === "GET" || request.method === "HEAD") return;
      let body = request.body;
      if (request.isMultipart() && !request.routeOptions.config.multipartFiles) {
        body = await multipartFields(request);
      }
      if (body !== undefined && body !== null && (typeof body !== "object" || Array.isArray(body))) {
        throw AppError.invalid("body", "must be an object");
      }
      const query = (request.query ?? {}) as Record<string, unknown>;
      request.body = { ...query, ...((body as Record<string, unknown> | null | undefined) ?? {}) };
    });
  },
  { name: "params" },
);

async function multipartFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for await (const part of request.parts()) {
    if (part.type === "file") {
      part.file.resume(); // this route takes no files: drain and ignore
      continue;
    }
    fields[part.fieldname] = part.value;
  }
  return fields;
}

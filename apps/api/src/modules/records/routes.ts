import type { FastifyInstance } from "fastify";

/** records routes (docs/records-api.md). */
export default async function recordsRoutes(_app: FastifyInstance) {}

import type { FastifyInstance } from "fastify";

/** transcript routes (docs/records-api.md). */
export default async function transcriptRoutes(_app: FastifyInstance) {}

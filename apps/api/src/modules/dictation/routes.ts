import type { FastifyInstance } from "fastify";

/** dictation routes (docs/records-api.md). */
export default async function dictationRoutes(_app: FastifyInstance) {}

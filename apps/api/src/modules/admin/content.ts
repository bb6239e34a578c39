import type { FastifyInstance } from "fastify";

/** /voice_yuelu/admin (content): see docs/admin.md. */
export default async function adminContentRoutes(_app: FastifyInstance) {}

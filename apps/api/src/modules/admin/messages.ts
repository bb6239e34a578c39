import type { FastifyInstance } from "fastify";

/** /voice_yuelu/admin (messages): see docs/admin.md. */
export default async function adminMessagesRoutes(_app: FastifyInstance) {}

import type { FastifyInstance } from "fastify";

/** /voice_yuelu/admin (gifts): see docs/admin.md. */
export default async function adminGiftsRoutes(_app: FastifyInstance) {}

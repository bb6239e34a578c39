import type { FastifyInstance } from "fastify";

/** /voice_yuelu/admin (orders): see docs/admin.md. */
export default async function adminOrdersRoutes(_app: FastifyInstance) {}
